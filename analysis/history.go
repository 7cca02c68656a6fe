package analysis

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/report"
	"loganalyze/sketch"
	"loganalyze/state"
)

// The "files" of the problems of hour sets that were cut (hoursCut): the
// features they limit, named as the reports' reader asked for them.
const (
	stateHours = "--state"
	peakHours  = "--baseline (peak / off-peak)"
)

// history, with a state directory, loads the previous hour and the same
// hour a day before into acc.History and writes the window's hours
// (unless ctx is done by then). It returns the problems for the report:
// state files skipped, and hours not kept for the state files or the
// peak / off-peak split.
func history(ctx context.Context, dir *state.Dir, cfg Config, acc *aggregate.Accumulator, read *ingest.Result, baseline *aggregate.Accumulator, m *sketch.Mapping, plan hourPlan) ([]ingest.Problem, error) {
	var problems []ingest.Problem
	if dir != nil {
		var p []ingest.Problem
		rcfg := rulesOf(cfg)
		// The earlier hours are compared by their sets, and explained by
		// latency_regression's pairs; their other statistics are skipped.
		acc.History, p = loadHistory(dir, acc, cfg.Since, aggregate.Options{Mapping: m, Top: cfg.Top,
			Collectors: rcfg.HistoryCollectors(m, cfg.Top), OptionalCollectors: true}, rcfg.CollectorNames())
		problems = append(problems, p...)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hourOpts := aggregate.Options{Mapping: m, Top: cfg.Top, Collectors: rcfg.Collectors(m, cfg.Top, true)}
		if err := writeHours(dir, acc, rcfg.CollectorNames(), plan, hourOpts, read); err != nil {
			// The reports are written all the same, saying so: a full
			// disk under the state directory left the last run's report,
			// verdict ok, as the latest.
			problems = append(problems, ingest.Problem{File: cfg.StateDir, Reason: "hour files not written: " + err.Error()})
			return problems, &StateWriteError{Err: err}
		}
		problems = append(problems, hoursCut(stateHours, acc)...)
	} else if baseline != nil {
		problems = append(problems, hoursCut(peakHours, acc)...)
	}
	return append(problems, hoursCut(peakHours, baseline)...), nil
}

// StateWriteError is the error of a run whose hour files could not all
// be written: its reports are written all the same (Result.StateError).
type StateWriteError struct{ Err error }

func (e *StateWriteError) Error() string { return e.Err.Error() }
func (e *StateWriteError) Unwrap() error { return e.Err }

// hourLabel names an hour (Unix seconds) in UTC, as state files are named.
func hourLabel(h int64) string {
	return time.Unix(h, 0).UTC().Format("2006-01-02T15:04Z")
}

// loadHistory reads, from the state directory, the hour before the
// window's first hour and the same hour a day before. A missing file is
// no comparison; a damaged one is also a problem for the report.
func loadHistory(d *state.Dir, acc *aggregate.Accumulator, since *time.Time, opts aggregate.Options, collectors []string) (*aggregate.History, []ingest.Problem) {
	h := &aggregate.History{}
	first, ok := acc.FirstHour()
	if since != nil {
		first, ok = since.Truncate(time.Hour).Unix(), true
	}
	if !ok {
		h.Reason = "no record has a time, so there is no previous hour"
		return h, nil
	}
	var problems []ingest.Problem
	prevLayout := false
	read := func(hour int64) (*sketch.Set, []aggregate.Collector) {
		h, err := d.Read(hour, opts, collectors)
		if err == nil {
			if !h.Full {
				return h.Acc.Set, nil
			}
			return h.Acc.Set, h.Acc.Collectors
		}
		if hour == first-aggregate.HourSeconds {
			prevLayout = errors.Is(err, state.ErrLayout)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			problems = append(problems, ingest.Problem{File: d.FileName(hour), Reason: "state file skipped: " + err.Error()})
		}
		return nil, nil
	}
	h.PreviousHour = first - aggregate.HourSeconds
	h.DayBeforeHour = first - 24*aggregate.HourSeconds
	h.Previous, h.PreviousCollectors = read(h.PreviousHour)
	h.DayBefore, h.DayBeforeCollectors = read(h.DayBeforeHour)
	if h.Previous == nil {
		h.Reason = "no previous hour in the state directory (" + hourLabel(h.PreviousHour) + ")"
		if len(problems) > 0 && problems[0].File == d.FileName(h.PreviousHour) {
			h.Reason = "the previous hour's state file is damaged (" + hourLabel(h.PreviousHour) + ")"
			if prevLayout {
				h.Reason = "the previous hour's state file was written for other metrics, dimensions or rules (" + hourLabel(h.PreviousHour) + ")"
			}
		}
	}
	return h, problems
}

