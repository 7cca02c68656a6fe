package sketch

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

func testMapping(t testing.TB) *Mapping {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// distributions of latency-like values, in ms.
var distributions = map[string]func(r *rand.Rand) float64{
	"lognormal": func(r *rand.Rand) float64 { return 300 * math.Exp(r.NormFloat64()*1.2) },
	"uniform":   func(r *rand.Rand) float64 { return r.Float64() * 60000 },
	"pareto":    func(r *rand.Rand) float64 { return 5 / math.Pow(1-r.Float64(), 1/1.5) },
	"bimodal": func(r *rand.Rand) float64 {
		if r.IntN(10) == 0 {
			return 20000 + r.Float64()*5000
		}
		return 2 + r.Float64()*3
	},
	"with-zeros": func(r *rand.Rand) float64 {
		if r.IntN(4) == 0 {
			return 0
		}
		return r.ExpFloat64() * 40
	},
}

// TestQuantilesAgainstSorting checks every quantile against the value at
// rank ⌊q·(n−1)⌋ of the sorted values, for several distributions and sizes,
// and after merging shards.
func TestQuantilesAgainstSorting(t *testing.T) {
	m := testMapping(t)
	for name, dist := range distributions {
		for _, n := range []int{1, 2, 10, 1000, 100_000} {
			r := rand.New(rand.NewPCG(uint64(n), 7))
			vals := make([]float64, n)
			whole := New(m)
			shards := []*Sketch{New(m), New(m), New(m)}
			for i := range vals {
				vals[i] = dist(r)
				whole.Add(vals[i])
				shards[i%3].Add(vals[i])
			}
			merged := New(m)
			for _, s := range shards {
				merged.Merge(s)
			}
			sort.Float64s(vals)
			for _, s := range []*Sketch{whole, merged} {
				if s.Count() != int64(n) {
					t.Fatalf("%s n=%d: count %d", name, n, s.Count())
				}
				for _, q := range []float64{0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1} {
					want := vals[int(q*float64(n-1))]
					got := s.Quantile(q)
					if math.Abs(got-want) > DefaultAccuracy*want+1e-12 {
						t.Errorf("%s n=%d q=%v: %v, exact %v", name, n, q, got, want)
					}
				}
				if s.Min() != vals[0] || s.Max() != vals[n-1] {
					t.Errorf("%s n=%d: min/max %v/%v, want %v/%v", name, n, s.Min(), s.Max(), vals[0], vals[n-1])
				}
				sum := 0.0
				for _, v := range vals {
					sum += v
				}
				if math.Abs(s.Sum()-sum) > 1e-9*sum+float64(n)*0.0005 {
					t.Errorf("%s n=%d: sum %v, want %v", name, n, s.Sum(), sum)
				}
			}
		}
	}
}

func TestEmptyAndOdd(t *testing.T) {
	m := testMapping(t)
	s := New(m)
	if s.Quantile(0.5) != 0 || s.Count() != 0 || s.Min() != 0 || s.Max() != 0 || s.Mean() != 0 {
		t.Error("empty sketch should report zeros")
	}
	s.Add(math.NaN())
	if s.Count() != 0 {
		t.Error("NaN was counted")
	}
	s.Add(-5)
	s.Add(math.Inf(1))
	if s.Count() != 2 || s.Quantile(0) != 0 {
		t.Errorf("negative should count as zero: count %d, q0 %v", s.Count(), s.Quantile(0))
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	m := testMapping(t)
	r := rand.New(rand.NewPCG(1, 2))
	s := New(m)
	for range 50_000 {
		s.Add(distributions["with-zeros"](r))
	}
	b := s.AppendEncode([]byte("prefix"))
	d, rest, err := Decode(m, append(b[len("prefix"):], "tail"...))
	if err != nil {
		t.Fatal(err)
	}
	if string(rest) != "tail" {
		t.Errorf("rest %q", rest)
	}
	if d.Count() != s.Count() || d.Sum() != s.Sum() || d.Min() != s.Min() || d.Max() != s.Max() {
		t.Errorf("summary differs after decoding")
	}
	for _, q := range []float64{0, 0.5, 0.99, 1} {
		if d.Quantile(q) != s.Quantile(q) {
			t.Errorf("q%v: %v vs %v", q, d.Quantile(q), s.Quantile(q))
		}
	}
	// Empty sketches round-trip too.
	e, _, err := Decode(m, New(m).AppendEncode(nil))
	if err != nil || e.Count() != 0 {
		t.Errorf("empty: %v, %d", err, e.Count())
	}
}

func FuzzDecode(f *testing.F) {
	m := testMapping(f)
	s := New(m)
	for _, v := range []float64{0, 1, 2.5, 1000, 1e6} {
		s.Add(v)
	}
	f.Add(s.AppendEncode(nil))
	f.Add(New(m).AppendEncode(nil))
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, _, err := Decode(m, b)
		if err != nil {
			return
		}
		// Whatever decodes is a usable sketch.
		_ = d.Quantile(0.5)
		if d.Count() < 0 {
			t.Fatal("negative count")
		}
	})
}

