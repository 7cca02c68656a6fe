package sketch

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCombosSameAsDirect fills one set through the combination table
// and another by adding every record to All and to each of its keys'
// entries: both must encode to the same bytes, before and after
// Finish, with few combinations and with more than the table holds
// (the rest added directly), each record carrying a varying subset of
// dimensions and metrics. So must sets whose expansion groups the
// combinations by all their keys but the callers' (Wide), and but the
// regions' (of many callers, which does not halve them: added one by
// one as before), and one whose combinations are split, whole groups
// each side, with another set (SplitCombos) and merged with it.
func TestCombosSameAsDirect(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	dims := []string{"a", "b", "c"}
	for _, callers := range []int{7, 3 * maxCombos} {
		t.Run(fmt.Sprint(callers, " callers"), func(t *testing.T) {
			r := rand.New(rand.NewPCG(9, uint64(callers)))
			viaCombos, direct := NewSet(m, 2, dims, 10), NewSet(m, 2, dims, 10)
			byCallers, byRegions := NewSet(m, 2, dims, 10), NewSet(m, 2, dims, 10)
			byCallers.Wide(1)
			byRegions.Wide(0)
			split := NewSet(m, 2, dims, 10) // by the callers, half expanded by another
			split.Wide(1)
			for range 40000 {
				keys := [][]byte{
					[]byte(fmt.Sprint("r", r.IntN(3))),
					[]byte(fmt.Sprint("c", r.IntN(callers))),
					nil,
				}
				if r.IntN(4) != 0 {
					keys[2] = []byte(fmt.Sprint("s", r.IntN(5)))
				}
				v := distributions["lognormal"](r)
				withSecond := r.IntN(3) != 0
				bins, has := []Bin{m.Bin(v), m.Bin(v / 7)}, []bool{true, withSecond}
				add := func(e *Entry) {
					e.Count++
					e.Add(m, 0, m.Bin(v))
					if withSecond {
						e.Add(m, 1, m.Bin(v/7))
					}
				}
				for _, set := range []*Set{viaCombos, byCallers, byRegions, split} {
					set.BeginTuple()
					for d, k := range keys {
						if k != nil {
							set.TupleKey(d, k)
						}
					}
					set.AddTuple(bins, has)
				}
				add(direct.All)
				for d, k := range keys {
					if k != nil {
						add(direct.Dims[d].Entry(k))
					}
				}
			}
			if got, want := viaCombos.combos.table.len(), min(maxCombos, 3*6*callers); got > want || callers > maxCombos && got != maxCombos {
				t.Errorf("%d combinations in the table, want at most %d", got, want)
			}
			if g := byCallers.groupsOf(byCallers.combos.entries); g == nil || len(g.keys) > 3*6 {
				t.Errorf("the callers' set groups its combinations as %v, want at most 18 groups", g)
			}
			// Without their regions, the combinations of many callers are
			// two thirds as many: not grouped. Of seven, a third: grouped.
			if g := byRegions.groupsOf(byRegions.combos.entries); (g == nil) != (callers > maxCombos) {
				t.Errorf("the regions' set of %d callers groups its combinations as %v", callers, g)
			}
			// Split in whole groups: a group's combinations all on one side.
			other := NewSet(m, 2, dims, 10)
			other.Wide(1)
			all := len(split.combos.entries)
			split.SplitCombos(other)
			side := map[string]int{}
			for i, set := range []*Set{split, other} {
				for _, ce := range set.combos.entries {
					g := string(ComboKeys{[]byte(ce.key)}.Key(0)) + "/" + string(ComboKeys{[]byte(ce.key)}.Key(2))
					if j, ok := side[g]; ok && j != i {
						t.Fatalf("group %s on both sides", g)
					}
					side[g] = i
				}
			}
			if a, b := len(split.combos.entries), len(other.combos.entries); a+b != all || a < all/3 || b < all/3 {
				t.Errorf("%d combinations split %d and %d", all, a, b)
			}
			split.Merge(other)
			want := direct.AppendEncode(nil)
			for name, set := range map[string]*Set{"combinations": viaCombos, "combinations grouped by the callers": byCallers,
				"combinations grouped by the regions": byRegions, "combinations split in two sets": split} {
				if !bytes.Equal(set.AppendEncode(nil), want) {
					t.Errorf("the set filled through %s encodes differently from the one filled directly", name)
				}
			}
			direct.Finish()
			want = direct.AppendEncode(nil)
			for name, set := range map[string]*Set{"combinations": viaCombos, "combinations grouped by the callers": byCallers,
				"combinations grouped by the regions": byRegions, "combinations split in two sets": split} {
				set.Finish()
				if !bytes.Equal(set.AppendEncode(nil), want) {
					t.Errorf("finished, the set filled through %s encodes differently from the one filled directly", name)
				}
			}
		})
	}
}

