package rules

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedByKey is what pruneLimited keeps, found the plain way: every
// response sorted by time hash, time and Retry-After, the first n.
func sortedByKey(ls []Limited, n int) []Limited {
	ls = slices.Clone(ls)
	slices.SortFunc(ls, func(a, b Limited) int {
		if ha, hb := timeHash(a.T), timeHash(b.T); ha != hb {
			return cmp.Compare(ha, hb)
		}
		if a.T != b.T {
			return cmp.Compare(a.T, b.T)
		}
		return cmp.Compare(a.RetryAfter, b.RetryAfter)
	})
	return ls[:min(n, len(ls))]
}

func TestPruneLimitedKeepsSmallestHashes(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	retryAfters := []float64{0, 1, 2.5, 30, math.NaN()}
	for trial := range 2000 {
		size := 1 + rnd.IntN(600)
		n := []int{1, 2, maxLimitedTimes, 100}[trial%4]
		span := []int64{1, 5, 60e9, math.MaxInt64}[rnd.IntN(4)] // few times, many repeated, or all apart
		ls := make([]Limited, size)
		for i := range ls {
			ls[i] = Limited{T: testMinute*60e9 + rnd.Int64N(span), RetryAfter: retryAfters[rnd.IntN(len(retryAfters))]}
			if rnd.IntN(50) == 0 {
				ls[i].T = 0 // a hash of 0
			}
		}
		want := sortedByKey(ls, n)
		got := pruneLimited(slices.Clone(ls), n)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d kept of %d, want %d", trial, len(got), size, len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.T != w.T || !(g.RetryAfter == w.RetryAfter || math.IsNaN(g.RetryAfter) && math.IsNaN(w.RetryAfter)) {
				t.Fatalf("trial %d (%d of %d): kept[%d] = %+v, want %+v", trial, n, size, i, g, w)
			}
		}
	}
}

// Every hash 0: one bucket holds them all.
func TestPruneLimitedAllOneTime(t *testing.T) {
	ls := make([]Limited, 3*maxLimitedTimes)
	for i := range ls {
		ls[i] = Limited{T: 0, RetryAfter: float64(len(ls) - i)}
	}
	got := pruneLimited(slices.Clone(ls), maxLimitedTimes)
	for i, l := range got {
		if l.T != 0 || l.RetryAfter != float64(i+1) {
			t.Fatalf("kept[%d] = %+v, want T 0, Retry-After %d", i, l, i+1)
		}
	}
}
