package sketch

import (
	"math"
	"math/bits"
)

// sumScale is the resolution of an exact sum: values are added in units
// of 1e-6 (a nanosecond, for values in milliseconds).
const sumScale = 1e6

// maxSumUnit caps one value's contribution, so that it fits in 63 bits
// (about 292 years in milliseconds). Below it a value is summed exactly;
// the parsers' bound on durations (1e7 s, 1e10 ms) keeps every latency
// well below it, so the cap is only a guard: a larger value is counted
// as the cap, never as Inf or a wrapped sum.
const maxSumUnit = 1 << 63

// exactSum is a non-negative sum kept as a 128-bit count of units: adding
// and merging are exact, so the sum (and the mean) do not depend on the
// order in which values arrive or sketches are merged.
type exactSum struct{ hi, lo uint64 }

func (s *exactSum) add(v float64) {
	u := math.Round(v * sumScale)
	if !(u > 0) {
		return
	}
	x := uint64(maxSumUnit)
	if u < maxSumUnit {
		x = uint64(u)
	}
	var c uint64
	s.lo, c = bits.Add64(s.lo, x, 0)
	s.hi += c
}

func (s *exactSum) merge(o exactSum) {
	var c uint64
	s.lo, c = bits.Add64(s.lo, o.lo, 0)
	s.hi += o.hi + c
}

func (s exactSum) float() float64 {
	return (float64(s.hi)*0x1p64 + float64(s.lo)) / sumScale
}