func TestSetFolding(t *testing.T) {
	m := testMapping(t)
	s := NewSet(m, 1, []string{"client"}, 5)
	d := s.Dims[0]
	// 12 keys; key k gets k+1 records. The five heaviest stay exact.
	for k := 0; k < 12; k++ {
		for i := 0; i <= k; i++ {
			e := d.Entry([]byte{byte('a' + k)})
			e.Count++
			e.Add(m, 0, m.Bin(float64(k+1)))
		}
	}
	s.Finish()
	if d.Len() != 5 {
		t.Fatalf("%d keys kept, want 5", d.Len())
	}
	got := d.Sorted()
	for i, ke := range got {
		wantKey := string(rune('a' + 11 - i))
		if ke.Key != wantKey || ke.Count != int64(12-i) {
			t.Errorf("key %d: %s×%d, want %s×%d", i, ke.Key, ke.Count, wantKey, 12-i)
		}
	}
	var total int64
	for k := 0; k < 7; k++ {
		total += int64(k + 1)
	}
	if d.Other() == nil || d.Other().Count != total || d.Folded() != 7 {
		t.Errorf("other: %+v folded %d; want count %d, 7 keys", d.Other(), d.Folded(), total)
	}
	// Below the cap nothing is folded.
	s2 := NewSet(m, 1, []string{"x"}, 5)
	for k := 0; k < 5; k++ {
		s2.Dims[0].Entry([]byte{byte(k)}).Count++
	}
	s2.Finish()
	if s2.Dims[0].Len() != 5 || s2.Dims[0].Other() != nil {
		t.Error("keys below the cap were folded")
	}
}

// TestWithout: the sketch of all values without the counts of a part of
// them gives the quantiles, count and mean of the values left, against
// sorting them; counts merged from shards are the counts of the whole.
func TestWithout(t *testing.T) {
	m := testMapping(t)
	for name, dist := range distributions {
		for _, n := range []int{3, 1000, 50_000} {
			r := rand.New(rand.NewPCG(uint64(n), 11))
			whole, part := New(m), NewCounts(m)
			var kept []float64
			var keptSum float64
			for range n {
				v := dist(r)
				whole.Add(v)
				// The part is the larger values, mostly: removing it
				// moves the tail.
				if r.IntN(3) == 0 || v > 1000 && r.IntN(2) == 0 {
					part.AddBin(m.Bin(v))
					continue
				}
				kept = append(kept, v)
				keptSum += v
			}
			left := whole.Without(part)
			if all := whole.Counts(); all.Count() != whole.Count() || whole.Without(all).Count() != 0 {
				t.Errorf("%s n=%d: a sketch's own counts: %d of %d, %d left without them", name, n, all.Count(), whole.Count(), whole.Without(all).Count())
			}
			shards := [2]*Counts{NewCounts(m), NewCounts(m)}
			i := 0
			part.Bins(func(lo, hi float64, c int64) {
				for range c {
					shards[i%2].AddBin(m.Bin(math.Max(lo, (lo+hi)/2)))
					i++
				}
			})
			shards[0].Merge(shards[1])
			if shards[0].Count() != part.Count() || whole.Without(shards[0]).Quantile(0.99) != left.Quantile(0.99) {
				t.Errorf("%s n=%d: merged counts: %d values, p99 without them %v; want %d, %v", name, n,
					shards[0].Count(), whole.Without(shards[0]).Quantile(0.99), part.Count(), left.Quantile(0.99))
			}
			if left.Count() != int64(len(kept)) {
				t.Fatalf("%s n=%d: count %d, want %d", name, n, left.Count(), len(kept))
			}
			if len(kept) == 0 {
				continue
			}
			sort.Float64s(kept)
			if want := keptSum / float64(len(kept)); math.Abs(left.Mean()-want) > DefaultAccuracy*want+1e-9 {
				t.Errorf("%s n=%d: mean %v, want %v", name, n, left.Mean(), want)
			}
			for _, q := range []float64{0, 0.5, 0.9, 0.99, 1} {
				want := kept[int(q*float64(len(kept)-1))]
				got := left.Quantile(q)
				if math.Abs(got-want) > DefaultAccuracy*want+1e-9 {
					t.Errorf("%s n=%d q=%v: %v, want %v", name, n, q, got, want)
				}
			}
		}
	}
	if s := New(m).Without(NewCounts(m)); s.Count() != 0 || s.Quantile(0.99) != 0 || s.Mean() != 0 {
		t.Errorf("empty without empty: count %d", s.Count())
	}
}

