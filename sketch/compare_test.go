package sketch

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// compareSet fills metric 0 of a two-metric set with lognormal values per
// key of dimension "region": key i gets 300·(i+1) values scaled by
// scale(i). Metric 1 has values only when withSecond is set.
func compareSet(m *Mapping, seed uint64, keys int, scale func(int) float64, withSecond bool) (*Set, map[string][]float64) {
	s := NewSet(m, 2, []string{"region", "empty"}, 100)
	r := rand.New(rand.NewPCG(seed, 7))
	vals := map[string][]float64{}
	for i := range keys {
		key := "r" + strconv.Itoa(i)
		for range 300 * (i + 1) {
			v := scale(i) * 200 * math.Exp(r.NormFloat64())
			for _, e := range []*Entry{s.All, s.Dims[0].Entry([]byte(key))} {
				e.Count++
				e.Add(m, 0, m.Bin(v))
				if withSecond {
					e.Add(m, 1, m.Bin(v))
				}
			}
			vals[key] = append(vals[key], v)
			vals["all"] = append(vals["all"], v)
		}
	}
	for _, v := range vals {
		sort.Float64s(v)
	}
	s.Finish()
	return s, vals
}

// TestCompareAgainstSortedValues: every ratio is within the sketches'
// accuracy of the ratio of the exact quantiles; only keys both sides
// hold are compared, in the after set's order; a metric one side lacks
// has no change.
func TestCompareAgainstSortedValues(t *testing.T) {
	m := testMapping(t)
	before, bv := compareSet(m, 1, 4, func(int) float64 { return 1 }, true)
	// After: one more key (absent before), key 2 three times slower.
	after, av := compareSet(m, 2, 5, func(i int) float64 { return map[bool]float64{true: 3, false: 1}[i == 2] }, false)
	got := Compare(before, after)
	if len(got) != 2 {
		t.Fatalf("%d metrics, want 2", len(got))
	}
	if second := got[1]; second.All != nil || len(second.By) != 2 || len(second.By[0].Changes) != 0 {
		t.Errorf("metric 1, without values after: %+v", second)
	}
	exact := func(v []float64, q float64) float64 { return v[int(q*float64(len(v)-1))] }
	check := func(c Change) {
		for i, q := range []float64{0.5, 0.95, 0.99} {
			want := exact(av[c.Key], q) / exact(bv[c.Key], q)
			ratio := []float64{c.P50Ratio, c.P95Ratio, c.P99Ratio}[i]
			if math.Abs(ratio-want) > 0.0205*want {
				t.Errorf("%s q%v: ratio %v, exact %v", c.Key, q, ratio, want)
			}
		}
		if c.Before.Count != int64(len(bv[c.Key])) || c.After.Count != int64(len(av[c.Key])) {
			t.Errorf("%s: counts %d, %d", c.Key, c.Before.Count, c.After.Count)
		}
		if b := bv[c.Key]; c.Before.Max != b[len(b)-1] {
			t.Errorf("%s: max before %v, exact %v", c.Key, c.Before.Max, b[len(b)-1])
		}
	}
	mc := got[0]
	if mc.All == nil || mc.All.Key != "all" {
		t.Fatalf("all: %+v", mc.All)
	}
	check(*mc.All)
	if len(mc.By) != 2 || mc.By[0].Dim != "region" || mc.By[1].Dim != "empty" || len(mc.By[1].Changes) != 0 {
		t.Fatalf("dimensions %+v", mc.By)
	}
	var keys []string
	for _, c := range mc.By[0].Changes {
		keys = append(keys, c.Key)
		check(c)
	}
	if got := strings.Join(keys, " "); got != "r3 r2 r1 r0" {
		t.Errorf("keys %s, want those both sides have, largest first", got)
	}
}

// TestCompareZeroBefore: a quantile of 0 before gives the ratio 0, not
// Inf.
func TestCompareZeroBefore(t *testing.T) {
	m := testMapping(t)
	before, after := NewSet(m, 1, nil, 10), NewSet(m, 1, nil, 10)
	before.All.Count, after.All.Count = 1, 1
	before.All.Add(m, 0, m.Bin(0))
	after.All.Add(m, 0, m.Bin(5))
	c := Compare(before, after)[0].All
	if c == nil || c.P50Ratio != 0 || c.P99Ratio != 0 || c.After.P99 == 0 {
		t.Errorf("change %+v, want ratios 0", c)
	}
}
