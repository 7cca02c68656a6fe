package sketch

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Counts is the bin counts of values with a sketch's mapping, without
// the sum, the extremes or the sketch's store: the cheapest record of
// which bins a part of a sketch's values fell in, to take it out of the
// sketch again (Sketch.Without). A bin's count saturates at 2³²−1.
//
// The counts are 16 bits a bin until one passes 2¹⁶−1, then 32: an
// hour's latency_regression pairs hold some 6,500 of them, most of a few
// hundred values, at the end of a run with --state when its heap is
// largest.
type Counts struct {
	m    *Mapping
	zero uint32
	off  int      // index of the first bin
	bins []uint16 // the bins' counts while each is under 2¹⁶; nil once wide
	wide []uint32 // the bins' counts once one reached 2¹⁶
}

// NewCounts returns empty counts with mapping m.
func NewCounts(m *Mapping) *Counts { return &Counts{m: m} }

// AddBin adds one value whose bin was computed with c's mapping.
func (c *Counts) AddBin(b Bin) {
	if b.zero {
		c.zero = satAdd(c.zero, 1)
		return
	}
	c.add(c.slot(b.index), 1)
}

// slot returns the position of bin index in c's counts, growing them.
func (c *Counts) slot(index int) int {
	var k int
	if c.wide != nil {
		c.wide, c.off, k = growSlot(c.wide, c.off, index)
	} else {
		c.bins, c.off, k = growSlot(c.bins, c.off, index)
	}
	return k
}

// n is the number of bins c's counts span.
func (c *Counts) n() int {
	if c.wide != nil {
		return len(c.wide)
	}
	return len(c.bins)
}

// at returns the count of the bin at position k.
func (c *Counts) at(k int) uint32 {
	if c.wide != nil {
		return c.wide[k]
	}
	return uint32(c.bins[k])
}

// add adds n to the count of the bin at position k, widening the counts
// when it passes what 16 bits hold.
func (c *Counts) add(k int, n uint32) {
	if c.wide != nil {
		c.wide[k] = satAdd(c.wide[k], n)
		return
	}
	v := satAdd(uint32(c.bins[k]), n)
	if v <= math.MaxUint16 {
		c.bins[k] = uint16(v)
		return
	}
	c.wide = make([]uint32, len(c.bins), cap(c.bins))
	for i, x := range c.bins {
		c.wide[i] = uint32(x)
	}
	c.bins = nil
	c.wide[k] = v
}

// sub takes n from the count of the bin at position k, not below zero.
func (c *Counts) sub(k int, n uint32) {
	if c.wide != nil {
		c.wide[k] -= min(c.wide[k], n)
		return
	}
	c.bins[k] -= uint16(min(uint32(c.bins[k]), n))
}

// growSlot makes room for bin index in bins, whose first is bin off,
// and returns them with the position of index: it grows them by half
// again (at least 32 bins) on the side that needs it, so that a range
// filled from the middle out is copied a few times, not once per bin.
func growSlot[T uint8 | uint16 | uint32](bins []T, off, index int) ([]T, int, int) {
	switch {
	case len(bins) == 0:
		off = index - 16
		bins = make([]T, 48)
	case index < off:
		grow := off - index + max(32, len(bins)/2)
		nb := make([]T, len(bins)+grow)
		copy(nb[grow:], bins)
		bins, off = nb, off-grow
	case index >= off+len(bins):
		n := index - off + 1
		if n > cap(bins) {
			nb := make([]T, n, n+max(32, n/2))
			copy(nb, bins)
			bins = nb
		}
		bins = bins[:n]
	}
	return bins, off, index - off
}

// Reset empties c, keeping its room.
func (c *Counts) Reset() {
	c.zero = 0
	clear(c.bins)
	clear(c.wide)
}

// Merge adds o's counts; both must share a mapping.
func (c *Counts) Merge(o *Counts) {
	if o == nil {
		return
	}
	c.zero = satAdd(c.zero, o.zero)
	for k := range o.n() {
		if n := o.at(k); n > 0 {
			c.add(c.slot(o.off+k), n)
		}
	}
}

