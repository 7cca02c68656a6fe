package sketch

import (
	"math/rand/v2"
	"testing"
)

// TestCountsEncodeRoundTrip: counts decode to the same bins and zeros,
// and a sketch without them is the same as without the original.
func TestCountsEncodeRoundTrip(t *testing.T) {
	m := testMapping(t)
	r := rand.New(rand.NewPCG(1, 2))
	all, part := New(m), NewCounts(m)
	for i := range 5000 {
		v := distributions["lognormal"](r)
		if i%7 == 0 {
			v = 0
		}
		all.AddBin(m.Bin(v))
		if i%3 == 0 {
			part.AddBin(m.Bin(v))
		}
	}
	b := part.AppendEncode(nil)
	got, rest, err := DecodeCountsWithin(m, append(b, 9), NewBudget(len(b)))
	if err != nil || len(rest) != 1 || rest[0] != 9 {
		t.Fatalf("decode: %v, rest %v", err, rest)
	}
	if got.Count() != part.Count() || got.zero != part.zero {
		t.Fatalf("count %d (zeros %d), want %d (%d)", got.Count(), got.zero, part.Count(), part.zero)
	}
	a, b2 := all.Without(part), all.Without(got)
	for _, q := range []float64{0.5, 0.9, 0.99} {
		if a.Quantile(q) != b2.Quantile(q) {
			t.Errorf("q%v without the decoded counts %v, without the counts %v", q, b2.Quantile(q), a.Quantile(q))
		}
	}
	empty, _, err := DecodeCountsWithin(m, NewCounts(m).AppendEncode(nil), NewBudget(0))
	if err != nil || empty.Count() != 0 {
		t.Errorf("empty counts: %v, %d", err, empty.Count())
	}
}

// FuzzDecodeCounts: any bytes decode or fail with an error, never a
// panic, within their budget; what decodes encodes to counts that
// decode the same.
func FuzzDecodeCounts(f *testing.F) {
	m := testMapping(f)
	c := NewCounts(m)
	for _, v := range []float64{0, 1, 2, 1000, 1e6} {
		c.AddBin(m.Bin(v))
	}
	f.Add(c.AppendEncode(nil))
	f.Add([]byte{0, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 1, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, rest, err := DecodeCountsWithin(m, b, NewBudget(len(b)))
		if err != nil {
			return
		}
		_ = rest
		back := got.AppendEncode(nil)
		again, left, err := DecodeCountsWithin(m, back, NewBudget(len(back)))
		if err != nil || len(left) != 0 || string(again.AppendEncode(nil)) != string(back) || again.Count() != got.Count() {
			t.Fatalf("%x decoded, encoded as %x, decodes again: %v", b, back, err)
		}
	})
}

// TestCountsSub: a union less one part is the other part, bin by bin;
// a count never goes below zero.
func TestCountsSub(t *testing.T) {
	m := testMapping(t)
	r := rand.New(rand.NewPCG(3, 4))
	a, b, u := NewCounts(m), NewCounts(m), NewCounts(m)
	for i := range 3000 {
		v := distributions["lognormal"](r)
		if i%5 == 0 {
			v = 0
		}
		if i%2 == 0 {
			a.AddBin(m.Bin(v))
		} else {
			b.AddBin(m.Bin(v * 3))
		}
	}
	u.Merge(a)
	u.Merge(b)
	u.Sub(a)
	if string(u.AppendEncode(nil)) != string(b.AppendEncode(nil)) {
		t.Errorf("union less a: %d values, want b's %d, bin for bin", u.Count(), b.Count())
	}
	u.Sub(a) // a again: what is left of a's bins is none
	u.Sub(b)
	if u.Count() != 0 {
		t.Errorf("%d values left after taking out more than was there", u.Count())
	}
}

// TestCountsWiden: a bin past 2¹⁶−1 values widens the counts, exactly:
// its count and every other bin's are kept through adding, merging
// either way, taking out and encoding, against counts kept in a map.
func TestCountsWiden(t *testing.T) {
	m := testMapping(t)
	r := rand.New(rand.NewPCG(5, 6))
	want := map[int]int64{}
	narrow, heavy := NewCounts(m), NewCounts(m)
	for range 2000 {
		b := m.Bin(distributions["lognormal"](r))
		narrow.AddBin(b)
		want[b.index]++
	}
	hot := m.Bin(250)
	for range 70000 {
		heavy.AddBin(hot)
	}
	heavy.AddCounts([]BinCount{{Index: hot.index, N: 100000}, {Index: hot.index + 40, N: 3}}, 2)
	if heavy.wide == nil || heavy.bins != nil {
		t.Fatalf("a bin of %d values is not in wide counts", heavy.Count())
	}
	check := func(what string, c *Counts, want map[int]int64, zero uint32) {
		t.Helper()
		got := map[int]int64{}
		for k := range c.n() {
			if n := c.at(k); n > 0 {
				got[c.off+k] = int64(n)
			}
		}
		if len(got) != len(want) || c.zero != zero {
			t.Fatalf("%s: %d bins (zeros %d), want %d (%d)", what, len(got), c.zero, len(want), zero)
		}
		for i, n := range want {
			if got[i] != n {
				t.Errorf("%s: bin %d holds %d, want %d", what, i, got[i], n)
			}
		}
		back, _, err := DecodeCountsWithin(m, c.AppendEncode(nil), NewBudget(1<<20))
		if err != nil || string(back.AppendEncode(nil)) != string(c.AppendEncode(nil)) || back.Count() != c.Count() {
			t.Errorf("%s: encoded and decoded: %v", what, err)
		}
	}
	hw := map[int]int64{hot.index: 170000, hot.index + 40: 3}
	check("heavy", heavy, hw, 2)
	both := map[int]int64{}
	for i, n := range want {
		both[i] += n
	}
	for i, n := range hw {
		both[i] += n
	}
	a := NewCounts(m) // narrow, a wide one merged in
	a.Merge(narrow)
	a.Merge(heavy)
	check("narrow + heavy", a, both, 2)
	b := NewCounts(m) // wide, a narrow one merged in
	b.Merge(heavy)
	b.Merge(narrow)
	check("heavy + narrow", b, both, 2)
	b.Sub(heavy)
	check("less heavy", b, want, 0)
}
