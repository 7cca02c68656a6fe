package ingest

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// pickCase is a text log of 30 lines, the sixth with a bad value, and
// what reading it must give: its source, and each good line's request
// time (ms) as written.
type pickCase struct {
	name    string
	formats []string // --log-format
	line    func(i int, rt string) string
	bad     string // the sixth line's request time
	source  string
}

// TestFormatPickBadValue: one bad value among a file's first lines does
// not hand the file to a format that reads no time (main for main with
// times appended) or cuts every line into values out of bounds (AWS
// ALB's for a format given), and a known format with fields appended
// after its times still reads them.
func TestFormatPickBadValue(t *testing.T) {
	at := func(i int) string {
		return time.Date(2026, 12, 4, 10, 0, i, 0, time.UTC).Format(time.RFC3339)
	}
	cases := []pickCase{
		{"given", []string{`$time_iso8601 $status $request_time "$request"`},
			func(i int, rt string) string {
				return fmt.Sprintf(`%s 200 %s "POST /v1/chat/completions HTTP/1.1"`, at(i), rt)
			}, "abc", "nginx"},
		{"given, bad time", []string{`$time_iso8601 $status $request_time "$request"`},
			func(i int, rt string) string {
				ts := at(i)
				if rt == "" {
					ts, rt = "not-a-time", "0.100"
				}
				return fmt.Sprintf(`%s 200 %s "POST /v1/chat/completions HTTP/1.1"`, ts, rt)
			}, "", "nginx"},
		{"main with times", nil,
			func(i int, rt string) string { return tMain + " " + rt + " 0.090" }, "abc", "nginx:main+request_time+upstream_response_time"},
		{"main with times and more", nil,
			func(i int, rt string) string { return tMain + " " + rt + ` 0.090, 0.004 "api.example.com" 3` }, "NaN", "nginx:main+request_time+upstream_response_time"},
		{"ingress-nginx before $req_id", nil,
			func(i int, rt string) string {
				return `192.168.1.7 - [192.168.9.9] - - [04/Dec/2026:10:00:05 +0000] "POST /v1/embeddings HTTP/1.1" 200 2321 "-" "curl/8.4.0" 551 ` + rt + ` [default-svc-80] 10.1.0.4:8080 478 0.105 200`
			}, "abc", "ingress-nginx"},
		{"ingress-nginx before $req_id, named", []string{"upstreaminfo-0.2x"},
			func(i int, rt string) string {
				return `192.168.1.7 - [192.168.9.9] - - [04/Dec/2026:10:00:05 +0000] "POST /v1/embeddings HTTP/1.1" 200 2321 "-" "curl/8.4.0" 551 ` + rt + ` [default-svc-80] 10.1.0.4:8080 478 0.105 200`
			}, "abc", "ingress-nginx"},
	}
	for _, tc := range cases {
		var b strings.Builder
		var want []float64
		for i := range 30 {
			rt := fmt.Sprintf("%d.%03d", i%4, 100+i)
			if i == 5 {
				rt = tc.bad
			} else {
				want = append(want, float64(i%4)*1e3+float64(100+i))
			}
			b.WriteString(tc.line(i, rt) + "\n")
		}
		sinks, res, err := Run([]string{"-"}, Options{LogFormats: tc.formats, Stdin: strings.NewReader(b.String()), Workers: 1},
			func() *hapRows { return &hapRows{} })
		if err != nil {
			t.Fatal(err)
		}
		fs := res.Files[0]
		if fs.Source != tc.source || fs.Records != 29 || fs.BadLines != 1 || len(res.Problems) != 1 || res.Problems[0].Line != 6 {
			t.Errorf("%s: source %q, %d records, %d bad lines %v; want %q, 29, 1 at line 6", tc.name, fs.Source, fs.Records, fs.BadLines, res.Problems, tc.source)
			continue
		}
		got := sinks[0].rt
		for i, w := range want {
			if math.Abs(got[i]-w) > 1e-6 {
				t.Errorf("%s: line %d request_time %v ms, want %v", tc.name, i+1, got[i], w)
			}
		}
	}
}

// TestFormatPickAllBad: a file whose every line has a bad value of the
// format given is read with it, its bad lines saying why, not with a
// known format that cuts the lines into values out of bounds.
func TestFormatPickAllBad(t *testing.T) {
	data := "2026-12-04T10:00:00+00:00 200 abc \"GET / HTTP/1.1\"\n" +
		"2026-12-04T10:00:01+00:00 200 NaN \"GET / HTTP/1.1\"\n" +
		"2026-12-04T10:00:02+00:00 200 -1.0 \"GET / HTTP/1.1\"\n"
	_, res, err := Run([]string{"-"}, Options{LogFormats: []string{`$time_iso8601 $status $request_time "$request"`},
		Stdin: strings.NewReader(data), Workers: 1}, func() *hapRows { return &hapRows{} })
	if err != nil {
		t.Fatal(err)
	}
	if fs := res.Files[0]; fs.Source != "nginx" || fs.Records != 0 || fs.BadLines != 3 {
		t.Fatalf("source %q, %d records, %d bad lines; want nginx, 0, 3", fs.Source, fs.Records, fs.BadLines)
	}
	for i, p := range res.Problems {
		if !strings.HasPrefix(p.Reason, "request_time: ") {
			t.Errorf("line %d: %q, want request_time's reason", i+1, p.Reason)
		}
	}
}
