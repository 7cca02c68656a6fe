package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
)

// windowReport is the part of the JSON report that states the window.
type windowReport struct {
	Window struct{ From, To string }
	Input  struct {
		Records       int64 `json:"records"`
		OutsideWindow int64 `json:"outside_window"`
	}
	Findings []struct {
		Rule   string
		Window *struct{ From, To string }
	}
}

// runWindow runs the command with --json, --md and --html into dir and
// returns the JSON report and the three texts, failing on exit 1 or 2.
func runWindow(t *testing.T, dir string, args ...string) (rep windowReport, md string, all []string) {
	t.Helper()
	js, mdp, html := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md"), filepath.Join(dir, "r.html")
	args = append(args, "--json", js, "--md", mdp, "--html", html)
	if code, _, errs := runCLI(t, args...); code != 0 && code != 3 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	for _, p := range []string{js, mdp, html} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, string(b))
	}
	if err := json.Unmarshal([]byte(all[0]), &rep); err != nil {
		t.Fatal(err)
	}
	return rep, all[1], all
}

// A report of stored hours keeps every hour that overlaps --since and
// --until whole, and states the window it covers: from the first kept
// hour's start to the last one's end, with the window asked for beside
// it. Every finding lies in the stated window.
func TestStoredWindowIsWholeHours(t *testing.T) {
	dir := t.TempDir()
	reqs := sixHours()
	st := filepath.Join(dir, "state")
	p := writeHour(t, dir, "six.jsonl", reqs)
	if code, _, errs := runCLI(t, "--state", st, "--json", os.DevNull, p); code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	since, until := hourStart.Add(2*time.Hour+30*time.Minute), hourStart.Add(3*time.Hour+10*time.Minute)
	from, to := hourStart.Add(2*time.Hour), hourStart.Add(4*time.Hour) // the hours since and until fall in
	var in int64
	for _, r := range reqs {
		if !r.Time.Before(from) && r.Time.Before(to) {
			in++
		}
	}
	const layout = "2006-01-02 15:04:05"
	for _, c := range []struct {
		name         string
		since, until time.Time
		note         string
	}{
		{"inside hours", since, until, " (stored hours are kept whole: --since/--until asked for " +
			since.Format(layout) + " – " + until.Format(layout+" -07:00") + ")"},
		{"on the hour", from, to, ""},
	} {
		rep, md, _ := runWindow(t, dir, "report", "--tz", "UTC", "--state", st,
			"--since", c.since.Format(time.RFC3339), "--until", c.until.Format(time.RFC3339))
		if rep.Window.From != from.Format(time.RFC3339) || rep.Window.To != to.Format(time.RFC3339) || rep.Input.Records != in {
			t.Errorf("%s: window %+v, %d records; want %s – %s, %d", c.name, rep.Window, rep.Input.Records,
				from.Format(time.RFC3339), to.Format(time.RFC3339), in)
		}
		want := from.Format(layout) + " – " + to.Format(layout+" -07:00") + c.note + "."
		if !strings.Contains(md, want) {
			t.Errorf("%s: the Markdown verdict does not state %q:\n%s", c.name, want, firstLines(md, 3))
		}
		if c.note == "" && strings.Contains(md, "kept whole") {
			t.Errorf("%s: a window on the hour is noted as widened", c.name)
		}
		for _, f := range rep.Findings {
			if f.Window == nil {
				continue
			}
			ff, err1 := time.Parse(time.RFC3339, f.Window.From)
			ft, err2 := time.Parse(time.RFC3339, f.Window.To)
			if err1 != nil || err2 != nil || ff.Before(from) || ft.After(to) {
				t.Errorf("%s: finding %s window %+v is outside the stated window", c.name, f.Rule, *f.Window)
			}
		}
	}
}

