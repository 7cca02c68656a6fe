package main

import (
	"fmt"
	"io"

	"loganalyze/report"
	"loganalyze/rules"
)

// finish writes every report asked for, then says on stderr which files
// held data of which not one record could be read, and returns the exit
// code: 1 for such files (the reports are written all the same), 3 when
// the verdict reaches --fail-on (no_data counts as warn), else 0.
func finish(c *config, rep *report.Report, unread []report.UnreadFile, stdout, stderr io.Writer) (int, error) {
	for _, path := range c.json {
		if err := writeOutput(path, stdout, rep.WriteJSON); err != nil {
			return 0, err
		}
	}
	for _, path := range c.md {
		if err := writeOutput(path, stdout, rep.WriteMarkdown); err != nil {
			return 0, err
		}
	}
	for _, path := range c.html {
		if err := writeOutput(path, stdout, rep.WriteHTML); err != nil {
			return 0, err
		}
	}
	var popts report.PromOptions
	if c.promTime != nil {
		popts.Timestamp = *c.promTime
	}
	for _, path := range c.prom {
		if err := writeOutput(path, stdout, func(w io.Writer) error { return rep.WritePrometheus(w, popts) }); err != nil {
			return 0, err
		}
	}
	for _, u := range unread {
		fmt.Fprintf(stderr, "loganalyze: %q: no record read: %s\n", u.Path, u.Reason)
	}
	if len(unread) > 0 {
		return exitFailed, nil
	}
	if sev := rep.FailSeverity(); sev >= c.failOn && sev > rules.OK {
		return exitFindings, nil
	}
	return exitOK, nil
}
