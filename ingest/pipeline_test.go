package ingest_test

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// read runs the pipeline over paths and returns the merged aggregate.
func read(t testing.TB, paths []string, opts ingest.Options) (*aggregate.Accumulator, *ingest.Result) {
	t.Helper()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	accs, res, err := ingest.Run(paths, opts, func() *aggregate.Accumulator {
		return aggregate.New(aggregate.Options{Mapping: m, Top: 1000})
	})
	if err != nil {
		t.Fatal(err)
	}
	return aggregate.MergeAll(accs), res
}

var quantiles = []float64{0.5, 0.95, 0.99}

// withinAccuracy reports whether got is within 1 % of want (plus a hair for
// rounding of the bin's representative value).
func withinAccuracy(got, want float64) bool {
	return math.Abs(got-want) <= 0.01*math.Abs(want)+1e-9
}

func TestSampleJSONLAndCLS(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "examples")
	typed, resT := read(t, []string{filepath.Join(dir, "tokenhub-sample.jsonl")}, ingest.Options{Workers: 2})
	cls, resC := read(t, []string{filepath.Join(dir, "tokenhub-sample-cls.json")}, ingest.Options{Workers: 2})
	for name, res := range map[string]*ingest.Result{"jsonl": resT, "cls": resC} {
		if res.Records() != 3000 || res.BadLines() != 3 {
			t.Errorf("%s: %d records, %d bad lines; want 3000 and 3", name, res.Records(), res.BadLines())
		}
		if len(res.Problems) != 3 {
			t.Errorf("%s: %d problems sampled, want 3", name, len(res.Problems))
		}
		for _, p := range res.Problems {
			if p.Line < 1 || p.Reason == "" || !strings.HasSuffix(p.File, filepath.Base(p.File)) {
				t.Errorf("%s: bad problem %v", name, p)
			}
		}
	}
	if typed.MinTime != cls.MinTime || typed.MaxTime != cls.MaxTime {
		t.Errorf("windows differ: %v–%v vs %v–%v", typed.MinTime, typed.MaxTime, cls.MinTime, cls.MaxTime)
	}
	// The same requests give the same sketches, so the same quantiles.
	for m := 0; m < aggregate.NumMetrics; m++ {
		compareEntry(t, "all", m, typed.Set.All, cls.Set.All)
		for d, dim := range typed.Set.Dims {
			other := cls.Set.Dims[d]
			if dim.Len() != other.Len() {
				t.Errorf("%s: %d keys vs %d", dim.Name, dim.Len(), other.Len())
			}
			for _, ke := range dim.Sorted() {
				o := other.Get(ke.Key)
				if o == nil {
					t.Errorf("%s=%s missing from the CLS export", dim.Name, ke.Key)
					continue
				}
				compareEntry(t, dim.Name+"="+ke.Key, m, ke.Entry, o)
			}
		}
	}
}

func compareEntry(t *testing.T, name string, m int, a, b *sketch.Entry) {
	t.Helper()
	if a.Count != b.Count {
		t.Errorf("%s: count %d vs %d", name, a.Count, b.Count)
	}
	sa, sb := a.Metric(m), b.Metric(m)
	if (sa == nil) != (sb == nil) {
		t.Errorf("%s %s: present in one only", name, aggregate.MetricNames[m])
		return
	}
	if sa == nil {
		return
	}
	for _, q := range quantiles {
		if x, y := sa.Quantile(q), sb.Quantile(q); x != y {
			t.Errorf("%s %s p%v: %v vs %v", name, aggregate.MetricNames[m], q*100, x, y)
		}
	}
}

// oracle holds the exact values of every metric for every key of every
// dimension, computed from the generator's requests.
type oracleKey struct {
	dim, key string
	metric   int
}

type oracle map[oracleKey][]float64