// No report states the zero time: a --since without --until and no
// record in the window ends at the run's start (for logs and for stored
// hours alike), an --until alone with no record has an open start, and
// a log whose records have no time has no window ("" in JSON).
func TestWindowNeverZero(t *testing.T) {
	dir := t.TempDir()
	now := fixedNow()
	early := writeHour(t, dir, "early.jsonl", genHour(6, 200, now.Add(-5*time.Hour)))
	st := filepath.Join(dir, "state")
	if code, _, errs := runCLI(t, "--state", st, "--json", os.DevNull, early); code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	timeless := filepath.Join(dir, "timeless.jsonl")
	if err := os.WriteFile(timeless, []byte(`{"status":200,"model":"m"}`+"\n"+`{"status":429,"model":"m"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	since := now.Add(-2 * time.Hour) // after every record of early.jsonl
	until := now.Add(-10 * time.Hour)
	rfc := func(t time.Time) string { return t.Format(time.RFC3339) }
	for _, c := range []struct {
		name     string
		args     []string
		from, to string
		md       string // in the Markdown verdict
		in       int64  // records in the window
	}{
		{"--since, no record", []string{"--tz", "UTC", "--since", rfc(since), early}, rfc(since), rfc(now),
			since.Format("2006-01-02 15:04:05") + " – " + now.Format("2006-01-02 15:04:05 -07:00"), 0},
		{"report --since, no hour", []string{"report", "--tz", "UTC", "--state", st, "--since", rfc(since)}, rfc(since), rfc(now),
			since.Format("2006-01-02 15:04:05") + " – " + now.Format("2006-01-02 15:04:05 -07:00"), 0},
		{"--until, no record", []string{"--tz", "UTC", "--until", rfc(until), early}, "", rfc(until),
			"… – " + until.Format("2006-01-02 15:04:05 -07:00"), 0},
		{"no time", []string{"--tz", "UTC", timeless}, "", "", "no timestamps", 2},
		{"no time, --since", []string{"--tz", "UTC", "--since", rfc(since), timeless}, rfc(since), rfc(now),
			since.Format("2006-01-02 15:04:05") + " – " + now.Format("2006-01-02 15:04:05 -07:00"), 0},
	} {
		rep, md, all := runWindow(t, dir, c.args...)
		if rep.Window.From != c.from || rep.Window.To != c.to {
			t.Errorf("%s: window %+v, want from %q to %q", c.name, rep.Window, c.from, c.to)
		}
		if n := rep.Input.Records - rep.Input.OutsideWindow; n != c.in {
			t.Errorf("%s: %d records in the window, want %d", c.name, n, c.in)
		}
		if !strings.Contains(firstLines(md, 3), c.md) {
			t.Errorf("%s: the Markdown verdict does not state %q:\n%s", c.name, c.md, firstLines(md, 3))
		}
		for i, s := range all {
			if strings.Contains(s, "0001-01-01") {
				t.Errorf("%s: report %d states the zero time", c.name, i)
			}
		}
	}
}

// A run over a log of more hours than it keeps says in its verdict from
// which hour the state directory holds the log, and a report of the
// stored hours afterwards holds exactly those hours.
func TestStateHoursCutIsStated(t *testing.T) {
	dir := t.TempDir()
	reqs := gen.Generate(gen.Config{Seed: 7, N: 2700, Start: hourStart, Duration: 27 * time.Hour})
	var hours []time.Time
	for _, r := range reqs {
		if h := r.Time.UTC().Truncate(time.Hour); !slices.ContainsFunc(hours, h.Equal) {
			hours = append(hours, h)
		}
	}
	slices.SortFunc(hours, time.Time.Compare)
	if len(hours) <= 25 {
		t.Fatalf("the log spans %d hours: want more than a run keeps", len(hours))
	}
	first := hours[len(hours)-25]
	var kept int64
	for _, r := range reqs {
		if !r.Time.Before(first) {
			kept++
		}
	}
	st := filepath.Join(dir, "state")
	p := writeHour(t, dir, "long.jsonl", reqs)
	_, md, _ := runWindow(t, dir, "--tz", "UTC", "--state", st, p)
	want := "Input: the hours before " + first.Format("2006-01-02 15:04 -07:00") + " not stored in the state directory"
	if !strings.Contains(firstLines(md, 3), want) {
		t.Errorf("the run's verdict does not say %q:\n%s", want, firstLines(md, 3))
	}
	rep, _, _ := runWindow(t, dir, "report", "--tz", "UTC", "--state", st)
	last := hours[len(hours)-1].Add(time.Hour)
	if rep.Input.Records != kept || rep.Window.From != first.Format(time.RFC3339) || rep.Window.To != last.Format(time.RFC3339) {
		t.Errorf("report of the stored hours: %d records, window %+v; want %d, %s – %s", rep.Input.Records, rep.Window,
			kept, first.Format(time.RFC3339), last.Format(time.RFC3339))
	}
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
