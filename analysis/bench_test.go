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
)

// BenchmarkRun measures one whole analysis — reading, every sketch,
// every rule's collector, the rules and the report model — over 200,000
// generated requests as JSON lines, with two workers.
func BenchmarkRun(b *testing.B) {
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, gen.Generate(gen.Config{Seed: 5, N: 200_000}), gen.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg := Config{Paths: []string{path}, Ingest: ingest.Options{Workers: 2, Location: time.UTC}}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(context.Background(), cfg)
		if err != nil || res.Report.Input.Records == 0 {
			b.Fatal(err)
		}
	}
}
