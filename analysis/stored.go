package analysis

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/report"
	"loganalyze/rules"
	"loganalyze/sketch"
	"loganalyze/state"
)

// StoredConfig is a report from stored hours (SPEC §7 `report`): the
// hour files of one or more state directories — one per gateway host or
// per shard of a distributed job — merged as if one run had read all
// their logs.
type StoredConfig struct {
	// StateDirs are the directories; each is read whole, every writer's
	// hour files in it, once however many paths name it.
	StateDirs []string
	// Since and Until keep the hours that overlap [Since, Until); nil for
	// no bound. The report's window is the hours kept, whole, from the
	// first one's start to the last one's end; with none, [Since, Until),
	// a Since alone ending at Now.
	Since, Until *time.Time
	// Location is the zone of the report; Top, Accuracy and Rules as in
	// Config. Accuracy must be the one the hours were written with.
	Location *time.Location
	Top      int
	Accuracy float64
	Rules    *rules.Config
	// Keep, when not zero, prunes each directory first (state.Prune):
	// every writer's hour files, each as a run of that writer with
	// --state does, under its lock; Now is the run's clock: it bounds
	// each writer's newest hour (nil: time.Now).
	Keep time.Duration
	Now  func() time.Time
}

// storedFormat is the format the report names an hour file by.
const storedFormat ingest.Format = "state"

// Stored reads the stored hours and builds the report. A file that
// cannot be read (damaged, truncated, of another accuracy, or not a
// state file at all) is named in the result's Unread and skipped; the
// report of the rest is still built. A directory given twice (by
// another path) is read once; one that holds no hour file is a problem
// of the report, and an error when no directory holds one. Both are
// in the result's Warnings.
func Stored(ctx context.Context, cfg StoredConfig) (*Result, error) {
	if len(cfg.StateDirs) == 0 {
		return nil, errors.New("no state directory to read")
	}
	rcfg, m, err := settings(cfg.Rules, &cfg.Top, &cfg.Accuracy)
	if err != nil {
		return nil, err
	}
	opts := aggregate.Options{Mapping: m, Top: cfg.Top, Collectors: rcfg.Collectors(m, cfg.Top, true)}
	names := rcfg.CollectorNames()
	read := &ingest.Result{}
	dirs, warnings := distinctDirs(cfg.StateDirs)
	var hours []*aggregate.Accumulator
	var starts []int64 // of the hours read
	var empty []string
	var problems []ingest.Problem
	for _, dir := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hs, hstarts, named, err := readStored(dir, cfg, opts, names, read)
		if err != nil {
			return nil, err
		}
		starts = append(starts, hstarts...)
		if named == 0 {
			empty = append(empty, dir)
			warnings = append(warnings, fmt.Sprintf("state directory %q holds no hour files", dir))
			problems = append(problems, ingest.Problem{File: dir, Reason: "state directory holds no hour files"})
		}
		hours = append(hours, hs...)
	}
	if len(empty) == len(dirs) {
		if len(dirs) == 1 {
			return nil, fmt.Errorf("state directory %q holds no hour files", dirs[0])
		}
		return nil, fmt.Errorf("no state directory holds an hour file: %s", quoteAll(dirs))
	}
	acc := aggregate.New(aggregate.Options{Mapping: m, Top: cfg.Top, Collectors: opts.Collectors})
	acc = aggregate.MergeAll(append([]*aggregate.Accumulator{acc}, hours...))
	acc.History = &aggregate.History{Reason: "no hour was read, so there is no previous hour"}
	if len(starts) > 0 {
		histOpts := aggregate.Options{Mapping: m, Top: cfg.Top, Collectors: rcfg.HistoryCollectors(m, cfg.Top), OptionalCollectors: true}
		var p []ingest.Problem
		acc.History, p = storedHistory(dirs, slices.Min(starts), m, cfg.Top, histOpts, names)
		problems = append(problems, p...)
	}
	findings, notEval := rules.Evaluate(acc, rcfg)
	since, until, requested := storedWindow(starts, cfg)
	rep := report.Build(report.BuildInput{
		Aggregate: acc, Read: read, Findings: findings, NotEvaluated: notEval,
		Location: cfg.Location, Since: since, Until: until, Requested: requested, Problems: problems,
		References: references(acc, nil, nil, m, cfg.Top),
	})
	return &Result{Report: rep, Unread: rep.Unread, Warnings: warnings}, nil
}

// storedHistory reads, from the state directories, the hour before the
// report's first hour and the same hour a day before, as a run with
// --state does from its own directory: each the merge of every
// directory's and writer's file of that hour (the hosts' shares of it).
// A damaged file is skipped, and a problem for the report.
func storedHistory(dirs []string, first int64, m *sketch.Mapping, top int, opts aggregate.Options, names []string) (*aggregate.History, []ingest.Problem) {
	h := &aggregate.History{PreviousHour: first - aggregate.HourSeconds, DayBeforeHour: first - 24*aggregate.HourSeconds}
	var problems []ingest.Problem
	type hourFile struct {
		path  string
		start int64
	}
	var all []hourFile // every directory's, listed once for both hours
	for _, dir := range dirs {
		files, starts, _, err := state.HourFiles(dir)
		if err != nil {
			continue // named when the window's hours were read
		}
		for i, f := range files {
			all = append(all, hourFile{f, starts[i]})
		}
	}
	read := func(hour int64) (*sketch.Set, []aggregate.Collector) {
		var set *sketch.Set
		var cs []aggregate.Collector
		for _, hf := range all {
			if hf.start != hour {
				continue
			}
			hr, err := state.ReadFile(hf.path, opts, names)
			if err != nil {
				problems = append(problems, ingest.Problem{File: hf.path, Reason: "state file skipped: " + err.Error()})
				continue
			}
			if set == nil {
				set = sketch.NewSet(m, aggregate.NumMetrics, aggregate.DimNames, top)
			}
			set.Merge(hr.Acc.Set)
			if !hr.Full {
				continue
			}
			if cs == nil {
				cs = hr.Acc.Collectors
				continue
			}
			for j, c := range cs {
				if c != nil && j < len(hr.Acc.Collectors) && hr.Acc.Collectors[j] != nil {
					c.Merge(hr.Acc.Collectors[j])
				}
			}
		}
		if set != nil {
			set.Finish()
		}
		return set, cs
	}
	h.Previous, h.PreviousCollectors = read(h.PreviousHour)
	h.DayBefore, h.DayBeforeCollectors = read(h.DayBeforeHour)
	if h.Previous == nil {
		h.Reason = "no previous hour in the state directories (" + hourLabel(h.PreviousHour) + ")"
	}
	return h, problems
}

