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
