package rules_test

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// The acceptance experiment of one cause, one finding (SPEC §5): two
// generated hours with the same seed, in the second one region's (or one
// model's) upstream 2.5× slower.

// keyOf returns a request's key in a dimension as the JSON lines reader
// keys it (client: app_id), and whether it has one.
func keyOf(r gen.Request, dim string) (string, bool) {
	switch dim {
	case "region":
		return r.Region, r.Region != ""
	case "model":
		return r.Model, r.Model != ""
	case "status":
		return strconv.Itoa(r.Status), true
	case "client":
		return r.AppID, r.AppID != ""
	case "client_region":
		return r.ClientRegion, r.ClientRegion != ""
	case "route":
		return r.ClientRegion + "→" + r.Region, r.ClientRegion != "" && r.Region != ""
	case "stream":
		return strconv.FormatBool(r.Stream), r.Model != ""
	case "uri":
		return strings.SplitN(r.URI, "?", 2)[0], r.URI != ""
	case "all":
		return "all", true
	}
	return "", false
}

var explainDims = []string{"all", "region", "model", "status", "client", "client_region", "route", "stream", "uri"}

// exactRegressions judges every metric, dimension and key from the exact
// p99s of the generated requests with the default thresholds: the keys
// that regressed, and those within 3 % of a threshold (borderline).
func exactRegressions(prev, cur []gen.Request) (regressed, borderline map[regressionKey]bool) {
	rc := regressionSettings
	regressed, borderline = map[regressionKey]bool{}, map[regressionKey]bool{}
	group := func(reqs []gen.Request, mi int) map[[2]string][]float64 {
		out := map[[2]string][]float64{}
		for _, r := range reqs {
			v := metricValues(r)[mi]
			if math.IsNaN(v) {
				continue
			}
			for _, d := range explainDims {
				if k, ok := keyOf(r, d); ok {
					out[[2]string{d, k}] = append(out[[2]string{d, k}], v)
				}
			}
		}
		return out
	}
	for mi, name := range aggregate.MetricNames {
		b, a := group(prev, mi), group(cur, mi)
		for dk, after := range a {
			p, np := exactP99(b[dk])
			q, nq := exactP99(after)
			if np < int(rc.MinRequests) || nq < int(rc.MinRequests) || p <= 0 {
				continue
			}
			k := regressionKey{name, dk[0], dk[1]}
			near := func(x, thr float64) bool { return math.Abs(x-thr) <= 0.03*math.Max(math.Abs(thr), 1) }
			if near(q, rc.MinRatio*p) || near(q-p, rc.MinIncreaseMs) {
				borderline[k] = true
				continue
			}
			if q >= rc.MinRatio*p && q-p >= rc.MinIncreaseMs {
				regressed[k] = true
			}
		}
	}
	return regressed, borderline
}

// slowUpstream slows the upstream of region's successful inference calls
// in place as gen.Slow does: upstream × factor, request_time longer by
// the same amount, ttft of non-streaming calls with it.
func slowUpstream(reqs []gen.Request, region string, factor float64) {
	for i := range reqs {
		r := &reqs[i]
		if r.Region != region || r.Model == "" || r.Status != 200 || len(r.UpstreamTimes) != 1 {
			continue
		}
		up := r.UpstreamTimes[0]
		r.UpstreamTimes = []float64{math.Round(up*factor*1000) / 1000}
		r.RequestTime = math.Round((r.RequestTime+r.UpstreamTimes[0]-up)*1000) / 1000
		if !r.Stream {
			r.TTFTms = r.RequestTime * 1000
		}
	}
}

type experiment struct {
	prev, cur  []gen.Request
	findings   []rules.Finding
	regressed  map[regressionKey]bool
	borderline map[regressionKey]bool
}

// runExperiment generates the two hours, the second with slow (and
// then edit), and evaluates the rules with the first as the previous
// hour.
func runExperiment(t *testing.T, slow gen.Slow, edit func([]gen.Request)) *experiment {
	t.Helper()
	return runExperimentBoth(t, slow, nil, edit)
}

