// Command abrun times two loganalyze binaries on the same input, their
// runs alternating, and writes what each took as benchstat input: one
// file per binary, one line per run, with the wall time, the CPU time of
// the process (user and system) and its peak RSS. A hot-path change is
// claimed with benchstat over the two files: the whole analysis, on
// input as large as users give it, where a benchmark of one package
// would miss what the change does to the caches the rest of the run
// shares. It also checks that both wrote the same JSON report.
//
// With -pause D, each run waits D first. Back to back, a run takes the
// pages the run before it freed, still backed; under a hypervisor that
// takes free memory back (free page reporting), pages freed a few seconds
// ago must be supplied again, and each megabyte a run touches then costs
// milliseconds: so it is between the other tool's runs in versus, and in
// cron. -pause 4s measures a change to what a run touches as users meet it.
//
// With -state DIR, each run is a cron run after the hours DIR holds: it
// is given --state, a fresh copy of DIR (not timed), and the two
// binaries' hour files of their last runs are compared too.
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
	state := flag.String("state", "", "a state directory each run starts from, copied afresh and given as --state")
	pause := flag.Duration("pause", 0, "wait before each run, so that the host takes back the pages the run before it freed (4s)")
	flag.Parse()
	if *oldBin == "" || *newBin == "" || flag.NArg() == 0 || *n < 1 {
		return errors.New("usage: abrun -old BIN -new BIN [-n RUNS] [-pause D] [-workers N] [-out DIR] [-state DIR] INPUT...")
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
			args := flag.Args()
			if *state != "" {
				dir := filepath.Join(*out, side.label+".state")
				if err := freshCopy(*state, dir); err != nil {
					return err
				}
				args = append([]string{"--state", dir}, args...)
			}
			time.Sleep(*pause)
			wall, cpu, rss, err := timeRun(side.bin, *workers, report, args)
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
	if *state != "" {
		same, err := sameHourFiles(filepath.Join(*out, "old.state"), filepath.Join(*out, "new.state"))
		switch {
		case err != nil:
			return err
		case same:
			fmt.Println("the two runs' hour files are identical")
		default:
			fmt.Println("the two runs' hour files differ")
		}
	}
	return nil
}

// freshCopy replaces dst with a copy of the state directory src.
func freshCopy(src, dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		return fmt.Errorf("cannot copy state directory %q: %w", src, err)
	}
	return nil
}

// sameHourFiles reports whether two state directories hold the same hour
// files (*.sketch) with the same bytes.
func sameHourFiles(a, b string) (bool, error) {
	read := func(dir string) (map[string][]byte, error) {
		paths, err := filepath.Glob(filepath.Join(dir, "*.sketch"))
		if err != nil {
			return nil, err
		}
		files := map[string][]byte{}
		for _, p := range paths {
			if files[filepath.Base(p)], err = os.ReadFile(p); err != nil {
				return nil, err
			}
		}
		return files, nil
	}
	fa, err := read(a)
	if err != nil {
		return false, err
	}
	fb, err := read(b)
	if err != nil {
		return false, err
	}
	if len(fa) != len(fb) || len(fa) == 0 {
		return false, nil
	}
	for name, x := range fa {
		if y, ok := fb[name]; !ok || !bytes.Equal(x, y) {
			return false, nil
		}
	}
	return true, nil
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
