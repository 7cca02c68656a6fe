package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/gen"
)

// A log of two years gives a time line of day buckets: the same reports
// whatever the worker count, a small JSON report, and the counts of the
// log.
func TestTwoYearsTimeline(t *testing.T) {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	reqs := gen.Generate(gen.Config{Seed: 3, N: 8000, Start: start, Duration: 2 * 365 * 24 * time.Hour, Plants: gen.All})
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "two-years.jsonl")
	if err := os.WriteFile(in, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var first string
	for _, w := range []string{"1", "2", "7"} {
		code, out, errs := runCLI(t, "--workers", w, "--tz", "UTC", "--json", "-", "--md", "-", "--html", "-", in)
		if code != 0 && code != 3 {
			t.Fatalf("workers %s: exit %d: %s", w, code, errs)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Fatalf("workers %s: the reports differ from --workers 1", w)
		}
	}
	code, out, errs := runCLI(t, "--tz", "UTC", "--json", "-", in)
	if code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if len(out) > 1<<20 {
		t.Errorf("JSON report of %d bytes", len(out))
	}
	var rep struct {
		Input struct {
			Records int64 `json:"records"`
		} `json:"input"`
		Width    int64 `json:"timeline_bucket_s"`
		Timeline []struct {
			Minute   string `json:"minute"`
			Requests int64  `json:"requests"`
			N429     int64  `json:"status_429"`
		} `json:"timeline"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Width != 86400 || len(rep.Timeline) > 731 {
		t.Fatalf("%d buckets of %d s, want at most 731 days", len(rep.Timeline), rep.Width)
	}
	want := map[string]int64{}
	var want429 int64
	for _, r := range reqs {
		want[r.Time.UTC().Truncate(24*time.Hour).Format(time.RFC3339)]++
		if r.Status == 429 {
			want429++
		}
	}
	var n, n429 int64
	for _, b := range rep.Timeline {
		if b.Requests != want[b.Minute] {
			t.Fatalf("day %s: %d requests, want %d", b.Minute, b.Requests, want[b.Minute])
		}
		n += b.Requests
		n429 += b.N429
	}
	if n != int64(len(reqs)) || n != rep.Input.Records || n429 != want429 {
		t.Errorf("time line: %d requests, %d × 429; want %d and %d", n, n429, len(reqs), want429)
	}
}
