// Package sketch holds mergeable quantile sketches (DDSketch, relative
// accuracy 1 % by default) and sets of them keyed by metric, dimension and
// key. It knows nothing about logs.
package sketch

import (
	"math"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/DataDog/sketches-go/ddsketch/mapping"
	"github.com/DataDog/sketches-go/ddsketch/store"
)

// DefaultAccuracy is the relative accuracy of every quantile.
const DefaultAccuracy = 0.01

// Mapping maps values to bins. One mapping is shared by every sketch that
// is merged with another.
type Mapping struct {
	m        *mapping.LogarithmicMapping
	min, max float64
	table    *indexTable // nil: every value's bin is m.Index's
}

// NewMapping returns the mapping for a relative accuracy in (0, 1).
func NewMapping(accuracy float64) (*Mapping, error) {
	m, err := mapping.NewLogarithmicMapping(accuracy)
	if err != nil {
		return nil, err
	}
	return &Mapping{m: m, min: m.MinIndexableValue(), max: m.MaxIndexableValue(), table: tableFor(accuracy, m)}, nil
}

// Accuracy returns the relative accuracy of the mapping.
func (m *Mapping) Accuracy() float64 { return m.m.RelativeAccuracy() }

// Bin is the bin of one value, computed once and added to many sketches.
type Bin struct {
	index int
	zero  bool
	v     float64
}

// Bin returns the bin of v. Negative values count as zero (latencies
// cannot be negative; a negative difference is clock noise). NaN is the
// caller's to avoid.
func (m *Mapping) Bin(v float64) Bin {
	if v <= m.min {
		return Bin{zero: true}
	}
	if t := m.table; t != nil && v >= t.min && v < t.max {
		return Bin{index: t.index(v), v: v}
	}
	if v > m.max {
		v = m.max
	}
	return Bin{index: m.m.Index(v), v: v}
}

// Sketch is a DDSketch of non-negative values with exact count, sum,
// minimum and maximum.
type Sketch struct {
	dd       *ddsketch.DDSketch
	pos      *store.DenseStore
	m        *Mapping
	zero     float64
	sum      exactSum
	min, max float64
}

// New returns an empty sketch.
func New(m *Mapping) *Sketch {
	pos := store.NewDenseStore()
	return &Sketch{
		dd:  ddsketch.NewDDSketch(m.m, pos, store.NewDenseStore()),
		pos: pos,
		m:   m,
		min: math.Inf(1),
		max: math.Inf(-1),
	}
}

// Add adds one value.
func (s *Sketch) Add(v float64) {
	if math.IsNaN(v) {
		return
	}
	s.AddBin(s.m.Bin(v))
}

// AddBin adds one value whose bin was computed with s's mapping.
func (s *Sketch) AddBin(b Bin) {
	if b.zero {
		s.zero++
		_ = s.dd.AddWithCount(0, 1) // zero is always trackable
		s.min = math.Min(s.min, 0)
		s.max = math.Max(s.max, 0)
		return
	}
	s.pos.Add(b.index)
	s.sum.add(b.v)
	if b.v < s.min {
		s.min = b.v
	}
	if b.v > s.max {
		s.max = b.v
	}
}

// NewLike returns an empty sketch with room for the bins like holds,
// from its lowest to its highest (none when like is nil or empty): the
// values of a time line's bucket, which spread as those of the bucket
// before it did, are then counted without its store growing a few dozen
// bins at a time, each a slice made again.
func NewLike(m *Mapping, like *Sketch) *Sketch {
	s := New(m)
	if like == nil {
		return s
	}
	lo, errLo := like.pos.MinIndex()
	hi, errHi := like.pos.MaxIndex()
	if errLo != nil || errHi != nil || lo >= hi {
		return s
	}
	// The store takes the range, then is emptied: Clear keeps the room.
	s.pos.AddWithCount(hi, 1)
	s.pos.AddWithCount(lo, 1)
	s.pos.Clear()
	return s
}

// Mapping returns the sketch's mapping.
func (s *Sketch) Mapping() *Mapping { return s.m }

// Count returns how many values were added.
func (s *Sketch) Count() int64 { return int64(s.dd.GetCount()) }

// Sum returns the exact sum of the values.
func (s *Sketch) Sum() float64 { return s.sum.float() }

// Mean returns the exact mean, or 0 for an empty sketch.
func (s *Sketch) Mean() float64 {
	if n := s.dd.GetCount(); n > 0 {
		return s.sum.float() / n
	}
	return 0
}

// Min returns the exact smallest value, or 0 for an empty sketch.
func (s *Sketch) Min() float64 {
	if s.Count() == 0 {
		return 0
	}
	return s.min
}

// Max returns the exact largest value, or 0 for an empty sketch.
func (s *Sketch) Max() float64 {
	if s.Count() == 0 {
		return 0
	}
	return s.max
}

// Quantile returns the value at quantile q in [0, 1]: within the relative
// accuracy of the value at rank ⌊q·(n−1)⌋ of the sorted values. An empty
// sketch gives 0. The result is clamped to the exact minimum and maximum.
func (s *Sketch) Quantile(q float64) float64 {
	v, err := s.dd.GetValueAtQuantile(q)
	if err != nil {
		return 0
	}
	return math.Max(s.min, math.Min(s.max, v))
}

// Merge adds o's values to s. Both must share a mapping.
func (s *Sketch) Merge(o *Sketch) {
	if o == nil || o.Count() == 0 {
		return
	}
	s.pos.MergeWith(o.pos)
	if o.zero > 0 {
		_ = s.dd.AddWithCount(0, o.zero)
		s.zero += o.zero
	}
	s.sum.merge(o.sum)
	s.min = math.Min(s.min, o.min)
	s.max = math.Max(s.max, o.max)
}

// Bins calls f for each non-empty bin in increasing order with the bin's
// bounds and count; zeros come first as the bin [0, 0].
func (s *Sketch) Bins(f func(lower, upper float64, count int64)) {
	if s.zero > 0 {
		f(0, 0, int64(s.zero))
	}
	s.pos.ForEach(func(index int, count float64) bool {
		f(s.m.m.LowerBound(index), s.m.m.LowerBound(index+1), int64(count))
		return false
	})
}
