package rules_test

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// accumulateRequests reads generated requests as JSON lines.
func accumulateRequests(t *testing.T, m *sketch.Mapping, reqs []gen.Request) *aggregate.Accumulator {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	accs, _, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.JSONL, Workers: 2, Stdin: &buf, Location: time.UTC},
		func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: m, Top: 1000, Collectors: rules.Default().Collectors(m, 1000, true), TokenURI: rules.Default().TokenURI})
		})
	if err != nil {
		t.Fatal(err)
	}
	return aggregate.MergeAll(accs)
}

// slowerHour returns the requests one hour later, with every latency of
// region made factor times longer.
func slowerHour(reqs []gen.Request, region string, factor float64) []gen.Request {
	out := make([]gen.Request, len(reqs))
	for i, r := range reqs {
		r.Time = r.Time.Add(time.Hour)
		if r.Region == region {
			r.RequestTime *= factor
			r.UpstreamTimes = append([]float64(nil), r.UpstreamTimes...)
			for j := range r.UpstreamTimes {
				r.UpstreamTimes[j] *= factor
			}
			r.TTFTms *= factor
		}
		out[i] = r
	}
	return out
}

// exactP99 returns the value at rank ⌊0.99·(n−1)⌋ and n.
func exactP99(v []float64) (float64, int) {
	if len(v) == 0 {
		return 0, 0
	}
	sort.Float64s(v)
	return v[int(0.99*float64(len(v)-1))], len(v)
}

// metricValues returns a request's value of each metric, in ms.
func metricValues(r gen.Request) [aggregate.NumMetrics]float64 {
	v := [aggregate.NumMetrics]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	v[aggregate.RequestTime] = r.RequestTime * 1000
	if u, ok := r.UpstreamTime(); ok {
		v[aggregate.UpstreamResponseTime] = u * 1000
		v[aggregate.NetworkTime] = math.Max(0, (r.RequestTime-u)*1000)
	}
	v[aggregate.TTFT] = r.TTFTms
	return v
}

// regressionKey names one regression: a metric of a dimension's key.
type regressionKey struct{ metric, dim, key string }

// regressionHour is a generated previous hour: its requests, its
// regions busiest first, the region the tests slow down (the second
// busiest) and its accumulated sketches.
type regressionHour struct {
	m       *sketch.Mapping
	reqs    []gen.Request
	regions []string
	slow    string
	acc     *aggregate.Accumulator
	hour    int64
}

func newRegressionHour(t *testing.T) *regressionHour {
	n := 30000
	if testing.Short() {
		n = 12000
	}
	return newRegressionHourOf(t, gen.Generate(gen.Config{Seed: 21, N: n}))
}

// newRegressionHourOf accumulates prev as the previous hour.
func newRegressionHourOf(t *testing.T, prev []gen.Request) *regressionHour {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range prev {
		counts[r.Region]++
	}
	var regions []string
	for reg := range counts {
		regions = append(regions, reg)
	}
	sort.Slice(regions, func(i, j int) bool {
		return counts[regions[i]] > counts[regions[j]] || counts[regions[i]] == counts[regions[j]] && regions[i] < regions[j]
	})
	if len(regions) < 3 {
		t.Fatalf("only %d regions generated", len(regions))
	}
	acc := accumulateRequests(t, m, prev)
	hour, _ := acc.FirstHour()
	return &regressionHour{m: m, reqs: prev, regions: regions, slow: regions[1], acc: acc, hour: hour}
}