// runExperimentBoth is runExperiment with both hours edited: the first
// by editBoth, the second by editBoth then edit.
func runExperimentBoth(t *testing.T, slow gen.Slow, editBoth func([]gen.Request) []gen.Request, edit func([]gen.Request)) *experiment {
	t.Helper()
	n := 30000
	if testing.Short() {
		n = 15000
	}
	start := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	prev := gen.Generate(gen.Config{Seed: 41, N: n, Start: start, Plants: gen.All})
	cur := gen.Generate(gen.Config{Seed: 41, N: n, Start: start.Add(time.Hour), Plants: gen.All, Slow: slow})
	if editBoth != nil {
		prev, cur = editBoth(prev), editBoth(cur)
	}
	if edit != nil {
		edit(cur)
	}
	h := newRegressionHourOf(t, prev)
	acc := accumulateRequests(t, h.m, cur)
	acc.History = &aggregate.History{Previous: h.acc.Set, PreviousHour: h.hour, PreviousCollectors: storedCollectors(t, h.m, h.acc)}
	findings, _ := rules.Evaluate(acc, rules.Default())
	reg, border := exactRegressions(prev, cur)
	return &experiment{prev: prev, cur: cur, findings: findings, regressed: reg, borderline: border}
}

// storedCollectors is what a run reads, for its history, of the rule
// statistics of an hour file holding acc: acc written, and read back with
// the history's collectors.
func storedCollectors(t *testing.T, m *sketch.Mapping, acc *aggregate.Accumulator) []aggregate.Collector {
	t.Helper()
	cfg := rules.Default()
	back, err := aggregate.Decode(aggregate.Options{Mapping: m, Top: 1000, Collectors: cfg.HistoryCollectors(m, 1000), OptionalCollectors: true}, acc.AppendBinary(nil))
	if err != nil {
		t.Fatal(err)
	}
	return back.Collectors
}

// regressions returns the latency_regression findings by metric.
func (e *experiment) regressions() map[string][]rules.Finding {
	out := map[string][]rules.Finding{}
	for _, f := range e.findings {
		if f.Rule == rules.RuleRegression {
			m := f.Key.Get("metric").(string)
			out[m] = append(out[m], f)
		}
	}
	return out
}

func findingKey(f rules.Finding) regressionKey {
	return regressionKey{f.Key.Get("metric").(string), f.Key.Get("dimension").(string), f.Key.Get("key").(string)}
}

// checkOneCause: per metric, the findings are exactly the causes' (one
// per cause key), present where the exact p99 of the cause regressed;
// every other key that regressed is in a finding's explains, and every
// key explained regressed (or is borderline) and is not a finding too.
func (e *experiment) checkOneCause(t *testing.T, causeDim string, causes []string) {
	t.Helper()
	byMetric := e.regressions()
	isCause := map[string]bool{}
	for _, c := range causes {
		isCause[c] = true
	}
	for _, metric := range aggregate.MetricNames {
		fs := byMetric[metric]
		explained := map[regressionKey]bool{}
		got := map[string]bool{}
		for _, f := range fs {
			k := findingKey(f)
			if k.dim != causeDim || !isCause[k.key] {
				t.Errorf("%s: a finding for %s %s; only %s %v were slowed", metric, k.dim, k.key, causeDim, causes)
				continue
			}
			got[k.key] = true
			for _, x := range f.Explains {
				ek := regressionKey{metric, x.Dimension, x.Key}
				explained[ek] = true
				if x.Dimension == causeDim && isCause[x.Key] {
					t.Errorf("%s: %s %s explains %s %s, slowed on its own", metric, causeDim, k.key, x.Dimension, x.Key)
				}
				if !e.regressed[ek] && !e.borderline[ek] {
					t.Errorf("%s: %s %s explains %s %q, which did not regress", metric, causeDim, k.key, x.Dimension, x.Key)
				}
			}
		}
		for _, c := range causes {
			k := regressionKey{metric, causeDim, c}
			if e.regressed[k] && !got[c] {
				t.Errorf("%s: %s %s regressed (exact p99s) and has no finding", metric, causeDim, c)
			}
			if got[c] && !e.regressed[k] && !e.borderline[k] {
				t.Errorf("%s: %s %s has a finding, the exact p99s did not regress", metric, causeDim, c)
			}
			delete(e.regressed, k)
		}
		for k := range e.regressed {
			if k.metric == metric && !explained[k] {
				t.Errorf("%v regressed (exact p99s) and no finding explains it", k)
			}
		}
		t.Logf("%s: %d findings, explaining %d keys", metric, len(fs), len(explained))
	}
}

