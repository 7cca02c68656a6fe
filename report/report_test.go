package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Shanghai without the system zone database

	"github.com/google/go-cmp/cmp"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/internal/sharedtest"
	"loganalyze/rules"
	"loganalyze/sketch"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// sharedDir returns the shared folder of sample logs beside the
// repository root; a missing folder fails the test.
func sharedDir(t testing.TB) string { return sharedtest.Dir(t) }

func shanghai(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// goldenRequests is the fixed input of the golden files: a small
// generated hour with every problem planted.
func goldenRequests() []gen.Request {
	return gen.Generate(gen.Config{Seed: 11, N: 400, Plants: gen.All})
}

func jsonl(t testing.TB, reqs []gen.Request, bad int) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := gen.WriteJSONL(&b, reqs, gen.WriteOptions{BadEvery: bad}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// buildFrom ingests data (as stdin) and paths, and builds the report.
func buildFrom(t testing.TB, data []byte, paths []string, workers, top int, findings []rules.Finding) *Report {
	t.Helper()
	return Build(inputFrom(t, data, paths, workers, top, findings))
}

// inputFrom ingests data (as stdin) and paths: what buildFrom builds.
func inputFrom(t testing.TB, data []byte, paths []string, workers, top int, findings []rules.Finding) BuildInput {
	t.Helper()
	loc := shanghai(t)
	mapping, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	if data != nil {
		paths = append([]string{"-"}, paths...)
	}
	accs, res, err := ingest.Run(paths, ingest.Options{Format: ingest.JSONL, Location: loc, Workers: workers, Stdin: bytes.NewReader(data)},
		func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: mapping, Top: top, Collectors: rules.Default().Collectors(mapping, top, true), TokenURI: rules.Default().TokenURI})
		})
	if err != nil {
		t.Fatal(err)
	}
	acc := aggregate.MergeAll(accs)
	var notEval []rules.NotEvaluated
	if findings != nil {
		notEval = []rules.NotEvaluated{{Rule: "latency_regression", Reason: "needs --state: no previous hour to compare with"}}
	}
	return BuildInput{Aggregate: acc, Read: res, Findings: findings, NotEvaluated: notEval, Location: loc}
}

// sampleFindings are hand-built findings, so that the findings part of
// every renderer is covered whatever the rules find.
func sampleFindings() []rules.Finding {
	from := time.Date(2026, 11, 29, 10, 20, 0, 0, time.FixedZone("+0800", 8*3600))
	fs := []rules.Finding{
		{
			Rule: "rate_limit_storm", Severity: rules.Crit,
			Key:   rules.Fields{{Name: "region", Value: gen.StormRegion}, {Name: "model", Value: gen.StormModel}},
			Title: "429 storm on ap-shanghai × qwen2-72b-instruct",
			Evidence: rules.Fields{
				{Name: "responses_429", Value: int64(160)},
				{Name: "share", Value: 0.62},
				{Name: "early_retriers", Value: []string{"app-002"}},
			},
			Impact: rules.Impact{MsPerRequest: 2000, Requests: 160, Seconds: 320},
			Advice: "honour Retry-After; exponential back-off 1 s, 2 s, 4 s with ±20 % jitter, at most 3 retries",
			Window: &rules.Window{From: from.UnixNano(), To: from.Add(4 * time.Minute).UnixNano()},
		},
		{
			Rule: "missing_keepalive", Severity: rules.Warn,
			Key:      rules.Fields{{Name: "client", Value: gen.NoKeepaliveApp}},
			Title:    "app-nk opens a new connection for every request",
			Evidence: rules.Fields{{Name: "requests", Value: int64(60)}, {Name: "new_connection_share", Value: 1.0}},
			Impact:   rules.Impact{MsPerRequest: 85.5, Requests: 60, Seconds: 5.13},
			Advice:   "enable keep-alive / a connection pool (idle timeout ~60 s)",
		},
	}
	rules.SortFindings(fs)
	return fs
}

// renderers are every report format, by golden file extension.
var renderers = []struct {
	ext    string
	render func(*Report, *bytes.Buffer) error
}{
	{"md", func(r *Report, b *bytes.Buffer) error { return r.WriteMarkdown(b) }},
	{"html", func(r *Report, b *bytes.Buffer) error { return r.WriteHTML(b) }},
	{"json", func(r *Report, b *bytes.Buffer) error { return r.WriteJSON(b) }},
	{"prom", func(r *Report, b *bytes.Buffer) error { return r.WritePrometheus(b, PromOptions{}) }},
}

func render(t testing.TB, r *Report, ext string) []byte {
	t.Helper()
	for _, rd := range renderers {
		if rd.ext == ext {
			var b bytes.Buffer
			if err := rd.render(r, &b); err != nil {
				t.Fatalf("%s: %v", ext, err)
			}
			return b.Bytes()
		}
	}
	t.Fatalf("no renderer %q", ext)
	return nil
}

