// Command loganalyze reads TokenHub / CLS access logs and reports why calls
// are slow and what to fix first. See README.md and SPEC §2 for the flags.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"loganalyze/aggregate"
	"loganalyze/ingest"
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

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, time.Now))
}

// usageError is a bad command line: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// config is the parsed command line.
type config struct {
	paths       []string
	md, json    []string
	html, prom  []string
	promTime    *time.Time // --prom-timestamp: now, else nil
	format      ingest.Format
	source      string
	logFormats  []string
	maps        []string
	loc         *time.Location
	since       *time.Time
	until       *time.Time
	workers     int
	top         int
	accuracy    float64
	failOn      rules.Severity
	rulesFile   string
	progress    bool
	showVersion bool
	stateDir    string
	baseline    []string
}

// run is the whole command, testable in-process. It returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, now func() time.Time) int {
	cfg, err := parseFlags(args, stderr, now)
	if err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "loganalyze: %v\n", err)
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(stderr, "run 'loganalyze --help' for usage")
			return exitUsage
		}
		return exitFailed
	}
	code, err := analyze(cfg, stdin, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "loganalyze: %v\n", err)
		return exitFailed
	}
	return code
}

func parseFlags(args []string, stderr io.Writer, now func() time.Time) (*config, error) {
	fs := pflag.NewFlagSet("loganalyze", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	md := fs.StringArray("md", nil, "write the Markdown report to `FILE` (- is stdout; the default when no report flag is given)")
	js := fs.StringArray("json", nil, "write the JSON report to `FILE` (- is stdout)")
	html := fs.StringArray("html", nil, "write the HTML report to `FILE` (- is stdout)")
	prom := fs.StringArray("prom", nil, "write Prometheus text for node_exporter's textfile collector to `FILE` (- is stdout)")
	promTime := fs.Bool("prom-timestamp", false, "add loganalyze_last_run_timestamp_seconds (the time of the run) to --prom")
	format := fs.String("input-format", "auto", "input format: auto, jsonl, json, csv, ltsv, tsv, nginx, clb, parquet or arrow")
	logFormats := fs.StringArray("log-format", nil, "log format of text logs: an nginx log_format or Envoy format `STRING`, or a known format ("+
		strings.Join(ingest.LogFormatNames(), ", ")+"); repeatable: each file is read with the one, given or known, most of its first lines follow")
	source := fs.String("source", "", "force the source schema instead of detecting it per file: "+strings.Join(ingest.SourceNames(), ", "))
	maps := fs.StringArray("map", nil, "read a canonical field from another name: `canonical=source[:unit]` (repeatable; unit s, ms, us, ns)")
	tz := fs.String("tz", "Local", "`ZONE` of timestamps that carry none (IANA name, UTC or Local)")
	since := fs.String("since", "", "keep records at or after `T` (RFC 3339, or relative like -1h)")
	until := fs.String("until", "", "keep records before `T` (RFC 3339, or relative like -30m)")
	rulesFile := fs.String("rules", "", "rule thresholds from the YAML `FILE` (unknown keys are an error)")
	failOn := fs.String("fail-on", "never", "exit 3 when a finding of this severity or worse exists: warn, crit or never")
	workers := fs.IntP("workers", "j", runtime.NumCPU(), "parallel parsers")
	top := fs.Int("top", 1000, "keys per dimension kept exactly; the rest are folded into other")
	accuracy := fs.Float64("accuracy", sketch.DefaultAccuracy, "relative accuracy of every quantile")
	stateDir := fs.String("state", "", "keep per-hour sketches in `DIR` and compare with the previous hour (locked while a run uses it)")
	baseline := fs.StringArray("baseline", nil, "logs of a reference `PATH` to compare every quantile with (repeatable)")
	progress := fs.String("progress", "auto", "progress on stderr: auto (when stderr is a terminal), always or never")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: loganalyze [flags] PATH...\n\nPATH is a file, a directory (read recursively), a glob, or - for stdin.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err}
	}
	c := &config{paths: fs.Args(), md: *md, json: *js, html: *html, prom: *prom, logFormats: *logFormats, maps: *maps, workers: *workers, top: *top, accuracy: *accuracy, rulesFile: *rulesFile, stateDir: *stateDir, baseline: *baseline}
	if len(c.paths) == 0 {
		return nil, usagef("no input: give a file, directory, glob or - for stdin")
	}
	switch *progress {
	case "auto", "always", "never":
		c.progress = progressEnabled(*progress, stderr)
	default:
		return nil, usagef("--progress: want auto, always or never, got %q", *progress)
	}
	var err error
	if c.format, err = ingest.ParseFormat(*format); err != nil {
		return nil, usageError{fmt.Errorf("--input-format: %w", err)}
	}
	if c.source = *source; c.source != "" {
		if err := ingest.CheckSource(c.source); err != nil {
			return nil, usageError{fmt.Errorf("--source: %w", err)}
		}
	}
	for _, f := range c.logFormats {
		if err := ingest.CompileLogFormat(f); err != nil {
			return nil, usageError{fmt.Errorf("--log-format: %w", err)}
		}
	}
	if c.loc, err = time.LoadLocation(*tz); err != nil {
		return nil, usagef("--tz: unknown zone %q", *tz)
	}
	if c.workers < 1 {
		return nil, usagef("--workers: want at least 1, got %d", c.workers)
	}
	if c.top < 1 {
		return nil, usagef("--top: want at least 1, got %d", c.top)
	}
	if !(c.accuracy > 0 && c.accuracy < 1) {
		return nil, usagef("--accuracy: want a number between 0 and 1, got %v", c.accuracy)
	}
	var ok bool
	if c.failOn, ok = rules.ParseSeverity(*failOn); !ok {
		return nil, usagef("--fail-on: want warn, crit or never, got %q", *failOn)
	}
	if *since != "" {
		t, err := parseWhen(*since, now(), c.loc)
		if err != nil {
			return nil, usageError{fmt.Errorf("--since: %w", err)}
		}
		c.since = &t
	}
	if *until != "" {
		t, err := parseWhen(*until, now(), c.loc)
		if err != nil {
			return nil, usageError{fmt.Errorf("--until: %w", err)}
		}
		c.until = &t
	}
	if c.since != nil && c.until != nil && !c.until.After(*c.since) {
		return nil, usagef("--until %s is not after --since %s", c.until.Format(time.RFC3339), c.since.Format(time.RFC3339))
	}
	if *promTime {
		t := now()
		c.promTime = &t
	}
	if len(c.md)+len(c.json)+len(c.html)+len(c.prom) == 0 {
		c.md = []string{"-"}
	}
	return c, nil
}