// Sub takes o's counts out of c, a bin's count not below zero: c less a
// part of its values (two overlapping parts' union, their shared values
// taken out once).
func (c *Counts) Sub(o *Counts) {
	if o == nil {
		return
	}
	c.zero -= min(c.zero, o.zero)
	for k := range o.n() {
		if i, n := o.off+k-c.off, o.at(k); n > 0 && i >= 0 && i < c.n() {
			c.sub(i, n)
		}
	}
}

// AddMetric adds the values of entry e's metric i, made with mapping m,
// as AddBin would add each: a light entry's listed values one by one, a
// sketch's bin counts (AppendCounts). It returns c, or, when c is nil
// and e has values of i, new counts holding them.
func (c *Counts) AddMetric(m *Mapping, e *Entry, i int) *Counts {
	if e.Metrics == nil {
		for b := range e.listed(i) {
			if c == nil {
				c = NewCounts(m)
			}
			c.AddBin(b)
		}
		return c
	}
	bins, zero := e.AppendCounts(i, nil)
	if len(bins) == 0 && zero == 0 {
		return c
	}
	if c == nil {
		c = NewCounts(m)
	}
	c.AddCounts(bins, zero)
	return c
}

// BinCount is one bin's index and count (Entry.AppendCounts).
type BinCount struct {
	Index int
	N     uint32
}

// AppendCounts appends the non-empty bins of metric i of an entry whose
// values are sketches (not light: Metrics is set), in increasing order,
// to dst; it returns them with the count of zeros.
func (e *Entry) AppendCounts(i int, dst []BinCount) ([]BinCount, uint32) {
	s := e.Metrics[i]
	if s == nil {
		return dst, 0
	}
	s.pos.ForEach(func(i int, n float64) bool {
		dst = append(dst, BinCount{Index: i, N: uint32(min(n, math.MaxUint32))})
		return false
	})
	return dst, uint32(min(s.zero, math.MaxUint32))
}

// AddCounts adds the counts AppendCounts gave, bins in increasing order.
func (c *Counts) AddCounts(bins []BinCount, zero uint32) {
	c.zero = satAdd(c.zero, zero)
	if len(bins) == 0 {
		return
	}
	c.slot(bins[0].Index) // the range grows to hold both ends
	c.slot(bins[len(bins)-1].Index)
	for _, b := range bins {
		c.add(b.Index-c.off, b.N)
	}
}

// Count returns how many values were added.
func (c *Counts) Count() int64 {
	n := int64(c.zero)
	for k := range c.n() {
		n += int64(c.at(k))
	}
	return n
}

// Bins calls f for each non-empty bin in increasing order with the bin's
// bounds and count; zeros come first as the bin [0, 0].
func (c *Counts) Bins(f func(lower, upper float64, count int64)) {
	if c.zero > 0 {
		f(0, 0, int64(c.zero))
	}
	for k := range c.n() {
		if n := c.at(k); n > 0 {
			f(c.m.m.LowerBound(c.off+k), c.m.m.LowerBound(c.off+k+1), int64(n))
		}
	}
}

func satAdd(a, b uint32) uint32 {
	if a > math.MaxUint32-b {
		return math.MaxUint32
	}
	return a + b
}

// Without returns a new sketch of s's values less those counted in c,
// when they are some of s's (a part of the records s was made of, with
// the same mapping): what "s without these records" measured, as a
// sketch like any other. A bin of c that s lacks subtracts nothing. The
// sum and mean are not known exactly: the mean is that of the bins'
// values, within the mapping's accuracy; the minimum and maximum are
// s's, narrowed to the bounds of the bins that remain.
func (s *Sketch) Without(c *Counts) *Sketch {
	n := New(s.m)
	var lo, hi int
	first := true
	s.pos.ForEach(func(i int, cnt float64) bool {
		if c != nil && i >= c.off && i < c.off+c.n() {
			cnt -= float64(c.at(i - c.off))
		}
		if cnt > 0 {
			n.pos.AddWithCount(i, cnt)
			n.sum.add(cnt * s.m.m.Value(i))
			if first {
				lo, first = i, false
			}
			hi = i
		}
		return false
	})
	n.zero = s.zero
	if c != nil {
		n.zero = max(0, s.zero-float64(c.zero))
	}
	if n.zero > 0 {
		_ = n.dd.AddWithCount(0, n.zero)
	}
	if n.Count() == 0 {
		return n
	}
	n.min, n.max = s.min, 0
	if n.zero == 0 {
		n.min = math.Max(s.min, s.m.m.LowerBound(lo))
	}
	if !first {
		n.max = math.Min(s.max, s.m.m.LowerBound(hi+1))
	}
	return n
}

