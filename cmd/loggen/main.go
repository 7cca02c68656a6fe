// Command loggen writes realistic TokenHub access logs for tests,
// benchmarks and demos: seeded, any size, with the problems of SPEC §1
// planted on request, in any input format loganalyze reads.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/spf13/pflag"

	"loganalyze/gen"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// writers are the formats loggen writes, by name.
var writers = map[string]func(io.Writer, []gen.Request, gen.WriteOptions) (int, error){
	"jsonl":   gen.WriteJSONL,
	"cls":     gen.WriteCLS,
	"nginx":   gen.WriteNginx,
	"csv":     gen.WriteCSV,
	"tsv":     gen.WriteTSV,
	"clb":     gen.WriteCLB,
	"parquet": gen.WriteParquet,
	"arrow":   gen.WriteArrow,
	"arrows":  gen.WriteArrowStream,
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("loggen", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same log")
	n := fs.IntP("requests", "n", 3000, "requests of background traffic (planted problems add to it)")
	format := fs.String("format", "jsonl", "output format: "+strings.Join(formatNames(), ", "))
	plant := fs.String("plant", "all", "problems to plant: all, none, or a comma list of cross_region, non_streaming, keepalive, storm, burst, token, decoys")
	badEvery := fs.Int("bad-every", 0, "insert a bad line after every N requests (0: none)")
	out := fs.StringP("output", "o", "-", "output `FILE`; .gz or .zst compresses")
	start := fs.String("start", "2026-11-29T10:00:00+08:00", "start of the log (RFC 3339)")
	dur := fs.Duration("duration", time.Hour, "time span of the log")
	part := fs.String("part", "1/1", "write only the `K/N`th of N consecutive slices of the requests (to split one log across files)")
	slowRegion := fs.String("slow-region", "", "make the upstream of this `REGION` slower by --slow-factor (a second hour that differs in that alone)")
	slowModel := fs.String("slow-model", "", "make the upstream of this `MODEL` slower by --slow-factor, its first token too")
	slowFactor := fs.Float64("slow-factor", 2.5, "how many times longer the slowed upstream takes")
	callers := fs.Int("callers", 0, "spread the requests over `N` callers (app_id and IP), planted ones too (0: the generator's own)")
	callerZipf := fs.Float64("caller-zipf", 1.1, "with --callers: the Zipf exponent (> 1) of the callers' shares; 0: each caller in turn")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return 2
	}
	w, ok := writers[*format]
	if !ok {
		fmt.Fprintf(stderr, "loggen: unknown format %q (want %s)\n", *format, strings.Join(formatNames(), ", "))
		return 2
	}
	plants, err := parsePlants(*plant)
	if err != nil {
		fmt.Fprintf(stderr, "loggen: --plant: %v\n", err)
		return 2
	}
	t0, err := time.Parse(time.RFC3339, *start)
	if err != nil {
		fmt.Fprintf(stderr, "loggen: --start: cannot parse %q as RFC 3339\n", *start)
		return 2
	}
	var k, parts int
	if _, err := fmt.Sscanf(*part, "%d/%d", &k, &parts); err != nil || parts < 1 || k < 1 || k > parts {
		fmt.Fprintf(stderr, "loggen: --part: want K/N with 1 <= K <= N, got %q\n", *part)
		return 2
	}
	if (*slowRegion != "" || *slowModel != "") && !(*slowFactor > 0) {
		fmt.Fprintf(stderr, "loggen: --slow-factor: want a positive factor, got %v\n", *slowFactor)
		return 2
	}
	if *callers < 0 || *callers > 1<<24 || *callers > 0 && *callerZipf != 0 && !(*callerZipf > 1) {
		fmt.Fprintf(stderr, "loggen: --callers %d --caller-zipf %v: want 0 to 16777216 callers and an exponent above 1, or 0\n", *callers, *callerZipf)
		return 2
	}
	slow := gen.Slow{Region: *slowRegion, Model: *slowModel, Factor: *slowFactor}
	reqs := gen.Generate(gen.Config{Seed: *seed, N: *n, Start: t0, Duration: *dur, Plants: plants, Slow: slow})
	if *callers > 0 {
		spreadCallers(reqs, *callers, *callerZipf, *seed)
	}
	reqs = reqs[len(reqs)*(k-1)/parts : len(reqs)*k/parts]
	if err := write(*out, stdout, func(dst io.Writer) error {
		_, err := w(dst, reqs, gen.WriteOptions{BadEvery: *badEvery})
		return err
	}); err != nil {
		fmt.Fprintf(stderr, "loggen: %v\n", err)
		return 1
	}
	return 0
}

func formatNames() []string {
	var names []string
	for k := range writers {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func parsePlants(s string) (gen.Plants, error) {
	switch s {
	case "all":
		return gen.All, nil
	case "none", "":
		return gen.Plants{}, nil
	}
	var p gen.Plants
	for _, name := range strings.Split(s, ",") {
		switch strings.TrimSpace(name) {
		case "cross_region":
			p.CrossRegion = true
		case "non_streaming":
			p.NonStreaming = true
		case "keepalive":
			p.NoKeepalive = true
		case "storm":
			p.RateLimitStorm = true
		case "burst":
			p.ErrorBurst = true
		case "token":
			p.TokenCacheMiss = true
		case "decoys":
			p.Decoys = true
		default:
			return p, fmt.Errorf("unknown problem %q", name)
		}
	}
	return p, nil
}

// write sends the output to a file (compressed by its extension) or stdout.
func write(path string, stdout io.Writer, body func(io.Writer) error) error {
	if path == "-" {
		bw := bufio.NewWriter(stdout)
		if err := body(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	f, err := os.Create(path)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return fmt.Errorf("cannot create %q: %w", path, err)
	}
	var w io.WriteCloser = nopCloser{f}
	switch {
	case strings.HasSuffix(path, ".gz"):
		w = gzip.NewWriter(f)
	case strings.HasSuffix(path, ".zst"):
		if w, err = zstd.NewWriter(f); err != nil {
			f.Close()
			return err
		}
	}
	if err := body(w); err != nil {
		f.Close()
		return fmt.Errorf("cannot write %q: %w", path, err)
	}
	if err := w.Close(); err != nil {
		f.Close()
		return fmt.Errorf("cannot write %q: %w", path, err)
	}
	return f.Close()
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