func buildOracle(reqs []gen.Request) (oracle, map[string]map[string]int64) {
	o := oracle{}
	counts := map[string]map[string]int64{}
	for _, d := range aggregate.DimNames {
		counts[d] = map[string]int64{}
	}
	var vals [aggregate.NumMetrics]float64
	var has [aggregate.NumMetrics]bool
	for i := range reqs {
		r := &reqs[i]
		vals[aggregate.RequestTime], has[aggregate.RequestTime] = r.RequestTime*1000, true
		up, ok := r.UpstreamTime()
		vals[aggregate.UpstreamResponseTime], has[aggregate.UpstreamResponseTime] = up*1000, ok
		vals[aggregate.NetworkTime], has[aggregate.NetworkTime] = max(0, (r.RequestTime-up)*1000), ok
		vals[aggregate.TTFT], has[aggregate.TTFT] = r.TTFTms, !math.IsNaN(r.TTFTms)
		// Generation speed: not known non-streaming (a token call has no
		// stream field), ttft and at least 2 completion tokens.
		tpot := has[aggregate.TTFT] && r.CompletionTokens >= 2 && (r.Model == "" || r.Stream)
		vals[aggregate.TimePerOutputToken], has[aggregate.TimePerOutputToken] = 0, tpot
		if tpot {
			vals[aggregate.TimePerOutputToken] = max(0, r.RequestTime*1000-r.TTFTms) / float64(r.CompletionTokens-1)
		}
		add := func(dim, key string) {
			if dim != "all" {
				counts[dim][key]++
			}
			for m := range vals {
				if has[m] {
					k := oracleKey{dim, key, m}
					o[k] = append(o[k], vals[m])
				}
			}
		}
		add("all", "all")
		add("region", r.Region)
		add("status", strconv.Itoa(r.Status))
		add("client", r.AppID)
		add("client_region", r.ClientRegion)
		add("route", r.ClientRegion+"→"+r.Region)
		add("uri", r.URI)
		if r.Model != "" {
			add("model", r.Model)
			add("stream", strconv.FormatBool(r.Stream))
		}
	}
	return o, counts
}

// exactQuantile is the value at rank ⌊q·(n−1)⌋ of the sorted values: what
// DDSketch guarantees to be within its relative accuracy of.
func exactQuantile(sorted []float64, q float64) float64 {
	return sorted[int(q*float64(len(sorted)-1))]
}

func checkAgainstOracle(t *testing.T, acc *aggregate.Accumulator, reqs []gen.Request) {
	t.Helper()
	o, counts := buildOracle(reqs)
	checked := 0
	check := func(dim, key string, e *sketch.Entry) {
		for m := 0; m < aggregate.NumMetrics; m++ {
			want := o[oracleKey{dim, key, m}]
			s := e.Metric(m)
			if s == nil {
				if len(want) > 0 {
					t.Errorf("%s=%s %s: no sketch, want %d values", dim, key, aggregate.MetricNames[m], len(want))
				}
				continue
			}
			if s.Count() != int64(len(want)) {
				t.Errorf("%s=%s %s: count %d, want %d", dim, key, aggregate.MetricNames[m], s.Count(), len(want))
				continue
			}
			if len(want) < 100 {
				continue
			}
			sort.Float64s(want)
			for _, q := range quantiles {
				got, exact := s.Quantile(q), exactQuantile(want, q)
				if dim == "all" {
					t.Logf("all %s p%v: %v, exact %v (%+.3f %%)", aggregate.MetricNames[m], q*100, got, exact, 100*(got-exact)/exact)
				}
				if !withinAccuracy(got, exact) {
					t.Errorf("%s=%s %s p%v = %v, exact %v (%.3f %% off)", dim, key, aggregate.MetricNames[m], q*100, got, exact, 100*(got-exact)/exact)
				}
				checked++
			}
		}
	}
	check("all", "all", acc.Set.All)
	for _, dim := range acc.Set.Dims {
		if dim.Len() != len(counts[dim.Name]) {
			t.Errorf("%s: %d keys, want %d", dim.Name, dim.Len(), len(counts[dim.Name]))
		}
		for _, ke := range dim.Sorted() {
			if want := counts[dim.Name][ke.Key]; ke.Count != want {
				t.Errorf("%s=%s: count %d, want %d", dim.Name, ke.Key, ke.Count, want)
			}
			check(dim.Name, ke.Key, ke.Entry)
		}
	}
	if checked < 100 {
		t.Errorf("only %d quantiles checked", checked)
	}
}

