// Command versus times the whole loganalyze analysis against DuckDB
// computing one grouped quantile query over the same generated log, as
// JSON lines and as CSV, and prints the medians side by side.
//
//	cd bench && go run ./cmd/versus -n 1000000 -runs 5
package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"loganalyze/analysis"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/report"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "versus:", err)
		os.Exit(1)
	}
}

func run() error {
	n := flag.Int("n", 1_000_000, "generated requests of background traffic")
	runs := flag.Int("runs", 5, "timed runs of each side")
	threads := flag.Int("threads", 2, "loganalyze workers and DuckDB threads")
	dir := flag.String("dir", "", "directory for the generated files (default: a temporary one)")
	flag.Parse()

	if *dir == "" {
		d, err := os.MkdirTemp("", "versus")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	jsonl, csv := filepath.Join(*dir, "versus.jsonl"), filepath.Join(*dir, "versus.csv")
	if err := generate(*n, jsonl, csv); err != nil {
		return err
	}
	// The generated requests are garbage now; return their memory so the
	// peak measured below is loganalyze's own.
	runtime.GC()
	debug.FreeOSMemory()

	type row struct {
		name     string
		size     int64
		la, duck time.Duration
		rss      int64
	}
	var rows []row
	for _, in := range []struct{ name, path, reader string }{
		{"JSON lines", jsonl, "read_json_auto"},
		{"CSV", csv, "read_csv"},
	} {
		st, err := os.Stat(in.path)
		if err != nil {
			return err
		}
		r := row{name: in.name, size: st.Size(), rss: -1}
		runtime.GC()
		debug.FreeOSMemory()
		resetPeakRSS()
		var times []time.Duration
		for range *runs {
			d, err := timeLoganalyze(in.path, *threads)
			if err != nil {
				return err
			}
			times = append(times, d)
		}
		r.la = median(times)
		r.rss = peakRSS()
		fmt.Fprintf(os.Stderr, "loganalyze %s: %v\n", in.name, times)
		if r.duck, err = timeDuckDB(in.path, in.reader, *threads, *runs); err != nil {
			return err
		}
		rows = append(rows, r)
	}

	fmt.Printf("%d requests, %d runs each, median wall time, %d threads, %s/%s, %d CPUs\n\n",
		*n, *runs, *threads, runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Println("| input | size | loganalyze (whole analysis) | DuckDB (one GROUP BY quantile query) | loganalyze / DuckDB | loganalyze peak RSS |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, r := range rows {
		rss := "n/a"
		if r.rss >= 0 {
			rss = fmt.Sprintf("%d MiB", r.rss>>20)
		}
		fmt.Printf("| %s | %d MB | %.2f s (%.0f MB/s) | %.2f s (%.0f MB/s) | %.2f× | %s |\n",
			r.name, r.size/1e6,
			r.la.Seconds(), float64(r.size)/1e6/r.la.Seconds(),
			r.duck.Seconds(), float64(r.size)/1e6/r.duck.Seconds(),
			r.la.Seconds()/r.duck.Seconds(), rss)
	}
	return nil
}

func generate(n int, jsonl, csv string) error {
	reqs := gen.Generate(gen.Config{Seed: 1, N: n, Plants: gen.All})
	for _, f := range []struct {
		path  string
		write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
	}{{jsonl, gen.WriteJSONL}, {csv, gen.WriteCSV}} {
		out, err := os.Create(f.path)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(out, 1<<20)
		_, err = f.write(w, reqs, gen.WriteOptions{})
		err = errors.Join(err, w.Flush(), out.Close())
		if err != nil {
			return fmt.Errorf("cannot write %q: %w", f.path, err)
		}
	}
	return nil
}

// timeLoganalyze runs what `loganalyze --md --json --html --prom` does,
// with every report rendered to io.Discard.
func timeLoganalyze(path string, workers int) (time.Duration, error) {
	start := time.Now()
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		return 0, err
	}
	res, err := analysis.Run(context.Background(), analysis.Config{
		Paths:  []string{path},
		Ingest: ingest.Options{Location: loc, Workers: workers},
	})
	if err != nil {
		return 0, err
	}
	rep := res.Report
	if err := errors.Join(
		rep.WriteJSON(io.Discard),
		rep.WriteMarkdown(io.Discard),
		rep.WriteHTML(io.Discard),
		rep.WritePrometheus(io.Discard, report.PromOptions{}),
	); err != nil {
		return 0, err
	}
	if rep.Input.Records == 0 {
		return 0, fmt.Errorf("no records read from %q", path)
	}
	return time.Since(start), nil
}

func timeDuckDB(path, reader string, threads, runs int) (time.Duration, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET threads = " + strconv.Itoa(threads)); err != nil {
		return 0, err
	}
	q := fmt.Sprintf(`SELECT region, model, status, quantile_cont(request_time, [0.5, 0.95, 0.99])
FROM %s('%s') GROUP BY ALL`, reader, strings.ReplaceAll(path, "'", "''"))
	var times []time.Duration
	for range runs {
		start := time.Now()
		rows, err := db.Query(q)
		if err != nil {
			return 0, err
		}
		groups := 0
		for rows.Next() {
			groups++
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return 0, err
		}
		times = append(times, time.Since(start))
		if groups == 0 {
			return 0, fmt.Errorf("duckdb returned no groups for %q", path)
		}
	}
	fmt.Fprintf(os.Stderr, "duckdb %s: %v\n", reader, times)
	return median(times), nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// resetPeakRSS resets the kernel's high-water mark of this process's
// resident set (Linux ≥ 4.0); elsewhere it does nothing.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS returns VmHWM in bytes, or -1 when it cannot be read.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			f := strings.Fields(string(rest))
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return -1
}