// TestLightSameAsSketch adds the same values to a Light and to a Sketch,
// below and past the listed bins, and merges the Light into nothing and
// into a sketch holding values already: each result encodes as the
// sketch the values were added to.
func TestLightSameAsSketch(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{0, 1, lightMax, lightMax + 1, 500} {
		var l Light
		direct, base := New(m), New(m)
		base.Add(3)
		withBase := New(m)
		withBase.Add(3)
		for i := range n {
			v := distributions["lognormal"](r)
			if i%7 == 0 {
				v = 0
			}
			l.AddBin(m, m.Bin(v))
			direct.Add(v)
			withBase.Add(v)
		}
		l2 := l
		got := l.MergeInto(m, nil)
		if n == 0 {
			if got != nil {
				t.Errorf("an empty Light merged into nothing gave a sketch of %d values", got.Count())
			}
		} else if !bytes.Equal(got.AppendEncode(nil), direct.AppendEncode(nil)) {
			t.Errorf("%d values: the Light's sketch differs from the values'", n)
		}
		if got := l2.MergeInto(m, base); !bytes.Equal(got.AppendEncode(nil), withBase.AppendEncode(nil)) {
			t.Errorf("%d values merged into a sketch of one: differs from the sketch of all", n)
		}
	}
}

// TestCountsOfEntries takes an entry's values into counts both ways a
// collector does — a light entry's (AddMetric) and a heavy one's listed
// once (AppendCounts, AddCounts) — into counts that already hold values
// on either side, and requires the counts AddBin gives value by value.
func TestCountsOfEntries(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{5, fewMax + 300} {
		s := NewSet(m, 2, nil, 10)
		e := s.All
		want := [2]*Counts{NewCounts(m), NewCounts(m)}
		got := [2]*Counts{NewCounts(m), NewCounts(m)}
		for _, c := range []*[2]*Counts{&want, &got} { // values before, both sides of the entry's
			c[0].AddBin(m.Bin(1e-3))
			c[0].AddBin(m.Bin(9e5))
		}
		for i := range n {
			v := rng.ExpFloat64() * 300
			if i%17 == 0 {
				v = 0
			}
			e.Add(m, i%2, m.Bin(v))
			want[i%2].AddBin(m.Bin(v))
		}
		if light := e.Metrics == nil; light != (n < fewMax) {
			t.Fatalf("%d values: light %v", n, light)
		}
		for i := range 2 {
			if e.Metrics == nil {
				got[i] = got[i].AddMetric(m, e, i)
				continue
			}
			bins, zero := e.AppendCounts(i, nil)
			for j := 1; j < len(bins); j++ {
				if bins[j].Index <= bins[j-1].Index {
					t.Fatalf("bins out of order: %v", bins)
				}
			}
			got[i].AddCounts(bins, zero)
		}
		for i := range 2 {
			var a, b []string
			want[i].Bins(func(lo, hi float64, c int64) { a = append(a, fmt.Sprint(lo, hi, c)) })
			got[i].Bins(func(lo, hi float64, c int64) { b = append(b, fmt.Sprint(lo, hi, c)) })
			if fmt.Sprint(a) != fmt.Sprint(b) || got[i].Count() != want[i].Count() {
				t.Errorf("%d values, metric %d: %d counted, %d added one by one\n%v\n%v", n, i, got[i].Count(), want[i].Count(), b, a)
			}
		}
	}
	var none *Counts
	if none.AddMetric(m, NewSet(m, 1, nil, 10).All, 0) != nil {
		t.Error("counts made for an entry without values")
	}
}
