package ingest_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// TestEveryFormatSameRequests writes the same generated requests in every
// format the generator knows and checks that each gives the same record
// and bad-line counts and the same sketches as JSON lines: every metric the
// format carries, for every key of every dimension it carries.
func TestEveryFormatSameRequests(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	reqs := gen.Generate(gen.Config{Seed: 21, N: n, Plants: gen.All})
	zone := time.FixedZone("+0800", 8*3600) // CSV and TSV times carry none
	formats := []struct {
		name    string
		write   func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
		format  ingest.Format
		dims    bool // carries region, model, client, …
		metrics []int
	}{
		{"x.jsonl", gen.WriteJSONL, ingest.JSONL, true, allMetrics},
		{"x.cls.json", gen.WriteCLS, ingest.JSONL, true, allMetrics},
		{"x.csv", gen.WriteCSV, ingest.CSV, true, allMetrics},
		{"x.tsv", gen.WriteTSV, ingest.TSV, true, allMetrics},
		{"x.log", gen.WriteNginx, ingest.Nginx, true, allMetrics[:aggregate.TimePerOutputToken]}, // no completion_tokens
		{"x.parquet", gen.WriteParquet, ingest.Parquet, true, allMetrics},
		{"x.arrow", gen.WriteArrow, ingest.Arrow, true, allMetrics},
		{"x.arrows", gen.WriteArrowStream, ingest.Arrow, true, allMetrics},
		{"x-clb.log", gen.WriteCLB, ingest.CLB, false, []int{aggregate.RequestTime, aggregate.UpstreamResponseTime, aggregate.NetworkTime}},
	}
	dir := t.TempDir()
	var ref *aggregate.Accumulator
	for _, f := range formats {
		var buf bytes.Buffer
		bad, err := f.write(&buf, reqs, gen.WriteOptions{BadEvery: 1000})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		acc, res := read(t, []string{path}, ingest.Options{Workers: 2, Location: zone})
		if res.Records() != int64(len(reqs)) || res.BadLines() != int64(bad) || bad == 0 || res.Files[0].Format != f.format {
			t.Errorf("%s: %d records, %d bad lines as %s; want %d, %d as %s",
				f.name, res.Records(), res.BadLines(), res.Files[0].Format, len(reqs), bad, f.format)
		}
		if ref == nil {
			ref = acc
			checkAgainstOracle(t, acc, reqs)
			continue
		}
		if acc.MinTime/1e9 != ref.MinTime/1e9 || acc.MaxTime/1e9 != ref.MaxTime/1e9 {
			t.Errorf("%s: window differs", f.name)
		}
		for _, m := range f.metrics {
			sameSketch(t, f.name+" all", m, acc.Set.All, ref.Set.All)
			if !f.dims {
				continue
			}
			for d, dim := range ref.Set.Dims {
				if got := acc.Set.Dims[d].Len(); got != dim.Len() {
					t.Errorf("%s %s: %d keys, want %d", f.name, dim.Name, got, dim.Len())
				}
				for _, ke := range dim.Sorted() {
					e := acc.Set.Dims[d].Get(ke.Key)
					if e == nil {
						t.Errorf("%s: %s=%s missing", f.name, dim.Name, ke.Key)
						continue
					}
					sameSketch(t, f.name+" "+dim.Name+"="+ke.Key, m, e, ke.Entry)
				}
			}
		}
	}
}

var allMetrics = []int{aggregate.RequestTime, aggregate.UpstreamResponseTime, aggregate.NetworkTime, aggregate.TTFT, aggregate.TimePerOutputToken}

// sameSketch checks that two entries hold the same values of metric m: the
// same count and the same quantiles (the values were printed with the same
// decimals, so they parse to the same numbers).
func sameSketch(t *testing.T, name string, m int, got, want *sketch.Entry) {
	t.Helper()
	gs, ws := got.Metric(m), want.Metric(m)
	if ws == nil {
		if gs != nil {
			t.Errorf("%s %s: unexpected values", name, aggregate.MetricNames[m])
		}
		return
	}
	if gs == nil || gs.Count() != ws.Count() {
		t.Errorf("%s %s: count differs", name, aggregate.MetricNames[m])
		return
	}
	for _, q := range []float64{0, 0.5, 0.95, 0.99, 1} {
		if a, b := gs.Quantile(q), ws.Quantile(q); a != b {
			t.Errorf("%s %s q%v: %v, want %v", name, aggregate.MetricNames[m], q, a, b)
		}
	}
}
