package rules

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"loganalyze/aggregate"
)

// twoCausesHour makes an hour of 6,000 streaming calls from 30 clients
// over three regions and three models, each request's first token
// slow more seconds for region beijing and model big.
func twoCausesHour(seed uint64, start time.Time, beijing, big float64) []rec {
	rng := rand.New(rand.NewPCG(seed, seed))
	regions := []string{"ap-guangzhou", "ap-shanghai", "ap-beijing"}
	models := []string{"qwen2-7b-instruct", "hunyuan-lite", "llama-3-70b-instruct"}
	var out []rec
	for range 6000 {
		c := rng.IntN(30)
		region, model := regions[c%3], models[rng.IntN(3)]
		slow := 0.0
		if region == "ap-beijing" {
			slow += beijing
		}
		if model == "llama-3-70b-instruct" {
			slow += big
		}
		ttft := 0.2 + 0.4*rng.Float64() + slow
		gen := float64(50+rng.IntN(350)) * 0.012 * (0.8 + 0.45*rng.Float64())
		out = append(out, rec{at: start.Add(time.Duration(rng.Float64() * float64(time.Hour))), client: "app-" + strconv.Itoa(c),
			from: region, region: region, model: model, uri: "/v1/chat/completions", stream: yes, status: 200,
			rt: ttft + gen + 0.002, urt: ttft + gen, hasURT: true, ttft: ttft * 1000})
	}
	return out
}

// TestWholeInputOneFinding: a region slowed and a model slowed
// everywhere, at once: the whole input's ttft regresses, explained by
// neither alone but by the two together (their requests, those of both
// once), and with it the status, the stream flag and the uri that every
// request carries, by the same requests. The two causes are the
// findings, each listing the whole input and those keys; none of the
// four is a finding of its own.
// Judged with the previous hour's pairs and without (an older file's).
func TestWholeInputOneFinding(t *testing.T) {
	for _, withPairs := range []bool{true, false} {
		t.Run(map[bool]string{true: "pairs", false: "no pairs"}[withPairs], func(t *testing.T) { wholeInputOneFinding(t, withPairs) })
	}
}

func wholeInputOneFinding(t *testing.T, withPairs bool) {
	cfg := Default()
	prev := accumulate(t, cfg, twoCausesHour(1, t0.Add(-time.Hour), 0, 0))
	hour, _ := prev.FirstHour()
	acc := accumulate(t, cfg, twoCausesHour(2, t0, 4, 8))
	acc.History = &aggregate.History{Previous: prev.Set, PreviousHour: hour}
	if withPairs {
		acc.History.PreviousCollectors = prev.Collectors
		if cfg.historyPairs(prev.Collectors) == nil {
			t.Fatal("the previous hour has no pairs")
		}
	}
	fs, _ := Evaluate(acc, cfg)
	causes := map[string]Finding{}
	for _, f := range fs {
		if f.Rule != RuleRegression || f.Key.Get("metric") != "ttft" {
			continue
		}
		switch d := f.Key.Get("dimension").(string); d {
		case "all", "status", "stream", "uri":
			t.Errorf("a ttft finding of the whole input's requests: %s", f.Title)
		case "region", "model":
			causes[d+"="+f.Key.Get("key").(string)] = f
		}
	}
	for _, key := range []string{"region=ap-beijing", "model=llama-3-70b-instruct"} {
		f, ok := causes[key]
		if !ok {
			t.Errorf("no ttft finding of %s: %v", key, causes)
			continue
		}
		got := map[Explained]bool{}
		for _, x := range f.Explains {
			got[x] = true
		}
		for _, x := range []Explained{{"all", "all"}, {"status", "200"}, {"stream", "true"}, {"uri", "/v1/chat/completions"}} {
			if !got[x] {
				t.Errorf("%s's finding does not list %v: %v", key, x, f.Explains)
			}
		}
	}
	if len(causes) != 2 {
		t.Errorf("ttft findings of regions and models: %d, want the two slowed", len(causes))
	}
}
