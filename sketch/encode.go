package sketch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// maxIndexSpan bounds the bins a decoded sketch may span. Every value from
// 1e-9 to 1e308 at 1 % accuracy spans about 36,000 bins; crafted input
// cannot make a decoder allocate more than 64 Ki bins.
const maxIndexSpan = 1 << 16

const encodingVersion = 1

// AppendEncode appends s in a compact binary form to dst: the count of
// zeros, exact sum, minimum and maximum, and the non-empty bins as
// delta-coded indexes with counts.
func (s *Sketch) AppendEncode(dst []byte) []byte {
	dst = append(dst, encodingVersion)
	dst = binary.AppendUvarint(dst, uint64(s.zero))
	dst = binary.LittleEndian.AppendUint64(dst, s.sum.Hi)
	dst = binary.LittleEndian.AppendUint64(dst, s.sum.Lo)
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(s.min))
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(s.max))
	n := 0
	s.pos.ForEach(func(int, float64) bool { n++; return false })
	dst = binary.AppendUvarint(dst, uint64(n))
	prev := 0
	first := true
	s.pos.ForEach(func(index int, count float64) bool {
		if first {
			dst = binary.AppendVarint(dst, int64(index))
			first = false
		} else {
			dst = binary.AppendUvarint(dst, uint64(index-prev))
		}
		prev = index
		dst = binary.AppendUvarint(dst, uint64(count))
		return false
	})
	return dst
}

var errCorrupt = errors.New("corrupt sketch")

// Decode reads a sketch written by AppendEncode from the start of b and
// returns it with the bytes that follow it. Sizes are checked before
// anything is allocated, so damaged or crafted input gives an error.
func Decode(m *Mapping, b []byte) (*Sketch, []byte, error) {
	if len(b) < 1 || b[0] != encodingVersion {
		return nil, nil, fmt.Errorf("%w: unknown version", errCorrupt)
	}
	b = b[1:]
	zero, b, err := uvarint(b)
	if err != nil {
		return nil, nil, err
	}
	if len(b) < 32 {
		return nil, nil, fmt.Errorf("%w: short", errCorrupt)
	}
	s := New(m)
	s.sum = exactSum{Uint128{Hi: binary.LittleEndian.Uint64(b), Lo: binary.LittleEndian.Uint64(b[8:])}}
	s.min = math.Float64frombits(binary.LittleEndian.Uint64(b[16:]))
	s.max = math.Float64frombits(binary.LittleEndian.Uint64(b[24:]))
	b = b[32:]
	n, b, err := uvarint(b)
	if err != nil {
		return nil, nil, err
	}
	if n > uint64(len(b))/2 || n > maxIndexSpan {
		return nil, nil, fmt.Errorf("%w: %d bins in %d bytes", errCorrupt, n, len(b))
	}
	var first int64
	index := int64(0)
	for i := uint64(0); i < n; i++ {
		if i == 0 {
			v, k := binary.Varint(b)
			if k <= 0 || v < -maxIndexSpan || v > maxIndexSpan {
				return nil, nil, fmt.Errorf("%w: bad index", errCorrupt)
			}
			b = b[k:]
			index, first = v, v
		} else {
			d, rest, err := uvarint(b)
			if err != nil {
				return nil, nil, err
			}
			b = rest
			if d == 0 || d > maxIndexSpan || index+int64(d)-first > maxIndexSpan {
				return nil, nil, fmt.Errorf("%w: index span too wide", errCorrupt)
			}
			index += int64(d)
		}
		c, rest, err := uvarint(b)
		if err != nil {
			return nil, nil, err
		}
		b = rest
		if c == 0 || c > 1<<53 {
			return nil, nil, fmt.Errorf("%w: bad count", errCorrupt)
		}
		s.pos.AddWithCount(int(index), float64(c))
	}
	if zero > 1<<53 {
		return nil, nil, fmt.Errorf("%w: bad zero count", errCorrupt)
	}
	if zero > 0 {
		s.zero = float64(zero)
		_ = s.dd.AddWithCount(0, s.zero)
	}
	if s.Count() > 0 && (math.IsNaN(s.min) || math.IsNaN(s.max) || s.min > s.max) {
		return nil, nil, fmt.Errorf("%w: bad summary", errCorrupt)
	}
	return s, b, nil
}

func uvarint(b []byte) (uint64, []byte, error) {
	v, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, nil, fmt.Errorf("%w: bad varint", errCorrupt)
	}
	return v, b[k:], nil
}

// Budget bounds the bins that the sketches decoded from one input may
// span together, as DecodeSet bounds a set's: a dense store allocates
// its whole span, so a small crafted input must not claim much memory.
type Budget struct{ bins int64 }

// NewBudget is the budget of an input of n bytes.
func NewBudget(n int) *Budget {
	return &Budget{bins: min(maxSetSpan, spanPerByte*int64(n)+1<<16)}
}

// DecodeWithin is Decode, charging the bins the sketch spans to the
// budget first: an error, before any allocation, when it is spent.
func DecodeWithin(m *Mapping, b []byte, budget *Budget) (*Sketch, []byte, error) {
	span, err := encodedSpan(b)
	if err != nil {
		return nil, nil, err
	}
	if budget.bins -= span; budget.bins < 0 {
		return nil, nil, fmt.Errorf("%w: the sketches span more bins than the input allows", errCorrupt)
	}
	return Decode(m, b)
}
