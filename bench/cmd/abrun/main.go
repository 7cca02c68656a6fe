// Command abrun times two loganalyze binaries on the same input, their
// runs alternating, and writes what each took as benchstat input: one
// file per binary, one line per run, with the wall time, the CPU time of
// the process (user and system) and its peak RSS. A hot-path change is
// claimed with benchstat over the two files: the whole analysis, on
// input as large as users give it, where a benchmark of one package
// would miss what the change does to the caches the rest of the run
// shares. It also checks that both wrote the same JSON report.
//
//	cd bench && go run ./cmd/abrun -old /tmp/before -new /tmp/after -n 20 FILE
//	benchstat old.txt new.txt
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "abrun:", err)
		os.Exit(1)
	}
}

func run() error {
	oldBin := flag.String("old", "", "the binary before the change")
	newBin := flag.String("new", "", "the binary after the change")
	n := flag.Int("n", 20, "runs of each binary, alternating")
	workers := flag.Int("workers", 2, "loganalyze --workers")
	out := flag.String("out", ".", "directory for old.txt, new.txt and the two reports")
	name := flag.String("name", "", "the benchmark's name in the files (default: from the input's file name)")
	flag.Parse()
	if *oldBin == "" || *newBin == "" || flag.NArg() == 0 || *n < 1 {
		return errors.New("usage: abrun -old BIN -new BIN [-n RUNS] [-workers N] [-out DIR] INPUT...")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if *name == "" {
		*name = strings.NewReplacer(".", "_", "-", "_").Replace(filepath.Base(flag.Arg(0)))
	}
	sides := []struct{ bin, label string }{{*oldBin, "old"}, {*newBin, "new"}}
	var lines [2]bytes.Buffer
	for i := range *n {
		for s, side := range sides {
			report := filepath.Join(*out, side.label+".json")
			wall, cpu, rss, err := timeRun(side.bin, *workers, report, flag.Args())
			if err != nil {
				return fmt.Errorf("%s run %d: %w", side.label, i+1, err)
			}
			fmt.Fprintf(&lines[s], "BenchmarkWhole_%s 1 %d ns/op %d cpu-ns/op %d peak-B\n", *name, wall.Nanoseconds(), cpu.Nanoseconds(), rss)
		}
	}
	for s, side := range sides {
		path := filepath.Join(*out, side.label+".txt")
		if err := os.WriteFile(path, lines[s].Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", path)
	}
	a, errA := os.ReadFile(filepath.Join(*out, "old.json"))
	b, errB := os.ReadFile(filepath.Join(*out, "new.json"))
	switch {
	case errA != nil || errB != nil:
		return errors.Join(errA, errB)
	case bytes.Equal(a, b):
		fmt.Println("the two JSON reports are identical")
	default:
		fmt.Println("the two JSON reports differ")
	}
	return nil
}

// timeRun runs bin once and returns its wall time, CPU time and peak RSS
// (from the kernel's accounting of the child).
func timeRun(bin string, workers int, report string, inputs []string) (time.Duration, time.Duration, int64, error) {
	args := append([]string{"--workers", fmt.Sprint(workers), "--json", report}, inputs...)
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %v: %s", bin, err, stderr.String())
	}
	wall := time.Since(start)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10 // kilobytes on Linux
	}
	return wall, cpu, rss, nil
}
