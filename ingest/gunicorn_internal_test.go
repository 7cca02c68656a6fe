package ingest

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gunicornDefault is gunicorn's default access_log_format (the
// AccessLogFormat setting of gunicorn/config.py); gunicornTimed adds
// %(L)s, the request's time in decimal seconds: the format of
// testdata/text/gunicorn-timed.log.
const (
	gunicornDefault = `%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"`
	gunicornTimed   = gunicornDefault + ` %(L)s`
)

// A gunicorn access_log_format given with --log-format: each atom
// means what gunicorn/glogging.py (Logger.atoms) writes in it. The
// lines are written as gunicorn writes them; the values are worked out
// from the lines by hand: %(D)s µs, %(M)s ms, %(L)s and %(T)s s.
func TestGunicornFormatGiven(t *testing.T) {
	const line = `10.0.0.5 - - [04/Dec/2026:10:00:01 +0000] "POST /v1/chat/completions HTTP/1.1" 200 1532 "-" "openai-python/1.54.3"`
	at1 := at(2026, time.December, 4, 10, 0, 1, 0)
	base := []want{{f: FTime, num: at1}, {f: FRemoteAddr, text: "10.0.0.5"}, {f: FMethod, text: "POST"},
		{f: FURI, text: "/v1/chat/completions"}, {f: FStatus, num: 200}}
	with := func(ws ...want) []want { return append(append([]want(nil), base...), ws...) }
	tests := []struct {
		name, format, line string
		want               []want
		absent             []Field
	}{
		{name: "the default format: no request time", format: gunicornDefault, line: line, want: base,
			absent: []Field{FRequestTime}},
		{name: "%(L)s, seconds with six decimals", format: gunicornTimed, line: line + ` 6.210452`,
			want: with(want{f: FRequestTime, num: 6.210452})},
		{name: "%(D)s, microseconds", format: gunicornDefault + ` %(D)s`, line: line + ` 6210452`,
			want: with(want{f: FRequestTime, num: 6.210452})},
		{name: "%(M)s, milliseconds", format: gunicornDefault + ` %(M)s`, line: line + ` 6210`,
			want: with(want{f: FRequestTime, num: 6.210})},
		{name: "%(T)s, whole seconds", format: gunicornDefault + ` %(T)s`, line: line + ` 6`,
			want: with(want{f: FRequestTime, num: 6})},
		{name: "%(D)s over %(T)s and %(M)s", format: `%(T)s %(M)s %(D)s %(s)s`, line: `6 6210 6210452 200`,
			want: []want{{f: FRequestTime, num: 6.210452}, {f: FStatus, num: 200}}},
		{name: "%(L)s over %(M)s", format: `%(M)s %(L)s`, line: `0 0.000873`, want: []want{{f: FRequestTime, num: 0.000873}}},
		{name: "the zone of %(t)s", format: `%(t)s %(s)s %(D)s`, line: `[04/Dec/2026:18:00:01 +0800] 200 1`,
			want: []want{{f: FTime, num: at1}, {f: FRequestTime, num: 1e-6}}},
		{name: "a user agent with quotes, written \\\"", format: gunicornTimed,
			line: strings.Replace(line, `"openai-python/1.54.3"`, `"python \"requests\"/2.32"`, 1) + ` 0.000873`,
			want: with(want{f: FRequestTime, num: 0.000873})},
		{name: "%(m)s %(U)s?%(q)s %(H)s, a user", format: `%(h)s %(u)s %(m)s %(U)s?%(q)s %(H)s %(s)s %(M)s`,
			line: `10.0.0.7 alice GET /v1/models?limit=5 HTTP/1.1 200 4`,
			want: []want{{f: FRemoteAddr, text: "10.0.0.7"}, {f: FClient, text: "alice"}, {f: FMethod, text: "GET"},
				{f: FURI, text: "/v1/models"}, {f: FStatus, num: 200}, {f: FRequestTime, num: 0.004}}},
		{name: "behind a proxy: X-Forwarded-For and Host", format: `%({x-forwarded-for}i)s %({Host}i)s %(t)s "%(r)s" %(s)s %(D)s %(p)s`,
			line: `203.0.113.9, 10.0.0.1 api.example.com [04/Dec/2026:10:00:01 +0000] "POST /v1/chat/completions HTTP/1.1" 504 60001337 <12>`,
			want: []want{{f: FRemoteAddr, text: "203.0.113.9"}, {f: FHost, text: "api.example.com"}, {f: FTime, num: at1},
				{f: FStatus, num: 504}, {f: FRequestTime, num: 60.001337}}},
		{name: "%(h)s over X-Forwarded-For", format: `%(h)s %({x-forwarded-for}i)s %(s)s`, line: `10.0.0.1 203.0.113.9 200`,
			want: []want{{f: FRemoteAddr, text: "10.0.0.1"}}},
		{name: "atoms gunicorn has no value for: -", format: `%({x-forwarded-for}i)s "%(r)s" %(s)s %(b)s %(L)s`,
			line: `- "GET / HTTP/1.1" 200 - 0.001000`, want: []want{{f: FRequestTime, num: 0.001}}, absent: []Field{FRemoteAddr}},
		{name: "a percent sign", format: `%(s)s 100%% %(M)s`, line: `200 100% 12`, want: []want{{f: FRequestTime, num: 0.012}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParser(t, tc.format)
			if p.f.source != "gunicorn" {
				t.Fatalf("source %q, want gunicorn", p.f.source)
			}
			var r Record
			if err := p.Parse([]byte(tc.line), &r); err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			checkRecord(t, &r, tc.want, tc.absent)
		})
	}
}

