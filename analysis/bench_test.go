package analysis

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/aggregate"
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

// BenchmarkRunParquet is BenchmarkRunBusy with the requests as Parquet.
func BenchmarkRunParquet(b *testing.B) {
	benchRunAs(b, gen.Config{Seed: 5, N: 200_000, Duration: 6 * time.Minute}, false, "bench.parquet", gen.WriteParquet)
}

func benchRun(b *testing.B, gc gen.Config, withState bool) {
	benchRunAs(b, gc, withState, "bench.jsonl", gen.WriteJSONL)
}

// writeBenchLog writes gc's requests with write to a file name in a
// temporary directory and returns its path and size.
func writeBenchLog(b *testing.B, gc gen.Config, name string, write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) (string, int64) {
	var buf bytes.Buffer
	if _, err := write(&buf, gen.Generate(gc), gen.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, int64(buf.Len())
}

func benchRunAs(b *testing.B, gc gen.Config, withState bool, name string, write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) {
	path, size := writeBenchLog(b, gc, name, write)
	cfg := Config{Paths: []string{path}, Ingest: ingest.Options{Workers: 2, Location: time.UTC}}
	if withState {
		cfg.StateDir = filepath.Join(b.TempDir(), "state")
	}
	b.SetBytes(size)
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

// recordsSink keeps a copy of every record, its text in memory of its
// own.
type recordsSink struct{ recs []ingest.Record }

func (s *recordsSink) Add(r *ingest.Record) {
	c := *r
	for f := range ingest.Field(ingest.NumFields) {
		if t := r.Text(f); t != nil {
			c.SetText(f, bytes.Clone(t))
		}
	}
	s.recs = append(s.recs, c)
}

// BenchmarkAdd measures the aggregation alone: one worker's accumulator,
// every rule's collector, fed 50,000 records already parsed (90 seconds
// at the bench/ harness's density), four times over, each pass 90
// seconds later than the one before, so that what a combination costs to
// start is spread over as many records as in a larger log. The time is
// per record added.
func BenchmarkAdd(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, gen.Generate(gen.Config{Seed: 5, N: 50_000, Duration: 90 * time.Second}), gen.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	sinks, _, err := ingest.Run([]string{"-"}, ingest.Options{Workers: 1, Stdin: &buf, Format: ingest.JSONL},
		func() *recordsSink { return &recordsSink{} })
	if err != nil {
		b.Fatal(err)
	}
	recs := sinks[0].recs
	cfg := Config{}
	rcfg, m, err := settings(cfg.Rules, &cfg.Top, &cfg.Accuracy)
	if err != nil {
		b.Fatal(err)
	}
	opts := aggregateOptions(cfg, m, rcfg)
	opts.Collectors = rcfg.SharedCollectors(m, cfg.Top, false)
	const passes = 4
	b.ReportAllocs()
	for b.Loop() {
		acc := aggregate.New(opts)
		for range passes {
			for i := range recs {
				acc.Add(&recs[i])
			}
			for i := range recs {
				recs[i].SetTime(recs[i].TimeNS + 90e9)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*passes*len(recs)), "ns/record")
}

// BenchmarkMergeAll measures the workers' merge that ends every run (the
// sets' expansion, each collector's merge and finish) over two workers'
// accumulators of the bench/ harness's nginx log: 500,000 requests over
// an hour. The reading before it is not timed.
func BenchmarkMergeAll(b *testing.B) {
	path, _ := writeBenchLog(b, gen.Config{Seed: 1, N: 500_000, Plants: gen.All}, "bench.jsonl", gen.WriteJSONL)
	cfg := Config{Paths: []string{path}, Ingest: ingest.Options{Workers: 2, Location: time.UTC}}
	rcfg, m, err := settings(cfg.Rules, &cfg.Top, &cfg.Accuracy)
	if err != nil {
		b.Fatal(err)
	}
	opts := aggregateOptions(cfg, m, rcfg)
	opts.Collectors = rcfg.SharedCollectors(m, cfg.Top, false)
	records := int64(0)
	for b.Loop() {
		b.StopTimer()
		accs, _, err := ingest.Run(cfg.Paths, cfg.Ingest, func() *aggregate.Accumulator { return aggregate.New(opts) })
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		records = aggregate.MergeAll(accs).Records
	}
	if records == 0 {
		b.Fatal("no record merged")
	}
}
