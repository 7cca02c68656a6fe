package analysis

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// TestRunCancelled: a run whose context is done reads nothing and leaves
// the state directory alone.
func TestRunCancelled(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	p := writeHour(t, dir, "h.jsonl", genHour(3, 200, hourStart))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, Config{StateDir: st, Paths: []string{p}})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("result %v, error %v; want context.Canceled", res, err)
	}
	if _, err := os.Stat(st); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled run touched the state directory: %v", err)
	}
}

// TestBaselineError: an error reading the baseline says so, and names no
// command-line flag.
func TestBaselineError(t *testing.T) {
	dir := t.TempDir()
	p := writeHour(t, dir, "h.jsonl", genHour(3, 200, hourStart))
	missing := filepath.Join(dir, "[") // a bad glob: a missing file is unread, not an error
	_, err := Run(context.Background(), Config{Baseline: []string{missing}, Paths: []string{p}})
	var be *BaselineError
	if !errors.As(err, &be) || !strings.Contains(be.Err.Error(), `bad glob "`+missing+`"`) {
		t.Fatalf("error %v, want a BaselineError naming %s", err, missing)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "baseline: ") || strings.Contains(msg, "--") {
		t.Errorf("error %q", msg)
	}
}

// TestUnreadWindowThenBaseline: Result.Unread lists the window's unread
// files, then the baseline's.
func TestUnreadWindowThenBaseline(t *testing.T) {
	dir := t.TempDir()
	good := writeHour(t, dir, "h.jsonl", genHour(3, 200, hourStart))
	junk := func(name string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("{not json\n{nor this\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	w, b := junk("w.jsonl"), junk("b.jsonl")
	res, err := Run(context.Background(), Config{Paths: []string{good, w}, Baseline: []string{b}, Ingest: ingest.Options{Format: ingest.JSONL}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Unread) != 2 || res.Unread[0].Path != w || res.Unread[1].Path != b {
		t.Errorf("unread %+v, want %s then %s", res.Unread, w, b)
	}
}

// TestStateKeepsTheLatestHours: a log of 30 hours stores its latest 25
// and says so among the problems, naming what was cut.
func TestStateKeepsTheLatestHours(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "state")
	reqs := gen.Generate(gen.Config{Seed: 5, N: 3000, Start: hourStart, Duration: 30 * time.Hour})
	p := writeHour(t, dir, "long.jsonl", reqs)
	res, err := Run(context.Background(), Config{StateDir: st, Paths: []string{p}})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(st, "*.sketch"))
	if len(files) != 25 {
		t.Errorf("%d hour files, want 25", len(files))
	}
	var cut []ingest.Problem
	for _, pr := range res.Report.Input.Problems {
		if pr.File == stateHours {
			cut = append(cut, pr)
		}
	}
	if want := "only the hours from " + hourStart.Add(5*time.Hour).Format("2006-01-02T15:04Z") + " on were kept"; len(cut) != 1 || !strings.Contains(cut[0].Reason, want) {
		t.Errorf("problems %+v, want one saying %q", res.Report.Input.Problems, want)
	}
}
