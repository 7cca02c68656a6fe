package sketch

import (
	"bytes"
	"encoding/binary"
	"math"
)

// maxCombos bounds the combinations a set keeps before it adds records
// to its dimensions directly. Most logs have a few thousand
// combinations of region, model, status, caller, … ; keyed by a million
// IPs they explode, and past the bound each further record of a new
// combination costs what it did without the table.
const maxCombos = 1 << 12

// combos is a set's table of the combinations of dimension keys its
// records carried, one entry per combination: a record adds each
// metric's bin once, to its combination's entry, instead of once per
// dimension and All. The table is expanded into All and the dimensions'
// entries before they are read or merged (All only after Finish or
// Merge); entries merge exactly, so the result is the same as adding
// every record to every dimension.
//
// A combination's entry is not a sketch but the cheapest exact record of
// its values: while light, the values listed as a light Entry lists
// them; then per metric the bin counts in one flat array, the zeros and
// the exact sum and extremes (comboCounts), which the values listed since
// are added to heavyMax at a time. A record so appends to its
// combination's list, whose end stays in the cache, and the counters are
// brought in once for dozens of values, not once per value: at a few
// thousand combinations of five metrics, the difference between staying
// in the cache and missing it.
type combos struct {
	table comboTable // combination → index in entries
	// entries are the combinations, in the order they were met; their
	// ids are base + index, so that an id is never given twice by one
	// set, even after an expand empties the table.
	entries []comboEntry
	// counts holds the counts of the heavy combinations, metrics
	// consecutive entries each (comboEntry.counts is the first).
	counts []comboCounts
	base   int
	// epoch counts the times the table was emptied or its entries moved
	// (expand, SplitCombos, MergeCombos): an id kept by a caller is the
	// same combination's only while the epoch is (AddCombo).
	epoch int
	tuple []byte // the combination being built: (dim, length, key)…
	// last is the index of the entry the latest AddTuple added to, −1
	// when it added to no entry (AddComboOnly).
	last int32
	// hooks are given each combination as it is expanded (OnExpand).
	hooks []func(ComboKeys, *Entry)
}

// ComboKeys are the dimension keys of one combination (OnExpand).
type ComboKeys struct{ t []byte }

// Key returns dimension dim's key, or nil when the combination has none
// (a joined dimension's neither: it is not part of a combination).
func (k ComboKeys) Key(dim int) []byte {
	for t := k.t; len(t) > 0; {
		d, key, rest := nextKey(t)
		if d == dim {
			return key
		}
		t = rest
	}
	return nil
}

// OnExpand registers f, which expand calls with each combination's keys
// and entry before adding the entry to All and the keys' entries: what a
// caller keeps per projection of a record's keys and its metric values
// can be taken from the combinations once, not from every record. The
// keys and the entry are the expansion's: f merges from them (Entry.
// MergeMetric) and keeps neither.
func (s *Set) OnExpand(f func(ComboKeys, *Entry)) {
	s.combos.hooks = append(s.combos.hooks, f)
}

// ComboOnly gives the set's combinations n metrics of their own after
// the set's, numbered from its metric count on: a combination lists and
// counts their values (AddComboOnly) as it does its metrics', and its
// entry holds them when it is given to the OnExpand functions, but they
// reach neither All nor a key's entry. What a caller keeps per
// projection of the keys, of a value that no dimension reports, is so
// taken from the combinations too. Called before the first record; a
// smaller n than before changes nothing.
func (s *Set) ComboOnly(n int) { s.private = max(s.private, n) }

// AddComboOnly adds bin b to combination-only metric i (numbered from
// the set's metric count, ComboOnly) of the combination the latest
// AddTuple added to; nothing when that record went to no combination
// (AddTuple gave −1) or the set has no such metric.
func (s *Set) AddComboOnly(i int, b Bin) {
	c := &s.combos
	if uint(c.last) >= uint(len(c.entries)) || uint(i-s.metrics) >= uint(s.private) {
		return
	}
	e := &c.entries[c.last]
	e.few = append(e.few, fewValue{v: b.v, index: int32(b.index), metric: uint8(i), zero: b.zero})
}

