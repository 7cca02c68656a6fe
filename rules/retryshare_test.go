package rules

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// TestRetryShareSameAsAlone feeds the same records, 9,000 callers over
// 20 minutes with a 429 now and then, to one minutes collector alone
// and to three that share the retry bound (round robin, so that each
// caller's records go to one of them, as an IP per request does), with
// a bound of 500 samples: merged and finished, the shared ones must
// keep the same samples with the same times, and the workers must have
// held at most twice the bound between them (alone, each holds up to
// 1.25 times it).
func TestRetryShareSameAsAlone(t *testing.T) {
	const bound, workers, n = 500, 3, 30000
	alone := newMinuteStats(1, nil)
	alone.setRetryKeys(bound)
	share := newRetryShare(bound)
	parts := make([]*minuteStats, workers)
	for i := range parts {
		parts[i] = newMinuteStats(1, share)
		parts[i].setRetryKeys(bound)
	}
	var r ingest.Record
	v := aggregate.Values{Combo: -1}
	held := 0
	for i := range n {
		r.Reset()
		r.SetTime(t0.Add(time.Duration(i) * 40 * time.Millisecond).UnixNano())
		r.SetText(ingest.FRegion, []byte("ap-x"))
		r.SetText(ingest.FModel, []byte("m"))
		r.SetText(ingest.FClient, []byte(fmt.Sprint("c", i%9000)))
		status := 200.0
		if i%11 == 0 {
			status = 429
			r.SetFloat(ingest.FRetryAfter, 2)
		}
		r.SetFloat(ingest.FStatus, status)
		alone.Add(&r, &v)
		parts[i%workers].Add(&r, &v)
		if i%1000 == 999 {
			h := 0
			for _, p := range parts {
				h += p.log.live
			}
			held = max(held, h)
		}
	}
	if held > 2*bound {
		t.Errorf("the sharing workers held up to %d samples, want at most %d", held, 2*bound)
	}
	for _, p := range parts[1:] {
		parts[0].Merge(p)
	}
	parts[0].Finish()
	alone.Finish()
	if !alone.retriesPruned() || len(alone.samples.m) != bound {
		t.Fatalf("alone: %d samples, pruned %v: the bound was not reached", len(alone.samples.m), alone.retriesPruned())
	}
	got := parts[0]
	if got.samples.cut != alone.samples.cut || got.retriesPruned() != alone.retriesPruned() {
		t.Errorf("cut %x, pruned %v; alone %x, %v", got.samples.cut, got.retriesPruned(), alone.samples.cut, alone.retriesPruned())
	}
	keys := func(s *minuteStats) []string {
		k := make([]string, 0, len(s.samples.m))
		for x := range s.samples.m {
			k = append(k, x)
		}
		sort.Strings(k)
		return k
	}
	if a, b := keys(got), keys(alone); !reflect.DeepEqual(a, b) {
		t.Fatalf("shared: %d samples, alone %d, not the same keys", len(a), len(b))
	}
	for k, rs := range alone.samples.m {
		if !reflect.DeepEqual(got.samples.m[k], rs) {
			t.Errorf("sample %q: shared %+v, alone %+v", k, got.samples.m[k], rs)
		}
	}
}

// TestRetryShareAdmit admits hashes drawn from a pool, so that many come
// twice, as when several workers start one key: a hash among the n
// smallest distinct ones admitted so far is never refused, a refused one
// is not among them, and in the end the cut is the n-th smallest.
func TestRetryShareAdmit(t *testing.T) {
	for _, pool := range []int{50, 130, 3000} {
		const n = 100
		rng := rand.New(rand.NewPCG(1, uint64(pool)))
		hashes := make([]uint64, pool)
		for i := range hashes {
			hashes[i] = rng.Uint64()
		}
		r := newRetryShare(n)
		seen := map[uint64]bool{}
		for i := range 6000 {
			h := hashes[rng.IntN(pool)]
			seen[h] = true
			all := make([]uint64, 0, len(seen))
			for x := range seen {
				all = append(all, x)
			}
			slices.Sort(all)
			if among := slices.Index(all, h) < n; !r.admit(h) && among {
				t.Fatalf("pool %d, admit %d: %x is among the %d smallest of %d, refused", pool, i, h, n, len(all))
			}
		}
		all := slices.Sorted(maps.Keys(seen))
		want := uint64(math.MaxUint64)
		if len(all) > n {
			want = all[n-1]
		}
		if got := r.cut.Load(); got != want {
			t.Errorf("pool %d: cut %x, want %x, the %d-th smallest of %d", pool, got, want, n, len(all))
		}
	}
}