// TestLatencyRegression slows one region of a generated hour down by ×2
// and ×4 in the next hour: the rule says why it cannot run without the
// previous hour, then fires for exactly what an oracle over the exact
// p99s says, warn and crit — the whole input's merged into the region's
// finding, which explains it — capped at max_keys per metric and
// dimension.
func TestLatencyRegression(t *testing.T) {
	prev := newRegressionHour(t)
	for _, c := range []struct {
		factor float64
		want   rules.Severity
	}{{2, rules.Warn}, {4, rules.Crit}} {
		t.Run(fmt.Sprintf("x%v", c.factor), func(t *testing.T) {
			cur := slowerHour(prev.reqs, prev.slow, c.factor)
			acc := accumulateRequests(t, prev.m, cur)
			cfg := regressionConfig(t, regressionSettings)
			checkRegressionNeedsHistory(t, c.factor, acc, cfg)
			acc.History = &aggregate.History{Previous: prev.acc.Set, PreviousHour: prev.hour}
			findings, ne := rules.Evaluate(acc, cfg)
			for _, x := range ne {
				if x.Rule == rules.RuleRegression {
					t.Fatalf("not evaluated with a previous hour: %v", x)
				}
			}
			want, borderline := regressionOracle(prev, cur, regressionSettings)
			if got := want[regressionKey{"request_time", "region", prev.slow}]; got != c.want {
				t.Fatalf("×%v: the oracle wants %v for request_time of %s", c.factor, got, prev.slow)
			}
			got := checkRegressionFindings(t, c.factor, prev.slow, cur, findings, want, borderline)
			more := checkRegressionCap(t, c.factor, acc, findings, cfg)
			t.Logf("×%v: %d regression findings (%d more counted); oracle %d for region/all (%d borderline)", c.factor, got, more, len(want), len(borderline))
		})
	}
}

// checkRegressionNeedsHistory: without --state, and with a state
// directory that has no previous hour, the rule says why it did not run.
func checkRegressionNeedsHistory(t *testing.T, factor float64, acc *aggregate.Accumulator, cfg *rules.Config) {
	t.Helper()
	_, ne := rules.Evaluate(acc, cfg)
	if !hasNotEvaluated(ne, "needs --state") {
		t.Errorf("×%v: without history: not evaluated %v", factor, ne)
	}
	acc.History = &aggregate.History{}
	_, ne = rules.Evaluate(acc, cfg)
	if !hasNotEvaluated(ne, "no previous hour in the state directory") {
		t.Errorf("×%v: without a previous hour: not evaluated %v", factor, ne)
	}
}

// regressionThresholds are the latency_regression settings the test
// gives in its rules file, and its oracle judges with.
type regressionThresholds struct {
	MinRatio, MinIncreaseMs float64
	MinRequests             int64
	CritRatio               float64
	MaxKeys                 int64
}

// regressionSettings are SPEC §5's defaults, written out.
var regressionSettings = regressionThresholds{MinRatio: 1.5, MinIncreaseMs: 100, MinRequests: 200, CritRatio: 3, MaxKeys: 3}

