// Command loganalyze reads TokenHub / CLS access logs and reports why calls
// are slow and what to fix first. See README.md and SPEC §2 for the flags.
package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"loganalyze/analysis"
	"loganalyze/ingest"
	"loganalyze/internal/hugeheap"
	"loganalyze/internal/memlimit"
	"loganalyze/internal/progress"
	"loganalyze/internal/version"
	"loganalyze/report"
	"loganalyze/rules"
	"loganalyze/sketch"
	"loganalyze/state"
)

// Exit codes (SPEC §2).
const (
	exitOK       = 0
	exitFailed   = 1
	exitUsage    = 2
	exitFindings = 3
)

// examples are the worked examples --help prints after the flags.
//
//go:embed help.txt
var examples string

func main() {
	_ = hugeheap.Advise(hugeheap.Size) // refused: the heap is as it was
	stop := memlimit.Start(memlimit.DefaultBudget)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, time.Now)
	stop()
	os.Exit(code)
}

// usageError is a bad command line: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// config is the parsed command line: the analysis, and what to do with
// its report.
type config struct {
	analysis.Config
	md, json   []string
	html, prom []string
	promOpts   report.PromOptions // --prom-timestamp: the time of the run
	lang       report.Lang        // of the Markdown and HTML reports
	stored     bool               // loganalyze report: from --state's stored hours
	states     []string           // their directories
	failOn     rules.Severity
}

// run is the whole command, testable in-process. It returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, now func() time.Time) int {
	code, err := analyze(args, stdin, stdout, stderr, now)
	var be *analysis.BaselineError
	switch {
	case err == nil:
		return code
	case errors.Is(err, pflag.ErrHelp):
		return exitOK
	case errors.As(err, &be):
		err = fmt.Errorf("--baseline: %w", be.Err)
	}
	fmt.Fprintf(stderr, "loganalyze: %v\n", err)
	if errors.As(err, new(usageError)) {
		fmt.Fprintln(stderr, "run 'loganalyze --help' for usage")
		return exitUsage
	}
	return exitFailed
}

// analyze parses the command line, runs the analysis and writes the
// reports.
func analyze(args []string, stdin io.Reader, stdout, stderr io.Writer, now func() time.Time) (int, error) {
	c, err := parseFlags(args, stdout, stderr, now)
	if err != nil {
		return 0, err
	}
	c.Ingest.Stdin = stdin
	stopProgress := progress.Show(stderr, c.Ingest.Progress, 250*time.Millisecond)
	var res *analysis.Result
	if c.stored {
		res, err = analysis.Stored(context.Background(), analysis.StoredConfig{StateDirs: c.states, Since: c.Since, Until: c.Until,
			Location: c.Ingest.Location, Top: c.Top, Accuracy: c.Accuracy, Rules: c.Rules, Keep: c.Keep, Now: c.Now})
	} else {
		res, err = analysis.Run(context.Background(), c.Config)
	}
	stopProgress()
	if err != nil {
		return 0, err
	}
	return finish(c, res, stdout, stderr), nil
}

// rawFlags are the flags whose values config checks and converts into
// their meaning.
type rawFlags struct {
	format, tz, since, until, rules, failOn, progress, lang, keep string
	maps, states                                                  []string
	promTime, version                                             bool
}