// TestGunicornFormatFixture reads testdata/text/gunicorn-timed.log and
// gunicorn-default.log, written line by line as gunicorn writes its
// access log (the server's own start messages, its error log written to
// the same stream, first), through the pipeline with their formats: the
// request times (the %(L)s column), times, statuses and clients; the
// two start lines, its error log's, passed over as a server's own.
func TestGunicornFormatFixture(t *testing.T) {
	type line struct {
		rt     float64 // s, -1 absent
		time   float64
		status float64
		client string
	}
	u := func(h, m, s int) float64 { return at(2026, time.December, 4, h, m, s, 0) }
	timed := []line{
		{6.210452, u(10, 0, 1), 200, "10.0.0.5"},
		{12.000981, u(10, 0, 2), 200, "10.0.0.6"},
		// One line of the six names a user (%(u)s alice): the file's
		// client is every line's address (SPEC §3: one source a file).
		{0.004210, u(10, 0, 3), 200, "10.0.0.7"},
		{0.000873, u(10, 0, 4), 429, "10.0.0.5"},
		{60.001337, u(10, 0, 5), 504, "10.0.0.8"}, // 18:00:05 +0800
		{0.25, u(10, 0, 7), 500, "10.0.0.5"},
	}
	for _, tc := range []struct {
		file, format string
		timed        bool
	}{
		{"gunicorn-timed.log", gunicornTimed, true},
		{"gunicorn-default.log", gunicornDefault, false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			sinks, res, err := Run([]string{"testdata/text/" + tc.file}, Options{LogFormats: []string{tc.format}, Workers: 1, Location: time.UTC},
				func() *rows { return &rows{} })
			if err != nil {
				t.Fatal(err)
			}
			fs := res.Files[0]
			if fs.Source != "gunicorn" || fs.Records != 6 || fs.BadLines != 0 || fs.PassedOver != 2 {
				t.Fatalf("source %q, %d records, %d bad lines, %d passed over; want gunicorn, 6, 0, 2", fs.Source, fs.Records, fs.BadLines, fs.PassedOver)
			}
			got := sinks[0].recs
			for i, w := range timed {
				g := got[i]
				rt := w.rt
				if !tc.timed {
					rt = -1
				}
				if g.rt != rt || math.Abs(g.time-w.time) > 1e-6 || g.status != w.status || g.client != w.client {
					t.Errorf("record %d: %+v, want rt %v time %v status %v client %q", i+1, g, rt, w.time, w.status, w.client)
				}
			}
		})
	}
}

// rows collects what the fixture tests compare of each record: -1 for
// a request time or status absent.
type rows struct{ recs []row }

type row struct {
	rt, time, status float64
	client           string
}

func (s *rows) Add(r *Record) {
	rt, ok := r.Float(FRequestTime)
	if !ok {
		rt = -1
	}
	st, ok := r.Float(FStatus)
	if !ok {
		st = -1
	}
	s.recs = append(s.recs, row{rt: rt, time: float64(r.TimeNS) / 1e9, status: st, client: string(r.Text(FClient))})
}

