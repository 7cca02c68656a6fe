package rules

import (
	"fmt"
	"testing"
	"time"

	"loganalyze/aggregate"
)

func regressionCollector(t *testing.T, recs []rec) *regressionPairs {
	t.Helper()
	cfg := Default()
	slot, _, _, _ := cfg.slots()
	acc := accumulate(t, cfg, recs)
	for i, r := range cfg.rules {
		if r.id() == RuleRegression {
			return acc.Collectors[slot[i]].(*regressionPairs)
		}
	}
	t.Fatal("no latency_regression collector")
	return nil
}

// TestRegressionPairsExact: below the bound every pair holds exactly
// the requests of both keys, whichever worker read them; a route is
// its region's pair with its client region.
func TestRegressionPairsExact(t *testing.T) {
	var recs []rec
	want := map[[4]string]int64{}
	for i := range 600 {
		r := rec{at: t0.Add(time.Duration(i) * time.Second), client: fmt.Sprintf("c%d", i%7), from: []string{"a", "b"}[i%2],
			region: []string{"r1", "r2", "r3"}[i%3], model: []string{"m1", "m2"}[i/5%2], uri: "/v1/chat?x=1", status: 200 + i%3, rt: 0.1 + float64(i%50)/100}
		recs = append(recs, r)
		want[[4]string{"region", r.region, "client", r.client}]++
		want[[4]string{"region", r.region, "model", r.model}]++
		want[[4]string{"model", r.model, "region", r.region}]++
		want[[4]string{"model", r.model, "client", r.client}]++
		want[[4]string{"region", r.region, "route", r.from + "→" + r.region}]++
		want[[4]string{"model", r.model, "route", r.from + "→" + r.region}]++
		want[[4]string{"region", r.region, "uri", "/v1/chat"}]++
		want[[4]string{"model", r.model, "status", fmt.Sprint(r.status)}]++
	}
	c := regressionCollector(t, recs)
	dim := map[string]int{}
	for i, n := range aggregate.DimNames {
		dim[n] = i
	}
	for k, n := range want {
		p := c.get(dim[k[0]], k[1], dim[k[2]], k[3])
		if p == nil || p.count != n || p.metrics[aggregate.RequestTime].Count() != n {
			t.Errorf("pair %v: %+v, want %d requests", k, p, n)
		}
	}
	if p := c.get(aggregate.DimRegion, "r1", aggregate.DimRoute, "a→r2"); p != nil {
		t.Errorf("r1 × route a→r2: %+v, want none", p)
	}
	if c.folded != 0 {
		t.Errorf("folded %d pairs below the bound", c.folded)
	}
}

// TestRegressionPairsBounded: past twice --top pairs the lightest are
// dropped; the heavy ones stay.
func TestRegressionPairsBounded(t *testing.T) {
	var recs []rec
	for i := range 50 * 40 {
		recs = append(recs, rec{at: t0, client: fmt.Sprintf("heavy%02d", i%50), region: "r", rt: 0.2})
	}
	for i := range 450 {
		recs = append(recs, rec{at: t0, client: fmt.Sprintf("light%03d", i), region: "r", rt: 0.2})
	}
	c := regressionCollector(t, recs)
	if c.n > c.env.limit()+len(causeDims)*aggregate.NumDims || c.folded == 0 {
		t.Errorf("%d pairs kept, %d folded; the bound is %d", c.n, c.folded, c.env.limit())
	}
	for i := range 50 {
		if p := c.get(aggregate.DimRegion, "r", aggregate.DimClient, fmt.Sprintf("heavy%02d", i)); p == nil || p.count != 40 {
			t.Errorf("heavy%02d: %+v, want 40 requests", i, p)
		}
	}
}
