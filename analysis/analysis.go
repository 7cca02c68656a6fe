// Package analysis is one run of loganalyze: it reads the window's logs
// and the baseline's, compares with the stored hours of a state directory
// (and stores the window's), evaluates the rules and builds the finished
// report. The command line and the benchmarks call Run.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/report"
	"loganalyze/rules"
	"loganalyze/sketch"
	"loganalyze/state"
)

// DefaultTop is how many keys per dimension are kept exactly when
// Config.Top is 0.
const DefaultTop = 1000

// Config is what a run reads and how, already parsed and checked.
type Config struct {
	// Paths are the window's logs: files, directories (read
	// recursively), globs, or "-" for Ingest.Stdin.
	Paths []string
	// Baseline are the logs of a reference period to compare every
	// quantile with; none when empty. Since and Until do not bound them.
	Baseline []string
	// StateDir keeps one file of sketches per hour: the window is
	// compared with the previous hour and the same hour a day before,
	// and its own hours are written back, under the directory's lock.
	// "" for none.
	StateDir string
	// Shard names this writer's hour files and lock in a state directory
	// several writers share (state.OpenShard); "" for the directory's
	// own.
	Shard string
	// Ingest says how every log is read (format, log formats, source,
	// schema, zone, workers, stdin). Its Progress, when set, follows the
	// window's logs only. Ingest.Location is also the zone of the report.
	Ingest ingest.Options
	// Since and Until keep the window's records in [Since, Until); nil
	// for no bound. They are the report's window where given; a Since
	// without Until and without a record in the window ends at Now.
	Since, Until *time.Time
	// Top is how many keys per dimension are kept exactly (0 means
	// DefaultTop); Accuracy is the relative accuracy of every quantile
	// (0 means sketch.DefaultAccuracy).
	Top      int
	Accuracy float64
	// Rules are the rules' settings; nil means rules.Default().
	Rules *rules.Config
	// Keep, when not zero, prunes this writer's hour files (Shard's) that
	// start Keep or more before its newest hour (state.Dir.Prune), under
	// the same lock, after the window's hours are written; other
	// writers' files are left alone. Now is the run's clock: it bounds
	// the newest hour, and ends a window that has no other end (nil:
	// time.Now).
	Keep time.Duration
	Now  func() time.Time
}

// Result is a finished run.
type Result struct {
	Report *report.Report
	// Unread are the files, the window's then the baseline's, that held
	// data of which not one record could be read.
	Unread []report.UnreadFile
	// Warnings are what the run says besides the report, one line each:
	// a state directory given twice, or holding no hour file.
	Warnings []string
	// StateError is why the window's hour files were not all written
	// (the run failed: exit 1, its reports written all the same and
	// naming it under input.problems); nil when they were.
	StateError error
}

// BaselineError is an error reading the baseline's logs.
type BaselineError struct{ Err error }

func (e *BaselineError) Error() string { return "baseline: " + e.Err.Error() }
func (e *BaselineError) Unwrap() error { return e.Err }

