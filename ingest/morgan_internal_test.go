package ingest

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// The predefined formats of morgan (expressjs/morgan index.js) are known
// by the shape of their lines: dev with its colours and without, tiny,
// short; their :response-time is ms. The values are worked out from the
// lines by hand.
func TestMorganKnownFormats(t *testing.T) {
	tests := []struct {
		line, format string
		want         []want
		absent       []Field
	}{
		{"\x1b[0mPOST /v1/chat/completions \x1b[32m200\x1b[0m 1234.567 ms - 512\x1b[0m", "morgan-dev",
			[]want{{f: FMethod, text: "POST"}, {f: FURI, text: "/v1/chat/completions"}, {f: FStatus, num: 200}, {f: FRequestTime, num: 1.234567}},
			[]Field{FTime, FRemoteAddr}},
		{"\x1b[0mPOST /v1/embeddings \x1b[33m429\x1b[0m 0.871 ms - -\x1b[0m", "morgan-dev",
			[]want{{f: FStatus, num: 429}, {f: FRequestTime, num: 0.000871}}, nil},
		// No response: no status, no time, no colour.
		{"\x1b[0mPOST /v1/chat/completions \x1b[0m-\x1b[0m - ms - -\x1b[0m", "morgan-dev",
			[]want{{f: FMethod, text: "POST"}}, []Field{FStatus, FRequestTime}},
		// dev with its escapes stripped by a collector.
		{"POST /v1/chat/completions 502 30001.250 ms - 164", "morgan-dev",
			[]want{{f: FStatus, num: 502}, {f: FRequestTime, num: 30.00125}}, nil},
		{"POST /v1/chat/completions 200 512 - 1234.567 ms", "morgan-tiny",
			[]want{{f: FMethod, text: "POST"}, {f: FURI, text: "/v1/chat/completions"}, {f: FStatus, num: 200}, {f: FRequestTime, num: 1.234567}},
			[]Field{FTime}},
		{"::ffff:10.0.0.5 - POST /v1/chat/completions HTTP/1.1 200 512 - 1234.567 ms", "morgan-short",
			[]want{{f: FRemoteAddr, text: "::ffff:10.0.0.5"}, {f: FMethod, text: "POST"}, {f: FStatus, num: 200}, {f: FRequestTime, num: 1.234567}},
			[]Field{FTime}},
		{"10.0.0.6 alice GET /v1/models HTTP/1.1 200 812 - 2.014 ms", "morgan-short",
			[]want{{f: FClient, text: "alice"}, {f: FRequestTime, num: 0.002014}}, nil},
		// combined and common are Apache's: no request time.
		{`::1 - - [04/Dec/2026:10:00:01 +0000] "POST /v1/chat/completions HTTP/1.1" 200 512`, "common",
			[]want{{f: FTime, num: at(2026, time.December, 4, 10, 0, 1, 0)}, {f: FStatus, num: 200}}, []Field{FRequestTime}},
	}
	s, _ := NewSchema(nil)
	known := compileKnown(s)
	for _, tc := range tests {
		f := pickLogFormat([]byte(tc.line+"\n"), known)
		if f == nil || f.name != tc.format {
			t.Errorf("%q: format %v, want %s", tc.line, f, tc.format)
			continue
		}
		var r Record
		if err := newNginxParserFor(f, time.UTC).Parse([]byte(tc.line), &r); err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		checkRecord(t, &r, tc.want, tc.absent)
	}
}

// TestMorganFixtures reads testdata/text/morgan-*.log, written as morgan
// writes its dev, tiny and short formats (the app's own start message
// first in dev's), through the pipeline without a flag: the request
// times in ms, as the lines say, and the statuses; no time.
func TestMorganFixtures(t *testing.T) {
	for _, tc := range []struct {
		file   string
		bad    int64
		rt     []float64 // ms, -1 absent
		status []float64 // -1 absent
	}{
		{"morgan-dev.log", 1, []float64{1234.567, 85.302, 2.014, 0.871, 30001.250, -1}, []float64{200, 200, 304, 429, 502, -1}},
		{"morgan-tiny.log", 0, []float64{1234.567, 2.014, 0.871, 30001.250}, []float64{200, 200, 429, 502}},
		{"morgan-short.log", 0, []float64{1234.567, 2.014, 0.871}, []float64{200, 200, 429}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			sinks, res, err := Run([]string{"testdata/text/" + tc.file}, Options{Workers: 1, Location: time.UTC}, func() *rows { return &rows{} })
			if err != nil {
				t.Fatal(err)
			}
			fs := res.Files[0]
			if fs.Source != "morgan" || fs.Records != int64(len(tc.rt)) || fs.BadLines != tc.bad {
				t.Fatalf("source %q, %d records, %d bad lines; want morgan, %d, %d", fs.Source, fs.Records, fs.BadLines, len(tc.rt), tc.bad)
			}
			for i, g := range sinks[0].recs {
				rt := tc.rt[i]
				if rt >= 0 {
					rt /= 1e3
				}
				st := tc.status[i]
				if math.Abs(g.rt-rt) > 1e-12 || g.status != st || g.time != 0 {
					t.Errorf("record %d: %+v, want rt %v s, status %v, no time", i+1, g, rt, st)
				}
			}
		})
	}
}