// hourPlan is how a run with a state directory writes the hours of its
// window that the directory holds already. An hour file says which spans
// of its hour it holds the records of (state.Hour.Spans). A run whose
// window within the hour covers them all replaces the file, as a run
// over the same window again does; a run whose window leaves some out
// (an hourly cron run, --since -1h, starting seconds later than the one
// before, whose window ended seconds into this hour) adds to it what the
// file lacks: the records of the stored spans go to the window alone
// (aggregate.Options.Stored), and the hour written is the stored one
// merged with the rest.
type hourPlan struct {
	// merge holds the stored spans of the hours added to.
	merge map[int64][][2]int64
	// from and to bound the window (Unix nanoseconds) when bounded; a
	// run without --since covers whole hours.
	from, to int64
	bounded  bool
}

// planHours reads the spans of the hour files the window meets.
func planHours(d *state.Dir, cfg Config, m *sketch.Mapping, collectors []string) hourPlan {
	if cfg.Since == nil {
		if cfg.Until == nil {
			return hourPlan{}
		}
		// An --until alone: the hours before it are the log's whole, the
		// last cut at it; each replaces its file.
		return hourPlan{from: math.MinInt64, to: cfg.Until.UnixNano(), bounded: true}
	}
	p := hourPlan{from: cfg.Since.UnixNano(), to: math.MaxInt64, bounded: true}
	end := cfg.Until
	if end == nil {
		end = openEnd(cfg.Since, cfg.Now)
	}
	p.to = end.UnixNano()
	first := cfg.Since.Unix() / aggregate.HourSeconds * aggregate.HourSeconds
	for h := first; h*1e9 < p.to; h += aggregate.HourSeconds {
		spans, err := d.Spans(h, m, collectors)
		if err != nil || len(spans) == 0 {
			continue // no file, one that does not say, or damage: replaced
		}
		if span := p.span(h); !within(spans, span) {
			if p.merge == nil {
				p.merge = map[int64][][2]int64{}
			}
			p.merge[h] = spans
		}
	}
	return p
}

// span is the part of hour h the window covers.
func (p hourPlan) span(h int64) [2]int64 {
	s := [2]int64{h * 1e9, (h + aggregate.HourSeconds) * 1e9}
	if p.bounded {
		s[0], s[1] = max(s[0], p.from), min(s[1], p.to)
	}
	return s
}

// within reports whether every span of spans is inside s.
func within(spans [][2]int64, s [2]int64) bool {
	for _, sp := range spans {
		if sp[0] < s[0] || sp[1] > s[1] {
			return false
		}
	}
	return true
}