// comboEntry is one combination: its records, and its values listed
// (few) until there are heavyMax, then counted (counts ≥ 0) with the
// ones listed since added heavyMax at a time. (Listed up to fewMax, as
// a light Entry is, a combination's list grew twice more, to 448
// values, before its counts took them: garbage to clear and copy.)
type comboEntry struct {
	key    string
	count  int64
	few    []fewValue
	counts int32 // index of its first comboCounts, or -1
}

// comboCounts is one metric's values of a combination: the bin counts
// from index off, with a carry for a bin past 2⁸−1 (counters of one
// byte keep a worker's few thousand combinations in a quarter of the
// cache four would); the zeros; the exact sum and the extremes, as a
// Sketch keeps them.
type comboCounts struct {
	off      int
	bins     []uint8
	zero     uint64
	sum      exactSum
	min, max float64
	carry    map[int]uint64
}

// binCountMax is the count a bin's counter holds before it carries:
// the uint8 maximum (a variable, so that a test can lower it).
var binCountMax uint8 = math.MaxUint8

// BeginTuple starts the combination of one record's dimension keys.
func (s *Set) BeginTuple() { s.combos.tuple, s.combos.last = s.combos.tuple[:0], -1 }

// TupleKey adds dimension dim's key to the combination being built.
func (s *Set) TupleKey(dim int, key []byte) { s.combos.tuple = AppendKey(s.combos.tuple, dim, key) }

// Tuple returns the set's buffer to build a record's combination in,
// emptied, as BeginTuple does: a caller appends the keys to it
// (AppendKey), the slice in its hands, and gives it to AddTupleOf.
func (s *Set) Tuple() []byte {
	s.combos.last = -1
	return s.combos.tuple[:0]
}

// AppendKey appends dimension dim's key to combination t, as TupleKey
// adds it to the set's.
func AppendKey(t []byte, dim int, key []byte) []byte {
	if len(key) < 0x80 { // its length is one byte of uvarint
		t = append(t, byte(dim), byte(len(key)))
	} else {
		t = binary.AppendUvarint(append(t, byte(dim)), uint64(len(key)))
	}
	return append(t, key...)
}

// AddTupleOf is AddTuple of combination t, built from Tuple.
func (s *Set) AddTupleOf(t []byte, bins []Bin, has []bool) int {
	s.combos.tuple = t
	return s.AddTuple(bins, has)
}

// join is a dimension whose key is two others' joined: it is not part of
// a combination, but derived from its keys when it is expanded.
type join struct {
	dim, a, b int
	sep       string
}

// Join makes dimension dim's key that of dimension a, sep and that of b,
// for the records that have both, as if each had been given it with
// TupleKey: a combination then holds fewer bytes to hash, and a record
// one key less to build.
func (s *Set) Join(dim, a, b int, sep string) {
	s.joins = append(s.joins, join{dim: dim, a: a, b: b, sep: sep})
}

// keysOf calls f with each dimension key of combination t, then with the
// joined dimensions' keys.
func (s *Set) keysOf(t []byte, f func(dim int, key []byte)) {
	if len(s.joins) == 0 {
		eachKey(t, f)
		return
	}
	if s.parts == nil {
		s.parts = make([][]byte, len(s.Dims))
	}
	clear(s.parts)
	eachKey(t, func(dim int, key []byte) {
		s.parts[dim] = key
		f(dim, key)
	})
	for _, j := range s.joins {
		if a, b := s.parts[j.a], s.parts[j.b]; a != nil && b != nil {
			s.joined = append(append(append(s.joined[:0], a...), j.sep...), b...)
			f(j.dim, s.joined)
		}
	}
}