// Run reads the window and the baseline, compares with the state
// directory's hours and writes the window's, evaluates the rules and
// builds the report. It stops between phases when ctx is done (a phase
// itself, such as reading the logs, runs to its end); a cancelled run
// writes no state.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rcfg, mapping, err := settings(cfg.Rules, &cfg.Top, &cfg.Accuracy)
	if err != nil {
		return nil, err
	}
	var dir *state.Dir
	if cfg.StateDir != "" {
		if dir, err = state.OpenShard(cfg.StateDir, cfg.Shard); err != nil {
			return nil, err
		}
		defer dir.Close()
	}
	var plan hourPlan
	if dir != nil {
		plan = planHours(dir, cfg, mapping, rcfg.CollectorNames())
	}
	acc, read, err := readWindow(cfg, mapping, rcfg, dir != nil, plan.merge)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	baseline, baseRead, err := readBaseline(cfg, mapping, rcfg)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	problems, err := history(ctx, dir, cfg, acc, read, baseline, mapping, plan)
	problems = append(problems, futureProblem(acc, acc.Latest())...)
	problems = append(problems, pastProblem(acc)...)
	var stateErr *StateWriteError
	if err != nil && !errors.As(err, &stateErr) {
		return nil, err
	}
	if dir != nil && cfg.Keep > 0 {
		if _, err := dir.Prune(cfg.Keep, clock(cfg.Now)()); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	until := cfg.Until
	if until == nil && !acc.HasTime {
		until = openEnd(cfg.Since, cfg.Now)
	}
	var stateFrom time.Time
	if dir != nil && acc.HoursFrom != 0 {
		stateFrom = time.Unix(acc.HoursFrom, 0)
	}
	findings, notEval := rules.Evaluate(acc, rcfg)
	rep := report.Build(report.BuildInput{
		Aggregate: acc, Read: read, Findings: findings, NotEvaluated: notEval,
		Location: cfg.Ingest.Location, Since: cfg.Since, Until: until, StateFrom: stateFrom,
		Baseline: baseRead, Problems: problems,
		References: references(acc, baseline, cfg.Baseline, mapping, cfg.Top),
	})
	unread := append(append([]report.UnreadFile(nil), rep.Unread...), rep.BaselineUnread...)
	res := &Result{Report: rep, Unread: unread}
	if stateErr != nil {
		res.StateError = stateErr.Err
	}
	return res, nil
}

// clock is now, or time.Now when nil.
func clock(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}

// openEnd is the end of a window that has a start but no end and no
// record to end it at: the run's start (now), or since when that is
// later, so that the window is never stated as ending at the zero time;
// nil without since.
func openEnd(since *time.Time, now func() time.Time) *time.Time {
	if since == nil {
		return nil
	}
	end := clock(now)()
	if end.Before(*since) {
		end = *since
	}
	return &end
}

// settings completes a run's settings with their defaults: the rules'
// (nil means rules.Default()), top keys and accuracy (0 means the
// default), and returns the sketches' mapping.
func settings(r *rules.Config, top *int, accuracy *float64) (*rules.Config, *sketch.Mapping, error) {
	if r == nil {
		r = rules.Default()
	}
	if *top <= 0 {
		*top = DefaultTop
	}
	if *accuracy == 0 {
		*accuracy = sketch.DefaultAccuracy
	}
	m, err := sketch.NewMapping(*accuracy)
	return r, m, err
}

// rulesOf is the run's rules' settings.
func rulesOf(cfg Config) *rules.Config {
	if cfg.Rules == nil {
		return rules.Default()
	}
	return cfg.Rules
}

// aggregateOptions are the accumulators' options of the window; the
// baseline's drop the bounds. Only the window's gather the rules' data.
func aggregateOptions(cfg Config, m *sketch.Mapping, rcfg *rules.Config) aggregate.Options {
	opts := aggregate.Options{Mapping: m, Top: cfg.Top, TokenURI: rcfg.TokenURI, Admission: sketch.NewAdmission(aggregate.NumDims)}
	if cfg.Since != nil {
		opts.Since, opts.HasSince = cfg.Since.UnixNano(), true
	}
	if cfg.Until != nil {
		opts.Until, opts.HasUntil = cfg.Until.UnixNano(), true
	} else {
		opts.Latest = latest(cfg.Paths, clock(cfg.Now)()).Add(FutureSlack).UnixNano()
	}
	return opts
}

// FutureSlack is how far past the run's start, or the latest write of a
// file it reads, a record may be dated and still be in a window without
// --until: a day, more than any zone or clock drift puts a record of
// now ahead; a record dated later (a clock set years wrong) is outside
// the window, said so (futureProblem), and cannot move it.
const FutureSlack = 24 * time.Hour

// latest is now, or the last time a path given (a file, a directory, a
// glob's matches) was written when that is later: no line of a log is
// written after its file, whichever clock, the writer's or this
// machine's, is the one set wrong.
func latest(paths []string, now time.Time) time.Time {
	for _, p := range paths {
		names := []string{p}
		if p == "-" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			names, _ = filepath.Glob(p)
		}
		for _, n := range names {
			if st, err := os.Stat(n); err == nil && st.ModTime().After(now) {
				now = st.ModTime()
			}
		}
	}
	return now
}

