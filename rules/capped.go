package rules

import (
	"fmt"
	"math"
	"sort"
)

// capped is a collector's values per key (callers, their paths, the
// storm rule's retry samples), with a bound that keeps what it reports
// independent of how the records were split between workers and hours:
// it keeps the keys of the n smallest hashes (keyHash) of all the keys
// it saw, each from its first record, so that a kept key's value holds
// all its records. A key hashing above the cut is never started again.
// Up to n keys, every key is kept.
//
// Folding to the heaviest as the map grew, as it once did, dropped a
// caller's early records when it was light then, and which ones depended
// on the split: the counts the evidence showed differed with --workers.
type capped[V any] struct {
	m   map[string]V
	n   int
	cut uint64 // keys hashing above it are not kept; MaxUint64 until one was dropped
	// share, when set, is the bound shared with the other workers of
	// the input; nextPrune is the number of keys at which those above
	// its cut are next dropped.
	share     *retryShare
	nextPrune int
	// dropped is called when keys are dropped, for a cache of values.
	dropped func()
	// swept: no key hashes above sweptCut, the cut when the keys were
	// last swept (dropAbove). A key is added only under the cut of its
	// time, and the cut only falls, so a sweep at a cut not below
	// sweptCut has nothing to drop and hashes no key. A decoded map is
	// not swept (readCut, and the retry samples' decoder).
	swept    bool
	sweptCut uint64
}

func newCapped[V any](n int, share *retryShare) capped[V] {
	c := capped[V]{m: map[string]V{}, n: n, cut: math.MaxUint64, share: share}
	if share != nil {
		c.nextPrune = share.minPrune()
	}
	return c
}

// cappedKeys is how many keys a collector keeps per --top key: 64
// times, so that logs of tens of thousands of callers are kept whole
// at the default --top (a caller's entry is a few hundred bytes).
func cappedKeys(top int) int { return 8 * top }

// get returns key's value, starting it with start; false when the key
// is not kept.
func (c *capped[V]) get(key []byte, start func() V) (V, bool) {
	if v, ok := c.m[string(key)]; ok {
		return v, true
	}
	var zero V
	h := keyHash(key)
	if h > c.cut {
		return zero, false
	}
	if c.share != nil {
		if h > c.share.cut.Load() || !c.share.admit(h) {
			return zero, false
		}
		v := start()
		c.m[string(key)] = v
		if len(c.m) > c.nextPrune {
			c.sync()
			c.nextPrune = max(c.share.minPrune(), 2*len(c.m))
		}
		return v, true
	}
	v := start()
	c.m[string(key)] = v
	if len(c.m) > c.n+c.n/4 {
		c.prune()
		if _, ok := c.m[string(key)]; !ok {
			return zero, false
		}
	}
	return v, true
}

// sync lowers the cut to the shared one and drops the keys above it.
func (c *capped[V]) sync() {
	if c.share == nil {
		return
	}
	if cut := c.share.cut.Load(); cut < c.cut {
		c.cut = cut
	}
	c.dropAbove()
}

func (c *capped[V]) dropAbove() {
	if c.swept && c.cut >= c.sweptCut {
		return
	}
	c.swept, c.sweptCut = true, c.cut
	n := len(c.m)
	for k := range c.m {
		if keyHash(k) > c.cut {
			delete(c.m, k)
		}
	}
	if len(c.m) < n && c.dropped != nil {
		c.dropped()
	}
}

// prune keeps the n keys of smallest hash and lowers the cut to the
// largest kept.
func (c *capped[V]) prune() {
	if len(c.m) <= c.n {
		return
	}
	hs := make([]uint64, 0, len(c.m))
	for k := range c.m {
		hs = append(hs, keyHash(k))
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i] < hs[j] })
	c.cut = min(c.cut, hs[c.n-1])
	c.dropAbove()
}

// merge adds o's keys into c; both adds a key's two values.
func (c *capped[V]) merge(o *capped[V], both func(v, ov V)) {
	c.sync()
	o.sync()
	c.cut = min(c.cut, o.cut)
	// Each key is merged on its own, so the order of o's keys does not
	// matter; without a cut, no key is above it.
	for k, ov := range o.m {
		if c.cut != math.MaxUint64 && keyHash(k) > c.cut {
			continue
		}
		if v, ok := c.m[k]; ok {
			both(v, ov)
		} else {
			c.m[k] = ov
		}
	}
	c.dropAbove()
	if len(c.m) > c.n+c.n/4 {
		c.prune()
	}
}

// finish bounds the keys to n, after the last merge.
func (c *capped[V]) finish() {
	c.sync()
	c.prune()
}

// share is the part of the keys the kept ones were chosen from: 1 when
// every key was kept, else about the cut's part of the hashes.
func (c *capped[V]) keyShare() float64 {
	if c.cut == math.MaxUint64 {
		return 1
	}
	return float64(c.cut) / math.MaxUint64
}

// partly says, when keys were dropped, that the rule judged a hash
// sample of what ("callers" or "paths"): "" when every key was kept. The
// report translates the two texts (report.reasonPatterns).
func (c *capped[V]) partly(what string) string {
	share := c.keyShare()
	if share >= 1 {
		return ""
	}
	subject := "the callers"
	if what == "paths" {
		subject = "the callers' paths"
	}
	return fmt.Sprintf("partly: %s were judged from a hash sample of about %.3g %% of them, the log having more %s than kept",
		subject, 100*share, what)
}

// cutMark announces a capped map's cut at the front of its collector's
// state. The states written before there was a cut begin with a count,
// which a decoder refuses past MaxInt64/2: they never begin with it.
const cutMark = math.MaxUint64

// appendCut writes the cut, first in a collector's state.
func (c *capped[V]) appendCut(e *encoder) {
	e.Uint(cutMark)
	e.Uint(c.cut)
}

// readCut reads the cut. The state of an hour file of an older build has
// none: its keys were folded by count, and are kept as they are.
func (c *capped[V]) readCut(d *decoder) {
	c.swept = false
	c.cut = math.MaxUint64
	if d.Marked(cutMark) {
		c.cut = d.Uint()
	}
}
