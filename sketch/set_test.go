package sketch

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
)

// splitRecord is one record of the split tests: a key of dimension "k"
// and a value.
type splitRecord struct {
	key string
	v   float64
}

// fillParts adds recs to parts sets, record i to part of(i), merges
// them in the given order and finishes the result. With shared, the
// parts share one Admission; tracked is then how many distinct keys
// they tracked together before the merge.
func fillParts(m *Mapping, top int, recs []splitRecord, parts int, of func(i int) int, order []int, shared bool) (out *Set, tracked int) {
	sets := make([]*Set, parts)
	adm := NewAdmission(1)
	for i := range sets {
		sets[i] = NewSet(m, 1, []string{"k"}, top)
		if shared {
			sets[i].Share(adm)
		}
	}
	for i, r := range recs {
		s := sets[of(i)]
		b := m.Bin(r.v)
		for _, e := range []*Entry{s.All, s.Dims[0].Entry([]byte(r.key))} {
			e.Count++
			e.Add(m, 0, b)
		}
	}
	distinct := map[string]bool{}
	for _, s := range sets {
		s.Dims[0].sync()
		for k := range s.Dims[0].keys {
			distinct[k] = true
		}
	}
	tracked = len(distinct)
	out = NewSet(m, 1, []string{"k"}, top)
	for _, p := range order {
		out.Merge(sets[p])
	}
	out.Finish()
	return out, tracked
}

// TestSetIndependentOfSplit splits the same records between sets in
// several ways (one set, contiguous runs, round robin, at random) and
// merges them in several orders: the finished sets must encode to the
// same bytes, and every kept key must hold exactly its own records.
// With a cap of 4 a dimension tracks 1,024 keys: the Zipf keys fit,
// the distinct keys do not (they are tracked from a hash sample).
func TestSetIndependentOfSplit(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	const top, n = 4, 6000
	r := rand.New(rand.NewPCG(5, 6))
	z := rand.NewZipf(r, 1.3, 1, 799)
	cases := []struct {
		name string
		key  func(i int) string
	}{
		{"zipf", func(int) string { return fmt.Sprintf("z%d", z.Uint64()) }},
		{"distinct", func(i int) string { return fmt.Sprintf("d%d", i) }},
	}
	for _, tc := range cases {
		key := tc.key
		t.Run(tc.name, func(t *testing.T) {
			recs := make([]splitRecord, n)
			own := map[string][]float64{}
			for i := range recs {
				recs[i] = splitRecord{key(i), distributions["lognormal"](r)}
				own[recs[i].key] = append(own[recs[i].key], recs[i].v)
			}
			perm := r.Perm(n)
			splits := []struct {
				name  string
				parts int
				of    func(i int) int
				order []int
			}{
				{"one", 1, func(int) int { return 0 }, []int{0}},
				{"halves", 2, func(i int) int { return i * 2 / n }, []int{1, 0}},
				{"round robin 7", 7, func(i int) int { return i % 7 }, []int{3, 0, 6, 1, 5, 2, 4}},
				{"random 5", 5, func(i int) int { return perm[i] % 5 }, []int{0, 1, 2, 3, 4}},
			}
			var want []byte
			limit := NewSet(m, 1, []string{"k"}, top).limit()
			for _, sp := range splits {
				for _, shared := range []bool{false, true} {
					s, tracked := fillParts(m, top, recs, sp.parts, sp.of, sp.order, shared)
					got := s.AppendEncode(nil)
					if want == nil {
						want = got
						checkOwn(t, m, s, own, top)
					} else if !bytes.Equal(got, want) {
						t.Errorf("split %q, shared %v: the finished set differs from the unsplit one", sp.name, shared)
					}
					if shared && tracked > limit {
						t.Errorf("split %q: sharing the admission, the parts tracked %d distinct keys, over the limit of %d", sp.name, tracked, limit)
					}
				}
			}
		})
	}
}

