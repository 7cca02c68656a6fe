package sketch

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestMergedHoursBoundKeys: hour sets that each fold their own keys
// beyond the cap, encoded and decoded as stored hours are, then merged
// in any order: a key every hour listed (or whose hours held none of
// it elsewhere) has its exact count; any other key's Count is at most
// its true count and Count + Missing at least it, whatever the merge
// order; Folded is flagged an upper bound.
func TestMergedHoursBoundKeys(t *testing.T) {
	m := testMapping(t)
	const top, hours = 8, 4
	r := rand.New(rand.NewPCG(5, 6))
	truth := map[string]int64{}
	var encoded [][]byte
	for h := range hours {
		s := NewSet(m, 1, []string{"k"}, top)
		// Zipf-like over 60 keys, the order of popularity shifted each
		// hour, so that keys near the cap are kept in some hours only.
		for range 3000 {
			rank := int(60 * r.Float64() * r.Float64() * r.Float64())
			key := fmt.Sprintf("key-%02d", (rank+h)%60)
			truth[key]++
			for _, e := range []*Entry{s.All, s.Dims[0].Entry([]byte(key))} {
				e.Count++
				e.Add(m, 0, m.Bin(1+r.Float64()))
			}
		}
		s.Finish()
		encoded = append(encoded, s.AppendEncode(nil))
	}
	decode := func(i int) *Set {
		d, err := DecodeSet(m, 1, []string{"k"}, top, encoded[i])
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var first map[string][2]int64
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 1, 0, 2}, {2, 3, 1, 0}} {
		s := decode(order[0])
		for _, i := range order[1:] {
			s.Merge(decode(i))
		}
		s.Finish()
		got := map[string][2]int64{}
		ranged := 0
		for _, ke := range s.Dims[0].Sorted() {
			want := truth[ke.Key]
			if ke.Count > want || ke.Count+ke.Missing < want {
				t.Errorf("order %v: %s counted %d, at most %d; it has %d", order, ke.Key, ke.Count, ke.Count+ke.Missing, want)
			}
			if ke.Missing > 0 {
				ranged++
			}
			got[ke.Key] = [2]int64{ke.Count, ke.Missing}
		}
		if ranged == 0 || ranged == len(got) {
			t.Errorf("order %v: %d of %d keys bounded; the hours were made for some, not all", order, ranged, len(got))
		}
		if !s.Dims[0].FoldedUpper() {
			t.Errorf("order %v: folded keys summed over hours not flagged an upper bound", order)
		}
		if first == nil {
			first = got
		} else if fmt.Sprint(got) != fmt.Sprint(first) {
			t.Errorf("order %v: %v, the first order %v", order, got, first)
		}
	}
	// One hour alone is exact.
	one := decode(0)
	one.Finish()
	for _, ke := range one.Dims[0].Sorted() {
		if ke.Missing != 0 {
			t.Errorf("a single hour's %s has Missing %d", ke.Key, ke.Missing)
		}
	}
}

// TestSampledHourRoundTrip: a stored hour whose kept keys are the
// heaviest of a hash sample says so when decoded (its key share), and a
// key it did not keep may have had all its Other: merged with an hour
// that lists such a key, the key's Count + Missing covers it.
func TestSampledHourRoundTrip(t *testing.T) {
	m := testMapping(t)
	s := NewSet(m, 1, []string{"k"}, 1) // tracks 256 keys at most
	for i := range 2000 {
		e := s.Dims[0].Entry(fmt.Appendf(nil, "ip-%d", i))
		e.Count++
		e.Add(m, 0, m.Bin(1))
		s.All.Count++
	}
	s.Finish()
	share := s.Dims[0].KeyShare()
	if share >= 1 {
		t.Fatalf("2000 keys at a cap of 1: key share %v, want a sample", share)
	}
	d, err := DecodeSet(m, 1, []string{"k"}, 1, s.AppendEncode(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Dims[0].KeyShare(); got != share {
		t.Errorf("decoded key share %v, want %v", got, share)
	}
	other := NewSet(m, 1, []string{"k"}, 1)
	e := other.Dims[0].Entry([]byte("heavy"))
	e.Count = 50
	for range 50 {
		e.Add(m, 0, m.Bin(2))
	}
	other.All.Count = 50
	other.Finish()
	o, err := DecodeSet(m, 1, []string{"k"}, 1, other.AppendEncode(nil))
	if err != nil {
		t.Fatal(err)
	}
	d.Merge(o)
	d.Finish()
	if ke := d.Dims[0].Sorted()[0]; ke.Key != "heavy" || ke.Count != 50 || ke.Missing != 1999 {
		t.Errorf("kept %s %d + %d, want heavy 50 + 1999 (the sampled hour's Other)", ke.Key, ke.Count, ke.Missing)
	}
}
