package aggregate

import (
	"math"
	"sort"

	"loganalyze/ingest"
	"loganalyze/sketch"
)

// HourSeconds is the width of a state hour.
const HourSeconds = 3600

// MaxHours bounds the hour sets of one run: the latest 25 hours of the
// log, what the next hourly run compares with (the previous hour and the
// same hour a day before). A cron run covers an hour or two; a dump of
// two years would otherwise keep 17,520 sketch sets, and a set costs
// about 2 MB per worker even for a quiet hour (a few hundred sketches of
// widely spread values). Which hours are kept depends only on the
// records' times, not on their order or split between workers; the
// caller says when some were dropped (Accumulator.HoursFrom).
const MaxHours = 25

// History is what earlier periods measured, for the comparisons of the
// report and the latency_regression rule. It is filled from the state
// directory (--state); without one the accumulator's History is nil.
type History struct {
	// Previous is the hour before the window's first hour, or nil when
	// the state directory has none (Reason says why).
	Previous     *sketch.Set
	PreviousHour int64 // Unix seconds of its start
	Reason       string
	// DayBefore is the same hour one day before the window's first hour,
	// or nil.
	DayBefore     *sketch.Set
	DayBeforeHour int64
	// PreviousCollectors and DayBeforeCollectors are those hours' rule
	// collectors that the reader asked for (Options.Collectors, the
	// others nil), read from their files; nil when not read, a slot nil
	// when the file did not keep it.
	PreviousCollectors, DayBeforeCollectors []Collector
}

// FirstHour returns the start (Unix seconds) of the hour holding the
// window's first record, and false when no record had a time.
func (a *Accumulator) FirstHour() (int64, bool) {
	if !a.HasTime {
		return 0, false
	}
	return floorDiv(a.MinTime, HourSeconds*1e9) * HourSeconds, true
}

// SortedHours returns the starts (Unix seconds) of the hours in Hours, in
// order.
func (a *Accumulator) SortedHours() []int64 {
	keys := make([]int64, 0, len(a.Hours))
	for k := range a.Hours {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// hourOf returns the accumulator of a record's hour, starting it; nil
// when the hour is older than those kept. Its keys are those Add gives
// the window; TestHoursAddUpToTheWindow holds the two together.
func (a *Accumulator) hourOf(r *ingest.Record) *Accumulator {
	h := hourStart(r)
	if a.hoursCut && h <= a.hourCut || a.stored(r) {
		return nil
	}
	hour := a.Hours[h]
	if hour == nil {
		hour = New(Options{Mapping: a.opts.Mapping, Top: a.opts.Top, Collectors: a.opts.HourCollectors})
		for _, f := range a.windowHooks {
			hour.Set.OnExpand(f)
		}
		a.Hours[h] = hour
		a.boundHours()
		hour = a.Hours[h]
	}
	return hour
}

// stored reports whether r's time is in a span of its hour that the
// state directory holds already (Options.Stored).
func (a *Accumulator) stored(r *ingest.Record) bool {
	if a.opts.Stored == nil {
		return false
	}
	for _, sp := range a.opts.Stored[hourStart(r)] {
		if r.TimeNS >= sp[0] && r.TimeNS < sp[1] {
			return true
		}
	}
	return false
}

// hourStart is the Unix second of the start of a record's hour.
func hourStart(r *ingest.Record) int64 { return floorDiv(r.TimeNS, HourSeconds*1e9) * HourSeconds }

// boundHours drops the earliest hours past MaxHours into the window and
// remembers the latest dropped, so that a later record of it or of an
// earlier hour goes to the window, not to an hour started again.
func (a *Accumulator) boundHours() {
	for len(a.Hours) > MaxHours {
		first := int64(math.MaxInt64)
		for h := range a.Hours {
			first = min(first, h)
		}
		a.dropHour(first)
	}
}

// dropHour adds hour h, which is no longer kept, to the window.
func (a *Accumulator) dropHour(h int64) {
	hour := a.Hours[h]
	delete(a.Hours, h)
	a.cutHours(h)
	a.Set.Merge(hour.Set)
	for i, c := range a.Collectors {
		if c != nil && i < len(hour.Collectors) && hour.Collectors[i] != nil {
			c.Merge(hour.Collectors[i])
		}
	}
	a.mergeCounts(hour)
}

func (a *Accumulator) cutHours(h int64) {
	if !a.hoursCut || h > a.hourCut {
		a.hourCut, a.hoursCut = h, true
	}
}

// mergeHours adds o's hours into a's.
func (a *Accumulator) mergeHours(o *Accumulator) {
	if a.Hours == nil {
		return
	}
	if o.hoursCut {
		a.cutHours(o.hourCut)
	}
	for h, s := range o.Hours {
		if mine := a.Hours[h]; mine != nil {
			mine.Merge(s)
		} else {
			a.Hours[h] = s
		}
	}
	if a.hoursCut {
		for _, h := range a.SortedHours() {
			if h <= a.hourCut {
				a.dropHour(h)
			}
		}
	}
	a.boundHours()
}

// finishHours folds every hour's set down to its cap; the collectors
// stay mergeable, for the hour files.
func (a *Accumulator) finishHours() {
	for _, h := range a.Hours {
		h.Set.Finish()
	}
	if a.hoursCut {
		a.HoursFrom = a.hourCut + HourSeconds
	}
}

// PeakHours merges the busiest and the quietest quarter of the hours (by
// records; ties to the earlier hour) into one set each, folded to top
// keys. It needs at least MinPeakHours hours; ok is false otherwise.
func PeakHours(m *sketch.Mapping, top int, hours map[int64]*Accumulator) (peak, offPeak *sketch.Set, ok bool) {
	if len(hours) < MinPeakHours {
		return nil, nil, false
	}
	keys := make([]int64, 0, len(hours))
	for h := range hours {
		keys = append(keys, h)
	}
	sort.Slice(keys, func(i, j int) bool {
		ci, cj := hours[keys[i]].Set.All.Count, hours[keys[j]].Set.All.Count
		if ci != cj {
			return ci > cj
		}
		return keys[i] < keys[j]
	})
	k := (len(keys) + 3) / 4
	merge := func(hs []int64) *sketch.Set {
		s := sketch.NewSet(m, NumMetrics, DimNames, top)
		for _, h := range hs {
			s.Merge(hours[h].Set)
		}
		s.Finish()
		return s
	}
	return merge(keys[:k]), merge(keys[len(keys)-k:]), true
}

// MinPeakHours is how many hours the data must span for a peak / off-peak
// split: with four, each quarter is one hour.
const MinPeakHours = 4
