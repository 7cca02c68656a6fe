package rules

import (
	"testing"
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