// TestGunicornLookAlikes: lines of other programs are not read by a
// gunicorn format that times its requests, and the file goes to the
// format that reads it; gunicorn's default format, whose lines are
// nginx's and Apache's combined, reads theirs (as combined does).
func TestGunicornLookAlikes(t *testing.T) {
	s, _ := NewSchema(nil)
	g, err := compileLogFormat(gunicornTimed, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		tCombined, // nginx's combined, and Apache's
		tCombined + ` 0.005 0.004`,
		`[GIN] 2026/12/04 - 10:00:01 | 200 |    6.210452s |        10.1.1.1 | POST     "/v1/chat/completions"`,
		`INFO:     10.0.0.1:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK`,
		`[2026-12-04 10:00:00 +0000] [1] [INFO] Starting gunicorn 23.0.0`,
	} {
		var r Record
		if err := newNginxParserFor(g, time.UTC).Parse([]byte(line), &r); err == nil {
			t.Errorf("the gunicorn format read %q", line)
		}
	}
	if got := pickLogFormat([]byte(tCombined+" 0.005 0.004\n"), append([]*logFormat{g}, compileKnown(s)...)); got == nil || got.source == "gunicorn" {
		t.Errorf("an nginx timed line is read as gunicorn's")
	}
}

// TestGunicornTokens: the flawed formats refused with what is wrong, and
// which strings are gunicorn's, HAProxy's, Apache's and nginx's.
func TestGunicornTokens(t *testing.T) {
	for bad, why := range map[string]string{
		`%(h)s %(x)s`:     "%(x)s at column 7 is not one of gunicorn's atoms",
		`%(h)s %(s)s %`:   "the % at column 13 starts no atom",
		`%(h)s %(t)s %D`:  "the % at column 13 starts no atom",
		`%(h)s %(s`:       "the name of the atom at column 7 is not closed by )",
		`%(h)s %(s)x`:     "the atom %(s) at column 7 has no conversion s after it",
		`%(h)s%(s)s`:      "$h and $s are not separated",
		`%(h)s %({ab}x)s`: "%({ab}x)s at column 7 is not one of gunicorn's atoms",
	} {
		err := CompileLogFormat(bad)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("CompileLogFormat(%q): %v, want an error saying %q", bad, err, why)
		}
	}
	for s, want := range map[string]string{
		gunicornDefault:                   "gunicorn",
		gunicornTimed:                     "gunicorn",
		`%(D)s`:                           "gunicorn",
		`%({x-forwarded-for}i)s %(M)d`:    "gunicorn",
		`%(client_ip)ci %(st)ST %Ta`:      "haproxy",
		`%(srv)s %ci %ST %Ta`:             "haproxy",
		`%h %l %u %t "%r" %>s %b %D`:      "apache",
		`$remote_addr [$time_local] %(x)`: "nginx",
	} {
		f, err := compileLogFormat(s, nil)
		if err != nil {
			t.Errorf("compileLogFormat(%q): %v", s, err)
		} else if f.source != want {
			t.Errorf("%q compiled as %s's, want %s's", s, f.source, want)
		}
	}
}

// TestGunicornAllocatesNothing: a line with a quote escaped in it is read
// without allocating once the parser is warm.
func TestGunicornAllocatesNothing(t *testing.T) {
	p := testParser(t, `%({x-forwarded-for}i)s `+gunicornTimed)
	line := []byte(`203.0.113.9 10.0.0.5 - - [04/Dec/2026:10:00:04 +0000] "POST /v1/embeddings HTTP/1.1" 429 71 "-" "python \"requests\"/2.32" 0.000873`)
	if n := parseAllocs(t, p, line); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
}

