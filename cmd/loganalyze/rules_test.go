package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loganalyze/gen"
)

func writeGenerated(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "x.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gen.WriteJSONL(f, gen.Generate(gen.Config{Seed: 3, N: 2000, Plants: gen.All}), gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRulesFileWithTypoExits1(t *testing.T) {
	dir := t.TempDir()
	logs := writeGenerated(t, dir)
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("rules:\n  missing_keepalive:\n    min_requets: 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"--rules", bad, logs}, nil, &stdout, &stderr, fixedNow)
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	msg := stderr.String()
	for _, want := range []string{bad + ":3:5:", `"min_requets"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr %q lacks %q", msg, want)
		}
	}
	if stdout.Len() != 0 {
		t.Errorf("a report was written: %q", stdout.String())
	}
}

func TestRulesFileAndFailOn(t *testing.T) {
	dir := t.TempDir()
	logs := writeGenerated(t, dir)
	off := filepath.Join(dir, "off.yaml")
	// Every rule that can fire here off: nothing to report.
	if err := os.WriteFile(off, []byte(`rules:
  cross_region: {enabled: false}
  non_streaming_large_model: {enabled: false}
  missing_keepalive: {enabled: false}
  rate_limit_storm: {enabled: false}
  error_burst: {enabled: false}
  token_cache_miss: {enabled: false}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--fail-on", "crit", logs}, exitFindings},
		{[]string{"--fail-on", "warn", logs}, exitFindings},
		{[]string{"--fail-on", "never", logs}, exitOK},
		{[]string{"--fail-on", "warn", "--rules", off, logs}, exitOK},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, nil, &stdout, &stderr, fixedNow); code != tc.want {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.want, stderr.String())
		}
	}
}
