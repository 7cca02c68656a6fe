package sketch

import (
	"iter"
	"sort"
)

// Entry holds one key's sketches, one per metric (nil until the metric
// gets a value), and how many records carried the key.
//
// A light entry (few values so far) has no sketches yet (Metrics is nil)
// and lists its values instead, so that a dimension can track many keys
// of a few records each; past fewMax values, when a metric is read, or
// when the set finishes, the list becomes sketches. Either way the
// result is the same sketches.
type Entry struct {
	Count int64
	// Missing is how many more records the key may have had that a set
	// merged into this one folded into its Other: 0 but for the sets of
	// stored hours merged (a key one hour kept and another folded), whose
	// Count is then a lower bound and Count + Missing an upper one.
	Missing int64
	Metrics []*Sketch
	few     []fewValue
	shape   *entryShape
}

// entryShape is what an entry needs to make its sketches: the set's.
type entryShape struct {
	m       *Mapping
	metrics int
}

// fewMax is how many values a light entry lists (16 bytes each) before
// it becomes sketches: a dense store spans every bin between its
// smallest and largest value, 2 to 5 KB for latencies from milliseconds
// to minutes, so four of them cost what a few hundred listed values do.
const fewMax = 256

// fewValue is one value of a light entry: its bin and its metric.
type fewValue struct {
	v      float64
	index  int32
	metric uint8
	zero   bool
}

func (f fewValue) bin() Bin { return Bin{index: int(f.index), zero: f.zero, v: f.v} }

// Add adds a value's bin to metric i.
func (e *Entry) Add(m *Mapping, i int, b Bin) {
	if e.Metrics == nil {
		if len(e.few) < fewMax {
			if e.few == nil {
				// A record has a value of most metrics: room for one
				// record's, not the growth steps to it.
				e.few = make([]fewValue, 0, e.shape.metrics)
			}
			e.few = append(e.few, fewValue{v: b.v, index: int32(b.index), metric: uint8(i), zero: b.zero})
			return
		}
		e.flush()
	}
	s := e.Metrics[i]
	if s == nil {
		s = New(m)
		e.Metrics[i] = s
	}
	s.AddBin(b)
}

// flush turns a light entry's listed values into its sketches.
func (e *Entry) flush() {
	if e.Metrics != nil {
		return
	}
	m := e.shape.m
	e.Metrics = make([]*Sketch, e.shape.metrics)
	for _, f := range e.few {
		if int(f.metric) < e.shape.metrics { // not a combination's own (ComboOnly)
			e.Add(m, int(f.metric), f.bin())
		}
	}
	e.few = nil
}

// MergeMetric adds the values of metric i to dst, which has e's mapping,
// without making a light entry's sketches.
func (e *Entry) MergeMetric(i int, dst *Sketch) {
	if e.Metrics == nil {
		for b := range e.listed(i) {
			dst.AddBin(b)
		}
	} else if s := e.Metrics[i]; s != nil {
		dst.Merge(s)
	}
}

// listed yields the bins of metric i a light entry lists.
func (e *Entry) listed(i int) iter.Seq[Bin] {
	return func(yield func(Bin) bool) {
		for _, f := range e.few {
			if int(f.metric) == i && !yield(f.bin()) {
				return
			}
		}
	}
}

// Metric returns metric i's sketch, or nil when it has no value. A light
// entry read before its set finishes becomes sketches then.
func (e *Entry) Metric(i int) *Sketch {
	if e.Metrics == nil {
		if len(e.few) == 0 {
			return nil
		}
		e.flush()
	}
	return e.Metrics[i]
}

func (e *Entry) merge(m *Mapping, o *Entry) {
	e.Count += o.Count
	e.Missing += o.Missing
	own := e.shape.metrics // o may hold combination-only ones past them
	for _, f := range o.few {
		if int(f.metric) < own {
			e.Add(m, int(f.metric), f.bin())
		}
	}
	for i, s := range o.Metrics {
		if s == nil || i >= own {
			continue
		}
		e.flush()
		if e.Metrics[i] == nil {
			e.Metrics[i] = New(m)
		}
		e.Metrics[i].Merge(s)
	}
}