// TestComboCountsCarry lowers the count a combination's bin holds before
// it carries, and checks that the set still encodes as one filled
// directly: no count is lost or doubled when a counter carries.
func TestComboCountsCarry(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	defer func(v uint8) { binCountMax = v }(binCountMax)
	binCountMax = 5
	viaCombos, direct := NewSet(m, 1, []string{"a"}, 10), NewSet(m, 1, []string{"a"}, 10)
	for i := range 3000 {
		v := []float64{0, 12, 12.1, 900}[i%4]
		bins, has := []Bin{m.Bin(v)}, []bool{true}
		viaCombos.BeginTuple()
		viaCombos.TupleKey(0, []byte("k"))
		viaCombos.AddTuple(bins, has)
		for _, e := range []*Entry{direct.All, direct.Dims[0].Entry([]byte("k"))} {
			e.Count++
			e.Add(m, 0, bins[0])
		}
	}
	if a, b := viaCombos.AppendEncode(nil), direct.AppendEncode(nil); !bytes.Equal(a, b) {
		t.Error("with counters carrying at 5, the set encodes differently from the one filled directly")
	}
	if n := viaCombos.Dims[0].Get("k").Metric(0).Count(); n != 3000 {
		t.Errorf("key k holds %d values, want 3000", n)
	}
}

// TestAddTupleIDs checks the ids AddTuple gives: one per combination,
// the same for each of its records, never given again after the table
// is expanded, and −1 past the table's bound.
func TestAddTupleIDs(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSet(m, 1, []string{"a"}, 10)
	add := func(key string) int {
		s.BeginTuple()
		s.TupleKey(0, []byte(key))
		return s.AddTuple([]Bin{m.Bin(1)}, []bool{true})
	}
	if a, b, a2 := add("x"), add("y"), add("x"); a != 0 || b != 1 || a2 != 0 {
		t.Errorf("ids x, y, x = %d, %d, %d, want 0, 1, 0", a, b, a2)
	}
	s.Dims[0].Len() // expands the table
	if x := add("x"); x != 2 {
		t.Errorf("after an expand, x has id %d, want 2 (ids are not given twice)", x)
	}
	for i := s.combos.table.len(); i < maxCombos; i++ {
		if id := add(fmt.Sprint("k", i)); id < 0 {
			t.Fatalf("combination %d of %d got id %d", i, maxCombos, id)
		}
	}
	if id := add("one too many"); id != -1 {
		t.Errorf("past the table's bound the id is %d, want -1", id)
	}
	if n := s.Dims[0].Get("x").Count; n != 3 {
		t.Errorf("x holds %d records, want 3", n)
	}
}

// TestOnExpand fills a set's combinations, light (listed values) and
// heavy (counted), and checks what OnExpand gives: each combination's
// keys, count and metrics, merged into sketches (Entry.MergeMetric) and
// Lights (Light.AddMetric), against the same values added one by one.
func TestOnExpand(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSet(m, 2, []string{"a", "b"}, 10)
	type want struct {
		n     int64
		s0    *Sketch
		l1    Light
		given bool
	}
	wants := map[string]*want{}
	rng := rand.New(rand.NewPCG(9, 10))
	sizes := map[string]int{"x": 3, "y": fewMax + 40, "z": 3 * fewMax}
	for key, n := range sizes {
		w := &want{s0: New(m)}
		wants[key] = w
		for i := range n {
			v0, v1 := rng.Float64()*1000, rng.Float64()*10
			if i%9 == 0 {
				v0 = 0
			}
			s.BeginTuple()
			s.TupleKey(0, []byte(key))
			if key != "x" {
				s.TupleKey(1, []byte("b-"+key))
			}
			has := []bool{true, i%3 != 0}
			s.AddTuple([]Bin{m.Bin(v0), m.Bin(v1)}, has)
			w.n++
			w.s0.Add(v0)
			if has[1] {
				w.l1.AddBin(m, m.Bin(v1))
			}
		}
	}
	s.OnExpand(func(k ComboKeys, e *Entry) {
		key := string(k.Key(0))
		w := wants[key]
		if w == nil || w.given {
			t.Fatalf("combination %q given twice or unknown", key)
		}
		w.given = true
		if b := k.Key(1); key == "x" && b != nil || key != "x" && string(b) != "b-"+key {
			t.Errorf("%s: key b %q", key, b)
		}
		if e.Count != w.n {
			t.Errorf("%s: count %d, want %d", key, e.Count, w.n)
		}
		got := New(m)
		e.MergeMetric(0, got)
		if !bytes.Equal(got.AppendEncode(nil), w.s0.AppendEncode(nil)) {
			t.Errorf("%s: metric 0 merged differs from its values' sketch", key)
		}
		var l Light
		l.AddMetric(m, e, 1)
		a, b := l.MergeInto(m, nil), w.l1.MergeInto(m, nil)
		if !bytes.Equal(a.AppendEncode(nil), b.AppendEncode(nil)) {
			t.Errorf("%s: metric 1 added to a Light differs from its values'", key)
		}
	})
	s.Expand()
	for key, w := range wants {
		if !w.given {
			t.Errorf("combination %q not given", key)
		}
	}
	// Expanded, the set is as if no hook had looked.
	if got := s.Dims[0].Get("z").Count; got != int64(sizes["z"]) {
		t.Errorf("z: %d records after the hooks, want %d", got, sizes["z"])
	}
}