// checkOwn checks that the set keeps top keys, each with exactly its own
// records (count, sum and quantiles from a sketch of only its values),
// and that the kept keys are the heaviest when no sampling took place.
func checkOwn(t *testing.T, m *Mapping, s *Set, own map[string][]float64, top int) {
	t.Helper()
	d := s.Dims[0]
	kept := d.Sorted()
	if len(kept) != top {
		t.Fatalf("%d keys kept, want %d", len(kept), top)
	}
	var keptRecords int64
	for _, ke := range kept {
		vs := own[ke.Key]
		oracle := New(m)
		for _, v := range vs {
			oracle.Add(v)
		}
		if ke.Count != int64(len(vs)) || ke.Metric(0).Count() != oracle.Count() || ke.Metric(0).Sum() != oracle.Sum() {
			t.Errorf("key %q: count %d, sum %g; want %d, %g", ke.Key, ke.Count, ke.Metric(0).Sum(), len(vs), oracle.Sum())
		}
		for _, q := range []float64{0.5, 0.99} {
			if got, want := ke.Metric(0).Quantile(q), oracle.Quantile(q); got != want {
				t.Errorf("key %q: q%g %g, want %g", ke.Key, q, got, want)
			}
		}
		keptRecords += ke.Count
	}
	if got, want := d.Other().Count, int64(s.All.Count)-keptRecords; got != want {
		t.Errorf("other holds %d records, want %d", got, want)
	}
	if len(own) <= s.limit() {
		if d.KeyShare() != 1 || d.Folded() != int64(len(own)-top) {
			t.Errorf("key share %g, %d folded; want 1, %d", d.KeyShare(), d.Folded(), len(own)-top)
		}
		keys := make([]string, 0, len(own))
		for k := range own {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if len(own[keys[i]]) != len(own[keys[j]]) {
				return len(own[keys[i]]) > len(own[keys[j]])
			}
			return keys[i] < keys[j]
		})
		for i, ke := range kept {
			if ke.Key != keys[i] {
				t.Errorf("key #%d is %q, want %q", i+1, ke.Key, keys[i])
			}
		}
		return
	}
	if d.KeyShare() >= 1 {
		t.Errorf("key share %g with %d keys over a limit of %d", d.KeyShare(), len(own), s.limit())
	}
}

// TestSharedAdmissionConcurrent fills four sets sharing an admission
// from four goroutines, as the workers do, with an IP per record and a
// few heavy keys: merged, they must encode as one set filled with every
// record, and have tracked no more distinct keys than the limit.
func TestSharedAdmissionConcurrent(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	const top, n, parts = 4, 20000, 4
	r := rand.New(rand.NewPCG(11, 12))
	recs := make([]splitRecord, n)
	for i := range recs {
		key := fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255)
		if i%3 == 0 {
			key = fmt.Sprint("heavy", i%7)
		}
		recs[i] = splitRecord{key, distributions["lognormal"](r)}
	}
	want, _ := fillParts(m, top, recs, 1, func(int) int { return 0 }, []int{0}, false)
	adm := NewAdmission(1)
	sets := make([]*Set, parts)
	var wg sync.WaitGroup
	for p := range sets {
		sets[p] = NewSet(m, 1, []string{"k"}, top)
		sets[p].Share(adm)
		wg.Go(func() {
			s := sets[p]
			for i := p; i < n; i += parts {
				b := m.Bin(recs[i].v)
				for _, e := range []*Entry{s.All, s.Dims[0].Entry([]byte(recs[i].key))} {
					e.Count++
					e.Add(m, 0, b)
				}
			}
		})
	}
	wg.Wait()
	distinct := map[string]bool{}
	for _, s := range sets {
		s.Dims[0].sync()
		for k := range s.Dims[0].keys {
			distinct[k] = true
		}
	}
	if limit := sets[0].limit(); len(distinct) > limit {
		t.Errorf("the sets tracked %d distinct keys, over the limit of %d", len(distinct), limit)
	}
	got := NewSet(m, 1, []string{"k"}, top)
	for _, s := range sets {
		got.Merge(s)
	}
	got.Finish()
	if !bytes.Equal(got.AppendEncode(nil), want.AppendEncode(nil)) {
		t.Error("filled concurrently with a shared admission, the merged set differs from one set filled with every record")
	}
}