// parseFlags reads the command line. --help and --version write to
// stdout and return pflag.ErrHelp: the command is done, exit 0.
func parseFlags(args []string, stdout, stderr io.Writer, now func() time.Time) (*config, error) {
	c, f := &config{}, &rawFlags{}
	a, in := &c.Config, &c.Config.Ingest
	fs := pflag.NewFlagSet("loganalyze", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.StringArrayVar(&c.md, "md", nil, "write the Markdown report to `FILE` (- is stdout; the default when no report flag is given)")
	fs.StringArrayVar(&c.json, "json", nil, "write the JSON report to `FILE` (- is stdout)")
	fs.StringArrayVar(&c.html, "html", nil, "write the HTML report to `FILE` (- is stdout)")
	fs.StringArrayVar(&c.prom, "prom", nil, "write Prometheus text for node_exporter's textfile collector to `FILE` (- is stdout)")
	fs.BoolVar(&f.promTime, "prom-timestamp", false, "add loganalyze_last_run_timestamp_seconds (the time of the run) to --prom")
	fs.StringVar(&f.format, "input-format", "auto", "input format: auto, jsonl, json, csv, ltsv, logfmt, tsv, nginx, clb, haproxy, gin, w3c, tracing, parquet or arrow")
	fs.StringArrayVar(&in.LogFormats, "log-format", nil, "log format of text logs: an nginx log_format or Envoy format `STRING`, or a known format ("+
		strings.Join(ingest.LogFormatNames(), ", ")+"); repeatable: each file is read with the one, given or known, most of its first lines follow")
	fs.StringVar(&in.CSVHeader, "csv-header", "", "the header row of CSV/TSV files written without one: `NAMES` as the file cuts its rows (\"time,region,model,status,request_time\"); a file whose first row is this header reads it as one")
	fs.StringVar(&in.Source, "source", "", "force the source schema instead of detecting it per file: "+strings.Join(ingest.SourceNames(), ", "))
	fs.StringArrayVar(&f.maps, "map", nil, "read a canonical field from another name: `canonical=source[:unit]` (repeatable; unit s, ms, us, ns)")
	fs.StringVar(&f.tz, "tz", "Local", "`ZONE` of timestamps that carry none (IANA name, UTC or Local)")
	fs.StringVar(&f.since, "since", "", "keep records at or after `T` (RFC 3339, or relative like -1h or -7d)")
	fs.StringVar(&f.until, "until", "", "keep records before `T` (RFC 3339, or relative like -30m)")
	fs.StringVar(&f.rules, "rules", "", "rule thresholds from the YAML `FILE` (unknown keys are an error)")
	fs.StringVar(&f.failOn, "fail-on", "never", "exit 3 when a finding of this severity or worse exists: warn, crit or never")
	fs.IntVarP(&in.Workers, "workers", "j", runtime.NumCPU(), "parallel parsers")
	fs.IntVar(&a.Top, "top", analysis.DefaultTop, "keys per dimension kept exactly; the rest are folded into other")
	fs.Float64Var(&a.Accuracy, "accuracy", sketch.DefaultAccuracy, "relative accuracy of every quantile")
	fs.StringArrayVar(&f.states, "state", nil, "keep per-hour sketches in `DIR` and compare with the previous hour (locked while a run uses it); with report, repeatable: the directories to read")
	fs.StringVar(&a.Shard, "shard", "", "with --state: name this writer's hour files `NAME`, for a directory several hosts write")
	fs.StringArrayVar(&a.Baseline, "baseline", nil, "logs of a reference `PATH` to compare every quantile with (repeatable)")
	fs.StringVar(&f.progress, "progress", "auto", "progress on stderr: auto (when stderr is a terminal), always or never")
	fs.StringVar(&f.lang, "lang", string(report.LangEn), "language of the Markdown and HTML reports: en or zh-CN (JSON and Prometheus keys never change)")
	fs.StringVar(&f.keep, "keep", "", "with --state: delete this writer's hour files `DURATION` or more before its newest hour (14d, 36h, 90m); with report, every writer's")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: loganalyze [flags] PATH...\n       loganalyze report --state DIR... [flags]\n\n"+
			"PATH is a file, a directory (read recursively), a glob, or - for stdin.\n\nFlags:\n%s\n%s", fs.FlagUsages(), examples)
	}
	if len(args) > 0 && args[0] == "report" {
		c.stored, args = true, args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err}
	}
	if f.version {
		fmt.Fprint(stdout, version.String("loganalyze"))
		return nil, pflag.ErrHelp
	}
	a.Paths, c.states = fs.Args(), f.states
	if err := f.config(c, stderr, now); err != nil {
		return nil, err
	}
	return c, nil
}