// maxStoredProblems is how many of the hours' problems a report of
// stored hours keeps, as a run keeps 20 samples.
const maxStoredProblems = 20

// storedWindow is the window a report of the hours read (their starts)
// covers: from the first hour's start to the last one's end, since each
// is kept whole, with the window asked for when that is narrower. With no
// hour read it is the window asked for, a Since alone ending at Now.
func storedWindow(starts []int64, cfg StoredConfig) (since, until *time.Time, requested *report.Span) {
	if len(starts) == 0 {
		until = cfg.Until
		if until == nil {
			until = openEnd(cfg.Since, cfg.Now)
		}
		return cfg.Since, until, nil
	}
	from := time.Unix(slices.Min(starts), 0)
	to := time.Unix(slices.Max(starts)+aggregate.HourSeconds, 0)
	if (cfg.Since != nil && from.Before(*cfg.Since)) || (cfg.Until != nil && to.After(*cfg.Until)) {
		requested = &report.Span{}
		if cfg.Since != nil {
			requested.From = *cfg.Since
		}
		if cfg.Until != nil {
			requested.To = *cfg.Until
		}
	}
	return &from, &to, requested
}

// distinctDirs drops the directories of dirs that are one given before
// (the same directory by another path: "st/", a symbolic link), so that
// no hour is counted twice, and says which were dropped. A directory
// that cannot be looked at is kept: reading it names the error.
func distinctDirs(dirs []string) (kept, warnings []string) {
	var infos []os.FileInfo
	for _, d := range dirs {
		fi, err := os.Stat(d) // nil when err is not
		if err == nil {
			if i := slices.IndexFunc(infos, func(o os.FileInfo) bool { return o != nil && os.SameFile(o, fi) }); i >= 0 {
				warnings = append(warnings, fmt.Sprintf("state directory %q is %q again: read once", d, kept[i]))
				continue
			}
		}
		kept, infos = append(kept, d), append(infos, fi)
	}
	return kept, warnings
}

// quoteAll lists names quoted, comma-separated.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// readStored reads one directory's hours in the window, after pruning
// it when asked, and returns them with their starts (Unix seconds);
// every file read or skipped is listed in read. named is
// the number of files in the directory named as hour files, in the
// window or not, read or not.
func readStored(dir string, cfg StoredConfig, opts aggregate.Options, names []string, read *ingest.Result) (hours []*aggregate.Accumulator, hourStarts []int64, named int, err error) {
	if cfg.Keep > 0 {
		if _, err := state.Prune(dir, cfg.Keep, clock(cfg.Now)()); err != nil {
			return nil, nil, 0, err
		}
	}
	files, starts, foreign, err := state.HourFiles(dir)
	if err != nil {
		return nil, nil, 0, err
	}
	skip := func(path, why string) {
		read.Files = append(read.Files, ingest.FileStats{Path: path, Format: storedFormat, Incomplete: true, Reason: why})
	}
	first := len(read.Files)
	defer func() {
		// In the order of their hours (their names), the skipped among
		// them, as the directory lists them.
		fs := read.Files[first:]
		slices.SortStableFunc(fs, func(a, b ingest.FileStats) int { return strings.Compare(a.Path, b.Path) })
	}()
	for _, f := range foreign {
		skip(f, "skipped: named as an hour file, but not a state file")
	}
	for i, f := range files {
		if !inWindow(starts[i], cfg.Since, cfg.Until) {
			continue
		}
		h, err := state.ReadFile(f, opts, names)
		switch {
		case err != nil:
			skip(f, "skipped: "+err.Error())
		case !h.Full:
			skip(f, "skipped: written by an older version, it holds the latency sketches only, not the counts and rule statistics a report needs")
		default:
			// What the runs that wrote the hour could not read is the
			// hour file's: a roll-up is as truthful as they were.
			fs := ingest.FileStats{Path: f, Format: storedFormat, Source: "loganalyze", Records: h.Acc.Records,
				BadLines: h.Input.BadLines, Incomplete: len(h.Input.Incomplete) > 0}
			if fs.Incomplete {
				fs.Reason = "the runs that wrote it did not read all their input: " + strings.Join(h.Input.Incomplete, "; ")
			}
			read.Files = append(read.Files, fs)
			for _, p := range h.Input.Problems {
				if len(read.Problems) < maxStoredProblems {
					read.Problems = append(read.Problems, p)
				}
			}
			hours = append(hours, h.Acc)
			hourStarts = append(hourStarts, starts[i])
		}
	}
	return hours, hourStarts, len(files) + len(foreign), nil
}

// inWindow says whether the hour starting at start (Unix seconds)
// overlaps [since, until).
func inWindow(start int64, since, until *time.Time) bool {
	if since != nil && start+aggregate.HourSeconds <= since.Unix() {
		return false
	}
	return until == nil || start < until.Unix()
}
