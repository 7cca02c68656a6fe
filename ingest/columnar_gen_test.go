package ingest_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
)

// columnarWriters are the gen writers of the columnar formats, by file
// extension.
var columnarWriters = []struct {
	ext   string
	write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
}{
	{".parquet", gen.WriteParquet},
	{".arrow", gen.WriteArrow},
	{".arrows", gen.WriteArrowStream},
}

func writeFile(t testing.TB, path string, reqs []gen.Request, o gen.WriteOptions,
	write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) int {
	t.Helper()
	var buf bytes.Buffer
	bad, err := write(&buf, reqs, o)
	if err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return bad
}

// sortRows orders rows the way sortRequests orders requests.
func sortRows(rows []row) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.timeNS != b.timeNS {
			return a.timeNS < b.timeNS
		}
		if a.rt != b.rt {
			return a.rt < b.rt
		}
		if a.client != b.client {
			return a.client < b.client
		}
		return a.model < b.model
	})
}

func sortRequests(reqs []gen.Request) []gen.Request {
	out := append([]gen.Request(nil), reqs...)
	sort.Slice(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if ta, tb := a.Time.UnixNano(), b.Time.UnixNano(); ta != tb {
			return ta < tb
		}
		if a.RequestTime != b.RequestTime {
			return a.RequestTime < b.RequestTime
		}
		if a.AppID != b.AppID {
			return a.AppID < b.AppID
		}
		return a.Model < b.Model
	})
	return out
}

// checkRows compares every read record with the request it came from.
func checkRows(t *testing.T, name string, rows []row, reqs []gen.Request) {
	t.Helper()
	if len(rows) != len(reqs) {
		t.Fatalf("%s: %d records, want %d", name, len(rows), len(reqs))
	}
	sortRows(rows)
	want := sortRequests(reqs)
	errs := 0
	for i := range rows {
		g, w := &rows[i], &want[i]
		ups, hasUps := w.UpstreamTime()
		var diffs []string
		if !g.hasTime || g.timeNS != w.Time.UnixNano() {
			diffs = append(diffs, fmt.Sprintf("time %d want %d", g.timeNS, w.Time.UnixNano()))
		}
		if g.rt != w.RequestTime {
			diffs = append(diffs, fmt.Sprintf("request_time %v want %v", g.rt, w.RequestTime))
		}
		if hasUps != !math.IsNaN(g.urt) || hasUps && math.Abs(g.urt-ups) > 1e-9 {
			diffs = append(diffs, fmt.Sprintf("upstream %v want %v", g.urt, ups))
		}
		if math.IsNaN(w.TTFTms) != math.IsNaN(g.ttft) || !math.IsNaN(w.TTFTms) && g.ttft != w.TTFTms {
			diffs = append(diffs, fmt.Sprintf("ttft %v want %v", g.ttft, w.TTFTms))
		}
		if !g.hasStatus || g.status != int64(w.Status) {
			diffs = append(diffs, fmt.Sprintf("status %d want %d", g.status, w.Status))
		}
		if g.client != w.AppID || g.region != w.Region || g.uri != w.URI || g.model != w.Model || g.hasModel != (w.Model != "") {
			diffs = append(diffs, fmt.Sprintf("text %q %q %q %q want %q %q %q %q", g.client, g.region, g.uri, g.model, w.AppID, w.Region, w.URI, w.Model))
		}
		if w.Model != "" && (!g.hasStream || g.stream != w.Stream) {
			diffs = append(diffs, fmt.Sprintf("stream %v want %v", g.stream, w.Stream))
		}
		if len(diffs) > 0 {
			if errs++; errs <= 5 {
				t.Errorf("%s record %d: %v", name, i, diffs)
			}
		}
	}
	if errs > 5 {
		t.Errorf("%s: %d records differ", name, errs)
	}
}

func TestGeneratedColumnar(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 7, N: 100000, Plants: gen.All})
	if len(reqs) < 100000 {
		t.Fatalf("generated %d requests", len(reqs))
	}
	var rts, ttfts []float64
	for i := range reqs {
		rts = append(rts, reqs[i].RequestTime*1000)
		if !math.IsNaN(reqs[i].TTFTms) {
			ttfts = append(ttfts, reqs[i].TTFTms)
		}
	}
	dir := t.TempDir()
	for _, w := range columnarWriters {
		t.Run(w.ext, func(t *testing.T) {
			path := filepath.Join(dir, "gen"+w.ext)
			writeFile(t, path, reqs, gen.WriteOptions{}, w.write)
			rows, res := collect(t, []string{path}, ingest.Options{Workers: 2})
			if res.BadLines() != 0 || res.Incomplete() {
				t.Fatalf("%+v", res.Files)
			}
			checkRows(t, w.ext, rows, reqs)
			acc, res := accumulate(t, []string{path}, ingest.Options{Workers: 2})
			if acc.Records != int64(len(reqs)) || res.Records() != int64(len(reqs)) {
				t.Errorf("accumulated %d records, result %d; want %d", acc.Records, res.Records(), len(reqs))
			}
			checkQuantiles(t, w.ext+" request_time", acc.Set.All.Metric(aggregate.RequestTime), rts)
			checkQuantiles(t, w.ext+" ttft", acc.Set.All.Metric(aggregate.TTFT), ttfts)
		})
	}
}

// TestColumnarBadRows checks that rows with a negative request_time are
// counted as bad, with their row numbers, and the others kept.
func TestColumnarBadRows(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 3, N: 5000})
	dir := t.TempDir()
	const every = 97
	for _, w := range columnarWriters {
		t.Run(w.ext, func(t *testing.T) {
			path := filepath.Join(dir, "bad"+w.ext)
			bad := writeFile(t, path, reqs, gen.WriteOptions{BadEvery: every}, w.write)
			if bad != len(reqs)/every {
				t.Fatalf("writer added %d bad rows, want %d", bad, len(reqs)/every)
			}
			rows, res := collect(t, []string{path}, ingest.Options{Workers: 2, MaxProblems: 5})
			if res.BadLines() != int64(bad) || res.Incomplete() {
				t.Fatalf("%d bad rows, want %d (%+v)", res.BadLines(), bad, res.Files)
			}
			checkRows(t, w.ext, rows, reqs)
			if len(res.Problems) != 5 {
				t.Fatalf("%d problems sampled, want 5", len(res.Problems))
			}
			for k, p := range res.Problems {
				if want := int64((k + 1) * (every + 1)); p.Line != want || p.File != path {
					t.Errorf("problem %d at %s:%d, want row %d", k, p.File, p.Line, want)
				}
				if p.Reason != `request_time: cannot read "-1"` {
					t.Errorf("problem %d: reason %q", k, p.Reason)
				}
			}
		})
	}
}
