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

// Uint128 is a non-negative count kept in 128 bits: adding and merging
// are exact, so a sum of many values does not depend on the order in
// which they arrive or parts are merged. The sketches' sums and the
// aggregate's breakdown both count in it.
type Uint128 struct{ Hi, Lo uint64 }

// Add adds v.
func (s *Uint128) Add(v uint64) {
	var c uint64
	s.Lo, c = bits.Add64(s.Lo, v, 0)
	s.Hi += c
}

// Merge adds o.
func (s *Uint128) Merge(o Uint128) {
	var c uint64
	s.Lo, c = bits.Add64(s.Lo, o.Lo, 0)
	s.Hi += o.Hi + c
}

// DivMod is s ÷ n and its remainder (n > 0); a quotient that does not
// fit in 64 bits is MaxUint64.
func (s Uint128) DivMod(n uint64) (q, r uint64) {
	if s.Hi >= n {
		return math.MaxUint64, 0
	}
	return bits.Div64(s.Hi, s.Lo, n)
}

// Float is s as a float64.
func (s Uint128) Float() float64 { return float64(s.Hi)*0x1p64 + float64(s.Lo) }

// exactSum is a non-negative sum of values in units of 1/sumScale.
type exactSum struct{ Uint128 }

// RoundPositive is math.Round(x) for 0 < x < 2⁶³, in a truncation and
// one comparison where math.Round takes a dozen instructions: in that
// range x − trunc(x) is exact.
func RoundPositive(x float64) uint64 {
	i := int64(x)
	if x-float64(i) >= 0.5 {
		i++
	}
	return uint64(i)
}

// add adds v rounded half away from zero to a unit, as math.Round would.
func (s *exactSum) add(v float64) {
	u := v * sumScale
	if !(u > 0) {
		return
	}
	x := uint64(maxSumUnit)
	if u < maxSumUnit {
		x = RoundPositive(u)
	}
	s.Add(x)
}

func (s *exactSum) merge(o exactSum) { s.Merge(o.Uint128) }

func (s exactSum) float() float64 { return s.Float() / sumScale }
