package sketch

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestSumIsOrderIndependent checks that the sum of a sketch does not
// depend on the order of the values or of merges, and that it equals the
// exact (arbitrary-precision) sum of the values at nanosecond resolution.
func TestSumIsOrderIndependent(t *testing.T) {
	m, _ := NewMapping(DefaultAccuracy)
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, 20000)
	exact := new(big.Float).SetPrec(200)
	for i := range vals {
		vals[i] = math.Round(math.Exp(rng.NormFloat64()*2)*1e6) / 1e3 // ms with µs precision
		exact.Add(exact, new(big.Float).SetPrec(200).SetInt64(int64(math.Round(vals[i]*1e6))))
	}
	exact.Quo(exact, new(big.Float).SetPrec(200).SetFloat64(1e6))
	want, _ := exact.Float64()

	a := New(m)
	for _, v := range vals {
		a.Add(v)
	}
	b := New(m)
	for _, i := range rng.Perm(len(vals)) {
		b.Add(vals[i])
	}
	c, d := New(m), New(m)
	for i, v := range vals {
		if i%3 == 0 {
			c.Add(v)
		} else {
			d.Add(v)
		}
	}
	d.Merge(c)
	for name, s := range map[string]*Sketch{"in order": a, "shuffled": b, "merged": d} {
		if s.Sum() != want {
			t.Errorf("%s: sum %v, want %v", name, s.Sum(), want)
		}
	}
	// A value beyond the range of the sum is capped, not wrapped.
	e := New(m)
	e.Add(1e300)
	e.Add(1e300)
	if !(e.Sum() > 1e13) {
		t.Errorf("huge values: sum %v, want a large positive number", e.Sum())
	}
}

func TestSumSurvivesEncoding(t *testing.T) {
	m, _ := NewMapping(DefaultAccuracy)
	s := New(m)
	for _, v := range []float64{1.5, 2250, 0, 31.25, 1e7} {
		s.Add(v)
	}
	d, _, err := Decode(m, s.AppendEncode(nil))
	if err != nil {
		t.Fatal(err)
	}
	if d.Sum() != s.Sum() {
		t.Fatalf("decoded sum %v, want %v", d.Sum(), s.Sum())
	}
}

// TestExactSumRoundsAsMathRound holds each value's units against
// math.Round: random bit patterns of every magnitude, halves, the
// largest below a half, and the cap's neighbours.
func TestExactSumRoundsAsMathRound(t *testing.T) {
	want := func(v float64) Uint128 {
		var u Uint128
		x := math.Round(v * sumScale)
		switch {
		case !(x > 0):
		case x >= maxSumUnit:
			u.Add(maxSumUnit)
		default:
			u.Add(uint64(x))
		}
		return u
	}
	rnd := rand.New(rand.NewPCG(11, 12))
	vals := []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1), 0.5e-6, 1.5e-6, 2.5e-6,
		0.49999999999999994e-6, math.Nextafter(0.5, 0) / sumScale, maxSumUnit / sumScale,
		math.Nextafter(maxSumUnit, 0) / sumScale, math.Nextafter(maxSumUnit, math.Inf(1)) / sumScale, math.MaxFloat64}
	for range 200000 {
		vals = append(vals, math.Float64frombits(rnd.Uint64()), float64(rnd.IntN(1<<20))/2/sumScale)
	}
	for _, v := range vals {
		var s exactSum
		s.add(v)
		if s.Uint128 != want(v) {
			t.Fatalf("add(%v): %v, want %v", v, s.Uint128, want(v))
		}
	}
}

// BenchmarkAddBin adds request times, in ms, to one sketch: a bin's
// count, the exact sum and the extremes.
func BenchmarkAddBin(b *testing.B) {
	m, _ := NewMapping(DefaultAccuracy)
	rnd := rand.New(rand.NewPCG(1, 2))
	bins := make([]Bin, 4096)
	for i := range bins {
		bins[i] = m.Bin(math.Exp(rnd.NormFloat64()*2) * 300)
	}
	s := New(m)
	for i := 0; b.Loop(); i++ {
		s.AddBin(bins[i&4095])
	}
}

// TestRoundPositive holds RoundPositive against math.Round over (0,
// 2⁶³): random values of every binade, and the values next to each
// half and each whole number, where rounding goes wrong first.
func TestRoundPositive(t *testing.T) {
	check := func(x float64) {
		if !(x > 0) || x >= 0x1p63 {
			return
		}
		if got, want := RoundPositive(x), uint64(math.Round(x)); got != want {
			t.Fatalf("RoundPositive(%v) = %d, want %d", x, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2_000_000 {
		check(math.Ldexp(1+rng.Float64(), rng.IntN(140)-70))
		h := float64(rng.Int64N(1<<rng.IntN(53))) + 0.5 // a half: exact below 2⁵²
		check(h)
		check(math.Nextafter(h, 0))
		check(math.Nextafter(h, math.Inf(1)))
	}
	for e := -60; e < 63; e++ {
		for _, base := range []float64{math.Ldexp(1, e), math.Ldexp(1, e) + 0.5, math.Ldexp(1, e) - 0.5, 0.5, 1.5, 2.5} {
			x := base
			for range 4 {
				check(x)
				x = math.Nextafter(x, math.Inf(1))
			}
			x = base
			for range 4 {
				check(x)
				x = math.Nextafter(x, 0)
			}
		}
	}
}