// TestComboOnly gives a set a combination-only metric: a light and two
// heavy combinations must hand its values to the OnExpand functions,
// each value once, and no entry of the set may hold any of them (All's
// and the keys' sketches are those of a set without it).
func TestComboOnly(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	with, without := NewSet(m, 1, []string{"a"}, 10), NewSet(m, 1, []string{"a"}, 10)
	with.ComboOnly(1)
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := map[string]int{"x": 3, "y": fewMax + 40, "z": 4 * heavyMax * 5}
	own := map[string]*Sketch{}
	for _, key := range []string{"x", "y", "z"} {
		own[key] = New(m)
		for i := range sizes[key] {
			v, extra := rng.Float64()*1000, rng.Float64()*50
			for _, s := range []*Set{with, without} {
				s.BeginTuple()
				s.TupleKey(0, []byte(key))
				s.AddTuple([]Bin{m.Bin(v)}, []bool{true})
			}
			if i%4 != 0 { // not every record has it
				with.AddComboOnly(1, m.Bin(extra))
				own[key].Add(extra)
			}
		}
	}
	// Out of range, or after a record that went to no combination: nothing.
	with.AddComboOnly(2, m.Bin(1))
	with.AddComboOnly(0, m.Bin(1))
	given := map[string]bool{}
	with.OnExpand(func(k ComboKeys, e *Entry) {
		key := string(k.Key(0))
		given[key] = true
		got := New(m)
		e.MergeMetric(1, got)
		if !bytes.Equal(got.AppendEncode(nil), own[key].AppendEncode(nil)) {
			t.Errorf("%s: the combination-only metric differs from its values' sketch (%v values, want %v)", key, got.Count(), own[key].Count())
		}
	})
	with.Finish()
	without.Finish()
	if len(given) != len(sizes) {
		t.Errorf("%d combinations given, want %d", len(given), len(sizes))
	}
	if a, b := with.AppendEncode(nil), without.AppendEncode(nil); !bytes.Equal(a, b) {
		t.Errorf("a set with a combination-only metric encodes differently (%d bytes, %d without)", len(a), len(b))
	}
}

// TestMergeCombosAsOneSet fills two sets through their combination
// tables, some combinations in both, light and heavy ones of either
// side meeting (counters carrying at 5), with a combination-only metric
// and more combinations than one table holds; merges the second's
// table into the first (MergeCombos), then the sets. The first must
// encode as one set given every record, and give its OnExpand
// functions each combination once with the same count and values. So
// must they when half the combinations are then moved back to the
// second (SplitCombos), whose functions are given those.
func TestMergeCombosAsOneSet(t *testing.T) {
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprint("split ", split), func(t *testing.T) { mergeCombosAsOneSet(t, split) })
	}
}

