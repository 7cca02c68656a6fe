package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

var fixedNow = func() time.Time { return time.Date(2026, 11, 29, 11, 0, 0, 0, time.UTC) }

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb, fixedNow)
	return code, out.String(), errb.String()
}

// samples is one generated hour split across six files, one per format.
var samples = []string{"../../testdata/logs/"}

func TestWorkersGiveIdenticalReports(t *testing.T) {
	var outs []string
	for _, w := range []string{"1", "2", "5"} {
		code, out, errs := runCLI(t, append([]string{"--workers", w, "--tz", "Asia/Shanghai", "--json", "-", "--md", "-"}, samples...)...)
		if code != 0 {
			t.Fatalf("workers %s: exit %d: %s", w, code, errs)
		}
		outs = append(outs, out)
	}
	for i := 1; i < len(outs); i++ {
		if outs[i] != outs[0] {
			t.Errorf("report with worker count #%d differs from --workers 1", i)
		}
	}
}

func TestJSONReportSchema(t *testing.T) {
	code, out, errs := runCLI(t, append([]string{"--tz", "Asia/Shanghai", "--json", "-"}, samples...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		SchemaVersion int `json:"schema_version"`
		Window        struct{ From, To string }
		Input         struct {
			Records  int64 `json:"records"`
			BadLines int64 `json:"bad_lines"`
			Files    []struct {
				Path     string `json:"path"`
				Format   string `json:"format"`
				Records  int64  `json:"records"`
				BadLines int64  `json:"bad_lines"`
			}
			Problems []struct {
				File   string `json:"file"`
				Line   int64  `json:"line"`
				Reason string `json:"reason"`
			}
			Incomplete bool `json:"incomplete"`
		}
		Verdict  string            `json:"verdict"`
		Findings []json.RawMessage `json:"findings"`
		Latency  map[string]struct {
			All struct {
				Count int64   `json:"count"`
				P50   float64 `json:"p50_ms"`
				P95   float64 `json:"p95_ms"`
				P99   float64 `json:"p99_ms"`
			} `json:"all"`
			By map[string][]struct {
				Key   string  `json:"key"`
				Count int64   `json:"count"`
				P99   float64 `json:"p99_ms"`
			} `json:"by"`
		} `json:"latency"`
		Status map[string]int64 `json:"status"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.SchemaVersion != 1 || rep.Verdict == "" || rep.Findings == nil {
		t.Errorf("header: %+v", rep)
	}
	var sum int64
	formats := map[string]bool{}
	for _, f := range rep.Input.Files {
		sum += f.Records
		formats[f.Format] = true
	}
	if len(rep.Input.Files) != 6 || len(formats) != 5 || rep.Input.Records != sum { // CLS is JSON lines
		t.Errorf("input: %+v", rep.Input)
	}
	if rep.Input.BadLines != 12 || len(rep.Input.Problems) != 12 {
		t.Errorf("bad lines %d, problems %d; want 12 and 12", rep.Input.BadLines, len(rep.Input.Problems))
	}
	if _, err := time.Parse(time.RFC3339, rep.Window.From); err != nil || !strings.HasSuffix(rep.Window.From, "+08:00") {
		t.Errorf("window.from %q", rep.Window.From)
	}
	var statusTotal int64
	for _, n := range rep.Status {
		statusTotal += n
	}
	if statusTotal != rep.Input.Records {
		t.Errorf("status counts sum to %d, want %d", statusTotal, rep.Input.Records)
	}
	for _, metric := range []string{"request_time", "upstream_response_time", "network_time", "ttft"} {
		ml, ok := rep.Latency[metric]
		if !ok || ml.All.Count == 0 || !(ml.All.P50 <= ml.All.P95 && ml.All.P95 <= ml.All.P99) {
			t.Errorf("%s: %+v", metric, ml.All)
		}
		for _, dim := range []string{"region", "model", "status", "client", "client_region", "route", "stream", "uri"} {
			rows, ok := ml.By[dim]
			if !ok {
				t.Errorf("%s: no dimension %s", metric, dim)
			}
			for i := 1; i < len(rows); i++ {
				if rows[i].Count > rows[i-1].Count {
					t.Errorf("%s/%s: not sorted by count", metric, dim)
				}
			}
		}
	}
	if rep.Latency["request_time"].All.Count != rep.Input.Records {
		t.Errorf("request_time count %d, records %d", rep.Latency["request_time"].All.Count, rep.Input.Records)
	}
}

func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{}, 2, "no input"},
		{[]string{"--bogus", "x"}, 2, "unknown flag: --bogus"},
		{[]string{"--workers", "0", "x"}, 2, "--workers"},
		{[]string{"--input-format", "xml", "x"}, 2, `unknown input format "xml"`},
		{[]string{"--tz", "Mars/Olympus", "x"}, 2, `unknown zone "Mars/Olympus"`},
		{[]string{"--since", "yesterday", "x"}, 2, `--since: cannot parse "yesterday"`},
		{[]string{"--fail-on", "sometimes", "x"}, 2, "--fail-on"},
		{[]string{"--map", "nonsense", "x"}, 2, "--map"},
		{[]string{"/no/such.log"}, 1, `cannot open "/no/such.log"`},
		{[]string{"--keep", "3h", "x"}, 2, "--keep: needs --state"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d (%q), want %d with %q", c.args, code, errs, c.code, c.msg)
		}
	}
}

func TestOutputsAreWrittenAtomically(t *testing.T) {
	dir := t.TempDir()
	js, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
	if err := os.WriteFile(js, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "--json", js, "--md", md, "--md", "/dev/null", "--tz", "Asia/Shanghai", samples[0])
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
	b, err := os.ReadFile(js)
	if err != nil || !json.Valid(b) {
		t.Errorf("json report not replaced: %v", err)
	}
	m, err := os.ReadFile(md)
	if err != nil || !bytes.HasPrefix(m, []byte("# loganalyze report")) {
		t.Errorf("markdown report: %v %.40q", err, m)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if st, err := os.Stat("/dev/null"); err != nil || st.Mode().IsRegular() {
		t.Errorf("/dev/null was replaced")
	}
	// An unwritable target fails the run.
	code, _, errs = runCLI(t, "--json", filepath.Join(dir, "missing", "r.json"), samples[0])
	if code != 1 || !strings.Contains(errs, "cannot write") {
		t.Errorf("unwritable: exit %d %s", code, errs)
	}
}

func TestSinceUntil(t *testing.T) {
	code, out, errs := runCLI(t, "--tz", "Asia/Shanghai", "--since", "2026-11-29T10:15:00+08:00", "--until", "2026-11-29 10:30", "--json", "-", samples[0])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Window   struct{ From, To string }
		Input    struct{ Records int64 }
		Timeline []struct {
			Minute string `json:"minute"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Window.From != "2026-11-29T10:15:00+08:00" || rep.Window.To != "2026-11-29T10:30:00+08:00" {
		t.Errorf("window %+v", rep.Window)
	}
	if len(rep.Timeline) != 15 || rep.Timeline[0].Minute != "2026-11-29T10:15:00+08:00" {
		t.Errorf("timeline has %d minutes from %v", len(rep.Timeline), rep.Timeline)
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"--help", "-h"} {
		code, out, errs := runCLI(t, arg)
		if code != 0 || errs != "" {
			t.Errorf("%s: exit %d, stderr %q; want 0 and nothing", arg, code, errs)
		}
		for _, want := range []string{
			"Usage: loganalyze [flags] PATH...",
			"--keep DURATION", "--version", "--state DIR", "--fail-on",
			// The worked examples: the cron line, an ad-hoc dump, a weekly roll-up.
			"loganalyze --since -1h --state /var/lib/loganalyze --keep 14d \\\n",
			"--fail-on crit /data/logs/\n",
			"loganalyze --tz Asia/Shanghai --md - --json dump.json ./dump/*.jsonl.gz\n",
			"loganalyze report --state /srv/state/gw-a --state /srv/state/gw-b \\\n    --since -168h --html week.html",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the help lacks %q", arg, want)
			}
		}
	}
}

// TestHelpFlagsInREADME checks that every flag --help lists has a row in
// the README's flag table, and every row names a flag --help lists.
func TestHelpFlagsInREADME(t *testing.T) {
	_, out, _ := runCLI(t, "--help")
	help := map[string]bool{}
	for line := range strings.Lines(out) {
		fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "-j, "))
		if len(fields) > 0 && strings.HasPrefix(fields[0], "--") {
			help[strings.TrimSuffix(strings.Split(fields[0], "[")[0], ",")] = true
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	table := map[string]bool{}
	for line := range strings.Lines(string(readme)) {
		if !strings.HasPrefix(line, "| `--") {
			continue
		}
		cell := strings.SplitN(line, "|", 3)[1]
		for _, part := range strings.Split(cell, "`") {
			if name, _, _ := strings.Cut(part, " "); strings.HasPrefix(name, "--") {
				table[name] = true
			}
		}
	}
	delete(table, "--help") // pflag's own, not in the list
	if len(help) < 20 {
		t.Fatalf("read %d flags from --help: %v", len(help), help)
	}
	for name := range help {
		if !table[name] {
			t.Errorf("%s is in --help but not in the README's flag table", name)
		}
	}
	for name := range table {
		if !help[name] {
			t.Errorf("%s is in the README's flag table but not in --help", name)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, errs := runCLI(t, "--version")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errs)
	}
	first, rest, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(first, "loganalyze ") || !strings.HasSuffix(first, " "+runtime.Version()) {
		t.Errorf("first line %q, want loganalyze VERSION %s", first, runtime.Version())
	}
	for line := range strings.Lines(rest) {
		if !strings.HasPrefix(line, "vcs.") || !strings.Contains(line, "=") {
			t.Errorf("line %q is not a vcs.key=value", line)
		}
	}
	// --version needs no input and wins over the other flags.
	if code, out2, _ := runCLI(t, "--version", "--json", "-", "/no/such.log"); code != 0 || out2 != out {
		t.Errorf("with other flags: exit %d, %q", code, out2)
	}
}

// A relative --since without --until ends the window at the run's start:
// [now-1h, now), stated so with or without a record in it, and records
// after now are outside it; the same for a report of stored hours.
func TestRelativeSinceEndsNow(t *testing.T) {
	dir := t.TempDir()
	now := fixedNow()
	type window struct{ From, To string }
	var rep struct {
		Window window
		Input  struct {
			Records       int64 `json:"records"`
			OutsideWindow int64 `json:"outside_window"`
		}
	}
	want := window{now.Add(-time.Hour).Format(time.RFC3339), now.Format(time.RFC3339)}
	mdWindow := now.Add(-time.Hour).Format("2006-01-02 15:04:05") + " – " + now.Format("2006-01-02 15:04:05 -07:00")
	before := genHour(4, 300, now.Add(-2*time.Hour))    // 09:00–10:00: none in the window
	across := genHour(5, 300, now.Add(-30*time.Minute)) // 10:30–11:30: half in it
	var inAcross int64
	for _, r := range across {
		if !r.Time.Before(now.Add(-time.Hour)) && r.Time.Before(now) {
			inAcross++
		}
	}
	if inAcross == 0 || inAcross == int64(len(across)) {
		t.Fatalf("%d of %d generated records before now: want some on each side", inAcross, len(across))
	}
	st := filepath.Join(dir, "state")
	common := []string{"--tz", "UTC", "--since", "-1h", "--json", filepath.Join(dir, "r.json"), "--md", filepath.Join(dir, "r.md")}
	for _, c := range []struct {
		name string
		args []string
		in   int64
	}{
		{"none in the window", slices.Concat(common, []string{writeHour(t, dir, "before.jsonl", before)}), 0},
		{"records after now", slices.Concat(common, []string{writeHour(t, dir, "across.jsonl", across)}), inAcross},
		{"state", slices.Concat(common, []string{"--state", st, filepath.Join(dir, "across.jsonl")}), inAcross},
		{"report", slices.Concat([]string{"report", "--state", st}, common), inAcross},
	} {
		out, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
		if code, _, errs := runCLI(t, c.args...); code != 0 && code != 3 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		b, err := os.ReadFile(out)
		if err == nil {
			err = json.Unmarshal(b, &rep)
		}
		if err != nil {
			t.Fatal(err)
		}
		if rep.Window != want || rep.Input.Records-rep.Input.OutsideWindow != c.in {
			t.Errorf("%s: window %+v, %d records in it; want %+v, %d", c.name, rep.Window, rep.Input.Records-rep.Input.OutsideWindow, want, c.in)
		}
		if b, err := os.ReadFile(md); err != nil || !strings.Contains(string(b), mdWindow) {
			t.Errorf("%s: the Markdown does not state the window %q (%v)", c.name, mdWindow, err)
		}
	}
}
