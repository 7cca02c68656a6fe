package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileValue is one value planted between good lines: in time or
// request_time it makes the line bad with reason (when reason is not
// ""); elsewhere it is absent and the line is kept.
type hostileValue struct {
	field  string // time, request_time or upstream_response_time
	value  string
	reason string
}

var hostileValues = []hostileValue{
	{"request_time", "1e308", `request_time: cannot read "1e308": longer than 1e7 s`},
	{"request_time", "1e400", `request_time: cannot read "1e400": not a finite number`},
	{"request_time", "Infinity", `request_time: cannot read "Infinity": not a finite number`},
	{"request_time", "NaN", `request_time: cannot read "NaN"`},
	{"request_time", "-1", `request_time: cannot read "-1"`},
	{"request_time", "-0", ""},
	{"request_time", "1e-400", ""},
	{"time", "0001-01-01T00:00:00Z", `time: cannot read "0001-01-01T00:00:00Z": outside the years 2000–2100`},
	{"time", "9999-12-31T23:59:59Z", `time: cannot read "9999-12-31T23:59:59Z": outside the years 2000–2100`},
	{"time", "1000000000000000000000000000000", `time: cannot read "1000000000000000000000000000000": outside the years 2000–2100`},
	{"time", "1e30", `time: cannot read "1e30": outside the years 2000–2100`},
	{"upstream_response_time", "1e308", ""},
	{"upstream_response_time", "1e308, 1e308", ""},
	{"upstream_response_time", "Infinity", ""},
}

// nginxTime writes a hostile time as nginx's $time_local would, when it
// is a date.
func nginxTime(v string) string {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.Format("02/Jan/2006:15:04:05 -0700")
	}
	return v
}

// hostileLog writes, in format, 30 good lines a minute apart with a
// hostile value after every second one, until all are planted. It returns the text and the
// times of the first and last good line.
func hostileLog(format string) (string, time.Time, time.Time) {
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	var b strings.Builder
	if format == "csv" {
		b.WriteString("time,status,request_time,upstream_response_time\n")
	}
	line := func(at, status, rt, urt string) {
		switch format {
		case "jsonl":
			fmt.Fprintf(&b, `{"time":%q,"status":%s,"request_time":%q,"upstream_response_time":%q}`+"\n", at, status, rt, urt)
		case "csv":
			fmt.Fprintf(&b, "%s,%s,%s,%q\n", at, status, rt, urt)
		case "nginx":
			fmt.Fprintf(&b, "[%s] %s %s %s\n", nginxTime(at), status, rt, urt)
		}
	}
	k := 0
	for i := range 30 {
		at := start.Add(time.Duration(i) * time.Minute)
		line(at.Format(time.RFC3339), "200", "0.250", "0.200")
		if i%2 == 1 && k < len(hostileValues) {
			h := hostileValues[k]
			k++
			at, rt, urt := at.Add(30*time.Second).Format(time.RFC3339), "0.500", "0.400"
			switch h.field {
			case "time":
				at = h.value
			case "request_time":
				rt = h.value
			default:
				urt = h.value
			}
			line(at, "429", rt, urt)
		}
	}
	return b.String(), start, start.Add(29 * time.Minute)
}

