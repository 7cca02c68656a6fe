package rules

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// TestRetryTimesCutKeepsTheSmallestHashes adds a caller's requests of
// one minute, some answered 429, to workers' logs small enough to be
// sorted and consolidated many times (in any order, so that the sample
// meets many chunks), merges them, and requires the sample made to hold
// the maxRequestTimes times and maxLimitedTimes 429s of smallest hash
// among all of them, computed from the whole list.
func TestRetryTimesCutKeepsTheSmallestHashes(t *testing.T) {
	defer func(n int) { logBuffer = n }(logBuffer)
	logBuffer = 16
	for trial := range 400 {
		rnd := rand.New(rand.NewPCG(7, uint64(trial)))
		n := []int{1, 63, 64, 65, 129, 300, 5000}[trial%7]
		parts := []int{1, 2, 5}[trial%3]
		// Times of one minute, to the nanosecond: a sample keeps them
		// to the microsecond, so the want is of those; a 429's time is
		// kept whole.
		all, kept := make([]int64, n), make([]int64, n)
		var limited []Limited
		for i := range all {
			all[i] = testMinute*60e9 + rnd.Int64N(60e9)
			if i > 0 && rnd.IntN(10) == 0 {
				all[i] = all[i-1] // the same time twice
			}
			kept[i] = all[i] - all[i]%1000
		}
		workers := make([]*minuteStats, parts)
		for i := range workers {
			workers[i] = newMinuteStats(1, nil)
		}
		var r ingest.Record
		v := aggregate.Values{Combo: -1}
		for i, ts := range all {
			r.Reset()
			r.SetTime(ts)
			r.SetText(ingest.FRegion, []byte("ap-x"))
			r.SetText(ingest.FModel, []byte("m"))
			r.SetText(ingest.FClient, []byte("c"))
			status := 200.0
			if i%3 == 0 {
				status = 429
				ra := float64(i % 5)
				r.SetFloat(ingest.FRetryAfter, ra)
				limited = append(limited, Limited{T: ts, RetryAfter: ra})
			}
			r.SetFloat(ingest.FStatus, status)
			workers[i%parts].Add(&r, &v)
		}
		ms := workers[0]
		for _, o := range workers[1:] {
			ms.Merge(o)
		}
		ms.joinRetries()
		if len(ms.samples.m) != 1 {
			t.Fatalf("n=%d parts=%d: %d samples, want 1", n, parts, len(ms.samples.m))
		}
		var got *retrySample
		for _, rs := range ms.samples.m {
			got = rs
		}
		got.settle()

		want := slices.Clone(kept)
		slices.SortFunc(want, func(a, b int64) int {
			if ha, hb := timeHash(a), timeHash(b); ha != hb {
				return cmp.Compare(ha, hb)
			}
			return cmp.Compare(a, b)
		})
		want = want[:min(len(want), maxRequestTimes)]
		slices.Sort(want)
		if times := got.requestTimes(nil); !slices.Equal(times, want) {
			t.Fatalf("n=%d parts=%d: kept %d times %v, want %d %v", n, parts, len(times), times, len(want), want)
		}
		limited = sortedByKey(limited, maxLimitedTimes)
		slices.SortFunc(limited, func(a, b Limited) int {
			if a.T != b.T {
				return cmp.Compare(a.T, b.T)
			}
			return cmp.Compare(a.RetryAfter, b.RetryAfter)
		})
		if !slices.Equal(got.Limited, limited) {
			t.Fatalf("n=%d parts=%d: kept 429s %v, want %v", n, parts, got.Limited, limited)
		}
	}
}

// testMinute is the minute of the tests' samples: 2023-11-14 22:13 UTC.
const testMinute = 28_333_333

// TestPruneTimesSelects holds pruneTimes against a sort of the same
// times by (hash, time): the same n kept, duplicates and all; also for
// times of few distinct values, where the selection meets many equal to
// its pivot.
func TestPruneTimesSelects(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	const base = testMinute * 60e9
	for trial := range 2000 {
		size := 2 + rnd.IntN(700)
		n := 1 + rnd.IntN(size-1)
		distinct := []int64{2, 5, 60e6}[trial%3]
		offs := make([]uint32, size)
		ts := make([]int64, size)
		for i := range offs {
			offs[i] = uint32(rnd.Int64N(distinct))
			ts[i] = base + int64(offs[i])*1000
		}
		want := slices.Clone(ts)
		slices.SortFunc(want, func(a, b int64) int {
			if c := cmp.Compare(timeHash(a), timeHash(b)); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		want = want[:n]
		slices.Sort(want)
		kept := pruneTimes(offs, base, n)
		got := (&retrySample{Minute: testMinute, Requests: kept}).requestTimes(nil)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("size %d, n %d: kept %v, want %v", size, n, got, want)
		}
	}
}