// AddTuple adds one record to the combination built since BeginTuple:
// one to the count, and bins[i] to metric i for each has[i]. It returns
// the combination's id, which stays the record's combination's for as
// long as the set is filled: small integers from 0, never given twice
// by one set, so that a caller may index what it keeps per combination
// by them. When the table is full and the combination is new, the
// record goes to All and each of its keys' entries instead, and the id
// is −1.
func (s *Set) AddTuple(bins []Bin, has []bool) int {
	c := &s.combos
	h := hashKey(c.tuple)
	i, ok := findCombo(&c.table, h, c.tuple, c.entries)
	if !ok {
		if c.table.len() >= maxCombos {
			s.addDirect(bins, has)
			return -1
		}
		i = int32(len(c.entries))
		c.entries = append(c.entries, comboEntry{key: string(c.tuple), counts: -1})
		c.table.add(h, i, c.entries)
	}
	s.addEntry(i, bins, has)
	return c.base + int(i)
}

// Epoch returns the set's epoch: the ids AddTuple gave are valid for
// AddCombo while it stays the same.
func (s *Set) Epoch() int { return s.combos.epoch }

// AddCombo adds one record to combination id, as AddTuple adds one to
// the combination it returned id for, without building or looking up
// the combination: for a caller that knows a record's combination by
// other means (the same dictionary indexes as a record before it). It
// returns false, adding nothing, when id is not a combination of the
// table; a caller keeps ids only within one Epoch.
func (s *Set) AddCombo(id int, bins []Bin, has []bool) bool {
	c := &s.combos
	i := id - c.base
	if uint(i) >= uint(len(c.entries)) {
		return false
	}
	s.addEntry(int32(i), bins, has)
	return true
}

// addEntry adds one record to entry i: one to its count, and its
// values to the entry's list.
func (s *Set) addEntry(i int32, bins []Bin, has []bool) {
	c := &s.combos
	e := &c.entries[i]
	e.count++
	if len(e.few)+len(bins)+s.private > heavyMax { // room for AddComboOnly's too
		s.countFew(e)
	}
	if e.few == nil {
		e.few = make([]fewValue, 0, len(bins)+s.private)
	}
	for m, b := range bins {
		if has[m] {
			e.few = append(e.few, fewValue{v: b.v, index: int32(b.index), metric: uint8(m), zero: b.zero})
		}
	}
	c.last = i // after the calls, which keep their places in the command's profile
}

// addDirect adds one record to All and to the entry of each key of the
// combination built.
func (s *Set) addDirect(bins []Bin, has []bool) {
	add := func(e *Entry) {
		e.Count++
		for m, b := range bins {
			if has[m] {
				e.Add(s.m, m, b)
			}
		}
	}
	add(s.All)
	s.keysOf(s.combos.tuple, func(dim int, key []byte) { add(s.Dims[dim].Entry(key)) })
}

// countFew adds a combination's listed values to its counts, which it
// makes the first time, and empties the list for the next ones.
func (s *Set) countFew(e *comboEntry) {
	c := &s.combos
	if e.counts < 0 {
		e.counts = int32(len(c.counts))
		for range s.metrics + s.private {
			c.counts = append(c.counts, comboCounts{min: math.Inf(1), max: math.Inf(-1)})
		}
	}
	cs := c.counts[e.counts : int(e.counts)+s.metrics+s.private]
	for _, f := range e.few {
		cs[f.metric].add(f.bin())
	}
	if cap(e.few) > heavyMax {
		e.few = make([]fewValue, 0, heavyMax)
	} else {
		e.few = e.few[:0]
	}
}

// heavyMax is how many values a counted combination lists before it
// counts them: enough that its counters are brought into the cache once
// for dozens of values, few enough that thousands of combinations in
// each of many workers hold little (1 KB each). At 128 the lists took
// 8 % more of the Parquet run's peak RSS and the run 2 % longer; at 32,
// the memory of 64 and the time of 128.
const heavyMax = 64

// add counts one value's bin. A value of a bin in range and below its
// counter's carry takes the short path, in the caller's loop; room does
// the rest first.
func (c *comboCounts) add(b Bin) {
	k := b.index - c.off
	if b.zero || uint(k) >= uint(len(c.bins)) || c.bins[k] == binCountMax {
		if k = c.room(b); k < 0 {
			return
		}
	}
	c.bins[k]++
	c.sum.add(b.v)
	if b.v < c.min {
		c.min = b.v
	}
	if b.v > c.max {
		c.max = b.v
	}
}

