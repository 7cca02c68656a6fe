package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/state"
)

// hourStart is the first generated hour; its state file is named in UTC.
var hourStart = time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)

// writeHour writes generated requests as JSON lines and returns the path.
func writeHour(t *testing.T, dir, name string, reqs []gen.Request) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteJSONL(f, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// genHour is one hour of background traffic from start.
func genHour(seed uint64, n int, start time.Time) []gen.Request {
	return gen.Generate(gen.Config{Seed: seed, N: n, Start: start})
}

func TestStateLocked(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	p := writeHour(t, dir, "h.jsonl", genHour(3, 200, hourStart))
	held, err := state.Open(st)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	code, _, errs := runCLI(t, "--state", st, "--json", os.DevNull, p)
	want := `loganalyze: state directory "` + st + `" is locked by another run (pid ` + strconv.Itoa(os.Getpid()) + ")\n"
	if code != 1 || errs != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errs, want)
	}
	if _, err := os.Stat(filepath.Join(st, "2026-11-29T09.sketch")); err == nil {
		t.Error("a locked-out run wrote state")
	}
}

// TestMain runs the tests, or, as the child process of
// TestStateLockedByAnotherProcess, holds a state directory's lock until
// its stdin closes.
func TestMain(m *testing.M) {
	if dir := os.Getenv("LOGANALYZE_HOLD_LOCK"); dir != "" {
		d, err := state.Open(dir)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		_, _ = io.Copy(io.Discard, os.Stdin)
		d.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestStateLockedByAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	p := writeHour(t, dir, "h.jsonl", genHour(3, 200, hourStart))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "LOGANALYZE_HOLD_LOCK="+st)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("child: %q, %v", line, err)
	}
	code, _, errs := runCLI(t, "--state", st, "--json", os.DevNull, p)
	want := `loganalyze: state directory "` + st + `" is locked by another run (pid ` + strconv.Itoa(cmd.Process.Pid) + ")\n"
	if code != 1 || errs != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errs, want)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	if code, _, errs := runCLI(t, "--state", st, "--json", os.DevNull, p); code != 0 {
		t.Errorf("after the other run ended: exit %d: %s", code, errs)
	}
}