// Counts returns the bin counts of s's values.
func (s *Sketch) Counts() *Counts {
	c := NewCounts(s.m)
	c.zero = uint32(min(s.zero, math.MaxUint32))
	s.pos.ForEach(func(i int, n float64) bool {
		c.add(c.slot(i), uint32(min(n, math.MaxUint32)))
		return false
	})
	return c
}

// AppendEncode appends the counts: the zeros, then the non-empty bins,
// their count and each one's index (the first's, then the step from the
// one before) and count.
func (c *Counts) AppendEncode(dst []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(c.zero))
	n := 0
	for k := range c.n() {
		if c.at(k) > 0 {
			n++
		}
	}
	dst = binary.AppendUvarint(dst, uint64(n))
	prev := 0
	first := true
	for k := range c.n() {
		x := c.at(k)
		if x == 0 {
			continue
		}
		if i := c.off + k; first {
			dst = binary.AppendVarint(dst, int64(i))
			prev, first = i, false
		} else {
			dst = binary.AppendUvarint(dst, uint64(i-prev))
			prev = i
		}
		dst = binary.AppendUvarint(dst, uint64(x))
	}
	return dst
}

// DecodeCountsWithin reads counts AppendEncode wrote, of mapping m, and
// returns them with the bytes after them. The bins they span are charged
// to budget first: damaged or crafted input gives an error, never a
// panic or a large allocation.
func DecodeCountsWithin(m *Mapping, b []byte, budget *Budget) (*Counts, []byte, error) {
	zero, b, err := uvarint(b)
	if err != nil {
		return nil, nil, err
	}
	n, b, err := uvarint(b)
	if err != nil {
		return nil, nil, err
	}
	if zero > math.MaxUint32 || n > uint64(len(b))/2 { // a bin takes at least 2 bytes
		return nil, nil, fmt.Errorf("%w: %d zeros, %d bins in %d bytes", errCorrupt, zero, n, len(b))
	}
	c := NewCounts(m)
	c.zero = uint32(zero)
	bins := make([]BinCount, 0, n)
	idx, first := 0, 0
	for k := range n {
		if k == 0 {
			v, k := binary.Varint(b)
			if k <= 0 || v < -maxIndexSpan || v > maxIndexSpan {
				return nil, nil, fmt.Errorf("%w: bad bin index", errCorrupt)
			}
			idx, b = int(v), b[k:]
			first = idx
		} else {
			var step uint64
			if step, b, err = uvarint(b); err != nil {
				return nil, nil, err
			}
			if step == 0 || step > maxIndexSpan || idx+int(step)-first > maxIndexSpan {
				return nil, nil, fmt.Errorf("%w: bad bin step", errCorrupt)
			}
			idx += int(step)
		}
		var x uint64
		if x, b, err = uvarint(b); err != nil {
			return nil, nil, err
		}
		if x == 0 || x > math.MaxUint32 {
			return nil, nil, fmt.Errorf("%w: bad bin count", errCorrupt)
		}
		bins = append(bins, BinCount{Index: idx, N: uint32(x)})
	}
	if len(bins) > 0 {
		if budget.bins -= int64(bins[len(bins)-1].Index-bins[0].Index) + 1; budget.bins < 0 {
			return nil, nil, fmt.Errorf("%w: the counts span more bins than the input allows", errCorrupt)
		}
	}
	c.AddCounts(bins, 0)
	return c, b, nil
}