func TestGolden(t *testing.T) {
	r := buildFrom(t, jsonl(t, goldenRequests(), 150), nil, 2, 1000, sampleFindings())
	for _, rd := range renderers {
		t.Run(rd.ext, func(t *testing.T) {
			got := render(t, r, rd.ext)
			path := filepath.Join("testdata", "golden."+rd.ext)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./report -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file (-want +got):\n%s", path,
					cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
			}
		})
	}
}

func TestSameInputSameBytes(t *testing.T) {
	data := jsonl(t, goldenRequests(), 150)
	a := buildFrom(t, data, nil, 1, 1000, sampleFindings())
	b := buildFrom(t, data, nil, 2, 1000, sampleFindings())
	c := buildFrom(t, data, nil, 2, 1000, sampleFindings())
	for _, rd := range renderers {
		first := render(t, a, rd.ext)
		if again := render(t, a, rd.ext); !bytes.Equal(first, again) {
			t.Errorf("%s: rendering the same report twice differs", rd.ext)
		}
		if two := render(t, b, rd.ext); !bytes.Equal(first, two) {
			t.Errorf("%s: --workers 1 and 2 differ:\n%s", rd.ext,
				cmp.Diff(strings.Split(string(first), "\n"), strings.Split(string(two), "\n")))
		}
		if !bytes.Equal(render(t, b, rd.ext), render(t, c, rd.ext)) {
			t.Errorf("%s: two runs with 2 workers differ", rd.ext)
		}
	}
}

// exactQuantile is the oracle: the value at rank ⌊q·(n−1)⌋.
func exactQuantile(vals []float64, q float64) float64 {
	s := append([]float64(nil), vals...)
	sort.Float64s(s)
	return s[int(math.Floor(q*float64(len(s)-1)))]
}

func within1pct(got, want float64) bool {
	return math.Abs(got-want) <= 0.01*want+1e-9
}

// TestOtherRowQuantiles checks the "other" row of the client tables
// against the exact request times of every client it stands for, with
// and without keys folded by --top.
func TestOtherRowQuantiles(t *testing.T) {
	reqs := goldenRequests()
	for _, top := range []int{1000, 6} {
		r := buildFrom(t, jsonl(t, reqs, 0), nil, 1, top, nil)
		dl := r.Latency[aggregate.RequestTime].By[aggregate.DimClient]
		if dl.Rest == nil {
			t.Fatalf("top %d: no other row for %d client rows", top, len(dl.Rows))
		}
		shown := map[string]bool{}
		var shownCount int64
		for _, q := range dl.Rows[:min(TableKeys, len(dl.Rows))] {
			shown[q.Key] = true
			shownCount += q.Count
		}
		if top < 1000 {
			// Keys folded by --top lose their early records to other, so
			// the oracle is the total: shown rows and other cover every
			// request once.
			if shownCount+dl.Rest.Count != int64(len(reqs)) {
				t.Errorf("top %d: shown %d + other %d requests, want %d", top, shownCount, dl.Rest.Count, len(reqs))
			}
			if dl.FoldedKeys == 0 {
				t.Errorf("top %d: no client keys were folded", top)
			}
			continue
		}
		var rest []float64
		clients := map[string]bool{}
		for _, rq := range reqs {
			if !shown[rq.AppID] {
				rest = append(rest, rq.RequestTime*1000)
				clients[rq.AppID] = true
			}
		}
		if dl.Rest.Count != int64(len(rest)) || dl.RestKeys != int64(len(clients)) {
			t.Fatalf("top %d: other row has %d requests of %d keys, want %d of %d", top, dl.Rest.Count, dl.RestKeys, len(rest), len(clients))
		}
		for _, c := range []struct {
			q   float64
			got float64
		}{{0.5, dl.Rest.P50}, {0.95, dl.Rest.P95}, {0.99, dl.Rest.P99}} {
			if want := exactQuantile(rest, c.q); !within1pct(c.got, want) {
				t.Errorf("top %d: other p%v = %v, want %v ±1 %%", top, c.q*100, c.got, want)
			}
		}
	}
}

// TestRegionSeries checks the p99-over-time series of the HTML chart
// against the exact request times of each region and minute.
func TestRegionSeries(t *testing.T) {
	reqs := goldenRequests()
	r := buildFrom(t, jsonl(t, reqs, 0), nil, 2, 1000, nil)
	if r.RegionStep != time.Minute {
		t.Fatalf("region step %v, want 1m", r.RegionStep)
	}
	exact := map[string]map[int64][]float64{}
	for _, rq := range reqs {
		if exact[rq.Region] == nil {
			exact[rq.Region] = map[int64][]float64{}
		}
		m := rq.Time.Unix() / 60 * 60
		exact[rq.Region][m] = append(exact[rq.Region][m], rq.RequestTime*1000)
	}
	if len(r.RegionP99) != min(len(exact), ChartRegions) {
		t.Fatalf("%d region series, want %d", len(r.RegionP99), min(len(exact), ChartRegions))
	}
	for _, s := range r.RegionP99 {
		if len(s.Points) != len(exact[s.Region]) {
			t.Fatalf("%s: %d points, want %d", s.Region, len(s.Points), len(exact[s.Region]))
		}
		for _, p := range s.Points {
			vals := exact[s.Region][p.Time.Unix()]
			if p.Count != int64(len(vals)) {
				t.Fatalf("%s %v: count %d, want %d", s.Region, p.Time, p.Count, len(vals))
			}
			if want := exactQuantile(vals, 0.99); !within1pct(p.P99, want) {
				t.Fatalf("%s %v: p99 %v, want %v ±1 %%", s.Region, p.Time, p.P99, want)
			}
		}
	}
}

