package ingest_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/internal/sharedtest"
	"loganalyze/sketch"
)

// benchFile writes n generated requests with w into a temporary file.
func benchFile(b *testing.B, n int, name string, w func(*bytes.Buffer, []gen.Request) error) (string, int64) {
	b.Helper()
	reqs := gen.Generate(gen.Config{Seed: 11, N: n, Plants: gen.All})
	var buf bytes.Buffer
	if err := w(&buf, reqs); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, int64(buf.Len())
}

// benchRun measures the whole ingest + sketch pass over one file.
func benchRun(b *testing.B, path string, size int64, workers int) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		accs, res, err := ingest.Run([]string{path}, ingest.Options{Workers: workers}, func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: m, Top: 1000})
		})
		if err != nil || res.Records() == 0 {
			b.Fatal(err)
		}
		aggregate.MergeAll(accs)
	}
}

func BenchmarkIngestJSONL(b *testing.B) {
	path, size := benchFile(b, 200_000, "bench.jsonl", func(buf *bytes.Buffer, r []gen.Request) error {
		_, err := gen.WriteJSONL(buf, r, gen.WriteOptions{})
		return err
	})
	b.Run("workers=1", func(b *testing.B) { benchRun(b, path, size, 1) })
	b.Run("workers=ncpu", func(b *testing.B) { benchRun(b, path, size, runtime.NumCPU()) })
}

func BenchmarkIngestCLS(b *testing.B) {
	path, size := benchFile(b, 200_000, "bench-cls.json", func(buf *bytes.Buffer, r []gen.Request) error {
		_, err := gen.WriteCLS(buf, r, gen.WriteOptions{})
		return err
	})
	benchRun(b, path, size, runtime.NumCPU())
}

// benchRead measures reading and parsing alone: the sink only counts.
func benchRead(b *testing.B, name string, workers int, write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) {
	path, size := benchFile(b, 200_000, name, func(buf *bytes.Buffer, r []gen.Request) error {
		_, err := write(buf, r, gen.WriteOptions{})
		return err
	})
	b.SetBytes(size)
	b.ReportAllocs()
	cpu0, runs := sharedtest.CPUTime(), 0
	for b.Loop() {
		runs++
		sinks, res, err := ingest.Run([]string{path}, ingest.Options{Workers: workers}, func() *countSink { return &countSink{} })
		if err != nil || res.Records() == 0 {
			b.Fatal(err)
		}
		n := int64(0)
		for _, s := range sinks {
			n += s.n
		}
		if n != res.Records() {
			b.Fatalf("sinks saw %d records of %d", n, res.Records())
		}
	}
	b.ReportMetric(float64(sharedtest.CPUTime()-cpu0)/float64(runs), "cpu-ns/op")
}

func BenchmarkReadJSONL(b *testing.B) {
	b.Run("workers=1", func(b *testing.B) { benchRead(b, "read.jsonl", 1, gen.WriteJSONL) })
	b.Run("workers=ncpu", func(b *testing.B) { benchRead(b, "read.jsonl", 0, gen.WriteJSONL) })
}

func BenchmarkReadCSV(b *testing.B)   { benchRead(b, "read.csv", 0, gen.WriteCSV) }
func BenchmarkReadNginx(b *testing.B) { benchRead(b, "read.log", 0, gen.WriteNginx) }