// room counts a zero (−1), or makes the counter of a value's bin ready
// for one more, growing the range or carrying a full counter, and
// returns its position.
func (c *comboCounts) room(b Bin) int {
	if b.zero {
		c.zero++
		c.min = math.Min(c.min, 0)
		c.max = math.Max(c.max, 0)
		return -1
	}
	k := b.index - c.off
	if uint(k) >= uint(len(c.bins)) {
		k = c.slot(b.index)
	}
	if c.bins[k] == binCountMax {
		c.carryAdd(b.index, uint64(binCountMax))
		c.bins[k] = 0
	}
	return k
}

// carryAdd adds n to the carried count of bin index.
func (c *comboCounts) carryAdd(index int, n uint64) {
	if c.carry == nil {
		c.carry = map[int]uint64{}
	}
	c.carry[index] += n
}

// slot makes room for bin index and returns its position (growSlot).
func (c *comboCounts) slot(index int) int {
	var k int
	c.bins, c.off, k = growSlot(c.bins, c.off, index)
	return k
}

// merge adds o's counts.
func (c *comboCounts) merge(o *comboCounts) {
	c.zero += o.zero
	c.sum.merge(o.sum)
	c.min, c.max = math.Min(c.min, o.min), math.Max(c.max, o.max)
	for idx, n := range o.carry {
		c.carryAdd(idx, n)
	}
	// The ends of o's counts, looked for from each side: its range is
	// grown by half again at a time, so its margins are empty and its
	// middle need not be read for them.
	first, last := 0, len(o.bins)-1
	for first <= last && o.bins[first] == 0 {
		first++
	}
	if first > last {
		return
	}
	for o.bins[last] == 0 {
		last--
	}
	c.slot(o.off + first) // the range grows to hold both ends
	c.slot(o.off + last)
	for k, n := range o.bins[first : last+1] {
		if n == 0 {
			continue
		}
		idx := o.off + first + k
		j := idx - c.off
		if t := uint64(c.bins[j]) + uint64(n); t < uint64(binCountMax) {
			c.bins[j] = uint8(t)
		} else { // the whole count carried: the counter starts again
			c.carryAdd(idx, t)
			c.bins[j] = 0
		}
	}
}

// MergeCombos moves the combinations of o, a set of s's shape, into s's
// table, as if o's records had been added to s: a combination both
// hold is added up, the others are moved. o's table is left empty; its
// All and its keys' entries (of records past its bound of combinations)
// are o's still, for Merge. After the workers are done, merging their
// tables before they expand expands each combination once, not once per
// worker that met it; the OnExpand functions of s are given it.
func (s *Set) MergeCombos(o *Set) {
	oc, c := &o.combos, &s.combos
	c.epoch++
	oc.epoch++
	n := s.metrics + s.private
	for i := range oc.entries {
		oe := &oc.entries[i]
		h := hashString(oe.key)
		j, ok := findCombo(&c.table, h, oe.key, c.entries)
		if !ok {
			j = int32(len(c.entries))
			ne := comboEntry{key: oe.key, count: oe.count, few: oe.few, counts: -1}
			if oe.counts >= 0 {
				ne.counts = int32(len(c.counts))
				c.counts = append(c.counts, oc.counts[oe.counts:int(oe.counts)+n]...)
			}
			c.entries = append(c.entries, ne)
			c.table.add(h, j, c.entries)
			continue
		}
		e := &c.entries[j]
		e.count += oe.count
		if oe.counts >= 0 {
			if e.counts < 0 {
				s.countFew(e) // heavy now: its counts take o's
			}
			for m := range n {
				c.counts[int(e.counts)+m].merge(&oc.counts[int(oe.counts)+m])
			}
		}
		e.few = append(e.few, oe.few...)
		if len(e.few) > heavyMax {
			s.countFew(e)
		}
	}
	oc.table, oc.entries, oc.counts = comboTable{}, nil, nil
}