// union returns spans with s added: in order, those that meet joined.
func union(spans [][2]int64, s [2]int64) [][2]int64 {
	all := append(append([][2]int64(nil), spans...), s)
	slices.SortFunc(all, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	out := all[:1]
	for _, sp := range all[1:] {
		if last := &out[len(out)-1]; sp[0] <= last[1] {
			last[1] = max(last[1], sp[1])
		} else {
			out = append(out, sp)
		}
	}
	return out
}

// writeHours writes the state file of every hour the window holds: the
// hour's records and the span the window covers of it, or, for an hour
// the plan adds to, the stored hour merged with them and its spans
// joined with the window's.
func writeHours(d *state.Dir, acc *aggregate.Accumulator, collectors []string, plan hourPlan, opts aggregate.Options, read *ingest.Result) error {
	hours := acc.SortedHours()
	for i, h := range hours {
		span := plan.span(h)
		hour, spans := acc.Hours[h], [][2]int64{span}
		in := runInput(read, i == len(hours)-1)
		if stored := plan.merge[h]; stored != nil {
			if merged, was, ok := mergeStored(d, h, hour, collectors, opts); ok {
				hour, spans = merged, union(stored, span)
				was.Add(in)
				in = was
			}
		}
		if err := d.WriteSpans(h, hour, collectors, spans, in); err != nil {
			return err
		}
	}
	return nil
}

// runInput is what the run could not read, as an hour file keeps it
// (state.Input): the bad lines the window placed in it and their samples
// for the last hour it writes (last), the files not read to their end or at all for each.
func runInput(read *ingest.Result, last bool) state.Input {
	var in state.Input
	if read == nil {
		return in
	}
	if last {
		// The window's: a cron's hourly runs over one growing file
		// store each bad line once between them (BadLinesInWindow).
		in.BadLines = read.BadLinesInWindow()
		in.Problems = read.Problems[:min(len(read.Problems), 20)]
	}
	for _, f := range read.Files {
		switch {
		case f.Incomplete:
			in.Incomplete = append(in.Incomplete, fmt.Sprintf("%q: %s", f.Path, f.Reason))
		case f.Records == 0 && f.BadLines > 0:
			in.Incomplete = append(in.Incomplete, fmt.Sprintf("%q: not read, %d bad lines", f.Path, f.BadLines))
		}
	}
	return in
}

// mergeStored returns the stored hour h merged with hour, and what the
// runs that wrote it could not read. hour is a window's hour whose
// collectors a merge has taken apart (their states kept for the file):
// it is read back from its encoding, as a report of stored hours would
// read it. ok is false when the stored hour cannot be read
// now, which the window's hour then replaces.
func mergeStored(d *state.Dir, h int64, hour *aggregate.Accumulator, collectors []string, opts aggregate.Options) (*aggregate.Accumulator, state.Input, bool) {
	stored, err := d.Read(h, opts, collectors)
	if err != nil || !stored.Full {
		return nil, state.Input{}, false
	}
	mine, err := state.Decode(state.Encode(h, hour, collectors), opts, collectors)
	if err != nil {
		return nil, state.Input{}, false
	}
	mine.Acc.Merge(stored.Acc)
	mine.Acc.Set.Finish() // folded to --top, as the hours a run writes
	return mine.Acc, stored.Input, true
}

// references are the periods the window is compared with: the baseline
// (when given) and the earlier hours of the state directory. A baseline
// and a window that both span several hours are also compared peak with
// peak and off-peak with off-peak.
func references(acc, baseline *aggregate.Accumulator, baselinePaths []string, m *sketch.Mapping, top int) []report.Reference {
	var refs []report.Reference
	if baseline != nil {
		ref := report.Reference{Against: "baseline", Label: "the baseline (" + strings.Join(baselinePaths, ", ") + ")", Set: baseline.Set}
		if bp, bo, ok := aggregate.PeakHours(m, top, baseline.Hours); ok {
			if ap, ao, ok := aggregate.PeakHours(m, top, acc.Hours); ok {
				ref.Peaks = &report.Peaks{PeakBefore: bp, PeakAfter: ap, OffPeakBefore: bo, OffPeakAfter: ao}
			}
		}
		refs = append(refs, ref)
	}
	if h := acc.History; h != nil {
		if h.Previous != nil {
			refs = append(refs, report.Reference{Against: "previous_hour", Label: "the previous hour (" + hourLabel(h.PreviousHour) + ")", Set: h.Previous})
		}
		if h.DayBefore != nil {
			refs = append(refs, report.Reference{Against: "day_before", Label: "the same hour a day before (" + hourLabel(h.DayBeforeHour) + ")", Set: h.DayBefore})
		}
	}
	return refs
}

// hoursCut is the problem of a run whose hour sets were bounded
// (aggregate.MaxHours): what was kept, for the state directory or the
// peak / off-peak split; nil when nothing was dropped.
func hoursCut(what string, acc *aggregate.Accumulator) []ingest.Problem {
	if acc == nil || acc.HoursFrom == 0 {
		return nil
	}
	return []ingest.Problem{{File: what, Reason: fmt.Sprintf("the log has records in more than %d hours: only the hours from %s on were kept",
		aggregate.MaxHours, hourLabel(acc.HoursFrom))}}
}
