package rules

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// clientHour makes an hour of 6,000 calls from 30 clients over one
// region, a tenth of them app-0's, each made by base: app-0's calls are
// changed by moved with probability share, the others' with
// probability a fifth.
func clientHour(seed uint64, start time.Time, share float64, base, moved func(rng *rand.Rand, r *rec)) []rec {
	rng := rand.New(rand.NewPCG(seed, seed))
	var out []rec
	for range 6000 {
		c := 1 + rng.IntN(29)
		if rng.Float64() < 0.1 {
			c = 0
		}
		r := rec{client: "app-" + strconv.Itoa(c), from: "ap-beijing", region: "ap-beijing", uri: "/v1/chat/completions", stream: yes, status: 200, hasURT: true}
		base(rng, &r)
		if c == 0 && rng.Float64() < share || c != 0 && rng.Float64() < 0.2 {
			moved(rng, &r)
		}
		r.at = start.Add(time.Duration(rng.Float64() * float64(time.Hour)))
		r.urt = r.rt - 0.002
		out = append(out, r)
	}
	return out
}

// mixHour is a clientHour where model big answers in about 10 s, model
// small in about 1 s: app-0 sends share of its calls to big.
func mixHour(seed uint64, start time.Time, share float64) []rec {
	return clientHour(seed, start, share,
		func(rng *rand.Rand, r *rec) { r.model, r.rt, r.ttft = "small", 0.8+0.4*rng.Float64(), 300 },
		func(rng *rand.Rand, r *rec) { r.model, r.rt = "big", 9+2*rng.Float64() })
}

// clientRegression evaluates the rules over cur with prev as the
// previous hour (its sets and its pairs), checks that of metric's
// regressions there is app-0's alone, and returns it.
func clientRegression(t *testing.T, prev, cur []rec, metric string) *Finding {
	t.Helper()
	cfg := Default()
	p := accumulate(t, cfg, prev)
	hour, _ := p.FirstHour()
	acc := accumulate(t, cfg, cur)
	acc.History = &aggregate.History{Previous: p.Set, PreviousHour: hour, PreviousCollectors: p.Collectors}
	fs, _ := Evaluate(acc, cfg)
	var mine *Finding
	for i, f := range fs {
		if f.Rule != RuleRegression || f.Key.Get("metric") != metric {
			continue
		}
		switch dim, key := f.Key.Get("dimension"), f.Key.Get("key"); {
		case dim == "client" && key == "app-0":
			mine = &fs[i]
		default:
			t.Errorf("a %s regression of %v %v: only app-0 changed", metric, dim, key)
		}
	}
	if mine == nil {
		t.Fatalf("app-0 has no %s regression", metric)
	}
	return mine
}

// TestModelMixExplainsKey: a client that moved its calls to a model slow
// before too regresses, by neither the model (which did not) nor its
// region: its finding stays, saying its requests of that model explain
// it (explained_by model_mix, model big), judged with the previous
// hour's pairs.
func TestModelMixExplainsKey(t *testing.T) {
	mine := clientRegression(t, mixHour(1, t0.Add(-time.Hour), 0.002), mixHour(2, t0, 0.3), "request_time")
	if mine.Evidence.Get("explained_by") != "model_mix" || mine.Evidence.Get("model") != "big" {
		t.Errorf("app-0's evidence %v: want explained_by model_mix, model big", mine.Evidence)
	}
}

// TestPairRegressed: a pair's p99 from its bin counts is the exact p99
// within the mapping's accuracy, and the pair regressed by the rule's
// thresholds only when both hours hold enough of its requests.
func TestPairRegressed(t *testing.T) {
	cfg := setting[*regressionRule](Default())
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	counts := func(n int, scale float64) (*sketch.Counts, float64) {
		c := sketch.NewCounts(m)
		var v []float64
		for i := range n {
			x := scale * (1 + float64(i%97))
			v = append(v, x)
			c.AddBin(m.Bin(x))
		}
		slices.Sort(v)
		return c, v[int(0.99*float64(n-1))]
	}
	a, exact := counts(500, 10)
	if got := countsQuantile(a, 0.99); math.Abs(got-exact) > 0.01*exact {
		t.Errorf("p99 of the counts %v, exact %v", got, exact)
	}
	slower, _ := counts(500, 20)
	few, _ := counts(int(cfg.MinRequests)-1, 10)
	if !pairRegressed(cfg, slower, a) {
		t.Error("a pair twice as slow did not regress")
	}
	if pairRegressed(cfg, a, a) || pairRegressed(cfg, slower, few) || pairRegressed(cfg, slower, nil) {
		t.Error("a pair regressed against itself, or against too few requests to judge")
	}
}

// TestNonStreamingExplainsKey: a client whose calls turn non-streaming
// (a third of them) regresses in ttft, the others sending a fifth of
// theirs so in both hours: its finding says its non-streaming calls
// explain it.
func TestNonStreamingExplainsKey(t *testing.T) {
	hourOf := func(seed uint64, start time.Time, share float64) []rec {
		return clientHour(seed, start, share,
			func(rng *rand.Rand, r *rec) { r.model, r.rt, r.ttft = "big", 8+2*rng.Float64(), 250+100*rng.Float64() },
			func(_ *rand.Rand, r *rec) { r.stream, r.ttft = no, r.rt*1000 })
	}
	mine := clientRegression(t, hourOf(1, t0.Add(-time.Hour), 0), hourOf(2, t0, 0.33), "ttft")
	if mine.Evidence.Get("explained_by") != "non_streaming" {
		t.Errorf("app-0's evidence %v: want explained_by non_streaming", mine.Evidence)
	}
}