// A hostile value between good lines makes its line bad with the reason
// (or is left absent), and every report is still written, with the window
// of the good lines.
func TestHostileValuesBetweenGoodLines(t *testing.T) {
	var wantBad int64
	for _, h := range hostileValues {
		if h.reason != "" {
			wantBad++
		}
	}
	for _, format := range []string{"jsonl", "csv", "nginx"} {
		t.Run(format, func(t *testing.T) {
			text, from, to := hostileLog(format)
			dir := t.TempDir()
			in := filepath.Join(dir, "in."+map[string]string{"jsonl": "jsonl", "csv": "csv", "nginx": "log"}[format])
			if err := os.WriteFile(in, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			args := []string{"--tz", "UTC", "--workers", "2"}
			for _, ext := range []string{"json", "md", "html", "prom"} {
				args = append(args, "--"+ext, filepath.Join(dir, "r."+ext))
			}
			if format == "nginx" {
				args = append(args, "--log-format", `[$time_local] $status $request_time $upstream_response_time`)
			}
			code, _, errs := runCLI(t, append(args, in)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, ext := range []string{"json", "md", "html", "prom"} {
				if st, err := os.Stat(filepath.Join(dir, "r."+ext)); err != nil || st.Size() == 0 {
					t.Errorf("%s report not written: %v", ext, err)
				}
			}
			b, err := os.ReadFile(filepath.Join(dir, "r.json"))
			if err != nil {
				t.Fatal(err)
			}
			checkHostileReport(t, b, format, 30+int64(len(hostileValues))-wantBad, wantBad, from, to)
		})
	}
}

func checkHostileReport(t *testing.T, b []byte, format string, records, bad int64, from, to time.Time) {
	t.Helper()
	var rep struct {
		Window struct{ From, To string }
		Input  struct {
			Records  int64 `json:"records"`
			BadLines int64 `json:"bad_lines"`
			Problems []struct {
				Reason string `json:"reason"`
			} `json:"problems"`
		} `json:"input"`
		Latency map[string]struct {
			All struct {
				Count int64   `json:"count"`
				Max   float64 `json:"max_ms"`
			} `json:"all"`
		} `json:"latency"`
		Status map[string]int64 `json:"status"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Input.Records != records || rep.Input.BadLines != bad {
		t.Errorf("%d records, %d bad lines; want %d and %d", rep.Input.Records, rep.Input.BadLines, records, bad)
	}
	var reasons []string
	for _, p := range rep.Input.Problems {
		reasons = append(reasons, p.Reason)
	}
	for _, h := range hostileValues {
		want := h.reason
		if format == "nginx" {
			want = strings.Replace(want, h.value, nginxTime(h.value), 1)
		}
		if want != "" && !strings.Contains(strings.Join(reasons, "\n"), want) {
			t.Errorf("no problem %q in %q", want, reasons)
		}
	}
	if rep.Window.From != from.Format(time.RFC3339) || rep.Window.To != to.Format(time.RFC3339) {
		t.Errorf("window %s – %s, want %s – %s", rep.Window.From, rep.Window.To, from.Format(time.RFC3339), to.Format(time.RFC3339))
	}
	// The kept lines took -0 and 1e-400 as 0; nothing else is above the
	// good lines' 500 ms (within the sketch's accuracy).
	if rt := rep.Latency["request_time"].All; rt.Count != records || rt.Max > 505 {
		t.Errorf("request_time: %+v", rt)
	}
	if urt := rep.Latency["upstream_response_time"].All; math.IsNaN(urt.Max) || urt.Max > 405 {
		t.Errorf("upstream_response_time: %+v", urt)
	}
}

// A plain proxy log with only a time and a status still has its 429
// storm found, keyed by the whole input, and every report shows the key.
func TestPlainLogStorm(t *testing.T) {
	var b strings.Builder
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	for i := range 600 {
		at := start.Add(time.Duration(i) * time.Second)
		status := 200
		if i >= 300 && i < 420 && i%2 == 0 { // 30 of 60 in minutes 5 and 6
			status = 429
		}
		fmt.Fprintf(&b, "[%s] %d\n", at.Format("02/Jan/2006:15:04:05 -0700"), status)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "plain.log")
	if err := os.WriteFile(in, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--tz", "UTC", "--log-format", `[$time_local] $status`}
	for _, ext := range []string{"json", "md", "html"} {
		args = append(args, "--"+ext, filepath.Join(dir, "r."+ext))
	}
	if code, _, errs := runCLI(t, append(args, in)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	read := func(ext string) string {
		b, err := os.ReadFile(filepath.Join(dir, "r."+ext))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var rep struct {
		Findings []struct {
			Rule   string            `json:"rule"`
			Key    map[string]string `json:"key"`
			Window struct{ From, To string }
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(read("json")), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Rule != "rate_limit_storm" || len(rep.Findings[0].Key) != 1 ||
		rep.Findings[0].Key["all"] != "" || rep.Findings[0].Window.From != "2026-11-29T10:05:00Z" {
		t.Fatalf("findings %+v, want one storm keyed {\"all\": \"\"} from 10:05", rep.Findings)
	}
	if md := read("md"); !strings.Contains(md, "HTTP 429 storm on all requests") || !strings.Contains(md, "- **Key**: all\n") {
		t.Errorf("markdown does not show the storm and its key:\n%s", md)
	}
	if html := read("html"); !strings.Contains(html, "<dt>key</dt><dd>all</dd>") {
		t.Errorf("html does not show the key")
	}
}
