package rules

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"loganalyze/ingest"
)

// TestRetryTimesCutKeepsTheSmallestHashes adds a caller's request times
// split between samples that each refuse times above their cut, merges
// them, and requires the times settle keeps to be the maxRequestTimes of
// smallest hash among all of them, computed from the whole list: the cut
// may refuse only times that could not have been kept.
func TestRetryTimesCutKeepsTheSmallestHashes(t *testing.T) {
	for trial := range 400 {
		rnd := rand.New(rand.NewPCG(7, uint64(trial)))
		n := []int{1, 63, 64, 65, 129, 300, 5000}[trial%7]
		parts := []int{1, 2, 5}[trial%3]
		{
			// Times of one minute, to the nanosecond: a sample keeps
			// them to the microsecond, so the want is of those.
			all, kept := make([]int64, n), make([]int64, n)
			for i := range all {
				all[i] = testMinute*60e9 + rnd.Int64N(60e9)
				if i > 0 && rnd.IntN(10) == 0 {
					all[i] = all[i-1] // the same time twice
				}
				kept[i] = all[i] - all[i]%1000
			}
			samples := make([]*retrySample, parts)
			for i := range samples {
				samples[i] = &retrySample{Minute: testMinute}
			}
			var r ingest.Record
			refused := 0
			for i, ts := range all {
				r.Reset()
				r.SetTime(ts)
				s := samples[i%parts]
				before := len(s.Requests)
				s.add(&r, false)
				if len(s.Requests) == before && !s.cutSet {
					t.Fatalf("n=%d: a time refused without a cut", n)
				}
				if len(s.Requests) == before {
					refused++
				}
			}
			ms, other := newMinuteStats(1, nil), newMinuteStats(1, nil)
			ms.samples.m["k"] = samples[0]
			for _, s := range samples[1:] {
				other.samples.m = map[string]*retrySample{"k": s}
				ms.mergeRetries(other)
			}
			ms.joinRetries()
			got := ms.samples.m["k"]
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
			if n >= 5000 && refused < n/2 {
				t.Errorf("n=%d parts=%d: only %d times refused by the cut", n, parts, refused)
			}
		}
	}
}

// TestRetryTimesCutAtTheLargestKept adds, to a sample full of times, a
// time that falls between the two largest it keeps when it is cut: it is
// among the smallest hashes, so it must be kept, in place of the largest.
func TestRetryTimesCutAtTheLargestKept(t *testing.T) {
	s := &retrySample{Minute: testMinute}
	var r ingest.Record
	add := func(ts int64) {
		r.Reset()
		r.SetTime(ts)
		s.add(&r, false)
	}
	const t0 = int64(testMinute * 60e9)
	var all []int64
	for i := range requestRoom {
		all = append(all, t0+int64(i)*1e6)
		add(all[i])
	}
	if s.cutSet {
		t.Fatalf("cut after %d times, before the sample was full", requestRoom)
	}
	slices.SortFunc(all, func(a, b int64) int {
		if c := cmp.Compare(timeHash(a), timeHash(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	kept := all[:maxRequestTimes] // sorted by (hash, time)
	lo, hi := keyOfTime(kept[len(kept)-2]), keyOfTime(kept[len(kept)-1])
	between := int64(-1)
	for ts := t0 + 1000; ts < t0+10_000_000_000; ts += 1000 { // a time a sample keeps whole
		if k := keyOfTime(ts); lo.less(k) && k.less(hi) && !slices.Contains(all, ts) {
			between = ts
			break
		}
	}
	if between < 0 {
		t.Fatal("no time between the two largest kept")
	}
	add(between) // the sample is full: cut, then this one added
	if !s.cutSet || s.reqCut != hi {
		t.Fatalf("cut set %v at %v, want at the largest of the %d kept, %v", s.cutSet, s.reqCut, maxRequestTimes, hi)
	}
	s.settle()
	want := append(kept[:len(kept)-1:len(kept)-1], between)
	slices.Sort(want)
	if times := s.requestTimes(nil); !slices.Equal(times, want) {
		t.Fatalf("kept %v, want %v", times, want)
	}
}

// testMinute is the minute of the tests' samples: 2023-11-14 22:13 UTC.
const testMinute = 28_333_333

// TestPruneTimesSelects holds pruneTimes against a sort of the same
// times by (hash, time): the same n kept, duplicates and all, and the
// largest kept's key returned; also for times of few distinct values,
// where the selection meets many equal to its pivot.
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
		largest := keyOfTime(want[n-1])
		slices.Sort(want)
		kept, gotLargest := pruneTimes(offs, base, n)
		got := (&retrySample{Minute: testMinute, Requests: kept}).requestTimes(nil)
		slices.Sort(got)
		if !slices.Equal(got, want) || gotLargest != largest {
			t.Fatalf("size %d, n %d: kept %v (largest %v), want %v (largest %v)", size, n, got, gotLargest, want, largest)
		}
	}
}