// FuzzGunicornFormat writes a line as gunicorn does (Logger.atoms: %(D)s
// and %(L)s from one duration, a double quote in a value as \") and
// reads it back: the request time, status and user agent's neighbours
// are what was written.
func FuzzGunicornFormat(f *testing.F) {
	f.Add(int64(6), int64(210452), 200, `openai-python/1.54.3`, "/v1/chat/completions")
	f.Add(int64(0), int64(873), 429, `python "requests"/2.32`, "/a\"b")
	f.Add(int64(86399), int64(999999), 599, `\`, "")
	f.Add(int64(0), int64(0), 100, `"" " \"`, "/ ")
	p := testParser(f, `%(h)s %(t)s "%(r)s" %(s)s "%(a)s" %(D)s %(L)s`)
	f.Fuzz(func(t *testing.T, sec, usec int64, status int, ua, path string) {
		if sec < 0 || sec > 86400 || usec < 0 || usec > 999999 || status < 100 || status > 599 ||
			strings.ContainsAny(ua+path, "\n\r") || strings.HasSuffix(ua, `\`) {
			t.Skip() // not what gunicorn writes, or a value ending in \, which reads as an escaped quote
		}
		esc := func(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }
		line := fmt.Sprintf(`10.0.0.1 [04/Dec/2026:10:00:01 +0000] "POST %s HTTP/1.1" %d "%s" %d %d.%06d`,
			esc(path), status, esc(ua), sec*1_000_000+usec, sec, usec)
		var r Record
		if err := p.Parse([]byte(line), &r); err != nil {
			if !strings.Contains(path, " ") && !strings.Contains(path, `"`) {
				t.Fatalf("%q: %v", line, err)
			}
			return // a path with a space or quote: the request line is cut elsewhere, as for Apache's
		}
		if got, want := r.Float(FRequestTime); !want || math.Abs(got-(float64(sec)+float64(usec)/1e6)) > 1e-9 {
			t.Fatalf("%q: request_time %v, want %d.%06d", line, got, sec, usec)
		}
		if got, _ := r.Float(FStatus); got != float64(status) {
			t.Fatalf("%q: status %v, want %d", line, got, status)
		}
	})
}

// hypercornTimedLine is a line of testdata/text/hypercorn-timed.log:
// Hypercorn's logger's line, then its default access_log_format with
// %(D)s: the client's host:port, %(t)s, the request, the status, %(D)s µs.
var hypercornTimedLine = regexp.MustCompile(`^\[[^\]]+\] \[\d+\] \[INFO\] (\S+):\d+ - - \[([^\]]+)\] "(\S+) (\S+) (?:1\.[01]|2|3)" (\d{3}) \S+ "[^"]*" "(?:[^"\\]|\\.)*" (\d+)$`)

// TestHypercornFormatGiven reads testdata/text/hypercorn-timed.log,
// written as Hypercorn writes its access log to a file (--access-logfile,
// --access-logformat with gunicorn's atoms and %(D)s), with the format
// given: each line is read behind its logger's line, the request time
// %(D)s µs, the uri without the ASGI version; the error log's lines
// among them passed over.
func TestHypercornFormatGiven(t *testing.T) {
	const path = "testdata/text/hypercorn-timed.log"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		rt, time, status float64
		uri, client      string
	}
	var want []line
	passed := 0
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		m := hypercornTimedLine.FindStringSubmatch(l)
		if m == nil {
			passed++
			continue
		}
		tm, err := time.Parse("02/Jan/2006:15:04:05 -0700", m[2])
		if err != nil {
			t.Fatal(err)
		}
		st, _ := strconv.Atoi(m[5])
		us, _ := strconv.Atoi(m[6])
		want = append(want, line{float64(us) / 1e6, float64(tm.UnixNano()) / 1e9, float64(st), m[4], m[1]})
	}
	format := `%(h)s %(l)s %(l)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(D)s`
	sinks, res, err := Run([]string{path}, Options{LogFormats: []string{format}, Workers: 1, Location: time.UTC},
		func() *uriRows { return &uriRows{} })
	if err != nil {
		t.Fatal(err)
	}
	got := sinks[0].recs
	fs := res.Files[0]
	if fs.Source != "hypercorn" || len(got) != len(want) || fs.BadLines != 0 || fs.PassedOver != int64(passed) {
		t.Fatalf("source %q, %d records, %d bad lines, %d passed over; want hypercorn, %d, 0, %d (problems %v)",
			fs.Source, len(got), fs.BadLines, fs.PassedOver, len(want), passed, res.Problems)
	}
	for i, w := range want {
		g := got[i]
		if math.Abs(g.rt-w.rt) > 1e-9 || math.Abs(g.time-w.time) > 1e-6 || g.status != w.status || g.uri != w.uri || g.client != w.client {
			t.Errorf("record %d: %+v, want %+v", i+1, g, w)
		}
	}
}

// uriRows collects rows with their uri.
type uriRows struct {
	recs []struct {
		row
		uri string
	}
}

func (s *uriRows) Add(r *Record) {
	var rs rows
	rs.Add(r)
	s.recs = append(s.recs, struct {
		row
		uri string
	}{rs.recs[0], string(r.Text(FURI))})
}
