package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMostlyUnread: a file of which records were read but more of whose
// lines were bad (Caddy's durations in ns read as seconds: 498 of 500
// refused) is not judged OK as a whole: the verdict is about what was
// read and names the file, input.mostly_unread lists it, stderr says so,
// and the run exits 1. A file with fewer bad lines than records is read
// as before.
func TestMostlyUnread(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	good, bad := 2, 5
	for i := range good + bad {
		d := "0.25" // s
		if i >= good {
			d = "14784742" // ns: past any duration in seconds
		}
		fmt.Fprintf(&b, `{"time":"2026-11-29T10:00:%02dZ","request_time":%s,"status":200}`+"\n", i, d)
	}
	path := filepath.Join(dir, "ns.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "--json", "-", path)
	var rep struct {
		Input struct {
			Records      int64 `json:"records"`
			BadLines     int64 `json:"bad_lines"`
			MostlyUnread []struct {
				Path, Reason string
			} `json:"mostly_unread"`
		} `json:"input"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	in := rep.Input
	if code != exitFailed || in.Records != int64(good) || in.BadLines != int64(bad) || len(in.MostlyUnread) != 1 ||
		in.MostlyUnread[0].Path != path || !strings.Contains(in.MostlyUnread[0].Reason, "5 bad lines as jsonl, the first at line 3") {
		t.Errorf("exit %d, input %+v; want %d, %d records, %d bad lines, the file mostly unread", code, in, exitFailed, good, bad)
	}
	if !strings.Contains(errs, "mostly not read") {
		t.Errorf("stderr %q does not name the file", errs)
	}
	_, md, _ := runCLI(t, "--md", "-", path)
	if !strings.Contains(md, "nothing to fix in what was read") || !strings.Contains(md, "Mostly not read: ") ||
		!strings.Contains(md, "(5 of its 7 lines bad)") {
		t.Errorf("the verdict does not say the file was mostly not read:\n%s", md[:min(len(md), 600)])
	}

	// Fewer bad lines than records: read, exit 0.
	b.Reset()
	for i := range 4 {
		d := "0.25"
		if i == 3 {
			d = "14784742"
		}
		fmt.Fprintf(&b, `{"time":"2026-11-29T10:00:%02dZ","request_time":%s,"status":200}`+"\n", i, d)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, "--json", "-", path); code != exitOK || !strings.Contains(out, `"mostly_unread": []`) {
		t.Errorf("one bad line of four: exit %d, %s", code, out[:min(len(out), 300)])
	}
}

// TestUnreadBesidePassedOver: a new-api log whose requests were all bad
// lines, beside top-ups its source passes over, held data of which not
// one request was read: it fails the run (exit 1), named on stderr and in
// input.unread, as a file of bad lines alone does. A file of passed-over
// records and fewer bad lines (one cut short) was read: exit 0.
func TestUnreadBesidePassedOver(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, calls, topups int) string {
		var b strings.Builder
		for i := range calls + topups {
			typ, useTime := 2, `"3s?"` // a call whose use_time cannot be read: a bad line
			if i >= calls {
				typ, useTime = 1, "0" // a top-up: passed over
			}
			fmt.Fprintf(&b, `{"id":%d,"created_at":%d,"type":%d,"model_name":"gpt-4o","token_name":"k","use_time":%s,"is_stream":true}`+"\n",
				i, 1795917600+i, typ, useTime)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, c := range []struct {
		name          string
		calls, topups int
		code          int
	}{{"calls-bad.jsonl", 9, 1, exitFailed}, {"topups.jsonl", 1, 9, exitOK}} {
		path := write(c.name, c.calls, c.topups)
		code, out, errs := runCLI(t, "--json", "-", path)
		named := strings.Contains(errs, fmt.Sprintf("%q: no record read", path)) && strings.Contains(out, `"unread": [`+"\n")
		if code != c.code || named != (c.code == exitFailed) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d, named %v", c.name, code, errs, c.code, c.code == exitFailed)
		}
	}
}
