package main

import (
	"bytes"
	"os"
	"path/filepath"
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
