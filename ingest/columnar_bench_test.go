package ingest_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// countSink counts records and touches the fields a report reads.
type countSink struct {
	n   int64
	sum float64
}

func (c *countSink) Add(r *ingest.Record) {
	c.n++
	if v, ok := r.Float(ingest.FRequestTime); ok {
		c.sum += v
	}
}

var benchReqs = sync.OnceValue(func() []gen.Request {
	return gen.Generate(gen.Config{Seed: 1, N: 200000, Plants: gen.All})
})

func benchColumnar(b *testing.B, name string, write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) {
	reqs := benchReqs()
	var buf bytes.Buffer
	if _, err := write(&buf, reqs, gen.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	rows := int64(0)
	for b.Loop() {
		sinks, res, err := ingest.Run([]string{path}, ingest.Options{}, func() *countSink { return &countSink{} })
		if err != nil || res.Incomplete() || res.Records() != int64(len(reqs)) {
			b.Fatalf("%v %+v", err, res.Files)
		}
		for _, s := range sinks {
			rows += s.n
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkParquet(b *testing.B)     { benchColumnar(b, "bench.parquet", gen.WriteParquet) }
func BenchmarkArrow(b *testing.B)       { benchColumnar(b, "bench.arrow", gen.WriteArrow) }
func BenchmarkArrowStream(b *testing.B) { benchColumnar(b, "bench.arrows", gen.WriteArrowStream) }