// storedHours lists the hour files of a state directory, sorted.
func storedHours(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.sketch"))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

func TestKeepPrunesOldHours(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	// Six hours before the tests' clock (11:00 UTC), one file each.
	first := fixedNow().Add(-6 * time.Hour)
	var paths, hours []string
	for i := range 6 {
		start := first.Add(time.Duration(i) * time.Hour)
		paths = append(paths, writeHour(t, dir, fmt.Sprintf("h%d.jsonl", i), genHour(uint64(10+i), 100, start)))
		hours = append(hours, start.UTC().Format("2006-01-02T15")+".sketch")
	}
	args := append([]string{"--state", st, "--json", os.DevNull}, paths...)
	if code, _, errs := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if got := storedHours(t, st); !slices.Equal(got, hours) {
		t.Fatalf("stored %q, want %q", got, hours)
	}
	foreign := []string{"README", "2026-11-29T01.sketch.bak", "2026-11-29T02.sketch"}
	for _, name := range foreign {
		if err := os.WriteFile(filepath.Join(st, name), []byte("not ours"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The same run with --keep 3h: the newest three hours stay.
	args = append([]string{"--keep", "3h"}, args...)
	if code, _, errs := runCLI(t, args...); code != 0 {
		t.Fatalf("--keep 3h: exit %d: %s", code, errs)
	}
	want := append([]string{"2026-11-29T02.sketch"}, hours[3:]...)
	if got := storedHours(t, st); !slices.Equal(got, want) {
		t.Errorf("after --keep 3h: %q, want %q", got, want)
	}
	for _, name := range append(foreign, "lock") {
		if _, err := os.Stat(filepath.Join(st, name)); err != nil {
			t.Errorf("--keep removed %s: %v", name, err)
		}
	}
}

func TestKeepBadValues(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	p := writeHour(t, dir, "h.jsonl", genHour(3, 50, hourStart))
	for _, c := range []struct{ keep, msg string }{
		{"3", `--keep: cannot parse "3"`},
		{"fortnight", `--keep: cannot parse "fortnight"`},
		{"2w", `--keep: cannot parse "2w"`},
		{"0h", `--keep: want a positive duration, got "0h"`},
		{"-14d", `--keep: want a positive duration, got "-14d"`},
	} {
		code, _, errs := runCLI(t, "--state", st, "--keep", c.keep, "--json", os.DevNull, p)
		if code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("--keep %s: exit %d, %q; want 2 with %q", c.keep, code, errs, c.msg)
		}
	}
	if _, err := os.Stat(st); err == nil {
		t.Error("a bad --keep still opened the state directory")
	}
}

// Shard a stores six hours, one hourly run each; shard b, then the
// unsharded writer, run with --keep 3h on the next day's log. Neither
// deletes a's files: a run prunes its own writer's files alone, measured
// from its own newest hour.
func TestKeepLeavesOtherShards(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	day := time.Date(2026, 11, 29, 10, 0, 0, 0, time.FixedZone("+08:00", 8*3600))
	var reqs []gen.Request
	for i := range 6 {
		reqs = append(reqs, genHour(uint64(i+1), 100, day.Add(time.Duration(i)*time.Hour))...)
	}
	log := writeHour(t, dir, "a.jsonl", reqs)
	var aFiles []string
	for i := range 6 {
		from := day.Add(time.Duration(i) * time.Hour)
		if code, _, errs := runCLI(t, "--state", st, "--shard", "a", "--since", from.Format(time.RFC3339),
			"--until", from.Add(time.Hour).Format(time.RFC3339), "--json", os.DevNull, log); code != 0 && code != 3 {
			t.Fatalf("shard a, hour %d: exit %d: %s", i, code, errs)
		}
		aFiles = append(aFiles, from.UTC().Format("2006-01-02T15")+".a.sketch")
	}
	next := writeHour(t, dir, "next.jsonl", genHour(9, 100, day.Add(24*time.Hour)))
	nextFile := day.Add(24 * time.Hour).UTC().Format("2006-01-02T15")
	for _, shard := range [][]string{{"--shard", "b"}, nil} {
		args := append([]string{"--state", st, "--keep", "3h", "--json", os.DevNull}, shard...)
		var errb strings.Builder
		code := run(append(args, next), strings.NewReader(""), io.Discard, &errb, func() time.Time { return day.Add(25 * time.Hour) })
		if code != 0 && code != 3 {
			t.Fatalf("%q --keep 3h: exit %d: %s", shard, code, errb.String())
		}
	}
	want := append(append([]string{}, aFiles...), nextFile+".b.sketch", nextFile+".sketch")
	slices.Sort(want)
	if got := storedHours(t, st); !slices.Equal(got, want) {
		t.Errorf("left %q\nwant %q", got, want)
	}
}

// A --shard that cannot name a file is bad usage, refused before any
// input is read or the state directory made.
func TestBadShardIsUsage(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	for _, shard := range []string{"../evil", "a.b", "a/b", strings.Repeat("x", 65)} {
		code, _, errs := runCLI(t, "--state", st, "--shard", shard, "--json", os.DevNull, filepath.Join(dir, "missing.log"))
		if code != 2 || !strings.HasPrefix(errs, "loganalyze: --shard: ") || !strings.Contains(errs, strconv.Quote(shard)) {
			t.Errorf("--shard %q: exit %d, stderr %q; want 2 naming the shard", shard, code, errs)
		}
		if _, err := os.Stat(st); err == nil {
			t.Fatalf("--shard %q: the state directory was made", shard)
		}
	}
}

// TestStateNotWrittenStillReports: when an hour file cannot be written
// (here a directory holds its name; a full disk does the same), the run
// fails (exit 1, stderr naming the file) but writes its reports all the
// same, saying so under input.problems: the last run's report, verdict
// ok, is not left as the latest.
func TestStateNotWrittenStillReports(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	if err := os.MkdirAll(filepath.Join(st, "2026-11-29T09.sketch"), 0o755); err != nil {
		t.Fatal(err)
	}
	reqs := gen.Generate(gen.Config{Seed: 3, N: 500, Start: hourStart})
	log := writeHour(t, dir, "h.jsonl", reqs)
	js := filepath.Join(dir, "r.json")
	code, _, errs := runCLI(t, "--tz", "UTC", "--state", st, "--json", js, log)
	if code != 1 || !strings.Contains(errs, "2026-11-29T09.sketch") {
		t.Errorf("exit %d, stderr %q; want 1 naming the hour file", code, errs)
	}
	rep := readReport(t, js)
	said := false
	for _, p := range rep.Input.Problems {
		said = said || p.File == st && strings.HasPrefix(p.Reason, "hour files not written: ")
	}
	if rep.Input.Records != int64(len(reqs)) || !said {
		t.Errorf("report: %d records, problems %+v; want %d, and the hour files not written", rep.Input.Records, rep.Input.Problems, len(reqs))
	}
}
