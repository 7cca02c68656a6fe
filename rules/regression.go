package rules

import (
	"fmt"
	"time"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// regressionRule is latency_regression (SPEC §5): p99s well above the
// previous hour's, with --state.
type regressionRule struct {
	enabled
	MinRatio      float64
	MinIncreaseMs float64
	MinRequests   int64
	CritRatio     float64
	// MaxKeys is how many regressed keys of one metric and dimension are
	// reported, by impact; the rest are counted in the last one's evidence.
	MaxKeys int64
}

func newRegression() rule {
	return &regressionRule{enabled: enabled{true}, MinRatio: 1.5, MinIncreaseMs: 100, MinRequests: 200, CritRatio: 3, MaxKeys: 3}
}

func (*regressionRule) id() string { return RuleRegression }

func (r *regressionRule) params() []param {
	return []param{enabledP(&r.Enabled), floatP("min_ratio", &r.MinRatio), floatP("min_increase_ms", &r.MinIncreaseMs),
		intP("min_requests", &r.MinRequests), floatP("crit_ratio", &r.CritRatio), intP("max_keys", &r.MaxKeys)}
}

func (*regressionRule) needs(acc *aggregate.Accumulator) string { return regressionNeeds(acc) }

func (r *regressionRule) evaluate(acc *aggregate.Accumulator, col aggregate.Collector, cfg *Config) ([]Finding, string) {
	return regression(acc, r, col.(*regressionPairs), cfg), ""
}

func regressionNeeds(acc *aggregate.Accumulator) string {
	switch h := acc.History; {
	case h == nil:
		return "needs --state"
	case h.Previous == nil && h.DayBefore == nil && h.Reason != "":
		return h.Reason
	case h.Previous == nil && h.DayBefore == nil:
		return "no previous hour in the state directory"
	}
	return ""
}

// regression compares every p99 of the window — over the whole input and
// per metric, dimension and key — with the same one in the previous hour
// of the state directory. Keys whose change a region's or a model's
// explains are merged into its finding (explain); what is left is
// capped at max_keys per metric and dimension. Then the same against the
// same hour a day before (SPEC §7), for the keys that did not regress
// against the previous hour: a slowdown that began before the previous
// hour is slow in both, and only the day before shows it.
func regression(acc *aggregate.Accumulator, cfg *regressionRule, pairs *regressionPairs, all *Config) []Finding {
	h := acc.History
	seen := map[regressionKey]bool{}
	var out []Finding
	if h.Previous != nil {
		out = regressionAgainst(acc, cfg, pairs, h.Previous, all.historyPairs(h.PreviousCollectors), h.PreviousHour, "", seen)
	}
	if h.DayBefore != nil {
		out = append(out, regressionAgainst(acc, cfg, pairs, h.DayBefore, all.historyPairs(h.DayBeforeCollectors), h.DayBeforeHour, againstDayBefore, seen)...)
	}
	return out
}

// againstDayBefore is the evidence "against" of a regression over the
// same hour a day before; one over the previous hour has none.
const againstDayBefore = "day_before"

// regressionKey names one metric × dimension × key.
type regressionKey struct {
	m, dim int
	key    string
}

// regressionAgainst finds the regressions against the hour prev, which
// starts at Unix second start: against is "" for the previous hour,
// againstDayBefore for the day before. Keys in seen (found against the
// previous hour) are not found again, but still explain others: a
// region found against the previous hour explains its clients that the
// previous hour held too few requests of to judge. The keys that
// regressed are added to seen. then holds that hour's pairs, which say
// what a key measured without a cause's requests then too.
func regressionAgainst(acc *aggregate.Accumulator, cfg *regressionRule, pairs *regressionPairs, prev *sketch.Set, then *regressionPairs, start int64, against string, seen map[regressionKey]bool) []Finding {
	hour := time.Unix(start, 0).UTC().Format("2006-01-02T15:04Z")
	var out []Finding
	for m, mc := range sketch.Compare(prev, acc.Set) {
		var cands []*regressedKey
		found := map[*regressedKey]bool{} // found against the previous hour
		add := func(d int, dim, key string, ch *sketch.Change, now, before *sketch.Entry) {
			if f, ok := regressed(cfg, m, dim, ch, hour, against, now, before); ok {
				c := &regressedKey{f: f, dim: d, key: key, ch: ch, now: now, prev: before}
				cands = append(cands, c)
				found[c] = seen[regressionKey{m, d, key}]
			}
		}
		if mc.All != nil {
			add(-1, "all", "all", mc.All, acc.Set.All, prev.All)
		}
		for d, dc := range mc.By {
			for i := range dc.Changes {
				ch := &dc.Changes[i]
				add(d, dc.Dim, ch.Key, ch, acc.Set.Dims[d].Get(ch.Key), prev.Dims[d].Get(ch.Key))
			}
		}
		for _, c := range cands {
			seen[regressionKey{m, c.dim, c.key}] = true
		}
		var kept []*regressedKey
		for _, c := range wholeInput(m, explain(cfg, pairs, then, m, cands)) {
			if !found[c] {
				kept = append(kept, c)
			}
		}
		for _, c := range kept {
			if c.dim == aggregate.DimModel && nonStreamingExplains(cfg, pairs, then, m, c) {
				c.f.Evidence = append(c.f.Evidence, Field{"explained_by", "non_streaming"})
			} else if model, ok := mixExplains(cfg, pairs, then, m, c); ok && model == "" {
				c.f.Evidence = append(c.f.Evidence, Field{"explained_by", "non_streaming"})
			} else if ok {
				c.f.Evidence = append(c.f.Evidence, Field{"explained_by", "model_mix"}, Field{"model", model})
			}
		}
		for d := -1; d < aggregate.NumDims; d++ {
			var found []Finding
			for _, c := range kept {
				if c.dim == d {
					found = append(found, c.f)
				}
			}
			out = append(out, capKeys(found, cfg.MaxKeys)...)
		}
	}
	return out
}

// capKeys keeps the max findings of one metric and dimension with the
// largest impact. When one region slows down, its routes, clients and
// models regress with it; listing each would bury the cause, so the last
// finding kept counts the keys left out.
func capKeys(fs []Finding, max int64) []Finding {
	if max <= 0 || int64(len(fs)) <= max {
		return fs
	}
	SortFindings(fs)
	kept := fs[:max]
	last := &kept[max-1]
	last.Evidence = append(last.Evidence, Field{"more_keys_regressed", int64(len(fs)) - max})
	return kept
}

func regressed(c *regressionRule, m int, dim string, ch *sketch.Change, hour, against string, nowE, prevE *sketch.Entry) (Finding, bool) {
	now, prev := ch.After, ch.Before
	if now.Count < c.MinRequests || prev.Count < c.MinRequests {
		return Finding{}, false
	}
	p99, prev99 := now.P99, prev.P99
	if p99 < c.MinRatio*prev99 || p99-prev99 < c.MinIncreaseMs || prev99 <= 0 {
		return Finding{}, false
	}
	ratio := p99 / prev99
	sev := Warn
	if p99 >= c.CritRatio*prev99 {
		sev = Crit
	}
	metric := aggregate.MetricNames[m]
	key := ch.Key
	what := dim + " " + key
	if dim == "all" {
		what = "all requests"
	}
	w := whereTimeWent(nowE, prevE)
	ev := append(Fields{
		{"p99_ms", round(p99, 3)}, {"previous_p99_ms", round(prev99, 3)}, {"ratio", round(ratio, 2)},
		{"requests", now.Count}, {"previous_requests", prev.Count}, {"previous_hour", hour},
		{"mean_ms", round(now.Mean, 3)}, {"previous_mean_ms", round(prev.Mean, 3)},
	}, w.evidence()...)
	over := "the previous hour"
	if against != "" {
		// previous_hour is then the hour a day before.
		ev = append(ev, Field{"against", against})
		over = "the same hour a day before"
	}
	return Finding{
		Rule:     RuleRegression,
		Severity: sev,
		Key:      Fields{{"metric", metric}, {"dimension", dim}, {"key", key}},
		Title:    fmt.Sprintf("%s p99 of %s rose %.1f× over %s%s", metric, what, ratio, over, w.clause()),
		Evidence: ev,
		// Impact: how much longer the average request took than in the
		// previous hour.
		Impact: impact(now.Mean-prev.Mean, now.Count),
		Advice: fmt.Sprintf("Look at what changed for %s since %s (deploys, upstream capacity, traffic mix): its %s p99 went from %.0f ms to %.0f ms%s.",
			what, hour, metric, prev99, p99, w.clause()),
	}, true
}

// nonStreamingExplains says whether a model's regression is its
// non-streaming calls': they are most of its requests or of its slow
// tail's growth, and without them the model did not regress. A large
// model's calls turned non-streaming (or new ones that are) wait for
// the whole answer before the first byte: non_streaming_large_model's
// cause, which mergeNonStreaming then makes the one finding.
func nonStreamingExplains(cfg *regressionRule, pairs, before *regressionPairs, m int, c *regressedKey) bool {
	ns := string(aggregate.StreamKey(false))
	p := pairs.metric(aggregate.DimModel, c.key, aggregate.DimStream, ns, m)
	if p == nil || p.Count() == 0 {
		return false
	}
	bp := before.metric(aggregate.DimModel, c.key, aggregate.DimStream, ns, m)
	return explains(cfg, m, c, []*sketch.Counts{p}, []*sketch.Counts{bp}, before != nil)
}

// mixExplains returns the model whose requests explain the regression
// of a key no regressed cause explained (a client, a client region, a
// route, a uri), "" for the key's non-streaming calls, and whether
// either does: the key sent more of its requests to a model that did
// not regress, one slow before too (traffic moved to it), or more of
// them without streaming, whose first token waits for the answer. The
// key without the model's requests did not regress, nor did the key's
// requests of the model, and the model's share of the key grew: a mix,
// judged with the previous hour's pairs (none without them). The
// key's finding stays, saying so; a non_streaming_large_model finding of
// the model takes it (mergeNonStreaming).
func mixExplains(cfg *regressionRule, pairs, then *regressionPairs, m int, c *regressedKey) (model string, ok bool) {
	if c.dim < 0 || isCause(c.dim) || c.dim == aggregate.DimStream || pairs == nil || then == nil || c.prev == nil {
		return "", false
	}
	all, was := c.now.Metric(m), c.prev.Metric(m)
	if all == nil || was == nil || all.Count() == 0 || was.Count() == 0 {
		return "", false
	}
	var best string
	var grew float64
	// The models, then the non-streaming calls ("" names them).
	for _, model := range append(sortedKeys(pairs.causes[1]), "") {
		cd, ck := aggregate.DimModel, model
		if model == "" {
			cd, ck = aggregate.DimStream, string(aggregate.StreamKey(false))
		}
		p := pairs.metric(cd, ck, c.dim, c.key, m)
		if p == nil {
			continue
		}
		bp := then.metric(cd, ck, c.dim, c.key, m)
		rest, restWas := all.Without(p), was
		var before int64
		if bp != nil {
			restWas, before = was.Without(bp), bp.Count()
		}
		if rest.Count() < cfg.MinRequests || restWas.Count() < cfg.MinRequests || pairRegressed(cfg, p, bp) {
			continue
		}
		if r, b := rest.Quantile(0.99), restWas.Quantile(0.99); r >= cfg.MinRatio*b && r-b >= cfg.MinIncreaseMs {
			continue // the key without the model regressed too
		}
		g := float64(p.Count())/float64(all.Count()) - float64(before)/float64(was.Count())
		if g > grew {
			best, grew, ok = model, g, true
		}
	}
	return best, ok
}

// pairRegressed says whether a pair's requests regressed by the rule's
// thresholds: its p99 now against its p99 in the hour compared with,
// when that hour had enough of them to judge.
func pairRegressed(cfg *regressionRule, now, before *sketch.Counts) bool {
	if before == nil || before.Count() < cfg.MinRequests || now.Count() < cfg.MinRequests {
		return false
	}
	a, b := countsQuantile(now, 0.99), countsQuantile(before, 0.99)
	return a >= cfg.MinRatio*b && a-b >= cfg.MinIncreaseMs
}

// countsQuantile is the value at quantile q of bin counts: the middle
// of the bin holding the value of rank q(n−1), within the mapping's
// accuracy.
func countsQuantile(c *sketch.Counts, q float64) float64 {
	rank := int64(q * float64(c.Count()-1))
	var v float64
	var seen int64
	done := false
	c.Bins(func(lower, upper float64, n int64) {
		if done {
			return
		}
		if seen += n; seen > rank {
			v, done = (lower+upper)/2, true
		}
	})
	return v
}

// wholeOf says whether key c, of another dimension than a cause's, is
// the whole input all: 99 % or more of metric m's requests carry it.
func wholeOf(m int, all, c *regressedKey) bool {
	if all == nil || all.now == nil || all.now.Metric(m) == nil || isCause(c.dim) || c.dim < 0 || c.now == nil || c.now.Metric(m) == nil {
		return false
	}
	return float64(c.now.Metric(m).Count()) >= 0.99*float64(all.now.Metric(m).Count())
}

// wholeInput merges into the whole input's regression (dimension all)
// the keys of other dimensions that are the whole input: a status, a
// stream flag, a uri that 99 % or more of the requests carry regressed
// with it, by the same requests; listed in its explains, not as findings
// of their own (with two causes at once, ttft's all, status 200, stream
// true and the one uri were four findings of the same requests).
func wholeInput(m int, kept []*regressedKey) []*regressedKey {
	var all *regressedKey
	for _, c := range kept {
		if c.dim < 0 {
			all = c
		}
	}
	if all == nil || all.now == nil || all.now.Metric(m) == nil {
		return kept
	}
	out := kept[:0]
	for _, c := range kept {
		if c != all && wholeOf(m, all, c) {
			all.f.Explains = append(all.f.Explains, Explained{dimName(c.dim), c.key})
			continue
		}
		out = append(out, c)
	}
	return out
}