// checkGrewIn: every regression finding says the time grew in phase.
func (e *experiment) checkGrewIn(t *testing.T, phase string) {
	t.Helper()
	for _, fs := range e.regressions() {
		for _, f := range fs {
			if g := f.Evidence.Get("grew_in"); g != phase {
				t.Errorf("%v: grew_in %v, want %s (%v)", findingKey(f), g, phase, f.Evidence)
			}
			if !strings.Contains(f.Title, "grew in the "+phase) {
				t.Errorf("%v: title %q does not say where the time went", findingKey(f), f.Title)
			}
		}
	}
}

// explainsOf returns the keys of dim that f explains.
func explainsOf(f rules.Finding, dim string) map[string]bool {
	out := map[string]bool{}
	for _, x := range f.Explains {
		if x.Dimension == dim {
			out[x.Key] = true
		}
	}
	return out
}

// share returns, per key of dim, the share of its requests that in(r).
func share(reqs []gen.Request, dim string, in func(gen.Request) bool) map[string]float64 {
	n, hit := map[string]float64{}, map[string]float64{}
	for _, r := range reqs {
		if k, ok := keyOf(r, dim); ok {
			n[k]++
			if in(r) {
				hit[k]++
			}
		}
	}
	out := map[string]float64{}
	for k := range n {
		out[k] = hit[k] / n[k]
	}
	return out
}

func requestTimeFinding(t *testing.T, e *experiment, dim, key string) rules.Finding {
	t.Helper()
	for _, f := range e.regressions()["request_time"] {
		if k := findingKey(f); k.dim == dim && k.key == key {
			return f
		}
	}
	t.Fatalf("no request_time finding for %s %s", dim, key)
	return rules.Finding{}
}

// TestOneCauseSlowRegion: one region 2.5× slower in the upstream gives
// one finding per metric that regressed, keyed on the region, naming
// the clients (those that call only it), its routes and the models it
// drags; the time grew in the upstream.
func TestOneCauseSlowRegion(t *testing.T) {
	const region = "ap-beijing"
	e := runExperiment(t, gen.Slow{Region: region, Factor: 2.5}, nil)
	rt := e.regressed[regressionKey{"request_time", "region", region}]
	up := e.regressed[regressionKey{"upstream_response_time", "region", region}]
	if !rt || !up {
		t.Fatalf("the exact p99s of %s did not regress: request_time %v, upstream %v", region, rt, up)
	}
	e.checkOneCause(t, "region", []string{region})
	e.checkGrewIn(t, "upstream")
	f := requestTimeFinding(t, e, "region", region)
	inRegion := func(r gen.Request) bool { return r.Region == region }
	clients := explainsOf(f, "client")
	nClients := 0
	for c, s := range share(e.cur, "client", inRegion) {
		if s >= 0.9 && e.regressed[regressionKey{"request_time", "client", c}] {
			nClients++
			if !clients[c] {
				t.Errorf("client %s sends %.0f %% of its requests to %s and regressed; not in explains %v", c, 100*s, region, f.Explains)
			}
		}
	}
	for c := range clients {
		if s := share(e.cur, "client", inRegion)[c]; s < 0.5 {
			t.Errorf("explains client %s, which sends %.0f %% of its requests to %s", c, 100*s, region)
		}
	}
	models := explainsOf(f, "model")
	if nClients == 0 || len(explainsOf(f, "route")) == 0 || len(models) == 0 {
		t.Errorf("explains no client (%d expected), route or model: %v", nClients, f.Explains)
	}
	for m := range models {
		if s := share(e.cur, "model", inRegion)[m]; s <= 0 {
			t.Errorf("explains model %s, of which %s serves nothing", m, region)
		}
	}
	t.Logf("%s", f.Title)
}