// fewLatencies writes 14 records, of which only the first carries
// request_time (60 s) when one is set; else all do, the last being a 60 s
// outlier.
func fewLatencies(one bool) []byte {
	var b bytes.Buffer
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	for i := range 14 {
		rec := map[string]any{"time": start.Add(time.Duration(i) * time.Second).Format(time.RFC3339), "status": 200, "region": "ap-x"}
		switch {
		case one && i == 0, !one && i == 13:
			rec["request_time"] = 60.0
		case !one:
			rec["request_time"] = 0.1 + float64(i)/100
		}
		line, _ := json.Marshal(rec)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestMaxBesideP99 checks that a 60 s outlier in a group of 14, below
// p99's rank, shows in the max column of every table.
func TestMaxBesideP99(t *testing.T) {
	r := buildFrom(t, fewLatencies(false), nil, 1, 1000, nil)
	all := r.Latency[aggregate.RequestTime].All
	if all.Max != 60000 || all.P99 >= 60000 {
		t.Fatalf("p99 %v, max %v; want max 60000 above p99", all.P99, all.Max)
	}
	md := string(render(t, r, "md"))
	for _, want := range []string{"| dimension | key | count | p50 | p95 | p99 | max |", "| all | all | 14 | ", " | 60000 |\n| region | ap-x | 14 |", "pXX is the value at rank ⌊q·(n−1)⌋ of the sorted values, within 1 %"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	page := string(render(t, r, "html"))
	if !strings.Contains(page, `<th class="num">p99</th><th class="num">max</th>`) || !strings.Contains(page, `<td class="num" data-v="60000.000">60000</td></tr>`) {
		t.Errorf("HTML table lacks the max column")
	}
}

// TestBuildInputs: the window's bounds replace the records' span where
// given; the baseline's problems follow the window's and the extra ones
// come last; the baseline's unread files are kept apart from the
// window's; every reference is compared, peaks included.
func TestBuildInputs(t *testing.T) {
	in := inputFrom(t, jsonl(t, goldenRequests()[:200], 50), nil, 1, 1000, nil)
	span := window(in.Aggregate, nil, nil, in.Location)
	since := span.From.Add(-time.Hour).UTC()
	in.Since = &since
	in.Baseline = &ingest.Result{
		Files:    []ingest.FileStats{{Path: "base.log", Format: ingest.JSONL, BadLines: 1}},
		Problems: []ingest.Problem{{File: "base.log", Line: 1, Reason: "bad"}},
	}
	in.Problems = []ingest.Problem{{File: "state", Reason: "skipped"}}
	set := in.Aggregate.Set
	in.References = []Reference{
		{Against: "baseline", Label: "b", Set: set, Peaks: &Peaks{PeakBefore: set, PeakAfter: set, OffPeakBefore: set, OffPeakAfter: set}},
		{Against: "previous_hour", Label: "p", Set: set},
	}
	windowProblems := len(in.Read.Problems)
	r := Build(in)
	if !r.Window.From.Equal(since) || r.Window.From.Location() != in.Location || !r.Window.To.Equal(span.To) {
		t.Errorf("window %v – %v, want %v – %v", r.Window.From, r.Window.To, since, span.To)
	}
	p := r.Input.Problems
	if windowProblems == 0 || len(p) != windowProblems+2 || p[windowProblems].File != "base.log" || p[windowProblems+1].File != "state" {
		t.Errorf("problems %+v", p)
	}
	if len(in.Read.Problems) != windowProblems {
		t.Errorf("Build changed the ingest result's problems")
	}
	if len(r.Unread) != 0 || len(r.BaselineUnread) != 1 || r.BaselineUnread[0].Path != "base.log" {
		t.Errorf("unread %v, baseline unread %v", r.Unread, r.BaselineUnread)
	}
	if len(r.Comparisons) != 2 || r.Comparisons[0].Peak == nil || r.Comparisons[0].OffPeak == nil ||
		r.Comparisons[0].Peak.Label != "b, busiest quarter of hours" || r.Comparisons[1].Against != "previous_hour" || r.Comparisons[1].Peak != nil {
		t.Errorf("comparisons %+v", r.Comparisons)
	}
}