// TestGeneratedAccuracy reads a large generated log with bad lines of every
// kind mixed in and checks counts exactly and every quantile of every key
// with at least 100 values against the sorted values.
func TestGeneratedAccuracy(t *testing.T) {
	n := 300_000
	if testing.Short() {
		n = 30_000
	}
	reqs := gen.Generate(gen.Config{Seed: 42, N: n, Plants: gen.All})
	var buf bytes.Buffer
	bad, err := gen.WriteJSONL(&buf, reqs, gen.WriteOptions{BadEvery: 5000})
	if err != nil {
		t.Fatal(err)
	}
	// An over-long line early (so it is among the sampled problems) and a
	// bad line at the end without a newline after it.
	data := buf.Bytes()
	mid := bytes.IndexByte(data[len(data)/100:], '\n') + len(data)/100 + 1
	long := append([]byte(`{"model":"`), bytes.Repeat([]byte("x"), ingest.MaxLine+10)...)
	var out bytes.Buffer
	out.Write(data[:mid])
	out.Write(long)
	out.WriteString("\"}\n")
	out.Write(data[mid:])
	out.WriteString(`{"time":"2026-11-29T10:00:00Z","request_time":"abc"}`)
	bad += 2
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if len(reqs) < 300_000 && !testing.Short() {
		t.Fatalf("generated %d requests, want at least 300,000", len(reqs))
	}

	acc, res := read(t, []string{path}, ingest.Options{Workers: 2})
	if res.Records() != int64(len(reqs)) || res.BadLines() != int64(bad) {
		t.Fatalf("%d records, %d bad lines; want %d and %d", res.Records(), res.BadLines(), len(reqs), bad)
	}
	if acc.Records != int64(len(reqs)) {
		t.Fatalf("aggregate saw %d records, want %d", acc.Records, len(reqs))
	}
	var sawLong, sawTime, sawRT, sawTrunc, sawBinary bool
	for _, p := range res.Problems {
		switch {
		case strings.Contains(p.Reason, "longer than"):
			sawLong = true
		case strings.Contains(p.Reason, `time: cannot read "not-a-time"`):
			sawTime = true
		case strings.Contains(p.Reason, `request_time: cannot read "abc"`):
			sawRT = true
		case strings.Contains(p.Reason, "truncated"):
			sawTrunc = true
		case strings.Contains(p.Reason, "not a JSON object"):
			sawBinary = true
		}
	}
	if !(sawLong && sawTime && sawRT && sawTrunc && sawBinary) {
		t.Errorf("problems miss a kind of bad line: %v", res.Problems)
	}
	checkAgainstOracle(t, acc, reqs)
	if got, want := acc.MinTime, reqs[0].Time.UnixNano(); got != want {
		t.Errorf("first time %v, want %v", time.Unix(0, got), reqs[0].Time)
	}
}

// TestWorkersAgree checks that the merged aggregate does not depend on the
// number of workers.
func TestWorkersAgree(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 3, N: 20_000, Plants: gen.All})
	var buf bytes.Buffer
	if _, err := gen.WriteCLS(&buf, reqs, gen.WriteOptions{BadEvery: 997}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cls.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	a1, r1 := read(t, []string{path}, ingest.Options{Workers: 1})
	for _, w := range []int{2, 3, 7} {
		a2, r2 := read(t, []string{path}, ingest.Options{Workers: w})
		if r1.Records() != r2.Records() || r1.BadLines() != r2.BadLines() {
			t.Fatalf("workers %d: counts differ", w)
		}
		if len(r1.Problems) != len(r2.Problems) {
			t.Fatalf("workers %d: problems differ", w)
		}
		for i := range r1.Problems {
			if r1.Problems[i] != r2.Problems[i] {
				t.Errorf("workers %d: problem %d: %v vs %v", w, i, r1.Problems[i], r2.Problems[i])
			}
		}
		for m := 0; m < aggregate.NumMetrics; m++ {
			compareEntry(t, "all", m, a1.Set.All, a2.Set.All)
			for d, dim := range a1.Set.Dims {
				for _, ke := range dim.Sorted() {
					compareEntry(t, dim.Name+"="+ke.Key, m, ke.Entry, a2.Set.Dims[d].Get(ke.Key))
				}
			}
		}
	}
}