// TestOneCauseSlowModel: the same when one model is slowed.
func TestOneCauseSlowModel(t *testing.T) {
	const model = "qwen2-72b-instruct"
	e := runExperiment(t, gen.Slow{Model: model, Factor: 2.5}, nil)
	if !e.regressed[regressionKey{"request_time", "model", model}] {
		t.Fatalf("the exact request_time p99 of %s did not regress", model)
	}
	e.checkOneCause(t, "model", []string{model})
	e.checkGrewIn(t, "upstream")
	f := requestTimeFinding(t, e, "model", model)
	if len(f.Explains) == 0 {
		t.Errorf("the slowed model explains nothing")
	}
	t.Logf("%s; explains %v", f.Title, f.Explains)
}

// TestOneCauseTwoRegions: two regions slowed independently are two
// causes: a finding each, neither explaining the other.
func TestOneCauseTwoRegions(t *testing.T) {
	const a, b = "ap-beijing", "ap-shanghai"
	e := runExperiment(t, gen.Slow{Region: a, Factor: 2.5}, func(reqs []gen.Request) { slowUpstream(reqs, b, 3) })
	for _, reg := range []string{a, b} {
		if !e.regressed[regressionKey{"request_time", "region", reg}] {
			t.Fatalf("the exact request_time p99 of %s did not regress", reg)
		}
	}
	e.checkOneCause(t, "region", []string{a, b})
	fa, fb := requestTimeFinding(t, e, "region", a), requestTimeFinding(t, e, "region", b)
	if explainsOf(fa, "region")[b] || explainsOf(fb, "region")[a] {
		t.Errorf("one slowed region explains the other: %v / %v", fa.Explains, fb.Explains)
	}
	keys := func(f rules.Finding) []string {
		var out []string
		for _, x := range f.Explains {
			out = append(out, fmt.Sprintf("%s=%s", x.Dimension, x.Key))
		}
		sort.Strings(out)
		return out
	}
	t.Logf("%s explains %v; %s explains %v", a, keys(fa), b, keys(fb))
}

// TestOneCauseSmallModelTail: a model of an eighth of each region's
// requests, its upstream twenty times slower, makes each region's tail
// its own: regions' request_time regresses, their requests are not
// mostly the model's, and their growth of the slow tail is; the
// model's request_time finding explains every region that regressed,
// and no region is a finding of its own.
func TestOneCauseSmallModelTail(t *testing.T) {
	const model, factor = "minicpm-2b", 20
	e := runExperiment(t, gen.Slow{}, func(reqs []gen.Request) {
		for i := range reqs {
			r := &reqs[i]
			if r.Model != model || r.Status != 200 || len(r.UpstreamTimes) != 1 {
				continue
			}
			up := r.UpstreamTimes[0]
			r.UpstreamTimes = []float64{math.Round(up*factor*1000) / 1000}
			r.RequestTime = math.Round((r.RequestTime+r.UpstreamTimes[0]-up)*1000) / 1000
			if !r.Stream {
				r.TTFTms = r.RequestTime * 1000
			}
		}
	})
	f := requestTimeFinding(t, e, "model", model)
	regions := explainsOf(f, "region")
	n := 0
	for k := range e.regressed {
		if k.metric == "request_time" && k.dim == "region" {
			n++
			if !regions[k.key] {
				t.Errorf("region %s regressed (exact p99s), not in the model's explains %v", k.key, f.Explains)
			}
		}
	}
	if n == 0 {
		t.Fatal("no region's exact request_time p99 regressed: the test shows nothing")
	}
	for _, g := range e.regressions()["request_time"] {
		if k := findingKey(g); k.dim == "region" {
			t.Errorf("region %s is a finding of its own", k.key)
		}
	}
}