// expandCost is about what expanding combination e costs, in units of a
// value listed: a counted one fills a sketch per metric from its bins,
// hundreds of them, and merges those twice, taken as a hundred values.
// (SplitCombos gave each side half the combinations, and the side with
// more counted ones took half as long again as the other; weighed so,
// the two sides of a Parquet run's merge took about the same time.)
func expandCost(e *comboEntry) int {
	if e.counts >= 0 {
		return 100
	}
	return 1 + len(e.few)
}

// SplitCombos moves about half of s's combinations into the table of
// o, a set of s's shape whose table is empty (MergeCombos left it so),
// so that two goroutines expand them: o's OnExpand functions are given
// the ones moved. With a wide dimension (Wide) whole groups are moved,
// so that each group is expanded on one side only. Merges being exact,
// the sets merged give the entries one set expanding all would.
func (s *Set) SplitCombos(o *Set) {
	c, oc := &s.combos, &o.combos
	if len(c.entries) < 2 || len(oc.entries) > 0 {
		return
	}
	// move[i] says whether entry i moves: by groups, the smaller side
	// taking each next group; without, the second half.
	move := make([]bool, len(c.entries))
	if g := s.groupsOf(c.entries); g != nil {
		sizes := make([]int, len(g.keys))
		for i, j := range g.of {
			sizes[j] += expandCost(&c.entries[i])
		}
		moved, kept := make([]bool, len(g.keys)), 0
		total := 0
		for j, n := range sizes {
			if total-kept < kept { // o's side is smaller
				moved[j] = true
			} else {
				kept += n
			}
			total += n
		}
		for i, j := range g.of {
			move[i] = moved[j]
		}
	} else {
		total := 0
		for i := range c.entries {
			total += expandCost(&c.entries[i])
		}
		for i, moved := len(move)-1, 0; i >= 0 && 2*moved < total; i-- {
			move[i] = true
			moved += expandCost(&c.entries[i])
		}
	}
	n := s.metrics + s.private
	kept := c.entries[:0]
	for i, ce := range c.entries {
		if !move[i] {
			kept = append(kept, ce)
			continue
		}
		if ce.counts >= 0 {
			from := ce.counts
			ce.counts = int32(len(oc.counts))
			oc.counts = append(oc.counts, c.counts[from:int(from)+n]...)
		}
		oc.entries = append(oc.entries, ce)
	}
	clear(c.entries[len(kept):])
	c.entries, c.table, c.last = kept, comboTable{}, -1
	c.epoch++
}

// fill sets s to the counted values; false when there are none.
func (c *comboCounts) fill(s *Sketch) bool {
	if c.zero == 0 && c.max == math.Inf(-1) { // every value but zero sets max
		return false
	}
	s.dd.Clear()
	for k, n := range c.bins {
		if n > 0 {
			s.pos.AddWithCount(c.off+k, float64(n))
		}
	}
	for i, n := range c.carry {
		s.pos.AddWithCount(i, float64(n))
	}
	s.zero = float64(c.zero)
	if c.zero > 0 {
		_ = s.dd.AddWithCount(0, s.zero)
	}
	s.sum, s.min, s.max = c.sum, c.min, c.max
	return true
}

// Expand adds the records gathered per combination of keys to All and
// the keys' entries, calling the OnExpand functions, as a merge, an
// encoding or a read of the set does first: for a caller that must have
// them called before it goes on. The set may be added to again.
func (s *Set) Expand() { s.expand() }

