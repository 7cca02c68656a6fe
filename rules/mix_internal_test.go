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

// mixHour makes an hour of 6,000 calls from 30 clients over one region,
// a tenth of them app-0's: model big answers in about 10 s, model small
// in about 1 s. Client app-0 sends share of its calls to big, the
// others a fifth of theirs.
func mixHour(seed uint64, start time.Time, share float64) []rec {
	rng := rand.New(rand.NewPCG(seed, seed))
	var out []rec
	for range 6000 {
		c := 1 + rng.IntN(29)
		if rng.Float64() < 0.1 {
			c = 0
		}
		model, rt := "small", 0.8+0.4*rng.Float64()
		if p := 0.2; c == 0 && rng.Float64() < share || c != 0 && rng.Float64() < p {
			model, rt = "big", 9+2*rng.Float64()
		}
		out = append(out, rec{at: start.Add(time.Duration(rng.Float64() * float64(time.Hour))), client: "app-" + strconv.Itoa(c),
			from: "ap-beijing", region: "ap-beijing", model: model, uri: "/v1/chat/completions", stream: yes, status: 200,
			rt: rt, urt: rt - 0.002, hasURT: true, ttft: 300})
	}
	return out
}

// TestModelMixExplainsKey: a client that moved its calls to a model slow
// before too regresses, by neither the model (which did not) nor its
// region: its finding stays, saying its requests of that model explain
// it (explained_by model_mix, model big), judged with the previous
// hour's pairs.
func TestModelMixExplainsKey(t *testing.T) {
	cfg := Default()
	prev := accumulate(t, cfg, mixHour(1, t0.Add(-time.Hour), 0.002))
	hour, _ := prev.FirstHour()
	acc := accumulate(t, cfg, mixHour(2, t0, 0.3))
	acc.History = &aggregate.History{Previous: prev.Set, PreviousHour: hour, PreviousCollectors: prev.Collectors}
	fs, _ := Evaluate(acc, cfg)
	var mine *Finding
	for i, f := range fs {
		if f.Rule != RuleRegression || f.Key.Get("metric") != "request_time" {
			continue
		}
		switch dim, key := f.Key.Get("dimension"), f.Key.Get("key"); {
		case dim == "client" && key == "app-0":
			mine = &fs[i]
		default:
			t.Errorf("a request_time regression of %v %v: only app-0 moved", dim, key)
		}
	}
	if mine == nil {
		t.Fatal("app-0, which moved 30 % of its calls to the slow model, has no request_time regression")
	}
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
		rng := rand.New(rand.NewPCG(seed, seed))
		var out []rec
		for range 6000 {
			c := 1 + rng.IntN(29)
			if rng.Float64() < 0.1 {
				c = 0
			}
			gen := 8 + 2*rng.Float64()
			stream, ttft := yes, 250+100*rng.Float64()
			if c == 0 && rng.Float64() < share || c != 0 && rng.Float64() < 0.2 {
				stream, ttft = no, gen*1000
			}
			out = append(out, rec{at: start.Add(time.Duration(rng.Float64() * float64(time.Hour))), client: "app-" + strconv.Itoa(c),
				from: "ap-beijing", region: "ap-beijing", model: "big", uri: "/v1/chat/completions", stream: stream, status: 200,
				rt: gen, urt: gen - 0.002, hasURT: true, ttft: ttft})
		}
		return out
	}
	cfg := Default()
	prev := accumulate(t, cfg, hourOf(1, t0.Add(-time.Hour), 0))
	hour, _ := prev.FirstHour()
	acc := accumulate(t, cfg, hourOf(2, t0, 0.33))
	acc.History = &aggregate.History{Previous: prev.Set, PreviousHour: hour, PreviousCollectors: prev.Collectors}
	fs, _ := Evaluate(acc, cfg)
	var mine *Finding
	for i, f := range fs {
		if f.Rule != RuleRegression || f.Key.Get("metric") != "ttft" {
			continue
		}
		if f.Key.Get("dimension") == "client" && f.Key.Get("key") == "app-0" {
			mine = &fs[i]
		} else {
			t.Errorf("a ttft regression of %v %v: only app-0 changed", f.Key.Get("dimension"), f.Key.Get("key"))
		}
	}
	if mine == nil {
		t.Fatal("app-0, a third of whose calls turned non-streaming, has no ttft regression")
	}
	if mine.Evidence.Get("explained_by") != "non_streaming" {
		t.Errorf("app-0's evidence %v: want explained_by non_streaming", mine.Evidence)
	}
}