// config checks the flags and completes c with their meaning: bad usage
// first, then the files the flags name (--rules, --map).
func (f *rawFlags) config(c *config, stderr io.Writer, now func() time.Time) error {
	a, in := &c.Config, &c.Config.Ingest
	switch {
	case c.stored && (len(a.Paths) > 0 || len(a.Baseline) > 0):
		return usagef("report reads stored hours, not logs: give no PATH and no --baseline")
	case c.stored && len(f.states) == 0:
		return usagef("report: give the state directories to read with --state DIR")
	case !c.stored && len(a.Paths) == 0:
		return usagef("no input: give a file, directory, glob or - for stdin")
	case !c.stored && len(f.states) > 1:
		return usagef("--state: one directory per run (several are for loganalyze report)")
	case !c.stored && len(f.states) == 1:
		a.StateDir = f.states[0]
	}
	if a.Shard != "" && (c.stored || a.StateDir == "") {
		return usagef("--shard: names the hour files a run with --state writes")
	}
	if err := state.CheckShard(a.Shard); err != nil {
		return usageError{fmt.Errorf("--shard: %w", err)}
	}
	switch f.progress {
	case "auto", "always", "never":
		if progress.Enabled(f.progress, stderr) {
			in.Progress = &ingest.Progress{}
		}
	default:
		return usagef("--progress: want auto, always or never, got %q", f.progress)
	}
	var err error
	if in.Format, err = ingest.ParseFormat(f.format); err != nil {
		return usageError{fmt.Errorf("--input-format: %w", err)}
	}
	if in.Source != "" {
		if err := ingest.CheckSource(in.Source); err != nil {
			return usageError{fmt.Errorf("--source: %w", err)}
		}
	}
	if in.Location, err = time.LoadLocation(f.tz); err != nil {
		return usagef("--tz: unknown zone %q", f.tz)
	}
	switch {
	case in.Workers < 1:
		return usagef("--workers: want at least 1, got %d", in.Workers)
	case a.Top < 1:
		return usagef("--top: want at least 1, got %d", a.Top)
	case !(a.Accuracy > 0 && a.Accuracy < 1):
		return usagef("--accuracy: want a number between 0 and 1, got %v", a.Accuracy)
	}
	if c.lang, err = report.ParseLang(f.lang); err != nil {
		return usageError{fmt.Errorf("--lang: %w", err)}
	}
	var ok bool
	if c.failOn, ok = rules.ParseSeverity(f.failOn); !ok {
		return usagef("--fail-on: want warn, crit or never, got %q", f.failOn)
	}
	// One instant for every relative time: the run's start. It also
	// ends a window that has a start and nothing else to end it.
	start := now()
	a.Now = func() time.Time { return start }
	if a.Since, err = parseWhen("--since", f.since, start, in.Location); err != nil {
		return err
	}
	if a.Until, err = parseWhen("--until", f.until, start, in.Location); err != nil {
		return err
	}
	// "The last hour" ends now: without it the window would end at the
	// last record, or nowhere when there is none.
	if a.Since != nil && a.Until == nil && relative(f.since) && a.Since.Before(start) {
		a.Until = &start
	}
	if a.Since != nil && a.Until != nil && !a.Until.After(*a.Since) {
		return usagef("--until %s is not after --since %s", a.Until.Format(time.RFC3339), a.Since.Format(time.RFC3339))
	}
	if f.promTime {
		c.promOpts.Timestamp = start
	}
	if f.keep != "" {
		if len(f.states) == 0 {
			return usagef("--keep: needs --state, the directory to prune")
		}
		if a.Keep, err = state.ParseKeep(f.keep); err != nil {
			return usageError{fmt.Errorf("--keep: %w", err)}
		}
	}
	if len(c.md)+len(c.json)+len(c.html)+len(c.prom) == 0 {
		c.md = []string{"-"}
	}
	if f.rules != "" {
		if a.Rules, err = rules.Load(f.rules); err != nil {
			return err
		}
	}
	// An HAProxy log-format that encodes its line as JSON (%{+json}o)
	// writes JSON lines, read as such: its named items say which member
	// is which, as --map would (the user's own --map after, and winning).
	var maps []string
	texts := in.LogFormats[:0:0]
	for _, lf := range in.LogFormats {
		if m, ok := ingest.HAProxyJSONMaps(lf); ok {
			maps = append(maps, m...)
			continue
		}
		texts = append(texts, lf)
	}
	in.LogFormats = texts
	if in.Schema, err = ingest.NewSchema(append(maps, f.maps...)); err != nil {
		return usagef("--map: %w", err)
	}
	// With the names --map binds: two variables with no text between
	// them are refused only when a value of theirs is read.
	for _, lf := range in.LogFormats {
		if err := ingest.CheckLogFormat(lf, in.Schema); err != nil {
			return usageError{fmt.Errorf("--log-format: %w", err)}
		}
	}
	return nil
}

// parseWhen reads --since or --until (flag): an RFC 3339 time, a
// date-time without zone (in loc), or a duration relative to now ("-1h",
// "-90m", "-7d"); nil when s is empty.
func parseWhen(flag, s string, now time.Time, loc *time.Location) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	if relative(s) {
		if d, ok := relDuration(s); ok {
			t := now.Add(d)
			return &t, nil
		}
	} else {
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
			if t, err := time.ParseInLocation(layout, s, loc); err == nil {
				return &t, nil
			}
		}
	}
	return nil, usagef("%s: cannot parse %q as a time or duration", flag, s)
}

// relDuration reads a relative --since or --until value: whole days, as
// --keep takes them ("-7d"), or Go's units ("-90m", "-1h30m").
func relDuration(s string) (time.Duration, bool) {
	if days, ok := strings.CutSuffix(s[1:], "d"); ok {
		n, err := strconv.ParseUint(days, 10, 32)
		if err != nil || days[0] == '+' || n > uint64(maxDays) {
			return 0, false
		}
		d := time.Duration(n) * 24 * time.Hour
		if s[0] == '-' {
			d = -d
		}
		return d, true
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// maxDays is the most days a time.Duration holds.
const maxDays = int64(1<<63-1) / int64(24*time.Hour)

// relative says whether a --since or --until value is a duration from
// now rather than a time.
func relative(s string) bool { return strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") }
