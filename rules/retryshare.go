package rules

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// retryShare is the bound the retry samples of the workers of one input
// keep between them: the n smallest hashes of all their client × key ×
// minute keys, the set a worker's samples are pruned to anyway once
// merged. Alone, each worker kept up to n keys of its own; sharing, the
// workers drop at once a key no merge would keep, and together hold
// about n.
type retryShare struct {
	n   int
	cut atomic.Uint64 // a key hashing above it is not kept; MaxUint64 until one was dropped
	mu  sync.Mutex
	// Until n keys are admitted, no key is dropped, and the hashes are
	// only listed (more), some twice (several workers start one key):
	// once more than n, and at least 16 more than when they were last
	// counted (listed distinct), they are sorted to count them. A log of
	// fewer keys than the bound, the common one, so takes an append per
	// key under the lock, where a heap and a set took an allocation and
	// two map operations.
	more   []uint64
	listed int
	// Once they are counted past n (top not nil), the n smallest hashes
	// admitted are in top, largest first, and in.
	top []uint64            // a max-heap
	in  map[uint64]struct{} // the hashes in top
}

func newRetryShare(n int) *retryShare {
	r := &retryShare{n: n}
	r.cut.Store(math.MaxUint64)
	return r
}

// admit counts a key of hash h a worker is about to start, and reports
// whether it is among the n smallest so far. Once a key is dropped the
// cut is the largest hash kept.
func (r *retryShare) admit(h uint64) bool {
	if h > r.cut.Load() {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.top == nil {
		r.more = append(r.more, h)
		if len(r.more) > r.n && len(r.more) >= r.listed+16 {
			r.count()
		}
		return h <= r.cut.Load()
	}
	if _, ok := r.in[h]; ok {
		return true
	}
	if h >= r.top[0] {
		r.cut.Store(r.top[0])
		return false
	}
	delete(r.in, r.top[0])
	r.top[0] = h
	siftDown(r.top)
	r.cut.Store(r.top[0])
	r.in[h] = struct{}{}
	return true
}

// count sorts the hashes listed and drops those listed twice; past n, it
// keeps the n smallest, lowers the cut to the largest of them, and
// admits from then on by top and in.
func (r *retryShare) count() {
	slices.Sort(r.more)
	r.more = slices.Compact(r.more)
	r.listed = len(r.more)
	if len(r.more) < r.n {
		return
	}
	top := r.more[:r.n]
	if len(r.more) > r.n {
		r.cut.Store(top[r.n-1])
	}
	slices.Reverse(top) // largest first: a max-heap
	r.in = make(map[uint64]struct{}, r.n)
	for _, h := range top {
		r.in[h] = struct{}{}
	}
	r.top, r.more = top, nil
}

// siftDown restores the max-heap h after its first element fell.
func siftDown(h []uint64) {
	i := 0
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1] > h[c] {
			c++
		}
		if h[i] >= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// minPrune is the least number of retry samples a worker holds before it
// drops those above the shared cut: a sixteenth of the bound.
func (r *retryShare) minPrune() int { return max(1, r.n/16) }
