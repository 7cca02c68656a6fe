package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSeveralReportsInOneRun writes every report format in one run, one
// of them to stdout, and checks --prom-timestamp uses the injected clock.
func TestSeveralReportsInOneRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("..", "..", "testdata", "logs", "tokenhub-1.jsonl")
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	var stdout, stderr bytes.Buffer
	args := []string{"--tz", "UTC", "--workers", "2",
		"--md", filepath.Join(dir, "r.md"), "--json", filepath.Join(dir, "r.json"),
		"--html", filepath.Join(dir, "r.html"), "--html", filepath.Join(dir, "copy.html"),
		"--prom", "-", "--prom-timestamp", in}
	if code := run(args, nil, &stdout, &stderr, func() time.Time { return now }); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for name, want := range map[string]string{"r.md": "# loganalyze report", "r.json": `"schema_version": 1`, "r.html": "<!DOCTYPE html>", "copy.html": "<!DOCTYPE html>"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(strings.TrimSpace(string(b)), strings.TrimSpace(want)) && !strings.Contains(string(b), want) {
			t.Errorf("%s does not look like its format (want %q)", name, want)
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, "r.html"))
	b, _ := os.ReadFile(filepath.Join(dir, "copy.html"))
	if !bytes.Equal(a, b) {
		t.Errorf("two --html outputs of one run differ")
	}
	if !strings.Contains(stdout.String(), "loganalyze_last_run_timestamp_seconds 1795953600\n") {
		t.Errorf("stdout lacks the timestamp of the injected clock:\n%s", stdout.String())
	}
	if !strings.Contains(stdout.String(), "loganalyze_requests_total ") {
		t.Errorf("stdout lacks the Prometheus report")
	}
}

// TestUnwritableReportLeavesTheOthers: a report target that cannot be
// written is named on stderr and fails the run (exit 1), but every
// other report is written, the same as in a run without it; so for
// loganalyze report.
func TestUnwritableReportLeavesTheOthers(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("..", "..", "testdata", "logs", "tokenhub-1.jsonl")
	state := filepath.Join(dir, "state")
	for _, c := range []struct {
		name        string
		cmd, inputs []string
	}{
		{"logs", nil, []string{"--state", state, in}},
		{"report", []string{"report"}, []string{"--state", state}}, // the hours the first case stored
	} {
		t.Run(c.name, func(t *testing.T) {
			good, bad := filepath.Join(dir, c.name+"-good"), filepath.Join(dir, c.name+"-bad")
			for _, d := range []string{good, bad} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			args := func(d string, extra ...string) []string {
				a := append(slices.Clone(c.cmd), "--tz", "UTC", "--md", filepath.Join(d, "out.md"))
				a = append(a, extra...)
				a = append(a, "--prom", filepath.Join(d, "out.prom"), "--html", filepath.Join(d, "out.html"))
				return append(a, c.inputs...)
			}
			code, _, errs := runCLI(t, args(good)...)
			if code != exitOK && code != exitFindings {
				t.Fatalf("exit %d: %s", code, errs)
			}
			noDir := filepath.Join(dir, "nodir", "x.json")
			noDir2 := filepath.Join(dir, "nodir2", "y.html")
			code, _, errs = runCLI(t, args(bad, "--json", noDir, "--html", noDir2)...)
			if code != exitFailed {
				t.Errorf("exit %d, want %d", code, exitFailed)
			}
			for _, p := range []string{noDir, noDir2} {
				if want := `loganalyze: cannot write "` + p + `": no such file or directory` + "\n"; !strings.Contains(errs, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errs)
				}
			}
			if n := strings.Count(errs, "cannot write"); n != 2 {
				t.Errorf("%d write failures named, want 2:\n%s", n, errs)
			}
			for _, name := range []string{"out.md", "out.prom", "out.html"} {
				want, err := os.ReadFile(filepath.Join(good, name))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(bad, name))
				if err != nil {
					t.Errorf("%s not written beside the unwritable targets: %v", name, err)
					continue
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the run without an unwritable target", name)
				}
			}
		})
	}
}

