package rules

import (
	"fmt"
	"sort"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// One cause, one finding (SPEC §5). A slow region drags its clients,
// routes, client region, statuses and the models it serves: each of
// their p99s rises with it. latency_regression keeps the finding of the
// cause and lists the others in its Explains.
//
// From the literature of multi-dimensional root-cause localisation:
//
//   - Adtributor (Bhagwan et al., NSDI 2014) assumes the root cause lies
//     in one dimension, ranks its elements by explanatory power (the
//     share of the change they carry) and keeps the most succinct set
//     whose power reaches a threshold (T_EP, 0.67), each element
//     carrying at least T_EEP (0.1). Here a cause's explanatory power for
//     another key is its share of that key's requests, or of the
//     requests in that key's slow tail (above its previous p99); the
//     tail threshold is Adtributor's 0.67, and a key of a set must carry
//     at least 0.1 of the tail. Adtributor's surprise (how unlike the
//     previous period a share is), which picks between dimensions, is
//     left out: the candidate dimensions are fixed (region and model).
//   - HotSpot (Sun et al., 2018) scores a candidate by the ripple
//     effect: an anomaly of a set of elements spreads to every aggregate
//     that contains them in proportion, so a good candidate reproduces
//     the aggregates' deviations. For a p99, which does not add up,
//     the cheap converse is used, in the spirit of Squeeze's generalised
//     ripple effect for derived measures (Li et al., ISSRE 2019): the
//     other key without the candidate's requests (its sketch less their
//     bins) must be back within the rule's thresholds of its previous
//     p99 without them too — the previous hour's pairs, which its hour
//     file keeps, or its whole p99 when the file kept none (an older
//     build's) or too few requests are left to judge. Without the pairs
//     a region slowed on its own beside a model slowed everywhere was
//     merged into the model when the model had held the region's tail. Like Squeeze, candidates are searched within one attribute
//     at a time, a set of its keys when no single key suffices: two
//     slow regions together explain a model that neither explains
//     alone, and the model is listed in both findings' explains.
//
// Candidate causes are the keys of region and model, largest impact
// first; a cause explained by a larger one (a model whose slow requests
// are one region's) is itself merged. A batch job sees each key once,
// so no search tree is needed: each regressed key is tested against the
// few regressed causes.

// Thresholds of explanatory power.
const (
	explainShare     = 0.5  // of the other key's requests: "mostly"
	explainTailShare = 0.67 // of its slow tail (Adtributor's T_EP)
	explainMinShare  = 0.1  // of the tail, for a key of a set (T_EEP)
)

// regressedKey is one regression found, before merging.
type regressedKey struct {
	f         Finding
	dim       int // -1 for all
	key       string
	ch        *sketch.Change
	now       *sketch.Entry
	prev      *sketch.Entry // in the hour compared with; nil when it had none
	explained bool
}

func isCause(d int) bool { return d == aggregate.DimRegion || d == aggregate.DimModel }

func dimName(d int) string {
	if d < 0 {
		return "all"
	}
	return aggregate.DimNames[d]
}

// explain merges the regressions of metric m that a region's or a
// model's explains into its finding and returns the others. pairs are
// the window's; before the hour's compared with (nil when its file kept
// none).
func explain(cfg *regressionRule, pairs, before *regressionPairs, m int, cands []*regressedKey) []*regressedKey {
	var causes []*regressedKey
	for _, c := range cands {
		if isCause(c.dim) {
			causes = append(causes, c)
		}
	}
	sort.SliceStable(causes, func(i, j int) bool {
		a, b := &causes[i].f.Impact, &causes[j].f.Impact
		if a.Seconds != b.Seconds {
			return a.Seconds > b.Seconds
		}
		return causes[i].dim < causes[j].dim || causes[i].dim == causes[j].dim && causes[i].key < causes[j].key
	})
	for i, c := range causes {
		for _, by := range explainedBy(cfg, pairs, before, m, c, causes[:i]) {
			by.f.Explains = append(by.f.Explains, Explained{dimName(c.dim), c.key})
			c.explained = true
		}
	}
	// The whole input comes first: a key that is the whole input (a
	// status, stream flag or uri 99 % of the requests carry) is explained
	// by what explains it.
	var all *regressedKey
	var allBy []*regressedKey
	for _, c := range cands {
		if isCause(c.dim) {
			continue
		}
		by := explainedBy(cfg, pairs, before, m, c, causes)
		if c.dim < 0 {
			all, allBy = c, by
		} else if by == nil && allBy != nil && wholeOf(m, all, c) {
			by = allBy
		}
		for _, by := range by {
			by.f.Explains = append(by.f.Explains, Explained{dimName(c.dim), c.key})
			c.explained = true
		}
	}
	var kept []*regressedKey
	for _, c := range cands {
		if !c.explained {
			kept = append(kept, c)
		}
	}
	return kept
}

// explainedBy returns the causes that explain f's regression: one, or
// failing that the fewest keys of one cause dimension, largest impact
// first; nil when none does.
func explainedBy(cfg *regressionRule, pairs, before *regressionPairs, m int, f *regressedKey, causes []*regressedKey) []*regressedKey {
	part := func(c *regressedKey) *sketch.Counts {
		if c.explained || c.dim == f.dim {
			return nil
		}
		if f.dim < 0 {
			if s := c.now.Metric(m); s != nil {
				return s.Counts()
			}
			return nil
		}
		return pairs.metric(c.dim, c.key, f.dim, f.key, m)
	}
	// prevPart is c's part of f in the hour compared with: nil when it
	// had none; known false when that hour kept no pairs to tell.
	prevPart := func(c *regressedKey) (p *sketch.Counts, known bool) {
		if f.dim < 0 {
			if c.prev != nil {
				if s := c.prev.Metric(m); s != nil {
					return s.Counts(), true
				}
			}
			return nil, true
		}
		return before.metric(c.dim, c.key, f.dim, f.key, m), before != nil
	}
	for _, c := range causes {
		if s := part(c); s != nil {
			bp, known := prevPart(c)
			if explains(cfg, m, f, []*sketch.Counts{s}, []*sketch.Counts{bp}, known) {
				return []*regressedKey{c}
			}
		}
	}
	if f.dim < 0 {
		if set := regionAndModel(cfg, pairs, before, m, f, causes); set != nil {
			return set
		}
	}
	for _, cd := range causeDims {
		var set []*regressedKey
		var parts, prevParts []*sketch.Counts
		known := true
		for _, c := range causes {
			if c.dim != cd {
				continue
			}
			if s := part(c); s != nil && tailShare(f, m, s) >= explainMinShare {
				bp, k := prevPart(c)
				set, parts, prevParts, known = append(set, c), append(parts, s), append(prevParts, bp), known && k
				if len(set) > 1 && explains(cfg, m, f, parts, prevParts, known) {
					return set
				}
			}
		}
	}
	return nil
}

// regionAndModel returns a region and a model, both regressed, that
// explain the whole input's regression f together when neither does
// alone (a region slowed on its own beside a model slowed everywhere):
// the requests of either, those of both counted once (the region ×
// model pair). Largest impact first; nil when no two do.
func regionAndModel(cfg *regressionRule, pairs, before *regressionPairs, m int, f *regressedKey, causes []*regressedKey) []*regressedKey {
	counts := func(e *sketch.Entry) *sketch.Counts {
		if e != nil {
			if s := e.Metric(m); s != nil {
				return s.Counts()
			}
		}
		return nil
	}
	// union is a's and b's requests, their shared ones (p) once.
	union := func(a, b *sketch.Entry, p *regressionPairs, ra, mb string) *sketch.Counts {
		u := sketch.NewCounts(pairs.env.m)
		u.Merge(counts(a))
		u.Merge(counts(b))
		u.Sub(p.metric(aggregate.DimRegion, ra, aggregate.DimModel, mb, m))
		return u
	}
	for _, r := range causes {
		if r.explained || r.dim != aggregate.DimRegion {
			continue
		}
		for _, md := range causes {
			if md.explained || md.dim != aggregate.DimModel {
				continue
			}
			now := union(r.now, md.now, pairs, r.key, md.key)
			was := union(r.prev, md.prev, before, r.key, md.key)
			if tailShare(f, m, now) >= explainMinShare && explains(cfg, m, f, []*sketch.Counts{now}, []*sketch.Counts{was}, before != nil) {
				return []*regressedKey{r, md}
			}
		}
	}
	return nil
}

// explains says whether the requests of parts (disjoint parts of f's)
// explain f's regression: they are most of f's requests or of its slow
// tail, and without them f did not regress — against f without the same
// causes' requests in the hour compared with (prevParts, their parts
// then, nil for none) when known, else against f's whole previous p99.
func explains(cfg *regressionRule, m int, f *regressedKey, parts, prevParts []*sketch.Counts, known bool) bool {
	all := f.now.Metric(m)
	if all == nil || all.Count() == 0 {
		return false
	}
	prev99 := f.ch.Before.P99
	var n, tail int64
	for _, p := range parts {
		n += p.Count()
		tail += countAbove(p, prev99)
	}
	share := float64(n) / float64(all.Count())
	tailShare := excessShare(all.Count(), countAbove(all, prev99), n, tail)
	if share < explainShare && tailShare < explainTailShare {
		return false
	}
	rest := all
	for _, p := range parts {
		rest = rest.Without(p)
	}
	if rest.Count() < cfg.MinRequests {
		// Too few requests left for the rule to judge: what moved was
		// the cause's.
		return true
	}
	base := prev99
	if known && f.prev != nil && f.prev.Metric(m) != nil {
		was := f.prev.Metric(m)
		for _, p := range prevParts {
			if p != nil {
				was = was.Without(p)
			}
		}
		if was.Count() >= cfg.MinRequests {
			base = was.Quantile(0.99)
		}
	}
	p99 := rest.Quantile(0.99)
	return p99 < cfg.MinRatio*base || p99-base < cfg.MinIncreaseMs
}

// binned is a sketch or bin counts.
type binned interface {
	Bins(f func(lower, upper float64, count int64))
}

// tailShare is the share of f's slow tail (above its previous p99) in
// part.
func tailShare(f *regressedKey, m int, part *sketch.Counts) float64 {
	all := f.now.Metric(m)
	if all == nil {
		return 0
	}
	return excessShare(all.Count(), countAbove(all, f.ch.Before.P99), part.Count(), countAbove(part, f.ch.Before.P99))
}

// excessShare is the share of a key's growth of its slow tail that a
// part of its requests carries: of the n requests, tail are above the
// previous p99, where 1 % would have been had nothing changed; of the
// part's pn, ptail are. Adtributor's explanatory power is the share of
// the change, not of the total: the 1 % of a region's own requests
// above its old p99 are no part of its regression, and counted in the
// tail they held a model whose non-streaming calls were its whole
// growth to 54–64 % of it. 0 when the tail did not grow.
func excessShare(n, tail, pn, ptail int64) float64 {
	grown := float64(tail) - 0.01*float64(n)
	if grown <= 0 {
		return 0
	}
	return min(1, max(0, (float64(ptail)-0.01*float64(pn))/grown))
}

// countAbove counts the values of s in bins wholly above v: the bin
// that holds v holds the values about the old p99 (1 % wide, it held a
// region's steady requests at 590–600 ms as slower than 596).
func countAbove(s binned, v float64) int64 {
	var n int64
	s.Bins(func(lo, hi float64, c int64) {
		if lo >= v {
			n += c
		}
	})
	return n
}

// timeWent is where a key's time grew from the previous hour to this
// one: the change of the mean upstream, network and first-token times.
type timeWent struct {
	upstream, network, ttft          float64 // ms
	hasUpstream, hasNetwork, hasTTFT bool
}

func whereTimeWent(now, prev *sketch.Entry) timeWent {
	var w timeWent
	delta := func(m int) (float64, bool) {
		if now == nil || prev == nil {
			return 0, false
		}
		a, b := now.Metric(m), prev.Metric(m)
		if a == nil || b == nil || a.Count() == 0 || b.Count() == 0 {
			return 0, false
		}
		return a.Mean() - b.Mean(), true
	}
	w.upstream, w.hasUpstream = delta(aggregate.UpstreamResponseTime)
	w.network, w.hasNetwork = delta(aggregate.NetworkTime)
	w.ttft, w.hasTTFT = delta(aggregate.TTFT)
	return w
}

// grewIn names the phase that grew: upstream or network when one grew
// at least twice as much as the other; first_token when, the upstream
// having grown, the first token came later by at least half as much, or
// when the first token came later while the upstream's mean did not
// grow (a different mix of calls: non-streaming ones, whose first token
// is their whole answer) by twice what the network grew. A change of
// less than grewLeast is no growth: the network's +0.02 ms beside a
// first token 3 s later is not where the time went.
func (w timeWent) grewIn() string {
	if !w.hasUpstream || !w.hasNetwork {
		return "unknown"
	}
	up, net, ttft := max(w.upstream, 0), max(w.network, 0), 0.0
	if w.hasTTFT {
		ttft = max(w.ttft, 0)
	}
	switch {
	case up >= grewLeast && up >= 2*net:
		if ttft >= 0.5*up {
			return "first_token"
		}
		return "upstream"
	case ttft >= grewLeast && ttft >= 2*net:
		return "first_token"
	case net >= grewLeast && net >= 2*up && net >= 2*ttft:
		return "network"
	}
	return "unknown"
}

// grewLeast is the least change of a phase's mean, in ms, that grewIn
// takes for growth.
const grewLeast = 1.0

func (w timeWent) evidence() Fields {
	var out Fields
	if w.hasUpstream {
		out = append(out, Field{"upstream_mean_ms_delta", round(w.upstream, 3)})
	}
	if w.hasNetwork {
		out = append(out, Field{"network_mean_ms_delta", round(w.network, 3)})
	}
	if w.hasTTFT {
		out = append(out, Field{"ttft_mean_ms_delta", round(w.ttft, 3)})
	}
	return append(out, Field{"grew_in", w.grewIn()})
}

// clause says where the time went, for the title and the advice.
func (w timeWent) clause() string {
	switch w.grewIn() {
	case "upstream":
		return fmt.Sprintf(", the time grew in the upstream (%+.0f ms mean), not the network (%+.0f ms)", w.upstream, w.network)
	case "first_token":
		return fmt.Sprintf(", the time grew before the first token (%+.0f ms mean; upstream %+.0f ms, network %+.0f ms)", w.ttft, w.upstream, w.network)
	case "network":
		return fmt.Sprintf(", the time grew in the network (%+.0f ms mean), not the upstream (%+.0f ms)", w.network, w.upstream)
	}
	return ""
}