// expand adds every combination's entry to All and to the entry of each
// of its keys, and empties the table. A heavy combination's counts
// become sketches in scratch ones, which every entry then merges.
func (s *Set) expand() {
	c := &s.combos
	if len(c.entries) == 0 {
		return
	}
	for i := range c.entries {
		if ce := &c.entries[i]; ce.counts >= 0 && len(ce.few) > 0 {
			s.countFew(ce)
		}
	}
	entries, counts := c.entries, c.counts
	c.base += len(entries)
	c.table, c.entries, c.counts, c.last = comboTable{}, nil, nil, -1
	c.epoch++
	n := s.metrics + s.private
	scratch := make([]*Sketch, n)
	for i := range scratch {
		scratch[i] = New(s.m)
	}
	// e is the set's own metrics' shape (merge adds no others) with
	// the combination-only metrics' values as well.
	e, metrics := s.newEntry(), make([]*Sketch, n)
	g := s.groupsOf(entries)
	for i := range entries {
		ce := &entries[i]
		e.Count, e.few, e.Metrics = ce.count, ce.few, nil
		if ce.counts >= 0 {
			e.few = nil
			e.Metrics = metrics
			clear(metrics)
			for m := range n {
				if counts[int(ce.counts)+m].fill(scratch[m]) {
					e.Metrics[m] = scratch[m]
				}
			}
		}
		for _, f := range c.hooks {
			f(ComboKeys{[]byte(ce.key)}, e)
		}
		if g == nil {
			s.All.merge(s.m, e)
			s.keysOf([]byte(ce.key), func(dim int, key []byte) { s.Dims[dim].Entry(key).merge(s.m, e) })
			continue
		}
		g.entries[g.of[i]].merge(s.m, e)
		if k := (ComboKeys{[]byte(ce.key)}).Key(s.wide); k != nil {
			s.Dims[s.wide].Entry(k).merge(s.m, e)
		}
	}
	if g == nil {
		return
	}
	for j, ge := range g.entries {
		s.All.merge(s.m, ge)
		s.keysOf(g.keys[j], func(dim int, key []byte) { s.Dims[dim].Entry(key).merge(s.m, ge) })
	}
}

// Wide names the dimension of the most keys (the callers): expand
// then adds each combination to its key of that dimension and to the
// group of the combinations that share all their other keys, and each
// group, not each combination, to All and the other dimensions' keys.
// Thousands of combinations of a few hundred callers are a few hundred
// groups: a third of the merges. The entries are the same, merges
// being exact and their order not mattering. Nothing is grouped by a
// dimension a join reads or makes (a group would lack the key the join
// needs); −1 (the default) groups nothing.
func (s *Set) Wide(dim int) { s.wide = dim }

// wideDim is the dimension expand groups by, −1 for none (Wide).
func (s *Set) wideDim() int {
	for _, j := range s.joins {
		if j.a == s.wide || j.b == s.wide || j.dim == s.wide {
			return -1
		}
	}
	return s.wide
}

// comboGroups are the groups of combinations expand adds together:
// keys[j] is group j's combination without the wide dimension's key,
// entries[j] its entry; of[i] is the group of combination i.
type comboGroups struct {
	keys    [][]byte
	entries []*Entry
	of      []int32
}

// groupsOf groups entries by their keys but the wide dimension's; nil
// when there is no wide dimension, or the groups would not halve the
// combinations (the wide dimension is not the widest).
func (s *Set) groupsOf(entries []comboEntry) *comboGroups {
	wide := s.wideDim()
	if wide < 0 || len(entries) < 16 {
		return nil
	}
	g := &comboGroups{of: make([]int32, len(entries))}
	index := make(map[string]int32, len(entries)/4)
	var buf []byte
	for i := range entries {
		buf = buf[:0]
		eachKey([]byte(entries[i].key), func(dim int, key []byte) {
			if dim != wide {
				buf = AppendKey(buf, dim, key)
			}
		})
		j, ok := index[string(buf)]
		if !ok {
			if 2*len(g.keys) >= len(entries) {
				return nil
			}
			j = int32(len(g.keys))
			index[string(buf)] = j
			g.keys = append(g.keys, bytes.Clone(buf))
			g.entries = append(g.entries, s.newEntry())
		}
		g.of[i] = j
	}
	return g
}

// eachKey calls f with each dimension key of a combination.
func eachKey(t []byte, f func(dim int, key []byte)) {
	for len(t) > 0 {
		dim, key, rest := nextKey(t)
		f(dim, key)
		t = rest
	}
}

// nextKey decodes the first (dim, length, key) of a combination and
// returns the rest.
func nextKey(t []byte) (dim int, key, rest []byte) {
	n, k := binary.Uvarint(t[1:])
	key = t[1+k:]
	return int(t[0]), key[:n:n], key[n:]
}
