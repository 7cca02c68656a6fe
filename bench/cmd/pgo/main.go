// Command pgo writes the CPU profile that `go build` optimises the
// loganalyze command with (profile-guided optimisation: Go builds a main
// package with the default.pgo beside it). It generates the logs the
// versus harness times, smaller, and runs the whole analysis of each in
// this process, with two workers, under one CPU profile.
//
//	cd bench && go run ./cmd/pgo            # writes ../cmd/loganalyze/default.pgo
//
// Run it again when the hot paths change much: a profile of older code
// still applies where the functions are the same, and does no harm
// where they are not. Three million requests a log give about nine
// seconds of CPU samples; a million gave a third of that, too few to
// tell the hot paths' calls apart.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"loganalyze/analysis"
	"loganalyze/gen"
	"loganalyze/ingest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pgo:", err)
		os.Exit(1)
	}
}

func run() error {
	out := flag.String("o", "../cmd/loganalyze/default.pgo", "profile to write")
	n := flag.Int("n", 3_000_000, "generated requests per log (the nginx text's is a quarter)")
	flag.Parse()
	dir, err := os.MkdirTemp("", "pgo")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	logs := []struct {
		file  string
		n     int
		write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
	}{
		{"pgo.jsonl", *n, gen.WriteJSONL},
		{"pgo.csv", *n, gen.WriteCSV},
		{"pgo.parquet", *n, gen.WriteParquet},
		{"pgo.log", *n / 4, gen.WriteNginx},
	}
	var paths []string
	for _, l := range logs {
		path := filepath.Join(dir, l.file)
		if err := write(path, l.n, l.write); err != nil {
			return err
		}
		paths = append(paths, path)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	for _, path := range paths {
		start := time.Now()
		res, err := analysis.Run(context.Background(), analysis.Config{Paths: []string{path},
			Ingest: ingest.Options{Workers: 2, Location: time.UTC}})
		if err != nil {
			pprof.StopCPUProfile()
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %d records in %v\n", filepath.Base(path), res.Report.Input.Records, time.Since(start).Round(time.Millisecond))
	}
	pprof.StopCPUProfile()
	return f.Close()
}

// write generates n requests (seed 1, every problem planted, as versus
// does) into path.
func write(path string, n int, w func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	_, err = w(bw, gen.Generate(gen.Config{Seed: 1, N: n, Plants: gen.All}), gen.WriteOptions{})
	if err = errors.Join(err, bw.Flush(), out.Close()); err != nil {
		return fmt.Errorf("cannot write %q: %w", path, err)
	}
	return nil
}
