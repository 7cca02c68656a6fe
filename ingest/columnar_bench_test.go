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

func (c *countSink) count() int64 { return c.n }

func (c *countSink) Add(r *ingest.Record) {
	c.n++
	if v, ok := r.Float(ingest.FRequestTime); ok {
		c.sum += v
	}
}

var benchReqs = sync.OnceValue(func() []gen.Request {
	return gen.Generate(gen.Config{Seed: 1, N: 200000, Plants: gen.All})
})

// countBatchSink is countSink as a BatchSink: a columnar file's rows
// are set into its records a column at a time (setRows).
type countBatchSink struct{ countSink }

func (c *countBatchSink) AddBatch(rs []ingest.Record) {
	for i := range rs {
		c.Add(&rs[i])
	}
}

func benchColumnar(b *testing.B, name string, write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) {
	benchColumnarTo(b, name, write, func() *countSink { return &countSink{} })
}

func benchColumnarTo[S interface {
	ingest.Sink
	count() int64
}](b *testing.B, name string, write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error), newSink func() S) {
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
		sinks, res, err := ingest.Run([]string{path}, ingest.Options{}, newSink)
		if err != nil || res.Incomplete() || res.Records() != int64(len(reqs)) {
			b.Fatalf("%v %+v", err, res.Files)
		}
		for _, s := range sinks {
			rows += s.count()
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkParquet(b *testing.B) { benchColumnar(b, "bench.parquet", gen.WriteParquet) }

// BenchmarkParquetBatch is BenchmarkParquet into a BatchSink, as an
// analysis reads: the rows set into records a column at a time.
func BenchmarkParquetBatch(b *testing.B) {
	benchColumnarTo(b, "bench.parquet", gen.WriteParquet, func() *countBatchSink { return &countBatchSink{} })
}

func BenchmarkArrow(b *testing.B)       { benchColumnar(b, "bench.arrow", gen.WriteArrow) }
func BenchmarkArrowStream(b *testing.B) { benchColumnar(b, "bench.arrows", gen.WriteArrowStream) }
