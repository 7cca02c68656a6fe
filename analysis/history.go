package analysis

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
func history(ctx context.Context, dir *state.Dir, cfg Config, acc, baseline *aggregate.Accumulator, m *sketch.Mapping) ([]ingest.Problem, error) {
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
		if err := writeHours(dir, acc, rcfg.CollectorNames()); err != nil {
			return nil, err
		}
		problems = append(problems, hoursCut(stateHours, acc)...)
	} else if baseline != nil {
		problems = append(problems, hoursCut(peakHours, acc)...)
	}
	return append(problems, hoursCut(peakHours, baseline)...), nil
}

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

// writeHours replaces the state file of every hour the window holds.
func writeHours(d *state.Dir, acc *aggregate.Accumulator, collectors []string) error {
	for _, h := range acc.SortedHours() {
		if err := d.Write(h, acc.Hours[h], collectors); err != nil {
			return err
		}
	}
	return nil
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