// TestPromRequestsInWindow: with --since/--until, loganalyze_requests_total
// counts the window's records, as its latencies and statuses do, not
// those read outside it; counted here from the file's own times.
func TestPromRequestsInWindow(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "logs", "tokenhub-1.jsonl")
	raw, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	since := time.Date(2026, 11, 29, 10, 3, 0, 0, time.FixedZone("CST", 8*3600))
	until := since.Add(4 * time.Minute)
	want, outside := 0, 0
	for _, line := range strings.Split(string(raw), "\n") {
		_, rest, ok := strings.Cut(line, `"time":"`)
		if !ok {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, rest[:strings.IndexByte(rest, '"')])
		if err != nil {
			continue
		}
		if !at.Before(since) && at.Before(until) {
			want++
		} else {
			outside++
		}
	}
	if want == 0 || outside == 0 {
		t.Fatalf("the window holds %d records, %d outside: want both", want, outside)
	}
	code, stdout, stderr := runCLI(t, "--since", since.Format(time.RFC3339), "--until", until.Format(time.RFC3339), "--prom", "-", in)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if line := fmt.Sprintf("\nloganalyze_requests_total %d\n", want); !strings.Contains(stdout, line) {
		t.Errorf("want %q (%d outside the window):\n%s", strings.TrimSpace(line), outside, stdout)
	}
}

