package ingest

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

func testLogfmt(t testing.TB, source string, maps ...string) *logfmtParser {
	t.Helper()
	s, err := NewSchema(maps)
	if err != nil {
		t.Fatal(err)
	}
	if source != "" {
		s, _, _ = s.ForNames(nil, nil, source, nil)
	}
	return newLogfmtParser(&parserConfig{schema: s, loc: time.UTC})
}

// TestLogfmtScan holds the scanner to logfmt's quoting: a quoted value
// ends at the quote no backslash escapes, a bare one at a space.
func TestLogfmtScan(t *testing.T) {
	tests := []struct {
		line  string
		looks bool
		keys  []string
	}{
		{`a=1 b=2`, true, []string{"a", "b"}},
		{`a=1`, false, []string{"a"}},
		{`msg="x \" y=z" b=2 c=`, true, []string{"msg", "b", "c"}},
		{`2026-12-05T10:00:00Z INFO request a=1 b=2`, true, []string{"a", "b"}},
		{`one two three four a=1 b=2`, false, []string{"a", "b"}},
		{`a="open b=2`, false, []string{"a"}},
		{`a=1 flag b=2`, true, []string{"a", "b"}},
		{`a{x}=1 b=2`, false, []string{"a{x}", "b"}},
		{`<?xml version="1.0" encoding="UTF-8"?>`, false, []string{"version", "encoding"}},
		{`<a b="1" c="2"/>`, false, []string{"b", "c"}},
		{`I, [2026-12-05T10:00:00.120034 #7]  INFO -- : [6b1f] method=GET status=200`, true, []string{"method", "status"}},
		{`W, [2026-12-05T10:00:00.120034 #7]  WARN -- rails: a=1 b=2`, true, []string{"a", "b"}},
		{`I, [2026-12-05T10:00:00.120034 #7]  INFO -- : Started GET "/" for 10.0.0.1 at x`, false, nil},
		{`10.0.0.1 - - [05/Dec/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 5 rt=0.1 urt=0.1`, false, []string{"rt", "urt"}},
	}
	for _, tc := range tests {
		if got := looksLogfmt([]byte(tc.line)); got != tc.looks {
			t.Errorf("looksLogfmt(%q) = %v, want %v", tc.line, got, tc.looks)
		}
		if got := logfmtKeys([]byte(tc.line), 10); strings.Join(got, ",") != strings.Join(tc.keys, ",") {
			t.Errorf("logfmtKeys(%q) = %q, want %q", tc.line, got, tc.keys)
		}
	}
	if got := string(unquoteLogfmt(nil, []byte(`"a \"b\" \\ c\n\x"`))); got != "a \"b\" \\ c\n\\x" {
		t.Errorf("unquoteLogfmt = %q", got)
	}
}

func FuzzLogfmt(f *testing.F) {
	seedLines(f, "testdata/text/logfmt.log", "testdata/text/lograge-rubylogger.log", "testdata/text/heroku-router.log", "testdata/text/logfmt-own.log", "testdata/text/agentgateway.log")
	for _, s := range []string{"", "=", "a=", "=b", `a="`, `a="\`, `a="\"`, `a=1 b="x\" c=2`, "duration=1e308s status=-1",
		"2026-12-05T10:00:00Z x y z a=1", "I, [ #]  -- :", "I, [x #1] A -- :", "I, [9999-99-99T99:99:99 #1]  INFO -- : a=1 b=2", "9999-99-99T99:99:99Z a=1 b=2", `time="" status=200 duration=NaN`} {
		f.Add([]byte(s))
	}
	plain, heroku, agw := testLogfmt(f, ""), testLogfmt(f, "heroku-router"), testLogfmt(f, "agentgateway")
	f.Fuzz(func(t *testing.T, line []byte) {
		looksLogfmt(line)
		logfmtKeys(line, 8)
		loggedAccessLine(line)
		for _, p := range []*logfmtParser{plain, heroku, agw} {
			var r Record
			err := p.Parse(line, &r)
			if err != nil {
				if err.Error() == "" || strings.Contains(err.Error(), "\n") && !bytes.Contains(line, []byte("\n")) {
					t.Fatalf("unhelpful error %q", err)
				}
				continue
			}
			if v, ok := r.Float(FRequestTime); ok && (v < 0 || math.IsNaN(v) || math.IsInf(v, 0)) {
				t.Fatalf("request_time %v from %q", v, line)
			}
			// A value read is text of the line, or its unquoting.
			if m := r.Text(FMethod); m != nil && !bytes.Contains(line, m) && !bytes.Contains(line, []byte(`\`)) {
				t.Fatalf("method %q is not in %q", m, line)
			}
		}
	})
}