// writeReports writes every report the command line asks for.
func writeReports(c *config, rep *report.Report, stdout io.Writer) error {
	for _, path := range c.json {
		if err := writeOutput(path, stdout, rep.WriteJSON); err != nil {
			return err
		}
	}
	for _, path := range c.md {
		if err := writeOutput(path, stdout, rep.WriteMarkdown); err != nil {
			return err
		}
	}
	for _, path := range c.html {
		if err := writeOutput(path, stdout, rep.WriteHTML); err != nil {
			return err
		}
	}
	var popts report.PromOptions
	if c.promTime != nil {
		popts.Timestamp = *c.promTime
	}
	for _, path := range c.prom {
		if err := writeOutput(path, stdout, func(w io.Writer) error { return rep.WritePrometheus(w, popts) }); err != nil {
			return err
		}
	}
	return nil
}

// parseWhen reads an RFC 3339 time, a date-time without zone (in loc), or
// a duration relative to now ("-1h", "-90m").
func parseWhen(s string, now time.Time, loc *time.Location) (time.Time, error) {
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		d, err := time.ParseDuration(s)
		if err != nil {
			return time.Time{}, fmt.Errorf("cannot parse %q as a time or duration", s)
		}
		return now.Add(d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot parse %q as a time or duration", s)
}

func analyze(c *config, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	rcfg := rules.Default()
	if c.rulesFile != "" {
		var err error
		if rcfg, err = rules.Load(c.rulesFile); err != nil {
			return 0, err
		}
	}
	schema, err := ingest.NewSchema(c.maps)
	if err != nil {
		return 0, fmt.Errorf("--map: %w", err)
	}
	mapping, err := sketch.NewMapping(c.accuracy)
	if err != nil {
		return 0, err
	}
	aopts := aggregate.Options{Mapping: mapping, Top: c.top, TokenURI: rcfg.TokenURI}
	if c.since != nil {
		aopts.Since = c.since.UnixNano()
		aopts.HasSince = true
	}
	if c.until != nil {
		aopts.Until = c.until.UnixNano()
		aopts.HasUntil = true
	}
	// Hour sets: for the state files, and for the peak / off-peak split
	// of a baseline comparison.
	aopts.Hourly = len(c.baseline) > 0
	baseOpts := aopts
	var dir *state.Dir
	if c.stateDir != "" {
		if dir, err = state.Open(c.stateDir); err != nil {
			return 0, err
		}
		defer dir.Close()
		aopts.Hourly = true
	}
	progress := &ingest.Progress{}
	if c.progress {
		stop, done := make(chan struct{}), make(chan struct{})
		go showProgress(stderr, progress, 250*time.Millisecond, stop, done)
		defer func() { close(stop); <-done }()
	}
	accs, res, err := ingest.Run(c.paths, ingest.Options{
		Format:     c.format,
		LogFormats: c.logFormats,
		Source:     c.source,
		Schema:     schema,
		Location:   c.loc,
		Workers:    c.workers,
		Stdin:      stdin,
		Progress:   progress,
	}, func() *aggregate.Accumulator { return aggregate.New(aopts) })
	if err != nil {
		return 0, err
	}
	acc := aggregate.MergeAll(accs)
	var baseline *aggregate.Accumulator
	var bres *ingest.Result
	var problems []ingest.Problem
	if len(c.baseline) > 0 {
		// The reference period keeps all its records: --since and --until
		// bound the window, not the baseline.
		baseOpts.HasSince, baseOpts.HasUntil = false, false
		var baccs []*aggregate.Accumulator
		baccs, bres, err = ingest.Run(c.baseline, ingest.Options{
			Format: c.format, Source: c.source, LogFormats: c.logFormats, Schema: schema, Location: c.loc, Workers: c.workers, Stdin: stdin,
		}, func() *aggregate.Accumulator { return aggregate.New(baseOpts) })
		if err != nil {
			return 0, fmt.Errorf("--baseline: %w", err)
		}
		baseline = aggregate.MergeAll(baccs)
	}
	if dir != nil {
		var p []ingest.Problem
		acc.History, p = loadHistory(dir, acc, c.since, mapping, c.top)
		problems = append(problems, p...)
		if err := writeHours(dir, acc); err != nil {
			return 0, err
		}
		problems = append(problems, hoursCut("--state", acc)...)
	} else if baseline != nil {
		problems = append(problems, hoursCut("--baseline (peak / off-peak)", acc)...)
	}
	problems = append(problems, hoursCut("--baseline (peak / off-peak)", baseline)...)
	findings, notEval := rules.Evaluate(acc, rcfg)
	rep := report.Build(report.BuildInput{
		Aggregate: acc, Read: res, Findings: findings, NotEvaluated: notEval,
		Location: c.loc, Since: c.since, Until: c.until,
		Baseline: bres, Problems: problems,
		References: references(acc, baseline, c.baseline, mapping, c.top),
	})
	return finish(c, rep, append(rep.Unread, rep.BaselineUnread...), stdout, stderr)
}
