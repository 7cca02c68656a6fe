package rules_test

import (
	"bytes"
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
		func() *aggregate.Accumulator { return aggregate.New(aggregate.Options{Mapping: m, Top: 1000}) })
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

func TestLatencyRegression(t *testing.T) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	n := 30000
	if testing.Short() {
		n = 12000
	}
	prev := gen.Generate(gen.Config{Seed: 21, N: n})
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
	slow := regions[1]
	prevAcc := accumulateRequests(t, m, prev)
	prevHour, _ := prevAcc.FirstHour()

	for _, c := range []struct {
		factor float64
		want   rules.Severity
	}{{2, rules.Warn}, {4, rules.Crit}} {
		cur := slowerHour(prev, slow, c.factor)
		acc := accumulateRequests(t, m, cur)
		cfg := rules.Default()
		_, ne := rules.Evaluate(acc, cfg)
		if !hasNotEvaluated(ne, "needs --state") {
			t.Errorf("without history: not evaluated %v", ne)
		}
		acc.History = &aggregate.History{}
		_, ne = rules.Evaluate(acc, cfg)
		if !hasNotEvaluated(ne, "no previous hour in the state directory") {
			t.Errorf("without a previous hour: not evaluated %v", ne)
		}
		acc.History = &aggregate.History{Previous: prevAcc.Set, PreviousHour: prevHour}
		findings, ne := rules.Evaluate(acc, cfg)
		for _, x := range ne {
			if x.Rule == rules.RuleRegression {
				t.Fatalf("not evaluated with a previous hour: %v", x)
			}
		}

		// The oracle: exact p99 of each region and of all requests, on
		// both sides, judged with the same thresholds; keys within 2 % of
		// a threshold are left out.
		type mk struct{ metric, dim, key string }
		want := map[mk]rules.Severity{}
		borderline := map[mk]bool{}
		judge := func(k mk, before, after []float64) {
			p, np := exactP99(before)
			a, na := exactP99(after)
			if np < 200 || na < 200 || p <= 0 {
				return
			}
			near := func(x, thr float64) bool { return math.Abs(x-thr) <= 0.02*math.Max(math.Abs(thr), 1) }
			rc := cfg.Regression
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
			b, a := byRegion(prev), byRegion(cur)
			judge(mk{name, "all", "all"}, b[""], a[""])
			for _, reg := range regions {
				judge(mk{name, "region", reg}, b[reg], a[reg])
			}
		}
		if want[mk{"request_time", "region", slow}] != c.want {
			t.Fatalf("×%v: the oracle wants %v for request_time of %s", c.factor, want[mk{"request_time", "region", slow}], slow)
		}

		got := map[mk]rules.Severity{}
		for _, f := range findings {
			if f.Rule != rules.RuleRegression {
				continue
			}
			k := mk{f.Key.Get("metric").(string), f.Key.Get("dimension").(string), f.Key.Get("key").(string)}
			got[k] = f.Severity
			if !touches(cur, slow, k.dim, k.key) {
				t.Errorf("×%v: finding for %s %q, which has no request in %s", c.factor, k.dim, k.key, slow)
			}
		}
		for k, sev := range want {
			if got[k] != sev {
				t.Errorf("×%v: %v: severity %v, want %v", c.factor, k, got[k], sev)
			}
		}
		for k, sev := range got {
			if (k.dim == "region" || k.dim == "all") && !borderline[k] && want[k] != sev {
				t.Errorf("×%v: %v fired (%v), the oracle says no", c.factor, k, sev)
			}
			if k.dim == "region" && k.key != slow {
				t.Errorf("×%v: region %s fired, only %s was slowed", c.factor, k.key, slow)
			}
		}
		// At most max_keys findings per metric and dimension; the keys
		// left out are counted, and without the cap they all appear.
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
			if n > cfg.Regression.MaxKeys {
				t.Errorf("×%v: %d findings for %v, want at most %d", c.factor, n, k, cfg.Regression.MaxKeys)
			}
		}
		uncapped := rules.Default()
		uncapped.Regression.MaxKeys = 0
		all, _ := rules.Evaluate(acc, uncapped)
		var total int64
		for _, f := range all {
			if f.Rule == rules.RuleRegression {
				total++
			}
		}
		if total != shown+more || (more == 0) != (total == shown) {
			t.Errorf("×%v: %d regressions without the cap, %d shown + %d counted with it", c.factor, total, shown, more)
		}
		t.Logf("×%v: %d regression findings (%d more counted); oracle %d for region/all (%d borderline)", c.factor, len(got), more, len(want), len(borderline))
	}
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
