package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The JSON breakdown lists a phase only where some request of the class
// carried it, and the phases and unknown add up to the mean request
// time (to the microsecond the sums are kept in); Markdown shows an
// absent phase as –, never 0.
func TestBreakdownJSONAbsentPhases(t *testing.T) {
	calls := append(repeat(3, call{"r", "m", "/v1/chat", 1, 200, 2.0, 1.9, 400}),
		repeat(2, call{"r", "m", "/v1/chat", 0, 200, 3.0, 0, 0})...)
	calls = append(calls, call{"r", "", "/v1/auth/token", -1, 200, 0.05, 0.04, 0})
	r := build(t, calls)
	var doc struct {
		Breakdown []struct {
			Class   string             `json:"class"`
			Count   int64              `json:"count"`
			Mean    float64            `json:"request_time_mean_ms"`
			Phases  map[string]float64 `json:"phases"`
			Unknown float64            `json:"unknown_ms"`
		} `json:"breakdown"`
	}
	if err := json.Unmarshal(mustJSON(t, r), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		count   int64
		mean    float64
		phases  map[string]float64
		unknown float64
	}{
		// network 100, generation 2000 − 400, first token the rest of the
		// upstream's 1900.
		"streaming":     {3, 2000, map[string]float64{"network_ms": 100, "generation_ms": 1600, "first_token_ms": 300}, 0},
		"non_streaming": {2, 3000, map[string]float64{}, 3000},
		"token":         {1, 50, map[string]float64{"network_ms": 10}, 40},
	}
	if len(doc.Breakdown) != len(want) {
		t.Fatalf("%d classes: %+v", len(doc.Breakdown), doc.Breakdown)
	}
	for _, c := range doc.Breakdown {
		w := want[c.Class]
		if c.Count != w.count || c.Mean != w.mean || c.Unknown != w.unknown || len(c.Phases) != len(w.phases) {
			t.Errorf("%s: %+v, want %+v", c.Class, c, w)
		}
		sum := math.Round(c.Unknown * 1000)
		for k, v := range c.Phases {
			if w.phases[k] != v {
				t.Errorf("%s %s: %v, want %v", c.Class, k, v, w.phases[k])
			}
			sum += math.Round(v * 1000)
		}
		if sum != math.Round(c.Mean*1000) {
			t.Errorf("%s: phases add up to %v µs, mean %v ms", c.Class, sum, c.Mean)
		}
	}
	md := string(renderIn(t, r, "md", LangEn))
	if !strings.Contains(md, "| non-streaming | 2 | 3000 | – | – | – | 3000 |") {
		t.Errorf("markdown breakdown:\n%s", md[strings.Index(md, "## Where"):][:600])
	}
}
