package rules

import (
	"strconv"
	"testing"
	"time"
)

// TestSameCauseStormAndBurst: a 429 storm and a 5xx burst on one region
// × model in overlapping minutes are one finding, listing the other;
// apart in time they are two.
func TestSameCauseStormAndBurst(t *testing.T) {
	storm := concat(minute(40, 200, 80, 429, 1), minute(41, 200, 80, 429, 1))
	burst := minute(41, 200, 40, 502, 0)
	for i := range burst {
		burst[i].client = "z" + burst[i].client // other callers, the same key
	}
	fs, _ := Evaluate(accumulate(t, Default(), concat(storm, burst)), Default())
	var got []Finding
	for _, f := range fs {
		if f.Rule == RuleStorm || f.Rule == RuleBurst {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d storm/burst findings, want 1: %+v", len(got), got)
	}
	other := RuleBurst
	if got[0].Rule == RuleBurst {
		other = RuleStorm
	}
	want := Explained{"rule", other + " region=eu,model=big-72b"}
	if len(got[0].Explains) != 1 || got[0].Explains[0] != want {
		t.Errorf("%s explains %v, want %v", got[0].Rule, got[0].Explains, want)
	}

	// The same burst twenty minutes later: two causes.
	late := minute(61, 200, 40, 502, 0)
	fs, _ = Evaluate(accumulate(t, Default(), concat(storm, late)), Default())
	rules := map[string]int{}
	for _, f := range fs {
		rules[f.Rule]++
		// Apart, each has its own impact; merged, the larger is kept.
		if (f.Rule == RuleStorm || f.Rule == RuleBurst) && f.Impact.Seconds > got[0].Impact.Seconds {
			t.Errorf("kept %s (%v s), %s alone costs more (%v s)", got[0].Rule, got[0].Impact.Seconds, f.Rule, f.Impact.Seconds)
		}
		if len(f.Explains) > 0 {
			t.Errorf("%s explains %v, its window does not overlap", f.Rule, f.Explains)
		}
	}
	if rules[RuleStorm] != 1 || rules[RuleBurst] != 1 {
		t.Errorf("findings by rule %v, want a storm and a burst", rules)
	}
}

// TestSameCauseBurstAndCeiling: 504s that each waited the 60 s a
// gateway allows, in a burst on one region × model, are the burst's
// errors and the time-out's requests alike: one finding, the burst,
// naming the ceiling. The same ceiling on requests that are no burst's
// errors (200s, spread over the hour) stays a finding of its own.
func TestSameCauseBurstAndCeiling(t *testing.T) {
	var recs []rec
	for m := range 3 {
		recs = append(recs, times(60, rec{region: "eu", model: "big-72b", status: 200, rt: 0.8}, func(i int, r *rec) {
			r.at = t0.Add(time.Duration(30+m)*time.Minute + time.Duration(i)*time.Second)
			r.client = "c" + strconv.Itoa(i%6)
			if i < 40 {
				r.status, r.rt = 504, 60
			}
		})...)
	}
	// The rest of the hour: other keys' calls, none near 60 s.
	recs = append(recs, times(3000, rec{region: "us", model: "small-7b", status: 200}, func(i int, r *rec) {
		r.at = t0.Add(time.Duration(i) * time.Hour / 3000)
		r.client = "d" + strconv.Itoa(i%9)
		r.rt = 0.5 + float64(i%97)/50
	})...)
	fs, _ := Evaluate(accumulate(t, Default(), recs), Default())
	byRule := map[string][]Finding{}
	for _, f := range fs {
		byRule[f.Rule] = append(byRule[f.Rule], f)
	}
	if len(byRule[RuleBurst]) != 1 || len(byRule[RuleTimeout]) != 0 {
		t.Fatalf("findings %v, want one burst and no ceiling", fs)
	}
	want := Explained{"rule", "timeout_ceiling all"}
	if b := byRule[RuleBurst][0]; len(b.Explains) != 1 || b.Explains[0] != want {
		t.Errorf("the burst explains %v, want %v", b.Explains, want)
	}

	// 200s that took the whole 60 s, spread over the hour: no burst's.
	for i := range recs {
		if recs[i].status == 504 {
			recs[i].status = 200
			recs[i].at = t0.Add(time.Duration(i%60) * time.Minute)
		}
	}
	fs, _ = Evaluate(accumulate(t, Default(), recs), Default())
	n := 0
	for _, f := range fs {
		if f.Rule == RuleTimeout {
			n++
		}
		if len(f.Explains) > 0 && f.Rule == RuleBurst {
			t.Errorf("a burst explains %v with no errors at the ceiling", f.Explains)
		}
	}
	if n != 1 {
		t.Errorf("%d ceiling findings, want 1: %v", n, fs)
	}
}
