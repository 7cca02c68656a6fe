package sketch

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/DataDog/sketches-go/ddsketch/mapping"
)

// wantIndex is the bin the library's mapping gives, as Bin clamps.
func wantIndex(m *Mapping, v float64) int { return m.m.Index(math.Min(v, m.max)) }

// TestIndexTableAsIndex holds the table to the mapping's Index at every
// cell's edges, around every threshold and at random values, for several
// accuracies.
func TestIndexTableAsIndex(t *testing.T) {
	for _, acc := range []float64{0.01, 0.02, 0.005, 0.001, 0.05, 0.2} {
		lm, err := mapping.NewLogarithmicMapping(acc)
		if err != nil {
			t.Fatal(err)
		}
		tab := newIndexTable(lm)
		if tab == nil {
			t.Fatalf("accuracy %v: no table", acc)
		}
		m := &Mapping{m: lm, min: lm.MinIndexableValue(), max: lm.MaxIndexableValue(), table: tab}
		check := func(v float64) {
			t.Helper()
			if got, want := m.Bin(v).index, wantIndex(m, v); got != want {
				t.Fatalf("accuracy %v: bin of %v (%#x) is %d, want %d", acc, v, math.Float64bits(v), got, want)
			}
		}
		near := func(v float64) {
			t.Helper()
			u := math.Float64bits(v)
			for d := uint64(0); d < 4; d++ {
				check(math.Float64frombits(u + d))
				check(math.Float64frombits(u - d))
			}
		}
		split := 0
		for c, cell := range tab.cells {
			near(tab.cellStart(c))
			if !math.IsInf(cell.threshold, 1) {
				split++
				near(cell.threshold)
			}
		}
		if split == 0 {
			t.Fatalf("accuracy %v: no cell holds two bins", acc)
		}
		near(tab.min)
		near(tab.max)
		r := rand.New(rand.NewPCG(1, uint64(acc*1e6)))
		for range 200_000 {
			check(math.Exp(r.Float64()*80 - 20))
		}
	}
}

// TestIndexTableWhereNone checks that accuracies too fine for a table get
// none and still bin by Index.
func TestIndexTableWhereNone(t *testing.T) {
	lm, err := mapping.NewLogarithmicMapping(1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if tab := newIndexTable(lm); tab != nil {
		t.Fatalf("accuracy 1e-5 has a table of %d cells", len(tab.cells))
	}
	m, err := NewMapping(1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Bin(12.5).index, lm.Index(12.5); got != want {
		t.Fatalf("bin of 12.5 is %d, want %d", got, want)
	}
}

func FuzzIndexTable(f *testing.F) {
	for _, v := range []float64{0, 1, 12.5, 0.001, 1e-300, 1e300, math.Ldexp(1, -20), math.Ldexp(1, 44), math.Inf(1)} {
		f.Add(math.Float64bits(v))
	}
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, u uint64) {
		v := math.Float64frombits(u)
		if math.IsNaN(v) {
			return
		}
		b := m.Bin(v)
		if v <= m.min {
			if !b.zero {
				t.Fatalf("%v is not zero", v)
			}
			return
		}
		if b.index != wantIndex(m, v) {
			t.Fatalf("bin of %v is %d, want %d", v, b.index, wantIndex(m, v))
		}
	})
}

func BenchmarkBin(b *testing.B) {
	m := testMapping(b)
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, 4096)
	for i := range vals {
		vals[i] = math.Exp(r.Float64()*12 - 2)
	}
	b.ResetTimer()
	var sum int
	for i := 0; i < b.N; i++ {
		sum += m.Bin(vals[i&4095]).index
	}
	_ = sum
}

// TestFirstAboveAsBisection holds every threshold of the tables to the
// one bisection over the whole cell finds.
func TestFirstAboveAsBisection(t *testing.T) {
	for _, acc := range []float64{0.01, 0.02, 0.005, 0.001, 0.05, 0.2} {
		lm, err := mapping.NewLogarithmicMapping(acc)
		if err != nil {
			t.Fatal(err)
		}
		tab := newIndexTable(lm)
		n := 0
		for c, cell := range tab.cells {
			lo := tab.cellStart(c)
			last := math.Float64frombits(math.Float64bits(tab.cellStart(c+1)) - 1)
			if lm.Index(last) != cell.base+1 {
				if !math.IsInf(cell.threshold, 1) {
					t.Fatalf("accuracy %v: cell %d of one bin has a threshold", acc, c)
				}
				continue
			}
			l, h := math.Float64bits(lo), math.Float64bits(last)
			for l < h {
				mid := l + (h-l)/2
				if lm.Index(math.Float64frombits(mid)) > cell.base {
					h = mid
				} else {
					l = mid + 1
				}
			}
			if want := math.Float64frombits(l); cell.threshold != want {
				t.Fatalf("accuracy %v: cell %d's threshold %v (%#x), by bisection %v (%#x)", acc, c, cell.threshold, math.Float64bits(cell.threshold), want, l)
			}
			n++
		}
		if n == 0 {
			t.Fatalf("accuracy %v: no cell of two bins", acc)
		}
	}
}