// Dim is the sketches of one dimension keyed by its values.
//
// Memory is bounded, and what a dimension reports does not depend on
// how the records were split between the sets that are merged: a
// dimension tracks every key whose hash is admitted at its level (at
// level 0, every key), each from its first record, so a tracked key's
// entry holds all its records. When more than the set's limit of keys
// are tracked, the level rises and the keys it no longer admits are
// folded into Other. The keys tracked at the end are those of the
// lowest level that admits at most limit keys of the whole input —
// whatever the split, since a part never holds more keys than the
// whole. Finish then keeps the heaviest top of them by their exact
// counts.
type Dim struct {
	Name   string
	keys   map[string]*Entry
	other  *Entry
	folded int64 // keys folded into other (estimated when sampled)
	level  uint8 // keys are tracked when their hash's top level bits are 0
	// sampled is the level the keys were chosen at by Finish: the kept
	// keys are the heaviest of a 1/2^sampled share of the keys, and
	// folded is an estimate.
	sampled uint8
	set     *Set
	// shared, when set, is the level this dimension shares with the
	// sets of the other workers (Admission).
	shared *admissionDim
	// bound is the most records a key the dimension does not list may
	// have in Other, once it has folded keys by their counts (Finish,
	// or a stored hour's set decoded): what a merge adds to the Missing
	// of a key the other side lists and this one does not.
	bound int64
	// foldedSum says folded is a sum over merged finished sets, which
	// may have folded the same keys: an upper bound.
	foldedSum bool
}

// Other returns the entry that keys beyond the cap were folded into, or
// nil when none was.
func (d *Dim) Other() *Entry {
	d.set.expand()
	return d.other
}

// Folded returns how many keys were folded into Other; an estimate
// when KeyShare is below 1.
func (d *Dim) Folded() int64 {
	d.set.expand()
	return d.folded
}

// FoldedUpper reports whether Folded is an upper bound: the sum of the
// keys that merged finished sets (stored hours) folded, some of them
// perhaps the same keys.
func (d *Dim) FoldedUpper() bool { return d.foldedSum }

// KeyShare returns the share of the dimension's keys the kept keys were
// chosen from: 1 when the kept keys are the heaviest of all, 1/2^k when
// the dimension had so many keys that only those of a hash sample were
// tracked (each kept key is still exact, with all its records).
func (d *Dim) KeyShare() float64 { return 1 / float64(uint64(1)<<d.sampled) }

// Len returns the number of keys kept.
func (d *Dim) Len() int {
	d.set.expand()
	return len(d.keys)
}

// Entry returns the entry for key, creating it; for a key the dimension
// does not track, that is Other. key is copied when it is stored, so it
// may point into a reused buffer.
func (d *Dim) Entry(key []byte) *Entry {
	if e, ok := d.keys[string(key)]; ok {
		return e
	}
	h := keyHash(key)
	if d.shared != nil {
		return d.sharedEntry(key, h)
	}
	if !admitted(h, d.level) {
		return d.otherEntry()
	}
	for len(d.keys) >= d.set.limit() && d.level < maxLevel {
		d.thin(d.level + 1)
		if !admitted(h, d.level) {
			return d.otherEntry()
		}
	}
	e := d.set.newEntry()
	d.keys[string(key)] = e
	return e
}

// sharedEntry is Entry for a key d does not track yet when d shares its
// level: the key is tracked when the shared level, after counting it,
// still admits it.
func (d *Dim) sharedEntry(key []byte, h uint64) *Entry {
	d.sync()
	if !admitted(h, d.level) {
		return d.otherEntry()
	}
	if lv := d.shared.admit(h, d.set.limit()); lv > d.level {
		d.thin(lv)
		if !admitted(h, d.level) {
			return d.otherEntry()
		}
	}
	e := d.set.newEntry()
	d.keys[string(key)] = e
	return e
}

func (d *Dim) otherEntry() *Entry {
	if d.other == nil {
		d.other = d.set.newEntry()
	}
	return d.other
}

// thin raises the level to level, folding the keys it does not admit.
func (d *Dim) thin(level uint8) {
	d.level = level
	for k, e := range d.keys {
		if !admitted(keyHash([]byte(k)), level) {
			d.otherEntry().merge(d.set.m, e)
			delete(d.keys, k)
		}
	}
}

// admitted reports whether a key of hash h is tracked at level.
func admitted(h uint64, level uint8) bool {
	return level == 0 || h>>(64-level) == 0
}

// maxLevel is the highest level. Keys of a 64-bit hash that many more
// than the limit share 40 leading zero bits are crafted, not met; past
// it a dimension keeps what it tracks rather than fold every key, and
// the estimate of folded keys (tracked × 2^level) stays in range.
const maxLevel = 40

