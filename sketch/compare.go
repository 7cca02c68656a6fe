package sketch

// Summary is one sketch's count and quantiles, unrounded (in the unit of
// its values).
type Summary struct {
	Count         int64
	P50, P95, P99 float64
	Mean, Max     float64
}

func summarize(s *Sketch) Summary {
	return Summary{
		Count: s.Count(),
		P50:   s.Quantile(0.50), P95: s.Quantile(0.95), P99: s.Quantile(0.99),
		Mean: s.Mean(), Max: s.Max(),
	}
}

// Change is one metric of one key in two sets: before, after, and the
// ratios after ÷ before of its quantiles (0 when before's is 0).
type Change struct {
	Key                          string
	Before, After                Summary
	P50Ratio, P95Ratio, P99Ratio float64
}

// DimChanges are one dimension's changes, for the keys both sets hold
// with values on both sides, in the after set's order (Dim.Sorted).
type DimChanges struct {
	Dim     string
	Changes []Change
}

// MetricChanges is one metric compared over the whole input (All, key
// "all"; nil when a side has no value) and per dimension (By, every
// dimension of the after set in order, possibly without changes).
type MetricChanges struct {
	All *Change
	By  []DimChanges
}

// Compare compares every metric of after with the same metric of before,
// over the whole input and for every dimension key present on both
// sides; the result is indexed by metric. Both sets must have the same
// metrics and dimensions. The report's comparison tables and the
// latency_regression rule both read it.
func Compare(before, after *Set) []MetricChanges {
	before.expand()
	after.expand()
	out := make([]MetricChanges, after.metrics)
	for m := range out {
		mc := &out[m]
		if c, ok := change("all", before.All, after.All, m); ok {
			mc.All = &c
		}
		for d, dim := range after.Dims {
			dc := DimChanges{Dim: dim.Name}
			for _, ke := range dim.Sorted() {
				if be := before.Dims[d].Get(ke.Key); be != nil {
					if c, ok := change(ke.Key, be, ke.Entry, m); ok {
						dc.Changes = append(dc.Changes, c)
					}
				}
			}
			mc.By = append(mc.By, dc)
		}
	}
	return out
}

// change compares metric m of two entries; ok is false when either has
// no value.
func change(key string, before, after *Entry, m int) (Change, bool) {
	b, a := before.Metric(m), after.Metric(m)
	if b == nil || a == nil || b.Count() == 0 || a.Count() == 0 {
		return Change{}, false
	}
	c := Change{Key: key, Before: summarize(b), After: summarize(a)}
	ratio := func(after, before float64) float64 {
		if before > 0 {
			return after / before
		}
		return 0
	}
	c.P50Ratio = ratio(c.After.P50, c.Before.P50)
	c.P95Ratio = ratio(c.After.P95, c.Before.P95)
	c.P99Ratio = ratio(c.After.P99, c.Before.P99)
	return c, true
}