// TestMissingPathStillReports: a path that names nothing fails the run
// (exit 1, named on stderr) but the reports are still written, of what
// the other paths gave, the missing one listed unread (SPEC §3); with
// nothing else, the report is NO DATA and points at no flag, for no
// flag reads a file that is not there.
func TestMissingPathStillReports(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join("..", "..", "testdata", "logs", "tokenhub-1.jsonl")
	missing := filepath.Join(dir, "gone.log")
	js := filepath.Join(dir, "r.json")
	code, md, stderr := runCLI(t, "--json", js, "--md", "-", missing, good)
	if code != exitFailed || !strings.Contains(stderr, `cannot open "`+missing+`"`) {
		t.Fatalf("exit %d, stderr %q; want 1 naming the missing path", code, stderr)
	}
	var rep struct {
		Input struct {
			Records int64
			Unread  []struct{ Path, Reason string }
		}
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatalf("no JSON report: %v", err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	_, alone, _ := runCLI(t, "--json", "-", good)
	var one struct{ Input struct{ Records int64 } }
	if err := json.Unmarshal([]byte(alone), &one); err != nil {
		t.Fatal(err)
	}
	if rep.Input.Records != one.Input.Records || len(rep.Input.Unread) != 1 || rep.Input.Unread[0].Path != missing {
		t.Errorf("records %d (alone %d), unread %+v; want the good file's, the missing one unread", rep.Input.Records, one.Input.Records, rep.Input.Unread)
	}
	if !strings.Contains(md, "gone.log") {
		t.Errorf("the Markdown report does not name the missing file:\n%s", md)
	}
	code, md, _ = runCLI(t, missing)
	if first, _, _ := strings.Cut(md, "\n"); code != exitFailed || !strings.Contains(first, "NO DATA") || strings.Contains(md, "--log-format") || strings.Contains(md, "--input-format") {
		t.Errorf("exit %d, report:\n%s\nwant exit 1, NO DATA, no format flag", code, md)
	}
}

// boundsReport is what the tests of the window's bounds read of a JSON report.
type boundsReport struct {
	Window         struct{ From, To string }
	TimelineBucket int `json:"timeline_bucket_s"`
	Input          struct {
		Records       int64
		OutsideWindow int64 `json:"outside_window"`
		Problems      []struct{ File, Reason string }
	}
}

// readBounds runs the command with --json - and args, and returns
// the report read and written; it fails the test unless the run exits 0.
func readBounds(t *testing.T, args ...string) (boundsReport, string) {
	t.Helper()
	code, out, stderr := runCLI(t, append([]string{"--json", "-"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r boundsReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r, out
}

// TestFutureRecordCannotMoveTheWindow: one record dated decades ahead (a
// client's clock set wrong) is outside the window (SPEC §3: no single
// value moves the window): the window, the time line and the hour files
// are those of the file without it, and the report says why it is out.
// A record dated past the run's clock but before its file was last
// written is in: the clock that is wrong may be this machine's.
func TestFutureRecordCannotMoveTheWindow(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "logs", "tokenhub-1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.jsonl")
	skewed := filepath.Join(dir, "skewed.jsonl")
	if err := os.WriteFile(plain, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(skewed, append(append([]byte(nil), raw...), `{"time":"2099-12-31T00:00:00Z","request_time":0.2,"status":200}`+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(args ...string) boundsReport {
		t.Helper()
		r, _ := readBounds(t, args...)
		return r
	}
	want := read(plain)
	state := filepath.Join(dir, "state")
	got := read("--state", state, skewed)
	if got.Window != want.Window || got.TimelineBucket != want.TimelineBucket || got.Input.Records != want.Input.Records+1 || got.Input.OutsideWindow != want.Input.OutsideWindow+1 {
		t.Errorf("window %+v, bucket %d s, %d records (%d outside); want %+v, %d s, %d (%d)", got.Window, got.TimelineBucket, got.Input.Records, got.Input.OutsideWindow,
			want.Window, want.TimelineBucket, want.Input.Records+1, want.Input.OutsideWindow+1)
	}
	said := false
	for _, p := range got.Input.Problems {
		said = said || p.File == "window" && strings.Contains(p.Reason, "2099-12-31T00:00:00Z") && strings.Contains(p.Reason, "1 record")
	}
	if !said {
		t.Errorf("no problem says the record is outside the window: %+v", got.Input.Problems)
	}
	// In the Markdown, a note on the input, not a bad line.
	_, md, _ := runCLI(t, "--md", "-", skewed)
	notes, bad, note := strings.Index(md, "Notes on the input:"), strings.Index(md, "First bad lines:"), strings.Index(md, "- window: 1 record dated")
	if notes < 0 || bad < 0 || note < notes || note > bad {
		t.Errorf("the window's note is not under its own heading, before the bad lines (notes at %d, note at %d, bad lines at %d)", notes, note, bad)
	}
	hours, _ := filepath.Glob(filepath.Join(state, "2099*"))
	if all, _ := filepath.Glob(filepath.Join(state, "*.sketch")); len(hours) != 0 || len(all) == 0 {
		t.Errorf("hour files %v; want the log's hours, none of 2099", all)
	}
	// This machine's clock days behind the file's records (runCLI's is
	// 2026-11-29T11:00Z): a file written now holds them, in the window.
	late := filepath.Join(dir, "late.jsonl")
	if err := os.WriteFile(late, []byte(`{"time":"2026-12-04T10:00:00Z","request_time":0.2,"status":200}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := read(late); r.Input.Records != 1 || r.Input.OutsideWindow != 0 {
		t.Errorf("a file written after the run's clock: %d records, %d outside; want 1 in the window", r.Input.Records, r.Input.OutsideWindow)
	}
}

// TestPastRecordCannotMoveTheWindow: records dated years before all the
// others of their file (a clock reset to 2001), one the first line, are
// outside the window, said so, and leave the window, the time line, the
// hour files and every number of the report as they are without them,
// whatever the workers and the order of the lines; a file all of whose
// records are that old is read into the window, a log of its own.
func TestPastRecordCannotMoveTheWindow(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "logs", "tokenhub-1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	stray := func(hh int) string {
		return fmt.Sprintf(`{"time":"2001-01-01T%02d:00:00Z","request_time":0.2,"status":200,"region":"ap-beijing"}`+"\n", hh)
	}
	write := func(name string, ls []string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(strings.Join(ls, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	plain := write("plain.jsonl", lines)
	skewed := write("skewed.jsonl", slices.Concat([]string{stray(0)}, lines[:300], []string{stray(5)}, lines[300:]))
	reversed := slices.Concat([]string{stray(0)}, lines[:300], []string{stray(5)}, lines[300:])
	slices.Reverse(reversed)
	backwards := write("backwards.jsonl", reversed)
	// The report but its input part, which counts the records read.
	body := func(out string) string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "input")
		b, _ := json.Marshal(m)
		return string(b)
	}
	want, plainOut := readBounds(t, plain)
	_, plainState := readBounds(t, "--state", filepath.Join(dir, "plain-state"), plain)
	state := filepath.Join(dir, "state")
	for _, c := range [][]string{{"--state", state, skewed}, {"--workers", "1", skewed}, {"--workers", "7", skewed}, {backwards}} {
		got, out := readBounds(t, c...)
		wantOut := plainOut
		if c[0] == "--state" {
			wantOut = plainState
		}
		if got.Window != want.Window || got.TimelineBucket != want.TimelineBucket || got.Input.Records != want.Input.Records+2 || got.Input.OutsideWindow != 2 {
			t.Errorf("%v: window %+v, bucket %d s, %d records (%d outside); want %+v, %d s, %d (2)", c, got.Window, got.TimelineBucket, got.Input.Records, got.Input.OutsideWindow,
				want.Window, want.TimelineBucket, want.Input.Records+2)
		}
		if body(out) != body(wantOut) {
			t.Errorf("%v: the report differs from the log's without the two records", c)
		}
		said := false
		for _, p := range got.Input.Problems {
			said = said || p.File == "window" && strings.Contains(p.Reason, "2 records dated 2001-01-01T00:00:00Z to 2001-01-01T05:00:00Z") && strings.Contains(p.Reason, "outside the window")
		}
		if !said {
			t.Errorf("%v: no problem says the records are outside the window: %+v", c, got.Input.Problems)
		}
	}
	if hours, _ := filepath.Glob(filepath.Join(state, "2001*")); len(hours) != 0 {
		t.Errorf("hour files %v; want none of 2001", hours)
	}
	// An old file of its own beside the log: its records are read.
	old := write("old.jsonl", []string{stray(0), stray(5)})
	if got, _ := readBounds(t, plain, old); got.Input.OutsideWindow != 0 || !strings.HasPrefix(got.Window.From, "2001-01-01T00:00:00") {
		t.Errorf("with a file of 2001: window %+v, %d outside; want from 2001, none outside", got.Window, got.Input.OutsideWindow)
	}
}

// TestHourlyRunsCountEachBadLineOnce: hourly runs over one growing file,
// each with its own --since/--until, store each bad line once between
// them: a bad line is placed in the window of the record before it (of
// the one after, before the first), so the roll-up of their hours counts
// the bad lines one run over the whole file does, and each hour those
// about its records.
func TestHourlyRunsCountEachBadLineOnce(t *testing.T) {
	dir := t.TempDir()
	rec := func(hh, mm int) string {
		return fmt.Sprintf(`{"time":"2026-11-29T%02d:%02d:00Z","request_time":0.5,"status":200,"region":"ap-beijing"}`, hh, mm)
	}
	lines := []string{"not json: placed with the first record", rec(1, 57), rec(1, 58), "{broken", rec(1, 59),
		rec(2, 0), "also not json", rec(2, 1), rec(2, 2), "{\"time\":", rec(2, 3)}
	log := filepath.Join(dir, "app.log.jsonl")
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badOf := func(out string) int64 {
		t.Helper()
		var r struct {
			Input struct {
				BadLines int64 `json:"bad_lines"`
			}
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r.Input.BadLines
	}
	_, whole, _ := runCLI(t, "--json", "-", log)
	if n := badOf(whole); n != 4 {
		t.Fatalf("one run over the file: %d bad lines, want 4", n)
	}
	state := filepath.Join(dir, "state")
	for _, w := range [][2]string{{"2026-11-29T01:00:00Z", "2026-11-29T02:00:00Z"}, {"2026-11-29T02:00:00Z", "2026-11-29T03:00:00Z"}} {
		if code, _, stderr := runCLI(t, "--state", state, "--since", w[0], "--until", w[1], "--json", "-", log); code != exitOK {
			t.Fatalf("run %v: exit %d: %s", w, code, stderr)
		}
	}
	for _, c := range []struct {
		args []string
		want int64
	}{
		{nil, 4},
		{[]string{"--since", "2026-11-29T01:00:00Z", "--until", "2026-11-29T02:00:00Z"}, 2},
		{[]string{"--since", "2026-11-29T02:00:00Z", "--until", "2026-11-29T03:00:00Z"}, 2},
	} {
		code, out, stderr := runCLI(t, append([]string{"report", "--state", state, "--json", "-"}, c.args...)...)
		if code != exitOK {
			t.Fatalf("report %v: exit %d: %s", c.args, code, stderr)
		}
		if n := badOf(out); n != c.want {
			t.Errorf("report %v: %d bad lines, want %d", c.args, n, c.want)
		}
	}
}