// regressionConfig is the rules' settings with latency_regression's
// given in a rules file.
func regressionConfig(t *testing.T, rc regressionThresholds) *rules.Config {
	t.Helper()
	yaml := fmt.Sprintf("rules:\n  latency_regression: {min_ratio: %v, min_increase_ms: %v, min_requests: %d, crit_ratio: %v, max_keys: %d}\n",
		rc.MinRatio, rc.MinIncreaseMs, rc.MinRequests, rc.CritRatio, rc.MaxKeys)
	cfg, err := rules.Parse("regression.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// regressionOracle judges the exact p99 of each region and of all
// requests, on both sides, with the rule's thresholds; keys within 2 %
// of a threshold are borderline, left out of want.
func regressionOracle(prev *regressionHour, cur []gen.Request, rc regressionThresholds) (want map[regressionKey]rules.Severity, borderline map[regressionKey]bool) {
	want = map[regressionKey]rules.Severity{}
	borderline = map[regressionKey]bool{}
	judge := func(k regressionKey, before, after []float64) {
		p, np := exactP99(before)
		a, na := exactP99(after)
		if np < 200 || na < 200 || p <= 0 {
			return
		}
		near := func(x, thr float64) bool { return math.Abs(x-thr) <= 0.02*math.Max(math.Abs(thr), 1) }
		if near(a, rc.MinRatio*p) || near(a-p, rc.MinIncreaseMs) || near(a, rc.CritRatio*p) {
			borderline[k] = true
			return
		}
		if a >= rc.MinRatio*p && a-p >= rc.MinIncreaseMs {
			want[k] = rules.Warn
			if a >= rc.CritRatio*p {
				want[k] = rules.Crit
			}
		}
	}
	for mi, name := range aggregate.MetricNames {
		byRegion := func(reqs []gen.Request) map[string][]float64 {
			out := map[string][]float64{}
			for _, r := range reqs {
				if v := metricValues(r)[mi]; !math.IsNaN(v) {
					out[r.Region] = append(out[r.Region], v)
					out[""] = append(out[""], v)
				}
			}
			return out
		}
		b, a := byRegion(prev.reqs), byRegion(cur)
		judge(regressionKey{name, "all", "all"}, b[""], a[""])
		for _, reg := range prev.regions {
			judge(regressionKey{name, "region", reg}, b[reg], a[reg])
		}
	}
	return want, borderline
}

// checkRegressionFindings compares the findings with the oracle: every
// regression it wants, at its severity; none it rules out for a region
// or all; none for a key without requests in the slowed region. It
// returns how many regressions fired.
func checkRegressionFindings(t *testing.T, factor float64, slow string, cur []gen.Request, findings []rules.Finding,
	want map[regressionKey]rules.Severity, borderline map[regressionKey]bool) int {
	t.Helper()
	got := map[regressionKey]rules.Severity{}
	explained := map[regressionKey]bool{}
	for _, f := range findings {
		if f.Rule != rules.RuleRegression {
			continue
		}
		k := regressionKey{f.Key.Get("metric").(string), f.Key.Get("dimension").(string), f.Key.Get("key").(string)}
		got[k] = f.Severity
		if !touches(cur, slow, k.dim, k.key) {
			t.Errorf("×%v: finding for %s %q, which has no request in %s", factor, k.dim, k.key, slow)
		}
		for _, e := range f.Explains {
			explained[regressionKey{k.metric, e.Dimension, e.Key}] = true
			if !touches(cur, slow, e.Dimension, e.Key) {
				t.Errorf("×%v: %v explains %s %q, which has no request in %s", factor, k, e.Dimension, e.Key, slow)
			}
		}
	}
	for k, sev := range want {
		// A regression the slowed region explains is merged into its
		// finding (one cause, one finding).
		if explained[k] {
			if got[k] != rules.OK {
				t.Errorf("×%v: %v both explained and reported", factor, k)
			}
			continue
		}
		if got[k] != sev {
			t.Errorf("×%v: %v: severity %v, want %v", factor, k, got[k], sev)
		}
	}
	for k, sev := range got {
		if (k.dim == "region" || k.dim == "all") && !borderline[k] && want[k] != sev {
			t.Errorf("×%v: %v fired (%v), the oracle says no", factor, k, sev)
		}
		if k.dim == "region" && k.key != slow {
			t.Errorf("×%v: region %s fired, only %s was slowed", factor, k.key, slow)
		}
	}
	return len(got)
}

// checkRegressionCap: at most max_keys findings per metric and
// dimension; the keys left out are counted, and without the cap they all
// appear. It returns how many were counted rather than shown.
func checkRegressionCap(t *testing.T, factor float64, acc *aggregate.Accumulator, findings []rules.Finding, cfg *rules.Config) int64 {
	t.Helper()
	perDim := map[[2]string]int64{}
	var shown, more int64
	for _, f := range findings {
		if f.Rule != rules.RuleRegression {
			continue
		}
		shown++
		perDim[[2]string{f.Key.Get("metric").(string), f.Key.Get("dimension").(string)}]++
		if v, ok := f.Evidence.Get("more_keys_regressed").(int64); ok {
			more += v
		}
	}
	for k, n := range perDim {
		if n > regressionSettings.MaxKeys {
			t.Errorf("×%v: %d findings for %v, want at most %d", factor, n, k, regressionSettings.MaxKeys)
		}
	}
	noCap := regressionSettings
	noCap.MaxKeys = 0
	uncapped := regressionConfig(t, noCap)
	all, _ := rules.Evaluate(acc, uncapped)
	var total int64
	for _, f := range all {
		if f.Rule == rules.RuleRegression {
			total++
		}
	}
	if total != shown+more || (more == 0) != (total == shown) {
		t.Errorf("×%v: %d regressions without the cap, %d shown + %d counted with it", factor, total, shown, more)
	}
	return more
}

func hasNotEvaluated(ne []rules.NotEvaluated, reason string) bool {
	for _, x := range ne {
		if x.Rule == rules.RuleRegression && x.Reason == reason {
			return true
		}
	}
	return false
}

// touches says whether some request of region has this key.
func touches(reqs []gen.Request, region, dim, key string) bool {
	if dim == "all" {
		return true
	}
	for _, r := range reqs {
		if r.Region != region {
			continue
		}
		var k []string
		switch dim {
		case "region":
			k = []string{r.Region}
		case "model":
			k = []string{r.Model}
		case "status":
			k = []string{strconv.Itoa(r.Status)}
		case "client":
			k = []string{r.AppID, r.RemoteAddr}
		case "client_region":
			k = []string{r.ClientRegion}
		case "route":
			k = []string{r.ClientRegion + "→" + r.Region}
		case "stream":
			k = []string{strconv.FormatBool(r.Stream)}
		case "uri":
			k = []string{strings.SplitN(r.URI, "?", 2)[0]}
		}
		for _, x := range k {
			if x == key {
				return true
			}
		}
	}
	return false
}

// TestRegressionAgainstDayBefore: a region slowed since before the
// previous hour is as slow in both hours, so nothing regressed against
// the previous hour; against the same hour a day before, it did, and
// the finding says so (against day_before, the day before's hour). With
// no previous hour at all the day before is compared; a region slowed
// only in this hour is found against the previous hour, not twice.
func TestRegressionAgainstDayBefore(t *testing.T) {
	day := newRegressionHour(t) // the same hour a day before: nothing slow
	shift := func(reqs []gen.Request, d time.Duration) []gen.Request {
		out := make([]gen.Request, len(reqs))
		for i, r := range reqs {
			r.Time = r.Time.Add(d)
			out[i] = r
		}
		return out
	}
	// The previous hour (23 hours later) and this one (a day later), both
	// with the region four times slower.
	prevReqs := shift(slowerHour(day.reqs, day.slow, 4), 22*time.Hour) // slowerHour adds one
	prev := accumulateRequests(t, day.m, prevReqs)
	prevHour, _ := prev.FirstHour()
	cur := shift(prevReqs, time.Hour)
	cfg := regressionConfig(t, regressionSettings)
	regionFindings := func(h *aggregate.History) []rules.Finding {
		acc := accumulateRequests(t, day.m, cur)
		acc.History = h
		fs, ne := rules.Evaluate(acc, cfg)
		for _, x := range ne {
			if x.Rule == rules.RuleRegression {
				t.Fatalf("not evaluated: %v", x)
			}
		}
		var out []rules.Finding
		for _, f := range fs {
			if f.Rule == rules.RuleRegression && f.Key.Get("metric") == "request_time" && f.Key.Get("dimension") == "region" {
				out = append(out, f)
			}
		}
		return out
	}
	dayLabel := time.Unix(day.hour, 0).UTC().Format("2006-01-02T15:04Z")
	for _, h := range []*aggregate.History{
		{Previous: prev.Set, PreviousHour: prevHour, DayBefore: day.acc.Set, DayBeforeHour: day.hour},
		{DayBefore: day.acc.Set, DayBeforeHour: day.hour, Reason: "no previous hour"},
	} {
		fs := regionFindings(h)
		if len(fs) != 1 || fs[0].Key.Get("key") != day.slow || fs[0].Evidence.Get("against") != "day_before" ||
			fs[0].Evidence.Get("previous_hour") != dayLabel || !strings.Contains(fs[0].Title, "over the same hour a day before") {
			t.Errorf("previous hour %v: %d region findings %v; want one of %s against the day before (%s)", h.Previous != nil, len(fs), fs, day.slow, dayLabel)
		}
	}
	// Slowed in this hour only: found against the previous hour, once.
	fresh := accumulateRequests(t, day.m, shift(day.reqs, 23*time.Hour))
	freshHour, _ := fresh.FirstHour()
	fs := regionFindings(&aggregate.History{Previous: fresh.Set, PreviousHour: freshHour, DayBefore: day.acc.Set, DayBeforeHour: day.hour})
	if len(fs) != 1 || fs[0].Evidence.Get("against") != nil {
		t.Errorf("slowed in this hour: %d region findings %v; want one against the previous hour", len(fs), fs)
	}
	// Nor is any key the region explains found against the day before:
	// its clients with too few requests in the previous hour to judge
	// are the region's against the day before too.
	acc := accumulateRequests(t, day.m, cur)
	acc.History = &aggregate.History{Previous: fresh.Set, PreviousHour: freshHour, DayBefore: day.acc.Set, DayBeforeHour: day.hour}
	all, _ := rules.Evaluate(acc, cfg)
	for _, f := range all {
		if f.Rule == rules.RuleRegression && f.Evidence.Get("against") != nil {
			t.Errorf("slowed in this hour: a finding against the day before: %s %v", f.Title, f.Key)
		}
	}
}
