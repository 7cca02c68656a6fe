package sketch

import (
	"sync"
	"sync/atomic"
)

// Admission is the level at which the sets that several workers fill
// from one input track each dimension's keys, shared between them.
//
// Alone, a set tracks up to its limit of keys per dimension, and the
// level of the merged set is the lowest that admits at most the limit
// of the whole input's keys (Dim). Each worker's set may so hold the
// limit: W workers of an input of a key per request hold W times it.
// Sharing the level, the workers count the keys they admit together,
// and raise the level together when the count passes the limit: they
// track the limit between them, and the level at the end is the same
// lowest level, so the result is the same as one set's.
type Admission struct {
	dims []admissionDim
}

type admissionDim struct {
	level atomic.Uint32 // read without the lock; written under it
	mu    sync.Mutex
	seen  map[uint64]struct{} // hashes of the keys admitted at level
}

// NewAdmission returns a shared admission for sets of dims dimensions.
func NewAdmission(dims int) *Admission {
	a := &Admission{dims: make([]admissionDim, dims)}
	for i := range a.dims {
		a.dims[i].seen = map[uint64]struct{}{}
	}
	return a
}

// Share makes s admit its dimensions' keys at the level a keeps for
// every set that shares it. Call it before the first record.
func (s *Set) Share(a *Admission) {
	if len(a.dims) != len(s.Dims) {
		panic("BUG: an admission of another number of dimensions")
	}
	for i, d := range s.Dims {
		d.shared = &a.dims[i]
	}
}

// admit counts a key of hash h that a set will track and returns the
// level now shared, at which the caller checks that h is still
// admitted: past limit keys, the level rises and the hashes it no
// longer admits are forgotten.
func (a *admissionDim) admit(h uint64, limit int) uint8 {
	a.mu.Lock()
	defer a.mu.Unlock()
	level := uint8(a.level.Load())
	if !admitted(h, level) {
		return level
	}
	a.seen[h] = struct{}{}
	for len(a.seen) > limit && level < maxLevel {
		level++
		for k := range a.seen {
			if !admitted(k, level) {
				delete(a.seen, k)
			}
		}
	}
	a.level.Store(uint32(level))
	return level
}

// sync raises d's level to the shared one, folding what it no longer
// admits.
func (d *Dim) sync() {
	if d.shared == nil {
		return
	}
	if lv := uint8(d.shared.level.Load()); lv > d.level {
		d.thin(lv)
	}
}
