package aggregate

import (
	"cmp"
	"math"
	"slices"
	"time"

	"loganalyze/ingest"
)

// Strays are the few records dated long before all the others: a clock
// reset (a device back at 2001-01-01 after a power cut) in a log of one
// hour. Added, one of them would start the window years early, stretch
// the time line's buckets over the years between and leave the hour
// files a year of their own. Without --since (Options.HoldStrays), each
// worker holds aside, as copies, the records that may turn out strays,
// and SettleStrays decides between the workers, once all is read, which
// are: what a record is does not depend on the order of the lines or
// their split between workers, only on the times of all the records.
//
// The strays are the earliest j records, j at most MaxStrays and at most
// one in StrayShare of the records with a time, when the record after
// them comes more than StrayGap after the last of them and more than the
// rest of the records span, and each of them is of a file that has
// records after them too: more records that early, or a file all of
// whose records are that early, are a log of their own (an old file
// beside new ones; a sample of lines from years apart), and a gap no
// wider than the rest's span is a quiet time in it.

// MaxStrays bounds the records that can be strays.
const MaxStrays = 64

// StrayShare is how many records with a time there are at least for
// each stray: strays are a few among many.
const StrayShare = 100

// StrayGap is how much later than the strays the rest of the records
// must all be: a day, as a record may be dated ahead of the run
// (analysis.FutureSlack).
const StrayGap = int64(24 * time.Hour)

// strays are an accumulator's records held aside (Options.HoldStrays).
// A worker holds its first MaxStrays records with a time, then each
// record dated more than StrayGap before those and before every record
// it added: every stray is then held, as all the records it added come
// after them. Past 3·MaxStrays held, it keeps the MaxStrays earliest
// and adds the others (released), which more than MaxStrays records
// of its own come before.
type strays struct {
	held      []ingest.Record
	released  []ingest.Record // to add once the batch is added
	first     int             // of the first records, those held
	firstMax  int64           // the latest of them
	addedMin  int64           // the earliest time of a record added
	addedMax  int64           // the latest
	timed     int64           // records with a time, held or added
	releasing bool            // adding released records: none is held
	// fileMax is the latest time of a record added, by file; file and
	// latest are those of the records added last, not yet in it.
	fileMax map[int32]int64
	file    int32
	latest  int64
}

// holds reports whether the accumulator holds record r aside rather
// than adding it; if not, r's time counts in the added ones' span.
func (a *Accumulator) holds(r *ingest.Record) bool {
	s := &a.strays
	if !r.Has(ingest.FTime) {
		return false
	}
	t := r.TimeNS
	if !s.releasing {
		s.timed++
		if s.first < MaxStrays {
			s.first++
			s.firstMax = max(s.firstMax, t)
			s.held = append(s.held, r.Clone())
			return true
		}
		if t < min(s.addedMin, s.firstMax)-StrayGap {
			s.held = append(s.held, r.Clone())
			if len(s.held) > 3*MaxStrays {
				s.trim()
			}
			return true
		}
	}
	s.addedMin, s.addedMax = min(s.addedMin, t), max(s.addedMax, t)
	if r.File != s.file {
		s.noteFile()
		s.file, s.latest = r.File, t
	}
	s.latest = max(s.latest, t)
	return false
}

// noteFile puts the latest time of the file of the records added last
// in fileMax.
func (s *strays) noteFile() {
	if s.latest == math.MinInt64 {
		return
	}
	if s.fileMax == nil {
		s.fileMax = map[int32]int64{}
	}
	later(s.fileMax, s.file, s.latest)
	s.latest = math.MinInt64
}

// later makes m[f] t when t is later than it, or m has no f.
func later(m map[int32]int64, f int32, t int64) {
	if u, ok := m[f]; !ok || t > u {
		m[f] = t
	}
}

// trim keeps the MaxStrays earliest records held and releases the rest.
func (s *strays) trim() {
	slices.SortStableFunc(s.held, byTime)
	s.released = append(s.released, s.held[MaxStrays:]...)
	clear(s.held[MaxStrays:])
	s.held = s.held[:MaxStrays]
}

func byTime(a, b ingest.Record) int { return cmp.Compare(a.TimeNS, b.TimeNS) }

// release adds the records released, in batches.
func (a *Accumulator) release() {
	s := &a.strays
	rs := s.released
	s.released = nil
	s.releasing = true
	for len(rs) > 0 {
		n := min(len(rs), ingest.BatchSize)
		a.addBatch(rs[:n])
		rs = rs[n:]
	}
	s.releasing = false
}

// SettleStrays decides which of the records the accumulators of one
// input's workers held are strays, and adds the others to the worker
// that held them. The strays are counted outside the window (Skipped),
// and in Past, with the earliest and latest of their times. Call it once
// all is read, before MergeAll.
func SettleStrays(accs []*Accumulator) {
	type held struct {
		t    int64
		file int32
	}
	var all []held
	addedMin, latest := int64(math.MaxInt64), int64(math.MinInt64)
	timed := int64(0)
	fileMax := map[int32]int64{} // the latest time of each file's records
	for _, a := range accs {
		if !a.opts.HoldStrays {
			continue
		}
		s := &a.strays
		addedMin, latest = min(addedMin, s.addedMin), max(latest, s.addedMax)
		timed += s.timed
		s.noteFile()
		for f, t := range s.fileMax {
			later(fileMax, f, t)
		}
		for _, r := range s.held {
			all = append(all, held{r.TimeNS, r.File})
			latest = max(latest, r.TimeNS)
			later(fileMax, r.File, r.TimeNS)
		}
	}
	slices.SortFunc(all, func(a, b held) int { return cmp.Compare(a.t, b.t) })
	cut, found := int64(0), false
	for j := min(MaxStrays, len(all), int(timed/StrayShare)); j >= 1 && !found; j-- {
		next := addedMin
		if j < len(all) {
			next = min(next, all[j].t)
		}
		if next == math.MaxInt64 {
			continue // no record after them
		}
		gap := next - all[j-1].t
		if gap <= StrayGap || gap <= latest-next {
			continue
		}
		found = true
		for _, h := range all[:j] {
			found = found && fileMax[h.file] > all[j-1].t // a record of its file after them
		}
		cut = all[j-1].t
	}
	for _, a := range accs {
		if !a.opts.HoldStrays {
			continue
		}
		s := &a.strays
		slices.SortStableFunc(s.held, byTime)
		rest := s.held[:0]
		for _, r := range s.held {
			if found && r.TimeNS <= cut {
				a.Skipped++
				if a.Past == 0 || r.TimeNS < a.FirstPast {
					a.FirstPast = r.TimeNS
				}
				a.LastPast = max(a.LastPast, r.TimeNS)
				a.Past++
				continue
			}
			rest = append(rest, r)
		}
		s.released = append(s.released, rest...)
		s.held = nil
		a.release()
	}
}