// futureProblem says how many records were dated too far ahead to be in
// the window; nil when none were.
func futureProblem(acc *aggregate.Accumulator, latest int64) []ingest.Problem {
	if acc == nil || acc.Future == 0 {
		return nil
	}
	first := time.Unix(0, acc.FirstFuture).UTC().Format(time.RFC3339)
	what := fmt.Sprintf("%d records dated more than a day after the run's start and its files' last writes (%s), the first at %s, are", acc.Future, time.Unix(0, latest).Add(-FutureSlack).UTC().Format(time.RFC3339), first)
	if acc.Future == 1 {
		what = fmt.Sprintf("1 record dated more than a day after the run's start and its files' last writes (%s), at %s, is", time.Unix(0, latest).Add(-FutureSlack).UTC().Format(time.RFC3339), first)
	}
	return []ingest.Problem{{File: "window", Reason: what + " outside the window: a clock set wrong"}}
}

// pastProblem says how many records were dated so long before the
// others that they were left outside the window (aggregate.SettleStrays);
// nil when none were.
func pastProblem(acc *aggregate.Accumulator) []ingest.Problem {
	if acc == nil || acc.Past == 0 {
		return nil
	}
	at := func(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339) }
	rest := "all the others"
	if acc.HasTime {
		rest += " (from " + at(acc.MinTime) + ")"
	}
	what := fmt.Sprintf("1 record dated %s, more than a day before %s, is", at(acc.FirstPast), rest)
	if acc.Past > 1 {
		what = fmt.Sprintf("%d records dated %s to %s, more than a day before %s, are", acc.Past, at(acc.FirstPast), at(acc.LastPast), rest)
	}
	return []ingest.Problem{{File: "window", Reason: what + " outside the window: a clock set wrong"}}
}

// readWindow reads the window's logs. Hour sets are kept for the state
// files and for the peak / off-peak split of a baseline comparison.
func readWindow(cfg Config, m *sketch.Mapping, rcfg *rules.Config, withState bool, stored map[int64][][2]int64) (*aggregate.Accumulator, *ingest.Result, error) {
	opts := aggregateOptions(cfg, m, rcfg)
	opts.Hourly = withState || len(cfg.Baseline) > 0
	opts.Stored = stored
	opts.Collectors = rcfg.SharedCollectors(m, cfg.Top, withState)
	// An hour file keeps latency_regression's pairs too, which explain
	// a later window against it.
	opts.HourCollectors = rcfg.Collectors(m, cfg.Top, withState)
	// Without --since, a record dated long before all the others (a
	// clock reset) cannot start the window (pastProblem).
	opts.HoldStrays = !opts.HasSince
	in := cfg.Ingest
	in.Window = ingest.Window{Since: opts.Since, Until: opts.Until, HasSince: opts.HasSince, HasUntil: opts.HasUntil}
	accs, read, err := ingest.Run(cfg.Paths, in, func() *aggregate.Accumulator { return aggregate.New(opts) })
	if err != nil {
		return nil, nil, err
	}
	aggregate.SettleStrays(accs)
	return aggregate.MergeAll(accs), read, nil
}

// readBaseline reads the baseline's logs, all their records: Since and
// Until bound the window, not the reference period. It returns nils
// without a baseline.
func readBaseline(cfg Config, m *sketch.Mapping, rcfg *rules.Config) (*aggregate.Accumulator, *ingest.Result, error) {
	if len(cfg.Baseline) == 0 {
		return nil, nil, nil
	}
	opts := aggregateOptions(cfg, m, rcfg)
	opts.HasSince, opts.HasUntil = false, false
	opts.Hourly = true
	in := cfg.Ingest
	in.Progress = nil
	accs, read, err := ingest.Run(cfg.Baseline, in, func() *aggregate.Accumulator { return aggregate.New(opts) })
	if err != nil {
		return nil, nil, &BaselineError{err}
	}
	return aggregate.MergeAll(accs), read, nil
}
