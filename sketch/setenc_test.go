package sketch

import (
	"math/rand/v2"
	"testing"
)

// testSet fills a two-metric set over two dimensions; dimension "b" has
// more keys than the cap, so it has folded keys.
func testSet(m *Mapping, n int) *Set {
	s := NewSet(m, 2, []string{"a", "b"}, 4)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		e := []*Entry{s.All, s.Dims[0].Entry([]byte{byte('p' + i%3)}), s.Dims[1].Entry([]byte{byte('a' + i%11), '|'})}
		v := distributions["lognormal"](r)
		for _, x := range e {
			x.Count++
			x.Add(m, 0, m.Bin(v))
			if i%2 == 0 {
				x.Add(m, 1, m.Bin(v/3))
			}
		}
	}
	s.Finish()
	return s
}

func sameEntry(t *testing.T, name string, a, b *Entry) {
	t.Helper()
	if a.Count != b.Count {
		t.Errorf("%s: count %d vs %d", name, a.Count, b.Count)
	}
	for i := range a.Metrics {
		x, y := a.Metrics[i], b.Metrics[i]
		if (x == nil) != (y == nil) {
			t.Errorf("%s metric %d: present %v vs %v", name, i, x != nil, y != nil)
			continue
		}
		if x == nil {
			continue
		}
		if x.Count() != y.Count() || x.Sum() != y.Sum() || x.Max() != y.Max() {
			t.Errorf("%s metric %d: summary differs", name, i)
		}
		for _, q := range []float64{0.5, 0.95, 0.99} {
			if x.Quantile(q) != y.Quantile(q) {
				t.Errorf("%s metric %d q%v: %v vs %v", name, i, q, x.Quantile(q), y.Quantile(q))
			}
		}
	}
}

func TestSetEncodeRoundTrip(t *testing.T) {
	m := testMapping(t)
	s := testSet(m, 5000)
	b := s.AppendEncode(nil)
	d, err := DecodeSet(m, 2, []string{"a", "b"}, 4, b)
	if err != nil {
		t.Fatal(err)
	}
	sameEntry(t, "all", s.All, d.All)
	for i, dim := range s.Dims {
		got := d.Dims[i]
		if got.Len() != dim.Len() || got.Folded() != dim.Folded() {
			t.Errorf("dim %s: %d keys, %d folded; want %d, %d", dim.Name, got.Len(), got.Folded(), dim.Len(), dim.Folded())
		}
		for _, ke := range dim.Sorted() {
			if e := got.Get(ke.Key); e == nil {
				t.Errorf("dim %s: key %q lost", dim.Name, ke.Key)
			} else {
				sameEntry(t, dim.Name+"/"+ke.Key, ke.Entry, e)
			}
		}
		if (dim.Other() == nil) != (got.Other() == nil) {
			t.Errorf("dim %s: other lost", dim.Name)
		} else if dim.Other() != nil {
			sameEntry(t, dim.Name+"/other", dim.Other(), got.Other())
		}
	}
	if s.Dims[1].Other() == nil {
		t.Error("the test set should have folded keys")
	}
	// Every strict prefix and a wrong shape are errors.
	for n := 0; n < len(b); n += 1 + n/50 {
		if _, err := DecodeSet(m, 2, []string{"a", "b"}, 4, b[:n]); err == nil {
			t.Fatalf("prefix of %d of %d bytes decoded", n, len(b))
		}
	}
	if _, err := DecodeSet(m, 3, []string{"a", "b"}, 4, b); err == nil {
		t.Error("wrong metric count decoded")
	}
	if _, err := DecodeSet(m, 2, []string{"a", "b"}, 4, append(b, 0)); err == nil {
		t.Error("trailing byte decoded")
	}
}

func TestDecodeSetSpanBudget(t *testing.T) {
	m := testMapping(t)
	// A tiny sketch claiming the widest span: two bins 64 Ki apart.
	wide := []byte{1, 0}
	wide = append(wide, make([]byte, 32)...)
	wide = append(wide, 2, 0x80, 0x80, 0x08, 1, 0x80, 0x80, 0x04, 1) // first index -65536, delta 65536
	if _, _, err := Decode(m, wide); err != nil {
		t.Fatalf("the wide sketch itself is valid: %v", err)
	}
	// A set of many such entries must be refused before it allocates.
	var b []byte
	b = append(b, 1, 1, 0, 0) // 1 metric, 1 dim, all: count 0, no metrics
	const keys = 200
	b = append(b, 0x80|(keys&0x7f), keys>>7)
	for k := range keys {
		b = append(b, 2, byte(k), byte(k>>8), 1, 1)
		b = append(b, wide...)
	}
	b = append(b, 0, 0)
	if _, err := DecodeSet(m, 1, []string{"d"}, 1000, b); err == nil {
		t.Errorf("%d sketches of 64 Ki bins each from %d bytes decoded", keys, len(b))
	}
}

func FuzzDecodeSet(f *testing.F) {
	m := testMapping(f)
	f.Add(testSet(m, 60).AppendEncode(nil))
	f.Add(NewSet(m, 2, []string{"a", "b"}, 4).AppendEncode(nil))
	f.Add([]byte{2, 2, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeSet(m, 2, []string{"a", "b"}, 4, b)
		if err != nil {
			return
		}
		// Whatever decodes is a usable set that encodes again.
		for _, d := range s.Dims {
			if d.Len() > 4 {
				t.Fatalf("dimension %s holds %d keys past the cap", d.Name, d.Len())
			}
		}
		if _, err := DecodeSet(m, 2, []string{"a", "b"}, 4, s.AppendEncode(nil)); err != nil {
			t.Fatalf("re-encoded set does not decode: %v", err)
		}
	})
}