func mergeCombosAsOneSet(t *testing.T, split bool) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	defer func(v uint8) { binCountMax = v }(binCountMax)
	binCountMax = 5
	dims := []string{"a", "b"}
	newSet := func() *Set {
		s := NewSet(m, 2, dims, 10)
		s.ComboOnly(1)
		return s
	}
	s, o, one := newSet(), newSet(), newSet()
	type seen struct {
		n        int64
		m0, own  []byte
		expanded int
	}
	hook := func(into map[string]*seen) func(ComboKeys, *Entry) {
		return func(k ComboKeys, e *Entry) {
			key := string(k.Key(0)) + "/" + string(k.Key(1))
			w := into[key]
			if w == nil {
				w = &seen{}
				into[key] = w
			}
			w.n += e.Count
			w.expanded++
			for i, dst := range []*[]byte{&w.m0, &w.own} {
				sk := New(m)
				e.MergeMetric([]int{0, 2}[i], sk)
				*dst = sk.AppendEncode(nil)
			}
		}
	}
	merged, whole := map[string]*seen{}, map[string]*seen{}
	s.OnExpand(hook(merged))
	one.OnExpand(hook(whole))
	rng := rand.New(rand.NewPCG(4, 4))
	// Combination sizes on each side: none, light, about fewMax, heavy.
	sizes := []int{0, 3, fewMax/3 - 1, fewMax/3 + 2, 2 * fewMax}
	add := func(set *Set, key string, v float64, second bool) {
		set.BeginTuple()
		set.TupleKey(0, []byte(key))
		if key[0] != 'x' {
			set.TupleKey(1, []byte("b"+key))
		}
		set.AddTuple([]Bin{m.Bin(v), m.Bin(v * 2)}, []bool{true, second})
		if v > 1 {
			set.AddComboOnly(2, m.Bin(v/3))
		}
	}
	for i, ns := range sizes {
		for j, no := range sizes {
			key := fmt.Sprintf("k%d%d", i, j)
			if (i+j)%4 == 0 {
				key = "x" + key // no key b
			}
			for side, n := range []int{ns, no} {
				for r := range n {
					v := []float64{0, 12, 12.1, 900, rng.Float64() * 5000}[r%5]
					second := r%3 != 0
					add([]*Set{s, o}[side], key, v, second)
					add(one, key, v, second)
				}
			}
		}
	}
	for i := range 2 * maxCombos { // past o's table: added directly
		key := fmt.Sprint("caller", i)
		add(o, key, float64(i), true)
		add(one, key, float64(i), true)
	}
	s.MergeCombos(o)
	if len(o.combos.entries) != 0 || o.combos.table.len() != 0 {
		t.Fatal("o's table not emptied")
	}
	if split {
		o.OnExpand(hook(merged))
		n := len(s.combos.entries)
		s.SplitCombos(o)
		if len(o.combos.entries) < n/3 || len(s.combos.entries)+len(o.combos.entries) != n {
			t.Fatalf("%d combinations split %d and %d", n, len(s.combos.entries), len(o.combos.entries))
		}
	}
	s.Merge(o)
	one.Expand()
	if a, b := s.AppendEncode(nil), one.AppendEncode(nil); !bytes.Equal(a, b) {
		t.Error("merged combinations encode differently from one set given every record")
	}
	// The callers are combinations or not as each table had room: the
	// others are compared.
	for key, w := range merged {
		if strings.HasPrefix(key, "caller") {
			continue
		}
		x := whole[key]
		if x == nil || w.expanded != 1 || w.n != x.n || !bytes.Equal(w.m0, x.m0) || !bytes.Equal(w.own, x.own) {
			t.Errorf("combination %s given %d times, %d records; in one set %+v", key, w.expanded, w.n, x)
		}
	}
	if len(merged) < len(sizes)*len(sizes)-1 {
		t.Errorf("%d combinations given to s's functions", len(merged))
	}
	s.Finish()
	one.Finish()
	if a, b := s.AppendEncode(nil), one.AppendEncode(nil); !bytes.Equal(a, b) {
		t.Error("finished, the merged set encodes differently from one set given every record")
	}
}

// TestMergeCombosCarry merges two combinations whose one bin holds more
// than half a counter's room each: the sum carries, none is lost.
func TestMergeCombosCarry(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	s, o := NewSet(m, 1, []string{"a"}, 10), NewSet(m, 1, []string{"a"}, 10)
	const n = 40000 // > 2^16 / 2
	for _, set := range []*Set{s, o} {
		for range n {
			set.BeginTuple()
			set.TupleKey(0, []byte("k"))
			set.AddTuple([]Bin{m.Bin(12)}, []bool{true})
		}
	}
	s.MergeCombos(o)
	s.Merge(o)
	if got := s.Dims[0].Get("k").Metric(0).Count(); got != 2*n {
		t.Errorf("the merged combination holds %v values, want %d", got, 2*n)
	}
}

// Nothing is grouped by a dimension a join reads or makes, wherever
// Wide is called: a group would lack the key the join needs.
func TestWideNotJoined(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	for dim, grouped := range map[int]bool{0: false, 1: false, 2: false, 3: true} {
		for _, wideFirst := range []bool{false, true} {
			s := NewSet(m, 1, []string{"a", "b", "a→b", "c"}, 10)
			if wideFirst {
				s.Wide(dim)
			}
			s.Join(2, 0, 1, "→")
			if !wideFirst {
				s.Wide(dim)
			}
			for i := range 80 {
				s.BeginTuple()
				s.TupleKey(0, []byte(fmt.Sprint("a", i%2)))
				s.TupleKey(1, []byte("b"))
				s.TupleKey(3, []byte(fmt.Sprint("c", i/2)))
				s.AddTuple([]Bin{m.Bin(float64(i))}, []bool{true})
			}
			if g := s.groupsOf(s.combos.entries); (g != nil) != grouped {
				t.Errorf("Wide(%d), before the join %v: grouped %v, want %v", dim, wideFirst, g != nil, grouped)
			}
		}
	}
}