// A morgan format given with --log-format: its tokens as morgan's
// compile splits them, read with their units.
func TestMorganFormatGiven(t *testing.T) {
	at1 := at(2026, time.December, 4, 10, 0, 1, 0)
	tests := []struct {
		name, format, line string
		want               []want
		absent             []Field
	}{
		{name: "the README's example", format: `:method :url :status :res[content-length] - :response-time ms`,
			line: `POST /v1/chat/completions 200 512 - 1234.567 ms`, want: []want{{f: FRequestTime, num: 1.234567}}},
		{name: ":total-time is the request's, :response-time its first byte's", format: `:method :url :status :response-time :total-time`,
			line: `POST /v1/chat/completions 200 85.302 12000.981`,
			want: []want{{f: FRequestTime, num: 12.000981}, {f: FTTFB, num: 85.302}}},
		{name: ":date[clf] and its zone", format: `:remote-addr [:date[clf]] ":method :url HTTP/:http-version" :status :response-time`,
			line: `10.0.0.5 [04/Dec/2026:18:00:01 +0800] "POST /v1/chat HTTP/1.1" 200 1.5`,
			want: []want{{f: FTime, num: at1}, {f: FRemoteAddr, text: "10.0.0.5"}, {f: FURI, text: "/v1/chat"}, {f: FRequestTime, num: 0.0015}}},
		{name: ":date[iso]", format: `:date[iso] :status :response-time[1]`, line: `2026-12-04T10:00:01.000Z 200 3.1`,
			want: []want{{f: FTime, num: at1}, {f: FRequestTime, num: 0.0031}}},
		{name: ":date, the web form, spaces and all", format: `[:date] :status :response-time ms`,
			line: `[Fri, 04 Dec 2026 10:00:01 GMT] 200 3.000 ms`, want: []want{{f: FTime, num: at1}, {f: FRequestTime, num: 0.003}}},
		{name: "headers", format: `:req[X-Forwarded-For] :req[host] :res[retry-after] :status :response-time`,
			line: `203.0.113.9, 10.0.0.1 api.example.com 30 429 0.5`,
			want: []want{{f: FRemoteAddr, text: "203.0.113.9"}, {f: FHost, text: "api.example.com"}, {f: FRetryAfter, num: 30},
				{f: FRequestTime, num: 0.0005}}},
		{name: "no value: -", format: `:status :response-time ms :remote-addr`, line: `- - ms -`,
			absent: []Field{FStatus, FRequestTime, FRemoteAddr}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParser(t, tc.format)
			if p.f.source != "morgan" {
				t.Fatalf("source %q, want morgan", p.f.source)
			}
			var r Record
			if err := p.Parse([]byte(tc.line), &r); err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			checkRecord(t, &r, tc.want, tc.absent)
		})
	}
	for bad, why := range map[string]string{
		`:method :colour`:         ":colour at column 9 is not one of morgan's tokens",
		`:method :url :foo-bar`:   ":foo-bar at column 14 is not one of morgan's tokens",
		`:method :req :status`:    ":req at column 9 names no header",
		`:date[local] :status`:    ":date[local] at column 1 is not read",
		`:method:url :status`:     "$method and $url are not separated",
		`:status :response-time`:  "",
		`:status :response-timex`: ":response-timex at column 9 is not one of morgan's tokens",
	} {
		err := CompileLogFormat(bad)
		if why == "" {
			if err != nil {
				t.Errorf("CompileLogFormat(%q): %v", bad, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("CompileLogFormat(%q): %v, want an error saying %q", bad, err, why)
		}
	}
}

// TestMorganLookAlikes: lines of other programs are not read by morgan's
// formats, nor morgan's by the others'.
func TestMorganLookAlikes(t *testing.T) {
	s, _ := NewSchema(nil)
	for _, line := range []string{
		tCombined,
		`[GIN] 2026/12/04 - 10:00:01 | 200 |    6.210452s |        10.1.1.1 | POST     "/v1/chat/completions"`,
		`INFO:     10.0.0.1:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK`,
		`10.0.0.5 - - [04/Dec/2026:10:00:01 +0000] "POST /v1/chat/completions HTTP/1.1" 200 1532 "-" "x" 6.210452`,
		`Server listening on port 3000`,
	} {
		if f := pickLogFormat([]byte(line+"\n"), compileKnown(s)); f != nil && f.source == "morgan" {
			t.Errorf("%q read as %s", line, f.name)
		}
	}
}

// TestMorganAllocatesNothing: a dev line, colours and all, reads without
// allocating once the parser is warm.
func TestMorganAllocatesNothing(t *testing.T) {
	p := testParser(t, "morgan-dev")
	line := []byte("\x1b[0mPOST /v1/chat/completions \x1b[32m200\x1b[0m 1234.567 ms - 512\x1b[0m")
	if n := parseAllocs(t, p, line); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
}

// FuzzMorgan writes a line as morgan's dev, tiny and short write it
// (compile: a token with no value is "-"; dev's colour by the status)
// and reads it back through the known formats: the format, request time
// (ms.toFixed(3)) and status are what was written.
func FuzzMorgan(f *testing.F) {
	f.Add(uint8(0), "POST", "/v1/chat/completions", 200, int64(1234567), "512")
	f.Add(uint8(1), "GET", "/v1/models?x=1", 429, int64(871), "-")
	f.Add(uint8(2), "DELETE", "/", 599, int64(0), "0")
	f.Add(uint8(0), "POST", "/ a", 0, int64(-1), "-")
	s, _ := NewSchema(nil)
	known := compileKnown(s)
	f.Fuzz(func(t *testing.T, which uint8, method, url string, status int, micros int64, length string) {
		ok := func(v string) bool { return v != "" && !strings.ContainsAny(v, " \n\r\x1b") }
		upper := strings.Trim(method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" // as HTTP's methods are written
		// Express's req.originalUrl starts with "/".
		if !ok(method) || !upper || !ok(url) || url[0] != '/' || !ok(length) || status < 0 || status > 599 || micros < -1 || micros > 1e12 {
			t.Skip()
		}
		st, rt := "-", "-" // no response: morgan writes "-"
		if status >= 100 {
			st = fmt.Sprint(status)
		}
		if micros >= 0 {
			rt = fmt.Sprintf("%d.%03d", micros/1000, micros%1000)
		}
		var line, name string
		switch which % 3 {
		case 0:
			colour := 0
			switch {
			case status >= 500:
				colour = 31
			case status >= 400:
				colour = 33
			case status >= 300:
				colour = 36
			case status >= 200:
				colour = 32
			}
			line, name = fmt.Sprintf("\x1b[0m%s %s \x1b[%dm%s\x1b[0m %s ms - %s\x1b[0m", method, url, colour, st, rt, length), "morgan-dev"
		case 1:
			line, name = fmt.Sprintf("%s %s %s %s - %s ms", method, url, st, length, rt), "morgan-tiny"
		default:
			line, name = fmt.Sprintf("10.0.0.1 - %s %s HTTP/1.1 %s %s - %s ms", method, url, st, length, rt), "morgan-short"
		}
		g := pickLogFormat([]byte(line+"\n"), known)
		if g == nil {
			t.Fatalf("%q: no format reads it", line)
		}
		var r Record
		err := newNginxParserFor(g, time.UTC).Parse([]byte(line), &r)
		if g.name != name {
			// A method or url that reads as another format's field
			// ("HTTP/1.1"): the format read it all the same.
			if err != nil {
				t.Fatalf("%q: read as %s: %v", line, g.name, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if got, has := r.Float(FRequestTime); micros >= 0 && (!has || math.Abs(got-float64(micros)/1e6) > 1e-9) || micros < 0 && has {
			t.Fatalf("%q: request_time %v (%v), want %d µs", line, got, has, micros)
		}
		if got, _ := r.Float(FStatus); status >= 100 && got != float64(status) {
			t.Fatalf("%q: status %v, want %d", line, got, status)
		}
	})
}
