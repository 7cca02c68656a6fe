package sketch

import (
	"sort"
)

// Entry holds one key's sketches, one per metric (nil until the metric
// gets a value), and how many records carried the key.
type Entry struct {
	Count   int64
	Metrics []*Sketch
}

// Add adds a value's bin to metric i.
func (e *Entry) Add(m *Mapping, i int, b Bin) {
	s := e.Metrics[i]
	if s == nil {
		s = New(m)
		e.Metrics[i] = s
	}
	s.AddBin(b)
}

// Metric returns metric i's sketch, or nil when it has no value.
func (e *Entry) Metric(i int) *Sketch { return e.Metrics[i] }

func (e *Entry) merge(m *Mapping, o *Entry) {
	e.Count += o.Count
	for i, s := range o.Metrics {
		if s == nil {
			continue
		}
		if e.Metrics[i] == nil {
			e.Metrics[i] = New(m)
		}
		e.Metrics[i].Merge(s)
	}
}

// Dim is the sketches of one dimension keyed by its values. Memory is
// bounded: past a limit the lightest keys are folded into Other.
type Dim struct {
	Name   string
	keys   map[string]*Entry
	other  *Entry
	folded int64 // distinct keys folded into other (a key folded twice counts twice)
	set    *Set
}

// Other returns the entry that keys beyond the cap were folded into, or
// nil when none was.
func (d *Dim) Other() *Entry { return d.other }

// Folded returns how many keys were folded into Other.
func (d *Dim) Folded() int64 { return d.folded }

// Len returns the number of keys kept.
func (d *Dim) Len() int { return len(d.keys) }

// Entry returns the entry for key, creating it. key is copied when it is
// stored, so it may point into a reused buffer.
func (d *Dim) Entry(key []byte) *Entry {
	if e, ok := d.keys[string(key)]; ok {
		return e
	}
	if len(d.keys) >= d.set.limit() {
		d.fold(d.set.top)
	}
	e := d.set.newEntry()
	d.keys[string(key)] = e
	return e
}

// Get returns the entry for key, or nil.
func (d *Dim) Get(key string) *Entry { return d.keys[key] }

// KeyEntry is a key with its entry.
type KeyEntry struct {
	Key string
	*Entry
}

// Sorted returns the keys by record count, largest first, then by key.
func (d *Dim) Sorted() []KeyEntry {
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

// fold keeps the n heaviest keys and folds the rest into Other.
func (d *Dim) fold(n int) {
	if len(d.keys) <= n {
		return
	}
	sorted := d.Sorted()
	if d.other == nil {
		d.other = d.set.newEntry()
	}
	for _, ke := range sorted[n:] {
		d.other.merge(d.set.m, ke.Entry)
		delete(d.keys, ke.Key)
		d.folded++
	}
}

// Set is the sketches of several metrics over the whole input ("all") and
// over each value of several dimensions.
type Set struct {
	m       *Mapping
	metrics int
	top     int
	All     *Entry
	Dims    []*Dim
}

// NewSet returns an empty set of metrics × dims. Each dimension keeps
// the top heaviest keys exactly and folds the rest into "other"; a
// dimension with at most top keys is never folded.
func NewSet(m *Mapping, metrics int, dims []string, top int) *Set {
	s := &Set{m: m, metrics: metrics, top: top}
	s.All = s.newEntry()
	for _, name := range dims {
		s.Dims = append(s.Dims, &Dim{Name: name, keys: map[string]*Entry{}, set: s})
	}
	return s
}

// Mapping returns the set's value mapping.
func (s *Set) Mapping() *Mapping { return s.m }

// limit is how many keys a dimension holds before it folds: twice the
// cap, so that folding is rare and what survives it is the heavy keys.
func (s *Set) limit() int { return 2 * s.top }

func (s *Set) newEntry() *Entry {
	return &Entry{Metrics: make([]*Sketch, s.metrics)}
}

// Merge adds o into s; both must have the same metrics and dimensions.
func (s *Set) Merge(o *Set) {
	s.All.merge(s.m, o.All)
	for i, od := range o.Dims {
		d := s.Dims[i]
		for _, ke := range od.Sorted() {
			d.Entry([]byte(ke.Key)).merge(s.m, ke.Entry)
		}
		if od.other != nil {
			if d.other == nil {
				d.other = s.newEntry()
			}
			d.other.merge(s.m, od.other)
			d.folded += od.folded
		}
	}
}

// Finish folds every dimension down to its cap. Call it once, after the
// last merge.
func (s *Set) Finish() {
	for _, d := range s.Dims {
		d.fold(s.top)
	}
}
