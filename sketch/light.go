package sketch

// lightMax is how many bins a Light lists before it becomes a sketch:
// a dense store spans at least 64 bins (half a kilobyte) and its
// sketch a few hundred bytes more, while sixteen listed bins are 384
// bytes; a collector keeping thousands of callers of a request or two
// each holds lists, not sketches.
const lightMax = 16

// Light is a sketch that lists its first few values' bins and becomes a
// Sketch past lightMax of them. Its Sketch is the same as one the values
// were added to. The zero value is empty and ready.
type Light struct {
	few []Bin
	s   *Sketch
}

// AddBin adds one value whose bin was computed with mapping m.
func (l *Light) AddBin(m *Mapping, b Bin) {
	if l.s == nil {
		if len(l.few) < lightMax {
			l.few = append(l.few, b)
			return
		}
		l.s = New(m)
		for _, f := range l.few {
			l.s.AddBin(f)
		}
		l.few = nil
	}
	l.s.AddBin(b)
}

// MergeInto adds l's values to s, making s with mapping m when it is nil
// and l has values, and empties l. It returns s.
func (l *Light) MergeInto(m *Mapping, s *Sketch) *Sketch {
	if l.s == nil && len(l.few) == 0 {
		return s
	}
	if s == nil {
		s = New(m)
	}
	for _, f := range l.few {
		s.AddBin(f)
	}
	if l.s != nil {
		s.Merge(l.s)
	}
	*l = Light{}
	return s
}

// AddMetric adds the values of entry e's metric i, made with mapping m,
// as AddBin would add each: a light entry's listed values one by one, a
// sketch by a merge.
func (l *Light) AddMetric(m *Mapping, e *Entry, i int) {
	if e.Metrics == nil {
		for b := range e.listed(i) {
			l.AddBin(m, b)
		}
	} else if s := e.Metrics[i]; s != nil {
		if l.s == nil {
			l.s = New(m)
		}
		l.s.Merge(s)
	}
}