// TestMissingPath: a path that names nothing, and a glob that matches
// nothing, are listed unread in their places, unopened, with why, and
// the paths beside them are read as without them (SPEC §3: the reports
// are still written); a bad glob is an error.
func TestMissingPath(t *testing.T) {
	good := filepath.Join("..", "testdata", "logs", "tokenhub-1.jsonl")
	_, alone := collect(t, []string{good}, ingest.Options{Workers: 2})
	glob := filepath.Join(t.TempDir(), "*.log")
	_, res := collect(t, []string{"/no/such/file.jsonl", good, glob, "/no/such/file.jsonl"}, ingest.Options{Workers: 2})
	if len(res.Files) != 3 {
		t.Fatalf("%d files listed, want 3 (the missing one once): %+v", len(res.Files), res.Files)
	}
	for i, want := range []string{`cannot open "/no/such/file.jsonl": no such file or directory`, "", `no file matches "` + glob + `"`} {
		f := res.Files[i]
		if want == "" {
			if f.Records != alone.Files[0].Records || f.Incomplete || f.Unopened {
				t.Errorf("%s: %d records, incomplete %v; want %d as read alone", f.Path, f.Records, f.Incomplete, alone.Files[0].Records)
			}
			continue
		}
		if f.Records != 0 || !f.Incomplete || !f.Unopened || f.Reason != want {
			t.Errorf("%s: %d records, incomplete %v, unopened %v, reason %q; want none, unopened, %q", f.Path, f.Records, f.Incomplete, f.Unopened, f.Reason, want)
		}
	}
	if _, _, err := ingest.Run([]string{filepath.Join(t.TempDir(), "[")}, ingest.Options{}, func() *aggregate.Accumulator { return nil }); err == nil || !strings.Contains(err.Error(), "bad glob") {
		t.Errorf("a bad glob: error %v", err)
	}
}

func TestStdinAndGzip(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 5, N: 2000})
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(buf.Bytes())
	zw.Close()
	for name, data := range map[string][]byte{"plain": buf.Bytes(), "gzip": gz.Bytes()} {
		_, res := read(t, []string{"-"}, ingest.Options{Stdin: bytes.NewReader(data), Workers: 2})
		if res.Records() != int64(len(reqs)) || res.Files[0].Format != ingest.JSONL || res.Incomplete() {
			t.Errorf("stdin %s: %d records as %s, want %d jsonl", name, res.Records(), res.Files[0].Format, len(reqs))
		}
	}
	// A gzip stream cut short keeps what was read and says so.
	_, res := read(t, []string{"-"}, ingest.Options{Stdin: bytes.NewReader(gz.Bytes()[:gz.Len()/2]), Workers: 2})
	if !res.Incomplete() || res.Records() == 0 || res.Records() >= int64(len(reqs)) || !strings.Contains(res.Files[0].Reason, "unexpected EOF") {
		t.Errorf("truncated gzip: %d records, incomplete %v (%s)", res.Records(), res.Incomplete(), res.Files[0].Reason)
	}
	// So does one cut within what the format's detection peeks at (the
	// first 4 KB of text, 64 KB of JSON lines), a small file's whole.
	for _, n := range []int{20, 200} {
		var small bytes.Buffer
		if _, err := gen.WriteJSONL(&small, reqs[:n], gen.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		var sgz bytes.Buffer
		zw := gzip.NewWriter(&sgz)
		zw.Write(small.Bytes())
		zw.Close()
		_, res := read(t, []string{"-"}, ingest.Options{Stdin: bytes.NewReader(sgz.Bytes()[:sgz.Len()*2/3]), Workers: 2})
		if !res.Incomplete() || res.Records() >= int64(n) || !strings.Contains(res.Files[0].Reason, "unexpected EOF") {
			t.Errorf("%d lines, truncated gzip: %d records, incomplete %v (%q)", n, res.Records(), res.Incomplete(), res.Files[0].Reason)
		}
	}
}

func TestBlankAndForeignInput(t *testing.T) {
	_, res := read(t, []string{"-"}, ingest.Options{Stdin: strings.NewReader("\n  \n\n")})
	if res.Records() != 0 || res.BadLines() != 0 || res.Incomplete() {
		t.Errorf("blank input: %+v", res.Files)
	}
	// Well-formed lines with no field loganalyze knows are bad lines, not
	// empty records.
	_, res = read(t, []string{"-"}, ingest.Options{Stdin: strings.NewReader("{\"foo\":1}\n{}\n{\"request_time\":1}\n")})
	if res.Records() != 1 || res.BadLines() != 2 || len(res.Problems) != 2 || !strings.Contains(res.Problems[0].Reason, "no field") {
		t.Errorf("foreign lines: %+v %v", res.Files, res.Problems)
	}
}
