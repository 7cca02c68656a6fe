package rules

import (
	"container/heap"
	"math"
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
	top hashHeap            // the smallest hashes admitted, at most n, largest first
	in  map[uint64]struct{} // the hashes in top: several workers start one key
}

func newRetryShare(n int) *retryShare {
	r := &retryShare{n: n, in: map[uint64]struct{}{}}
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
	if _, ok := r.in[h]; ok {
		return true
	}
	switch {
	case len(r.top) < r.n:
		heap.Push(&r.top, h)
	case h >= r.top[0]:
		r.cut.Store(r.top[0])
		return false
	default:
		delete(r.in, r.top[0])
		r.top[0] = h
		heap.Fix(&r.top, 0)
		r.cut.Store(r.top[0])
	}
	r.in[h] = struct{}{}
	return true
}

// minPrune is the least number of retry samples a worker holds before it
// drops those above the shared cut: a sixteenth of the bound.
func (r *retryShare) minPrune() int { return max(1, r.n/16) }

// hashHeap is a max-heap of hashes (container/heap).
type hashHeap []uint64

func (h hashHeap) Len() int           { return len(h) }
func (h hashHeap) Less(i, j int) bool { return h[i] > h[j] }
func (h hashHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hashHeap) Push(x any)        { *h = append(*h, x.(uint64)) }
func (h *hashHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