// TestOneCauseNonStreamingCalls: a large model's calls turned
// non-streaming in the second hour make its first token, and its
// regions', later; that is one cause with one fix, so there is one
// finding: non_streaming_large_model of the model, listing the model's
// ttft regression (and what that explained) in its explains, and no
// latency_regression of the model's or a region's ttft beside it.
func TestOneCauseNonStreamingCalls(t *testing.T) {
	const model = "qwen2-72b-instruct"
	e := runExperiment(t, gen.Slow{}, func(reqs []gen.Request) {
		for i := range reqs {
			r := &reqs[i]
			if r.Model == model && r.Stream && i%3 == 0 {
				r.Stream = false
				r.TTFTms = r.RequestTime * 1000
			}
		}
	})
	if !e.regressed[regressionKey{"ttft", "model", model}] {
		t.Fatalf("the exact ttft p99 of %s did not regress", model)
	}
	var ns *rules.Finding
	for i, f := range e.findings {
		if f.Rule == rules.RuleNonStreaming && f.Key.Get("model") == model {
			ns = &e.findings[i]
		}
	}
	if ns == nil {
		t.Fatalf("no non_streaming_large_model finding for %s: %v", model, e.findings)
	}
	if want := "latency_regression metric=ttft,dimension=model,key=" + model; !explainsOf(*ns, "rule")[want] {
		t.Errorf("the non-streaming finding does not list %q: %v", want, ns.Explains)
	}
	for _, f := range e.regressions()["ttft"] {
		if k := findingKey(f); k.dim == "model" && k.key == model || k.dim == "region" {
			t.Errorf("a ttft regression of %s %s beside the non-streaming finding", k.dim, k.key)
		}
	}
}

// TestOneCauseRegionBesideModel: a large model slowed everywhere, and a
// region slowed on its own. The model held the region's slow tail in
// the previous hour, so the region without the model's requests is below
// the region's whole previous p99: judged against that, the region looked
// explained by the model. Against the region without the model's
// requests in the previous hour too (the hour's pairs), it regressed on
// its own, as the exact p99s say: it is a finding of its own, not in the
// model's explains.
func TestOneCauseRegionBesideModel(t *testing.T) {
	const region, model = "ap-beijing", "qwen2-72b-instruct"
	// The region serves the model and the small ones: the model alone
	// holds its slow tail.
	small := map[string]bool{"qwen2-7b-instruct": true, "hunyuan-lite": true, "minicpm-2b": true, model: true, "": true}
	only := func(reqs []gen.Request) []gen.Request {
		out := reqs[:0]
		for _, r := range reqs {
			if r.Region != region || small[r.Model] {
				out = append(out, r)
			}
		}
		return out
	}
	e := runExperimentBoth(t, gen.Slow{Model: model, Factor: 2.5}, only, func(reqs []gen.Request) { slowUpstream(reqs, region, 1.8) })
	// The oracle: the region's exact request_time p99 without the model,
	// before and after, and the region's whole previous p99.
	p99 := func(reqs []gen.Request, in func(gen.Request) bool) float64 {
		var v []float64
		for _, r := range reqs {
			if in(r) && !math.IsNaN(metricValues(r)[aggregate.RequestTime]) {
				v = append(v, metricValues(r)[aggregate.RequestTime])
			}
		}
		p, _ := exactP99(v)
		return p
	}
	rest := func(r gen.Request) bool { return r.Region == region && r.Model != model }
	before, after := p99(e.prev, rest), p99(e.cur, rest)
	whole := p99(e.prev, func(r gen.Request) bool { return r.Region == region })
	rc := regressionSettings
	if !(after >= rc.MinRatio*before*1.05 && after-before >= rc.MinIncreaseMs) {
		t.Fatalf("%s without %s: p99 %v ms after, %v before: not the regression this test needs", region, model, after, before)
	}
	if after >= rc.MinRatio*whole {
		t.Fatalf("%s without %s: p99 %v ms, its whole previous p99 %v: the model did not hold its tail", region, model, after, whole)
	}
	var own bool
	for _, f := range e.regressions()["request_time"] {
		k := findingKey(f)
		if k.dim == "region" && k.key == region {
			own = true
		}
		if k.dim == "model" && explainsOf(f, "region")[region] {
			t.Errorf("model %s explains region %s, which regressed without it (p99 %v → %v ms)", k.key, region, before, after)
		}
	}
	if !own {
		t.Errorf("region %s regressed on its own (p99 without %s %v → %v ms) and has no finding", region, model, before, after)
	}
}
