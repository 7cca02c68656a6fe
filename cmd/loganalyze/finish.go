package main

import (
	"fmt"
	"io"

	"loganalyze/analysis"
	"loganalyze/report"
	"loganalyze/rules"
)

// finish says the run's warnings on stderr, then writes every report
// asked for, each it can: a target that cannot be written is named on
// stderr and the others are written all the same, so that one bad path
// leaves no other report stale. Then it says on stderr which files held
// data of which not one record could be read, or were read in part, and
// returns the exit
// code: 1 for a report not written or such files (the reports are
// written all the same), 3 when the verdict reaches --fail-on (no_data
// counts as warn), else 0.
func finish(c *config, res *analysis.Result, stdout, stderr io.Writer) int {
	rep := res.Report
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "loganalyze: warning: %s\n", w)
	}
	unwritten := 0
	for _, out := range []struct {
		paths  []string
		render func(io.Writer) error
	}{
		{c.json, rep.WriteJSON},
		{c.md, func(w io.Writer) error { return rep.WriteMarkdownIn(w, c.lang) }},
		{c.html, func(w io.Writer) error { return rep.WriteHTMLIn(w, c.lang) }},
		{c.prom, func(w io.Writer) error { return rep.WritePrometheus(w, c.promOpts) }},
	} {
		for _, path := range out.paths {
			if err := writeOutput(path, stdout, out.render); err != nil {
				fmt.Fprintf(stderr, "loganalyze: %v\n", err)
				unwritten++
			}
		}
	}
	for _, u := range res.Unread {
		fmt.Fprintf(stderr, "loganalyze: %q: no record read: %s\n", u.Path, u.Reason)
	}
	mostly := map[string]bool{}
	for _, u := range rep.MostlyUnread {
		fmt.Fprintf(stderr, "loganalyze: %q: mostly not read: %s\n", u.Path, u.Reason)
		mostly[u.Path] = true
	}
	// A file read in part (a truncated archive, a damaged row group):
	// the exit code stays (SPEC §3), but cron mails stderr, and the
	// verdict is of what was read.
	for _, f := range rep.Input.Files {
		if f.Incomplete && f.Records > 0 && !mostly[f.Path] {
			fmt.Fprintf(stderr, "loganalyze: warning: %q: read in part (%d records): %s\n", f.Path, f.Records, f.Reason)
		}
	}
	if res.StateError != nil {
		fmt.Fprintf(stderr, "loganalyze: %v\n", res.StateError)
	}
	if unwritten > 0 || len(res.Unread) > 0 || len(rep.MostlyUnread) > 0 || res.StateError != nil {
		return exitFailed
	}
	if sev := rep.FailSeverity(); sev >= c.failOn && sev > rules.OK {
		return exitFindings
	}
	return exitOK
}

// writeOutput writes one report: "-" to stdout, anything else with
// report.WriteFile (atomically where it can). An error names the path.
func writeOutput(path string, stdout io.Writer, render func(io.Writer) error) error {
	if path == "-" {
		if err := render(stdout); err != nil {
			return fmt.Errorf("cannot write %q: %w", path, err)
		}
		return nil
	}
	return report.WriteFile(path, render)
}
