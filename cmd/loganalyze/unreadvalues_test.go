package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnreadableValuesReported: records whose ttft or status cannot be
// read are kept without it, and every report says how many held such a
// value, per field (JSON input.unreadable_values, per file too), with the
// first of them as file:line: reason; the run exits as before.
func TestUnreadableValuesReported(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	const n = 12
	wantTTFT, wantStatus := 0, 0
	for i := range n {
		ttft, status := "120", "200"
		if i%3 == 0 {
			ttft, wantTTFT = `"n/a"`, wantTTFT+1
		}
		if i%4 == 1 {
			status, wantStatus = `"OK?"`, wantStatus+1
		}
		fmt.Fprintf(&b, `{"time":"2026-11-29T10:00:%02dZ","request_time":0.25,"first_token_ms":%s,"status":%s}`+"\n", i, ttft, status)
	}
	path := filepath.Join(dir, "v.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "--json", "-", path)
	var rep struct {
		Input struct {
			Records int64 `json:"records"`
			Files   []struct {
				Unreadable map[string]int64 `json:"unreadable_values"`
			} `json:"files"`
			Unreadable map[string]int64 `json:"unreadable_values"`
			Samples    []struct {
				File   string `json:"file"`
				Line   int64  `json:"line"`
				Reason string `json:"reason"`
			} `json:"value_problems"`
		} `json:"input"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	in := rep.Input
	want := map[string]int64{"ttft": int64(wantTTFT), "status": int64(wantStatus)}
	if code != exitOK || in.Records != n || fmt.Sprint(in.Unreadable) != fmt.Sprint(want) || len(in.Files) != 1 ||
		fmt.Sprint(in.Files[0].Unreadable) != fmt.Sprint(want) || len(in.Samples) != wantTTFT+wantStatus-1 { // line 10 has both
		t.Fatalf("exit %d, input %+v; want %d, %d records, unreadable %v", code, in, exitOK, n, want)
	}
	if s := in.Samples[0]; s.File != path || s.Line != 1 || s.Reason != `ttft: cannot read "n/a"; the record is kept without it` {
		t.Errorf("first sample %+v", s)
	}
	_, prom, _ := runCLI(t, "--prom", "-", path)
	if w := fmt.Sprintf("loganalyze_unreadable_values{field=\"ttft\"} %d\n", wantTTFT); !strings.Contains(prom, w) {
		t.Errorf("the Prometheus report lacks %q", w)
	}
	_, md, _ := runCLI(t, "--md", "-", path)
	for _, w := range []string{
		fmt.Sprintf("Records with a value that could not be read, kept without it: `status` %d, `ttft` %d.", wantStatus, wantTTFT),
		"First records with a value that could not be read:",
		path + `:2: status: cannot read "OK?"; the record is kept without it`,
	} {
		if !strings.Contains(md, w) {
			t.Errorf("the Markdown report lacks %q", w)
		}
	}
}

// TestPastFormatHint: a text log read as nginx's combined whose lines go
// on past it (a configuration's own fields: its request time among them)
// is no_data, and the report says that the fields after combined's are
// not read and that their log_format would read them; plain combined
// lines get the hint to log $request_time; lighttpd's lines, with a number
// after them or not, the hint to give lighttpd's format.
func TestPastFormatHint(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, tail, want string
	}{
		{"past.log", " req=0.120 up=0.100", "go on past the fields of the format they were read with (nginx:combined)"},
		{"combined.log", "", `the nginx format read has no $request\_time`}, // Markdown escapes _
		// lighttpd's default, and with a number after it, whose unit
		// its lines do not tell: its own directives are asked for.
		{"lighttpd.log", "", "lighttpd's default accesslog.format, read, has no request time"},
		{"lighttpd-past.log", " 5169650", "lighttpd's default accesslog.format, read, has no request time"},
	} {
		ident := "-"
		if strings.HasPrefix(c.name, "lighttpd") {
			ident = "api.example.com"
		}
		var b strings.Builder
		for i := range 5 {
			fmt.Fprintf(&b, `10.0.0.%d %s - [30/Nov/2026:02:00:0%d +0000] "POST /v1/chat/completions HTTP/1.1" 200 12 "-" "curl/8"%s`+"\n", i, ident, i, c.tail)
		}
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		_, md, _ := runCLI(t, "--md", "-", path)
		if !strings.Contains(md, c.want) || strings.Contains(md, "go on past") != (c.tail != "" && ident == "-") {
			t.Errorf("%s: the report lacks %q:\n%s", c.name, c.want, md[:min(len(md), 900)])
		}
	}
}
