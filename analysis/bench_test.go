package analysis

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/internal/sharedtest"
)

// BenchmarkRun measures one whole analysis — reading, every sketch,
// every rule's collector, the rules and the report model — over 200,000
// generated requests as JSON lines, with two workers.
func BenchmarkRun(b *testing.B) { benchRun(b, gen.Config{Seed: 5, N: 200_000}, false) }

// BenchmarkRunState is BenchmarkRun as cron runs it, with --state: the
// same requests, their hours' files written to a state directory (the
// first run's, rewritten by the next).
func BenchmarkRunState(b *testing.B) { benchRun(b, gen.Config{Seed: 5, N: 200_000}, true) }

// BenchmarkRunBusy is BenchmarkRun at the density of the bench/ harness's
// log, about 36,000 requests a minute: the same 200,000 requests in six
// minutes, so that each caller's minute holds many of them.
func BenchmarkRunBusy(b *testing.B) {
	benchRun(b, gen.Config{Seed: 5, N: 200_000, Duration: 6 * time.Minute}, false)
}

func benchRun(b *testing.B, gc gen.Config, withState bool) {
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, gen.Generate(gc), gen.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg := Config{Paths: []string{path}, Ingest: ingest.Options{Workers: 2, Location: time.UTC}}
	if withState {
		cfg.StateDir = filepath.Join(b.TempDir(), "state")
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	cpu0, runs := sharedtest.CPUTime(), 0
	for b.Loop() {
		runs++
		res, err := Run(context.Background(), cfg)
		if err != nil || res.Report.Input.Records == 0 {
			b.Fatal(err)
		}
	}
	// The CPU time, steadier than the wall time when other work shares
	// the cores.
	b.ReportMetric(float64(sharedtest.CPUTime()-cpu0)/float64(runs), "cpu-ns/op")
}