// keyHash is FNV-1a of the key, mixed so that its top bits are uniform.
// It is fixed, so that every run and every part of a run agree.
func keyHash(key []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range key {
		h ^= uint64(c)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// Get returns the entry for key, or nil.
func (d *Dim) Get(key string) *Entry {
	d.set.expand()
	return d.keys[key]
}

// KeyEntry is a key with its entry.
type KeyEntry struct {
	Key string
	*Entry
}

// Sorted returns the keys by record count, largest first, then by key.
func (d *Dim) Sorted() []KeyEntry {
	d.set.expand()
	out := make([]KeyEntry, 0, len(d.keys))
	for k, e := range d.keys {
		out = append(out, KeyEntry{k, e})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// finish keeps the top heaviest tracked keys and folds the rest into
// Other, counting the folded keys: exactly at level 0, else estimated
// from the share of keys tracked. Every entry left becomes sketches.
func (d *Dim) finish(top int) {
	d.sync()
	n := int64(len(d.keys))
	kept := min(n, int64(top))
	d.folded += n<<d.level - kept
	d.sampled = max(d.sampled, d.level)
	d.level, d.shared = 0, nil // finished: the level is its own again
	if n > kept {
		for _, ke := range d.Sorted()[kept:] {
			d.bound = max(d.bound, ke.Count+ke.Missing)
			d.otherEntry().merge(d.set.m, ke.Entry)
			delete(d.keys, ke.Key)
		}
	}
	if d.sampled > 0 && d.other != nil {
		// A key outside the hash sample was folded whatever its count.
		d.bound = max(d.bound, d.other.Count)
	}
	for _, e := range d.keys {
		e.flush()
	}
	if d.other != nil {
		d.other.flush()
	}
}

// merge adds o's keys and folded keys into d.
func (d *Dim) merge(o *Dim) {
	m := d.set.m
	d.sync()
	o.sync()
	if o.level > d.level {
		d.thin(o.level)
	}
	// A key one side lists and the other folded by its count (a stored
	// hour's set) may have up to that side's bound more records.
	if o.bound > 0 {
		for k, e := range d.keys {
			if _, ok := o.keys[k]; !ok {
				e.Missing += o.bound
			}
		}
	}
	for k, oe := range o.keys {
		_, had := d.keys[k]
		e := d.Entry([]byte(k))
		if !had && e != d.other {
			e.Missing += d.bound
		}
		e.merge(m, oe)
	}
	if o.other != nil {
		d.otherEntry().merge(m, o.other)
	}
	if d.folded > 0 && o.folded > 0 && (d.bound > 0 || o.bound > 0) {
		d.foldedSum = true
	}
	d.foldedSum = d.foldedSum || o.foldedSum
	d.folded += o.folded
	d.bound += o.bound
	d.sampled = max(d.sampled, o.sampled)
}

// Set is the sketches of several metrics over the whole input ("all") and
// over each value of several dimensions.
type Set struct {
	m       *Mapping
	metrics int
	private int // the combinations' own metrics after them (ComboOnly)
	top     int
	shape   entryShape
	combos  combos
	// All is the whole input's entry, complete once the set is
	// finished, merged or encoded: until then records gather per
	// combination of keys (combo.go). Dims' methods expand them.
	All  *Entry
	Dims []*Dim
	// joins are the dimensions derived from others' keys (Join); parts
	// and joined are their scratch.
	joins  []join
	parts  [][]byte
	joined []byte
	// wide is the dimension expand groups the combinations by the other
	// keys of (Wide); −1 for none.
	wide int
}

// NewSet returns an empty set of metrics × dims. Each dimension keeps
// the top heaviest keys exactly and folds the rest into "other"; a
// dimension with at most top keys is never folded.
func NewSet(m *Mapping, metrics int, dims []string, top int) *Set {
	s := &Set{m: m, metrics: metrics, top: top, shape: entryShape{m, metrics}, wide: -1}
	s.All = s.newEntry()
	for _, name := range dims {
		s.Dims = append(s.Dims, &Dim{Name: name, keys: map[string]*Entry{}, set: s})
	}
	return s
}

// Mapping returns the set's value mapping.
func (s *Set) Mapping() *Mapping { return s.m }

// limit is how many keys a dimension tracks before its level rises:
// 256 times the cap, so that the heaviest keys of a log of a hundred
// thousand callers are all tracked (a light entry of one record costs
// about 200 bytes), but at most maxLimit, and never below twice the cap.
func (s *Set) limit() int { return max(2*s.top, min(256*s.top, maxLimit)) }

// maxLimit bounds the keys a dimension tracks (unless the cap is larger).
const maxLimit = 1 << 17

func (s *Set) newEntry() *Entry {
	return &Entry{shape: &s.shape}
}

// Merge adds o into s; both must have the same metrics and dimensions.
// The result does not depend on the order of merges.
func (s *Set) Merge(o *Set) {
	s.expand()
	o.expand()
	s.All.merge(s.m, o.All)
	for i, od := range o.Dims {
		s.Dims[i].merge(od)
	}
}

// Finish folds every dimension down to its cap. Call it after the last
// merge, before reading the entries.
func (s *Set) Finish() {
	s.expand()
	s.All.flush()
	for _, d := range s.Dims {
		d.finish(s.top)
	}
}
