package ingest_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// textWant is an oracle's reading of one fixture line.
type textWant struct {
	ok                  bool // a record, not a bad line
	passed              bool // a line passed over: no request (an Envoy TCP connection's)
	status              int64
	rt, urt, ttft       float64
	hasRT, hasURT, hasT bool
	method, uri, client string
	model               string
	// user and addr, when the line has both a user's slot and an
	// address: the file's client is one or the other (fileClients).
	user, addr string
	choose     bool
	at         time.Time // the time, when the oracle reads it
}

// fileClients gives the records of a file whose lines have a user's slot
// and an address their client: one file never mixes two sources of
// client (SPEC §3), the user's when at least half of the records name
// one, else every record's address.
func fileClients(want []textWant) {
	named, n := 0, 0
	for _, w := range want {
		if w.choose {
			n++
			if w.user != "" {
				named++
			}
		}
	}
	for i := range want {
		if w := &want[i]; w.choose {
			w.client = w.addr
			if named > 0 && 2*named >= n {
				w.client = w.user
			}
		}
	}
}

// sumTimes reads an nginx upstream list ("3.001, 0.004", "0.000 : 0.001",
// "-") as the sum of its numbers, in the list's unit.
func sumTimes(t *testing.T, s string) (float64, bool) {
	t.Helper()
	s = strings.NewReplacer(",", " ", ":", " ").Replace(s)
	sum, any := 0.0, false
	for _, f := range strings.Fields(s) {
		if f == "-" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("oracle: %q in %q", f, s)
		}
		sum += v
		any = true
	}
	return sum, any
}

// request splits a request line the way the oracle expects: method and
// path, none for "" or "- - HTTP/1.1".
func request(req string) (method, uri string) {
	f := strings.Fields(req)
	if len(f) < 2 || f[0] == "-" {
		return "", ""
	}
	return f[0], f[1]
}

// huaweiToken is a field of a Huawei Cloud log line: bracketed, quoted
// or bare.
var huaweiToken = regexp.MustCompile(`\[[^\]]*\]|"[^"]*"|\S+`)

func huaweiTokens(line string) []string { return huaweiToken.FindAllString(line, -1) }

// parseSeconds reads a number of seconds.
func parseSeconds(t *testing.T, s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return v
}

// chiLine is a line of chi's request log, its request id or none.
var chiLine = regexp.MustCompile(`^\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} (?:\[[^\]]*\] )?"([^"]*)" from (\S+) - (\d{3}) \d+B in (\S+)$`)

func chiOracle(t *testing.T, line string) textWant {
	m := chiLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{} // a bad line: the server's own
	}
	d, err := time.ParseDuration(strings.ReplaceAll(m[4], "µs", "us"))
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	host := m[2][:strings.LastIndex(m[2], ":")]
	w := textWant{ok: true, status: atoi(t, m[3]), client: strings.Trim(host, "[]"), rt: d.Seconds(), hasRT: true}
	w.method, w.uri = request(m[1])
	return w
}

// reactorLine is a line of Reactor Netty's access log in its default
// format: host:port, user, CLF time, request, status, length, ms.
var reactorLine = regexp.MustCompile(`^(\S+) - \S+ \[([^\]]+)\] "([^"]*)" (\d{3}) \S+ (\d+) ms$`)

func reactorOracle(t *testing.T, line string) textWant {
	m := reactorLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{}
	}
	at := oracleTime(t, "02/Jan/2006:15:04:05 -0700", m[2])
	w := textWant{ok: true, status: atoi(t, m[4]), client: m[1][:strings.LastIndex(m[1], ":")], at: at}
	w.method, w.uri = request(m[3])
	w.rt, w.hasRT = float64(atoi(t, m[5]))/1000, true
	return w
}

// springBootOracle reads Spring Boot's log: its logger's lines of Reactor
// Netty's access log as such, its banner and its other lines passed over.
func springBootOracle(t *testing.T, line string) textWant {
	_, access, ok := strings.Cut(line, " reactor.netty.http.server.AccessLog      : ")
	if !ok {
		return textWant{passed: true}
	}
	return reactorOracle(t, access)
}

// quarkusLine is Quarkus's access line behind its logging's prefix: the
// date, the level, the category, the thread, then the pattern "common"
// or "combined" and the time taken, whole ms, or none.
var quarkusLine = regexp.MustCompile(`^\S+ \S+ +[A-Z]+ +\[io\.qua\.htt\.access-log\] \([^)]*\) (\S+) \S+ (\S+) \[([^\]]+)\] "([^"]*)" (\d{3}) \S+(?: "[^"]*" "[^"]*")?(?: (\d+))?$`)

// quarkusOracle reads Quarkus's log: its access lines, its own lines
// passed over.
func quarkusOracle(t *testing.T, line string) textWant {
	m := quarkusLine.FindStringSubmatch(line)
	if m == nil {
		if strings.Contains(line, "[io.qua.htt.access-log]") {
			return textWant{}
		}
		return textWant{passed: true}
	}
	at := oracleTime(t, "02/Jan/2006:15:04:05 -0700", m[3])
	w := textWant{ok: true, status: atoi(t, m[5]), addr: m[1], choose: true, at: at}
	if m[2] != "-" {
		w.user = m[2]
	}
	w.method, w.uri = request(m[4])
	if m[6] != "" {
		w.rt, w.hasRT = float64(atoi(t, m[6]))/1000, true
	}
	return w
}

// lighttpdLine is a line of lighttpd's default access log: the address,
// the Host, the user, the CLF time (the request's end), the request, the
// status, the length, the referer and the user agent; a number appended
// by the configuration or none.
var lighttpdLine = regexp.MustCompile(`^(\S+) (\S+) (\S+) \[([^\]]+)\] "([^"]*)" (\d{3}) (?:\d+|-) "[^"]*" "[^"]*"(?: \d+)?$`)

// lighttpdOracle reads lighttpd's default: no request time, the number
// after it or none (its unit unknown).
func lighttpdOracle(t *testing.T, line string) textWant {
	m := lighttpdLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{}
	}
	at := oracleTime(t, "02/Jan/2006:15:04:05 -0700", m[4])
	w := textWant{ok: true, status: atoi(t, m[6]), addr: m[1], choose: true, at: at}
	if m[3] != "-" {
		w.user = m[3]
	}
	w.method, w.uri = request(m[5])
	return w
}

// squidLine is a line of Squid's native access.log: epoch seconds and ms,
// the elapsed ms right-aligned, the client, the result code and status,
// the size, the method, the URL, the user, the hierarchy and the server,
// the content type, the headers in brackets or none.
var squidLine = regexp.MustCompile(`^(\d+)\.(\d{3}) +(\d+) (\S+) [A-Z_]+/(\d{3}) \d+ (\S+) (\S+) (\S+) [A-Z_]+/\S+ \S+(?: \[.*\] \[.*\])?$`)

// squidOracle reads Squid's access.log; a CONNECT tunnel and a line with
// no request ("-") are passed over.
func squidOracle(t *testing.T, line string) textWant {
	m := squidLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{}
	}
	if m[6] == "-" || m[6] == "CONNECT" {
		return textWant{passed: true}
	}
	at := time.Unix(atoi(t, m[1]), atoi(t, m[2])*int64(time.Millisecond))
	w := textWant{ok: true, status: atoi(t, m[5]), method: m[6], uri: m[7], addr: m[4], choose: true,
		rt: float64(atoi(t, m[3])) / 1000, hasRT: true, at: at}
	if m[8] != "-" {
		w.user = m[8]
	}
	return w
}

// uvicornLogged reads uvicorn's access line behind another program's
// logging, re's groups the date (in layout, no zone: UTC), the client's
// host:port, the request line and the status; the program's other
// lines, and uvicorn's own, are passed over.
func uvicornLogged(re *regexp.Regexp, layout string) func(t *testing.T, line string) textWant {
	return func(t *testing.T, line string) textWant {
		m := re.FindStringSubmatch(line)
		if m == nil {
			return textWant{passed: true}
		}
		at, err := time.Parse(layout, m[1])
		if err != nil {
			t.Fatalf("oracle: %v", err)
		}
		w := textWant{ok: true, status: atoi(t, m[4]), client: m[2][:strings.LastIndex(m[2], ":")], at: at}
		w.method, w.uri = request(m[3])
		return w
	}
}

// nimLine is uvicorn's access message behind NIM's prefix: the date to
// the second, the ms after it as Python's %(msecs)d writes them, with
// no zeros before them ("52.7" is 7 ms), the client's host:port, the
// request and the status.
var nimLine = regexp.MustCompile(`^INFO (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\.(\d{1,3}) [\w.]+:\d+\] (\S+) - "([^"]*)" (\d{3})$`)

// nimOracle reads NIM's access lines; its other lines (its own, vLLM's,
// uvicorn's) are passed over.
func nimOracle(t *testing.T, line string) textWant {
	m := nimLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{passed: true}
	}
	at := oracleTime(t, "2006-01-02 15:04:05", m[1])
	at = at.Add(time.Duration(atoi(t, m[2])) * time.Millisecond)
	w := textWant{ok: true, status: atoi(t, m[5]), client: m[3][:strings.LastIndex(m[3], ":")], at: at}
	w.method, w.uri = request(m[4])
	return w
}

// bentoMLLine is a line of BentoML's access log: its date, level and
// component, the client, the request's and the response's groups, the
// latency in ms, the trace or none.
var bentoMLLine = regexp.MustCompile(`^(\S+) \[\w+\] \[[^\]]*\] (\S+) \(scheme=\w+,method=(\w+),path=([^,]*),type=[^,]*,length=\d*\) \(status=(\d{3}),type=[^,]*,length=\d*\) ([\d.]+)ms(?: \(trace=[^)]*\))?$`)

// bentoMLOracle reads BentoML's access lines; its other lines (its own,
// a WebSocket's) are passed over.
func bentoMLOracle(t *testing.T, line string) textWant {
	m := bentoMLLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{passed: true}
	}
	at := oracleTime(t, "2006-01-02T15:04:05-0700", m[1])
	ms, err := strconv.ParseFloat(m[6], 64)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return textWant{ok: true, status: atoi(t, m[5]), method: m[3], uri: m[4], client: m[2][:strings.LastIndex(m[2], ":")],
		rt: ms / 1000, hasRT: true, at: at}
}

// granianLine is a line of granian's default access log: the request's
// start with its zone, the client's address, the request line, the
// status and dt_ms.
var granianLine = regexp.MustCompile(`^\[(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4})\] (\S+) - "([^"]*)" (\d{3}) (\d+\.\d{3})$`)

// pyDevLine is a line of Django's or werkzeug's development server,
// without its colours: the client's address (werkzeug's), http.server's
// date, the request line, the status and the size.
var (
	pyDevLine   = regexp.MustCompile(`^(?:(\S+) - - )?\[(\d{2}/\w{3}/\d{4} \d{2}:\d{2}:\d{2})\] "([^"]*)" (\d{3}) (?:\d+|-)$`)
	pyDevColour = regexp.MustCompile("\x1b\\[[0-9;]*m")
)

// pyDevOracle reads the development servers' lines: no request time.
func pyDevOracle(t *testing.T, line string) textWant {
	m := pyDevLine.FindStringSubmatch(pyDevColour.ReplaceAllString(line, ""))
	if m == nil {
		t.Fatalf("oracle: %q is no development server's line", line)
	}
	w := textWant{ok: true, status: atoi(t, m[4]), client: m[1], at: oracleTime(t, "02/Jan/2006 15:04:05", m[2])}
	w.method, w.uri = request(m[3])
	return w
}

// railwayLine is a line of Railway's HTTP logs as its CLI prints them:
// the time (RFC 3339, ns), the method, the path, the status, the total
// duration in whole ms, the request id.
var railwayLine = regexp.MustCompile(`^(\S+) ([A-Z]+) (\S+) (\d{3}) (\d+)ms \S+$`)

// railwayOracle reads Railway's HTTP log lines.
func railwayOracle(t *testing.T, line string) textWant {
	m := railwayLine.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("oracle: %q is no line of Railway's", line)
	}
	at := oracleTime(t, time.RFC3339Nano, m[1])
	ms, err := strconv.ParseFloat(m[5], 64)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return textWant{ok: true, status: atoi(t, m[4]), method: m[2], uri: m[3], rt: ms / 1000, hasRT: true, at: at}
}

// granianOracle reads granian's access lines; its own lines ("[INFO]
// Starting granian …") are passed over.
func granianOracle(t *testing.T, line string) textWant {
	m := granianLine.FindStringSubmatch(line)
	if m == nil {
		if !regexp.MustCompile(`^\[[A-Z]+\] `).MatchString(line) {
			t.Fatalf("oracle: %q is neither granian's access line nor its own", line)
		}
		return textWant{passed: true}
	}
	at := oracleTime(t, "2006-01-02 15:04:05 -0700", m[1])
	ms, err := strconv.ParseFloat(m[5], 64)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	w := textWant{ok: true, status: atoi(t, m[4]), client: m[2], rt: ms / 1000, hasRT: true, at: at}
	w.method, w.uri = request(m[3])
	return w
}

// sanicProdLine and sanicLegacyLine are Sanic's access lines, its
// production text format's (the ident, the date with its zone, the
// client's host:port, the method and URL, the status, the bytes and the
// duration in ms) and its legacy one's (no duration).
var (
	sanicProdLine   = regexp.MustCompile(`^[^|]+\|(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}) INFO: (\S+) ([A-Z]+) (\S+) (\d{3}) (?:\d+|chunked)  (\d+\.\d)ms$`)
	sanicLegacyLine = regexp.MustCompile(`^\[?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4})\]? - \(sanic\.access\)\[INFO\]\[([^\]]+)\]: ([A-Z]+) (\S+)  (\d{3}) \S+$`)
)

// sanicOracle reads Sanic's access lines; its own lines, and its access
// logger's of a connection's or a WebSocket's close, are passed over.
func sanicOracle(t *testing.T, line string) textWant {
	var stamp, client, method, uri, status, ms string
	if m := sanicProdLine.FindStringSubmatch(line); m != nil {
		stamp, client, method, uri, status, ms = m[1], m[2], m[3], m[4], m[5], m[6]
	} else if m := sanicLegacyLine.FindStringSubmatch(line); m != nil {
		stamp, client, method, uri, status = m[1], m[2], m[3], m[4], m[5]
	} else {
		return textWant{passed: true}
	}
	at := oracleTime(t, "2006-01-02 15:04:05 -0700", stamp)
	if i := strings.LastIndex(client, ":"); i >= 0 {
		client = client[:i]
	}
	w := textWant{ok: true, status: atoi(t, status), method: method, uri: uri, client: client, at: at}
	if ms != "" {
		v, err := strconv.ParseFloat(ms, 64)
		if err != nil {
			t.Fatalf("oracle: %v", err)
		}
		w.rt, w.hasRT = v/1000, true
	}
	return w
}

// serilogLine is Serilog's request line (serilog-aspnetcore's default
// template, serilog-sinks-file's default output template).
var serilogLine = regexp.MustCompile(`^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [+-]\d\d:\d\d) \[[A-Z]{3}\] HTTP ([A-Z]+) (\S+) responded (\d{3}) in ([\d.]+) ms$`)

func serilogOracle(t *testing.T, line string) textWant {
	m := serilogLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{passed: true}
	}
	at, err := time.Parse("2006-01-02 15:04:05.000 -07:00", m[1])
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	ms, err := strconv.ParseFloat(m[5], 64)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return textWant{ok: true, status: atoi(t, m[4]), method: m[2], uri: m[3], rt: ms / 1000, hasRT: true, at: at}
}

// hypercornLine is a line of Hypercorn's access log in its default
// format behind its logger's line: the client's host:port, %(t)s, the
// request line with the ASGI version, the status.
var hypercornLine = regexp.MustCompile(`^\[[^\]]+\] \[\d+\] \[INFO\] (\S+):\d+ - - \[([^\]]+)\] "(\S+) (\S+) (?:1\.[01]|2|3)" (\d{3}) \S+ "[^"]*" "[^"]*"$`)

// hypercornOracle reads Hypercorn's access lines; its error log's lines
// are passed over.
func hypercornOracle(t *testing.T, line string) textWant {
	m := hypercornLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{passed: true}
	}
	at, err := time.Parse("02/Jan/2006:15:04:05 -0700", m[2])
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return textWant{ok: true, status: atoi(t, m[5]), method: m[3], uri: m[4], client: m[1], at: at}
}

// rayLine and ray29Line are Ray Serve's access lines, today's and 2.9's,
// the actor's name before them or not: the date and time, the method,
// the route (today's), the status and the latency in ms; today's with
// the client's host:port before the method or not.
var (
	rayLine   = regexp.MustCompile(`^(?:\([^)]*\) )?[A-Z]+ (\S+ \S+) \S+ \S+ \S+ -- (?:(\S+) )?([A-Z]+) (\S+) (\d{3}) ([\d.]+)ms$`)
	ray29Line = regexp.MustCompile(`^(?:\([^)]*\) )?[A-Z]+ (\S+ \S+) \S+ \S+ \S+ (\S+) .* - ([A-Z]+) (\d{3}) ([\d.]+)ms$`)
)

// rayOracle reads Ray Serve's access lines, the time in UTC (no --tz);
// its other lines (its own, a replica's handle call) are passed over.
func rayOracle(t *testing.T, line string) textWant {
	var stamp, client, method, uri, status, ms string
	if m := rayLine.FindStringSubmatch(line); m != nil {
		stamp, client, method, uri, status, ms = m[1], m[2], m[3], m[4], m[5], m[6]
	} else if m := ray29Line.FindStringSubmatch(line); m != nil {
		stamp, uri, method, status, ms = m[1], m[2], m[3], m[4], m[5]
	} else {
		return textWant{passed: true}
	}
	at := oracleTime(t, "2006-01-02 15:04:05,000", stamp)
	v, err := strconv.ParseFloat(ms, 64)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return textWant{ok: true, status: atoi(t, status), method: method, uri: uri, client: rayHost(client), rt: v / 1000, hasRT: true, at: at}
}

// rayHost is the host of Ray Serve's client address, "host:port" or
// "[v6]:port" (format_client_address), none when it writes none.
func rayHost(client string) string {
	if h, ok := strings.CutPrefix(client, "["); ok {
		h, _, _ = strings.Cut(h, "]")
		return h
	}
	if i := strings.LastIndex(client, ":"); i >= 0 {
		return client[:i]
	}
	return client
}

// rayMessage is an access message of Ray Serve's JSON log, today's
// ("POST /v1/x 200 409.9ms", the client's host:port before it or not) or
// 2.9's ("proxy.py:538 - POST 200 8.9ms", no route): the client, the
// method, the route, the status, the latency in ms.
var rayMessage = regexp.MustCompile(`^(?:\S+:\d+ - |(\S+) )?([A-Z]+) (?:(\S+) )?(\d{3}) ([\d.]+)ms$`)

// rayJSONOracle reads a record of Ray Serve's JSON log with
// encoding/json: its message an access line's, the time timestamp_ns,
// else asctime in UTC (no --tz); a record of another message (Serve's
// own, a replica's handle call) passed over.
func rayJSONOracle(t *testing.T, line string) textWant {
	var r struct {
		Message     string
		Asctime     string
		Route       string
		TimestampNS json.Number `json:"timestamp_ns"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("oracle: %v", err)
	}
	m := rayMessage.FindStringSubmatch(r.Message)
	if m == nil {
		return textWant{passed: true}
	}
	var at time.Time
	if r.TimestampNS != "" {
		ns, err := r.TimestampNS.Int64()
		if err != nil {
			t.Fatalf("oracle: %v", err)
		}
		at = time.Unix(0, ns)
	} else {
		var err error
		if at, err = time.Parse("2006-01-02 15:04:05,000", r.Asctime); err != nil {
			t.Fatalf("oracle: %v", err)
		}
	}
	v, err := strconv.ParseFloat(m[5], 64)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	uri := m[3]
	if uri == "" {
		uri = r.Route // 2.9's message has none: its record's route
	}
	return textWant{ok: true, status: atoi(t, m[4]), method: m[2], uri: uri, client: rayHost(m[1]), rt: v / 1000, hasRT: true, at: at}
}

// envoyClientGone is Envoy's status 0, a response never begun, read as
// 499 (README).
func envoyClientGone(w textWant) textWant {
	if w.ok && w.status == 0 {
		w.status = 499
	}
	return w
}

// firstAddr returns the first address of an X-Forwarded-For list, none
// for "-".
func firstAddr(list string) string {
	if a := strings.TrimSpace(strings.Split(list, ",")[0]); a != "-" {
		return a
	}
	return ""
}

// emissaryOracle reads Emissary-ingress's default, Envoy's after
// "ACCESS ": the duration and the upstream's time ms, the client the
// first X-Forwarded-For address; a TCP connection and the lines of its
// own (Envoy's, its Go processes') passed over.
func emissaryOracle(t *testing.T, line string) textWant {
	rest, ok := strings.CutPrefix(line, "ACCESS ")
	if !ok {
		return textWant{passed: true}
	}
	q := quoted(rest)
	if tcpLine(q) {
		return textWant{passed: true}
	}
	f := strings.Fields(q[2]) // code flags received sent duration upstream
	w := textWant{status: atoi(t, f[0]), client: firstAddr(q[3])}
	w.method, w.uri = request(q[1])
	return envoyClientGone(envoyTimes(t, w, f[4], f[5]))
}

// kumaOracle reads Kuma's default HTTP format: the duration and the
// upstream's time ms, the client the source's address (the fourth quoted
// value from the end), else the first X-Forwarded-For address.
func kumaOracle(t *testing.T, line string) textWant {
	q := quoted(line)
	f := strings.Fields(q[2])
	w := textWant{status: atoi(t, f[0]), client: firstAddr(q[len(q)-4])}
	if w.client == "" {
		w.client = firstAddr(q[3])
	}
	w.method, w.uri = request(q[1])
	return envoyClientGone(envoyTimes(t, w, f[4], f[5]))
}

// linkerdLine is a line of Linkerd's proxy's apache access log: the
// caller's host:port, its identity ("-": none), "-", the time in RFC 3339,
// the request line and the status; no duration.
var linkerdLine = regexp.MustCompile(`^(\S+) (\S+) - \[([^\]]+)\] "([^"]*)" (\d{3})$`)

// linkerdOracle reads Linkerd's apache format; the proxy's own lines
// ("[     0.001952s]  INFO …") are passed over.
func linkerdOracle(t *testing.T, line string) textWant {
	m := linkerdLine.FindStringSubmatch(line)
	if m == nil {
		return textWant{passed: true}
	}
	at := oracleTime(t, time.RFC3339Nano, m[3])
	host := m[1][:strings.LastIndex(m[1], ":")]
	w := textWant{ok: true, status: atoi(t, m[5]), addr: strings.Trim(host, "[]"), choose: true, at: at}
	if m[2] != "-" {
		w.user = m[2]
	}
	w.method, w.uri = request(m[4])
	return w
}

// llamaMember is a member of a llama.cpp server's log line after its
// " | ": a name, "=", and the member's JSON.
var llamaMember = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S+)`)

// llamaRequestHead is the head of log_server_request's line: upstream's
// padded at info level, Ollama's copy's unpadded at debug or info level.
var llamaRequestHead = regexp.MustCompile(`^(?:INFO \[      |(?:DEBUG|INFO) \[)log_server_request\] request$`)

// llamaServerOracle reads llama.cpp's server's text log: a line of
// log_server_request's "request" with a status is a request, its members
// decoded with encoding/json in whatever order they come, its time the
// epoch seconds of timestamp, no duration; the server's other lines
// (slots, tasks, timings, start-up, its library's) are passed over.
func llamaServerOracle(t *testing.T, line string) textWant {
	head, members, ok := strings.Cut(line, " | ")
	if !ok || !llamaRequestHead.MatchString(head) {
		return textWant{passed: true}
	}
	m := map[string]json.RawMessage{}
	for _, kv := range llamaMember.FindAllStringSubmatch(members, -1) {
		m[kv[1]] = json.RawMessage(kv[2])
	}
	if m["status"] == nil {
		return textWant{passed: true} // --verbose's bodies of the request
	}
	var r struct {
		Timestamp, Status int64
		RemoteAddr        string `json:"remote_addr"`
		Method, Path      string
	}
	b, err := json.Marshal(m)
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return textWant{ok: true, status: r.Status, method: r.Method, uri: r.Path, client: r.RemoteAddr, at: time.Unix(r.Timestamp, 0)}
}

// oracleTime is s read in layout, as an oracle reads a line's time.
func oracleTime(t *testing.T, layout, s string) time.Time {
	t.Helper()
	at, err := time.Parse(layout, s)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return at
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return n
}

// quoted is a line split on its double quotes: quoted text at odd
// indexes, the text between at even ones.
func quoted(line string) []string { return strings.Split(line, `"`) }

// nginxBase reads what the combined fields give: status, request, and the
// client's two sources: $remote_user (the word before "[time", none for
// "-") and the address (the first word).
func nginxBase(t *testing.T, line string) textWant {
	q := quoted(line)
	w := textWant{ok: true, status: atoi(t, strings.Fields(q[2])[0])}
	w.user, w.addr, w.choose = nginxClient(q[0])
	w.method, w.uri = request(q[1])
	return w
}

func nginxClient(before string) (user, addr string, choose bool) {
	words := strings.Fields(before)
	for i, word := range words {
		if strings.HasPrefix(word, "[") && words[i-1] != "-" {
			user = words[i-1]
		}
	}
	return user, words[0], true
}

var (
	rtRe  = regexp.MustCompile(`rt=([0-9.]+)`)
	urtRe = regexp.MustCompile(`urt="([^"]*)"`)
)

// The oracles, one per fixture: each reads the line by splitting it on
// quotes and spaces, as the format's documentation lays it out.
var textOracles = map[string]func(t *testing.T, line string) textWant{
	"nginx-main-times.log": func(t *testing.T, line string) textWant {
		w := nginxBase(t, line)
		f := strings.Fields(quoted(line)[8])
		w.rt, w.hasRT = sumTimes(t, f[0])
		w.urt, w.hasURT = sumTimes(t, strings.Join(f[1:], " "))
		return w
	},
	// main, then $upstream_response_time and $request_time, the other
	// way round: the request's time is the last number.
	"nginx-main-urt-rt.log": func(t *testing.T, line string) textWant {
		w := nginxBase(t, line)
		f := strings.Fields(quoted(line)[8])
		w.rt, w.hasRT = sumTimes(t, f[len(f)-1])
		w.urt, w.hasURT = sumTimes(t, strings.Join(f[:len(f)-1], " "))
		return w
	},
	"nginx-combined-rt.log": func(t *testing.T, line string) textWant {
		w := nginxBase(t, line)
		w.rt, w.hasRT = sumTimes(t, quoted(line)[6])
		return w
	},
	"nginx-timed-combined.log": func(t *testing.T, line string) textWant {
		w := nginxBase(t, line)
		f := strings.Fields(quoted(line)[6])
		w.rt, w.hasRT = sumTimes(t, f[0])
		w.urt, w.hasURT = sumTimes(t, f[1])
		return w
	},
	"nginx-upstream-time.log": func(t *testing.T, line string) textWant {
		w := nginxBase(t, line)
		w.rt, w.hasRT = sumTimes(t, rtRe.FindStringSubmatch(line)[1])
		w.urt, w.hasURT = sumTimes(t, urtRe.FindStringSubmatch(line)[1])
		return w
	},
	"envoy-default.log": func(t *testing.T, line string) textWant {
		q := quoted(line)
		if tcpLine(q) {
			return textWant{passed: true}
		}
		f := strings.Fields(q[2]) // code flags received sent duration upstream
		w := textWant{status: atoi(t, f[0]), client: strings.TrimSpace(strings.Split(q[3], ",")[0])}
		if w.client == "-" {
			w.client = ""
		}
		w.method, w.uri = request(q[1])
		return envoyTimes(t, w, f[4], f[5])
	},
	"istio-text.log": func(t *testing.T, line string) textWant {
		q := quoted(line)
		if tcpLine(q) {
			return textWant{passed: true}
		}
		f := strings.Fields(q[4]) // received sent duration upstream
		last := strings.Fields(q[len(q)-1])
		addr := last[3] // cluster, upstream local, downstream local, downstream remote
		w := textWant{status: atoi(t, strings.Fields(q[2])[0]), client: addr[:strings.LastIndex(addr, ":")]}
		w.method, w.uri = request(q[1])
		return envoyTimes(t, w, f[2], f[3])
	},
	// Istio 1.3–1.8: the Mixer's status and the transport failure
	// quoted after the flags, the times after them.
	"istio13.log": func(t *testing.T, line string) textWant {
		q := quoted(line)
		f := strings.Fields(q[6]) // received sent duration upstream
		last := strings.Fields(q[len(q)-1])
		addr := last[3]
		w := textWant{status: atoi(t, strings.Fields(q[2])[0]), client: addr[:strings.LastIndex(addr, ":")]}
		if w.status == 0 {
			w.status = 499 // a response never begun: the client left (README)
		}
		w.method, w.uri = request(q[1])
		return envoyTimes(t, w, f[2], f[3])
	},
	"apisix.log": func(t *testing.T, line string) textWant {
		return apisixBase(t, line)
	},
	// AWS ALB: the request's time is time − request_creation_time (the
	// 22nd field), the status elb_status_code, the client the address of
	// client:port.
	"aws-alb.log": func(t *testing.T, line string) textWant {
		q := quoted(line)
		head, tail := strings.Fields(q[0]), strings.Fields(q[10])
		end, err1 := time.Parse(time.RFC3339Nano, head[1])
		start, err2 := time.Parse(time.RFC3339Nano, tail[1])
		if err1 != nil || err2 != nil {
			t.Fatalf("oracle: %v %v", err1, err2)
		}
		addr := head[3][:strings.LastIndex(head[3], ":")]
		w := textWant{ok: true, status: atoi(t, head[8]), client: strings.Trim(addr, "[]")}
		w.method, w.uri = request(q[1])
		w.rt, w.hasRT = end.Sub(start).Seconds(), true
		return w
	},
	// Huawei Cloud APIG: its 54 fields, request_time and the upstream's
	// in seconds (a list of tries summed), the client app_id, else the
	// address.
	"huawei-apig.log": func(t *testing.T, line string) textWant {
		f := huaweiTokens(line)
		w := textWant{ok: true, status: atoi(t, f[11]), method: f[7], uri: f[9], client: f[4]}
		if w.client == "-" {
			w.client = f[0]
		}
		w.rt, w.hasRT = parseSeconds(t, f[6]), true
		w.urt, w.hasURT = sumTimes(t, strings.Trim(f[21], `"`))
		return w
	},
	// Huawei Cloud ELB: request_time and the upstream's in seconds, the
	// client the address of remote_addr:remote_port.
	"huawei-elb.log": func(t *testing.T, line string) textWant {
		f := huaweiTokens(line)
		w := textWant{ok: true, status: atoi(t, f[5]), client: f[4][:strings.LastIndex(f[4], ":")]}
		w.method, w.uri = request(strings.Trim(f[6], `"`))
		w.rt, w.hasRT = parseSeconds(t, f[10]), true
		w.urt, w.hasURT = sumTimes(t, strings.Trim(f[14], `"`))
		return w
	},
	// chi's request log: Go's log date, the request, the client's
	// host:port, the status and the handler's time as time.Duration
	// prints it; the server's own lines are bad lines.
	"chi.log":       chiOracle,
	"chi-reqid.log": chiOracle,
	// Reactor Netty's access log, bare and through Spring Boot's logger:
	// the duration whole ms, the time the request's start.
	"reactor-netty.log":       reactorOracle,
	"reactor-netty-boot.log":  springBootOracle,
	"reactor-netty-boot2.log": springBootOracle,
	// Quarkus's access log through its logging: its pattern "common"
	// with %D appended (ms), and "combined".
	"quarkus-console.log":  quarkusOracle,
	"quarkus-combined.log": quarkusOracle,
	// uvicorn's access lines behind SGLang's, FastChat's and Open
	// WebUI's logging: a date, no request time.
	"uvicorn-sglang.log": uvicornLogged(regexp.MustCompile(`^\[([\d-]+ [\d:]+)\] INFO: +(\S+) - "([^"]*)" (\d{3}) `), "2006-01-02 15:04:05"),
	"uvicorn-fastchat.log": uvicornLogged(regexp.MustCompile(`^([\d-]+ [\d:]+) \| INFO \| stdout \| INFO: +(\S+) - "([^"]*)" (\d{3}) `),
		"2006-01-02 15:04:05"),
	"uvicorn-openwebui.log": uvicornLogged(regexp.MustCompile(`^([\d-]+ [\d:.]+) \| INFO +\| \S+ - (\S+) - "([^"]*)" (\d{3})(?: - .*)?$`),
		"2006-01-02 15:04:05.000"),
	"uvicorn-openwebui-extra.log": uvicornLogged(regexp.MustCompile(`^([\d-]+ [\d:.]+) \| INFO +\| \S+ - (\S+) - "([^"]*)" (\d{3})(?: - .*)?$`),
		"2006-01-02 15:04:05.000"),
	// uvicorn's access message behind NIM's and Xinference's logging
	// (up to v2.8, v2.9's role and address, v2.10's TextFileFormatter):
	// a date, no request time.
	"uvicorn-nim.log": nimOracle,
	"uvicorn-xinference.log": uvicornLogged(regexp.MustCompile(`^([\d-]+ [\d:,]+) uvicorn\.access \d+ INFO +(\S+) - "([^"]*)" (\d{3})$`),
		"2006-01-02 15:04:05,000"),
	"uvicorn-xinference-29.log": uvicornLogged(regexp.MustCompile(`^([\d-]+ [\d:,]+) uvicorn\.access \d+ \[[^\]]*\] INFO +(\S+) - "([^"]*)" (\d{3})$`),
		"2006-01-02 15:04:05,000"),
	"uvicorn-xinference-210.log": uvicornLogged(regexp.MustCompile(`^(\S+) INFO uvicorn\.access pid:\d+ role:\S* address:\S* node:\S+ (\S+) - "([^"]*)" (\d{3})$`),
		time.RFC3339Nano),
	// Squid's native access.log: its elapsed ms, its epoch time.
	"squid.log": squidOracle,
	// lighttpd's default, and with a number appended.
	"lighttpd.log":       lighttpdOracle,
	"lighttpd-timed.log": lighttpdOracle,
	// BentoML's access log: its latency ms, its date with its zone.
	"bentoml.log":         bentoMLOracle,
	"bentoml-notrace.log": bentoMLOracle,
	// granian's default access log: dt_ms, the request's start with its
	// zone; its own lines passed over.
	"granian.log": granianOracle,
	// The development servers of Django and werkzeug: http.server's
	// date without a zone, no duration; coloured by the status on a
	// terminal.
	"django-runserver.log": pyDevOracle,
	"werkzeug.log":         pyDevOracle,
	"railway.log":          railwayOracle,
	// Hypercorn's default access log behind its logger's line: no
	// duration, the ASGI version no part of the uri; its error log's
	// lines passed over.
	"hypercorn.log": hypercornOracle,
	// Sanic's production text format, its duration ms, among its own
	// lines and its lines of a connection's and a WebSocket's close; its
	// legacy format, before 24.6 and since, no duration.
	"sanic-prod.log":      sanicOracle,
	"sanic-legacy.log":    sanicOracle,
	"sanic-legacy-24.log": sanicOracle,
	// Serilog's request line in its file sink's default template: Elapsed
	// ms, the time with its zone; the application's other lines passed
	// over.
	"serilog.log": serilogOracle,
	// Ray Serve's access log: its latency ms, Python's asctime.
	"ray-serve.log":        rayOracle,
	"ray-serve-29.log":     rayOracle,
	"ray-serve-driver.log": rayOracle,
	// With the client's address (RAY_SERVE_LOG_CLIENT_ADDRESS).
	"ray-serve-client.log": rayOracle,
	// Its JSON log: the same messages, today's and 2.9's.
	"ray-serve-json.log":        rayJSONOracle,
	"ray-serve-json-29.log":     rayJSONOracle,
	"ray-serve-json-client.log": rayJSONOracle,
	// Envoy's default with Emissary-ingress's prefix and with Kuma's
	// fields.
	"emissary.log":     emissaryOracle,
	"kuma.log":         kumaOracle,
	"kuma-notrace.log": kumaOracle,
	// Linkerd's proxy's apache format among its own lines: no duration.
	"linkerd-apache.log": linkerdOracle,
	// llama.cpp's server's text log, its members in order and sorted:
	// no duration.
	"llama-server.log":        llamaServerOracle,
	"llama-server-sorted.log": llamaServerOracle,
	"llama-server-ollama.log": llamaServerOracle,
	// AWS's Classic Load Balancer: no request_time (its times end when
	// the response began); the status elb_status_code, "-" for a TCP
	// listener's connection (passed over); the client the address of
	// client:port.
	"aws-elb.log": func(t *testing.T, line string) textWant {
		q := quoted(line)
		head := strings.Fields(q[0])
		if head[7] == "-" {
			return textWant{passed: true}
		}
		w := textWant{ok: true, status: atoi(t, head[7]), client: head[2][:strings.LastIndex(head[2], ":")]}
		w.method, w.uri = request(q[1])
		return w
	},
	// Traefik's CommonLogFormatter: combined, the request count, the
	// router and the server's URL quoted, the duration in ms with "ms".
	"traefik-clf.log": func(t *testing.T, line string) textWant {
		w := nginxBase(t, line)
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(strings.TrimSuffix(f[len(f)-1], "ms"), 64)
		if err != nil || v < 0 {
			return textWant{} // a bad line
		}
		w.rt, w.hasRT = v/1000, true
		return w
	},
	"apisix-ai.log": func(t *testing.T, line string) textWant {
		w := apisixBase(t, line)
		q := quoted(line)
		// $apisix_upstream_response_time: ai-proxy writes whole
		// milliseconds, nginx's copy seconds with a point.
		if g := strings.Fields(q[6]); len(g) == 3 && !strings.Contains(g[2], ".") && g[2] != "-" {
			w.urt /= 1000
		}
		// A request to no model (traditional_http): APISIX writes 0 for
		// its first token, which is none.
		if q[13] != "-" && !slices.Contains(q, "traditional_http") {
			w.ttft, w.hasT = sumTimes(t, q[13])
		}
		for _, m := range []string{q[15], q[17]} {
			if m != "-" && w.model == "" {
				w.model = m
			}
		}
		return w
	},
	"access.ltsv": func(t *testing.T, line string) textWant {
		w := textWant{ok: true}
		vals := map[string]string{}
		for _, field := range strings.Split(line, "\t") {
			k, v, ok := strings.Cut(field, ":")
			if field != "" && !ok {
				return textWant{} // not label:value
			}
			vals[k] = v
		}
		w.status = atoi(t, vals["status"])
		w.client = vals["host"]
		if rt, ok := vals["reqtime"]; ok {
			v, err := strconv.ParseFloat(rt, 64)
			if err != nil {
				return textWant{}
			}
			w.rt, w.hasRT = v, true
		}
		if urt, ok := vals["apptime"]; ok {
			w.urt, w.hasURT = sumTimes(t, urt)
		}
		w.method, w.uri = vals["method"], vals["uri"]
		if req, ok := vals["req"]; ok {
			w.method, w.uri = request(strings.ReplaceAll(req, `\x22`, `"`))
		}
		return w
	},
}

// envoyTimes adds Envoy's duration and upstream service time (ms) to w;
// a duration that is not a number makes the line bad.
// tcpLine reports whether an Envoy line, split by quoted, is a TCP
// connection's: "- - -" for the method, path and protocol, status 0
// (Envoy's docs: %RESPONSE_CODE% is not implemented for TCP).
func tcpLine(q []string) bool {
	return q[1] == "- - -" && strings.Fields(q[2])[0] == "0"
}

func envoyTimes(t *testing.T, w textWant, dur, ust string) textWant {
	v, err := strconv.ParseFloat(dur, 64)
	if err != nil {
		return textWant{}
	}
	w.ok, w.rt, w.hasRT = true, v/1000, true
	if ust != "-" {
		w.urt, w.hasURT = sumTimes(t, ust)
		w.urt /= 1000
	}
	return w
}

func apisixBase(t *testing.T, line string) textWant {
	q := quoted(line)
	f := strings.Fields(q[2]) // status bytes request_time
	w := textWant{ok: true, status: atoi(t, f[0])}
	w.user, w.addr, w.choose = nginxClient(q[0])
	w.rt, w.hasRT = sumTimes(t, f[2])
	w.method, w.uri = request(q[1])
	// addr status time, each maybe a list whose items end in ","
	var groups []string
	for _, word := range strings.Fields(q[6]) {
		if n := len(groups); n > 0 && strings.HasSuffix(groups[n-1], ",") {
			groups[n-1] += " " + word
		} else {
			groups = append(groups, word)
		}
	}
	w.urt, w.hasURT = sumTimes(t, groups[2])
	return w
}

func fixtureLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// Each fixture, written from its program's documentation, is recognised
// without flags and every line reads as its oracle says.
func TestTextFormatFixtures(t *testing.T) {
	tests := []struct {
		file, format, source string
		seen                 []string // some of the names FileStats.Seen must hold
	}{
		{"nginx-main-times.log", "nginx", "nginx:main+request_time+upstream_response_time", []string{"http_x_forwarded_for", "request_time", "upstream_response_time"}},
		{"nginx-combined-rt.log", "nginx", "nginx:combined+request_time", []string{"request_time"}},
		{"nginx-timed-combined.log", "nginx", "nginx:timed_combined", []string{"pipe"}},
		{"nginx-upstream-time.log", "nginx", "nginx:upstream_time", []string{"upstream_header_time"}},
		{"envoy-default.log", "nginx", "envoy", []string{"START_TIME", "DURATION", "RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)"}},
		{"istio-text.log", "nginx", "istio", []string{"RESPONSE_CODE_DETAILS", "DOWNSTREAM_REMOTE_ADDRESS"}},
		{"istio13.log", "nginx", "istio", []string{"DYNAMIC_METADATA(istio.mixer:status)", "DOWNSTREAM_REMOTE_ADDRESS"}},
		{"nginx-main-urt-rt.log", "nginx", "nginx:main+upstream_response_time+request_time", []string{"upstream_response_time", "request_time"}},
		{"apisix.log", "nginx", "apisix", []string{"http_host", "upstream_uri"}},
		{"traefik-clf.log", "nginx", "traefik", []string{"traefik_router_name", "traefik_duration"}},
		{"aws-alb.log", "nginx", "aws-alb", []string{"elb_status_code", "request_creation_time", "target_processing_time"}},
		{"aws-elb.log", "nginx", "aws-elb", []string{"elb_status_code", "backend_processing_time"}},
		{"chi.log", "nginx", "chi", []string{"chi_duration", "remote_addr"}},
		{"huawei-apig.log", "nginx", "huawei-apig", []string{"router_uri", "region_id", "inner_time"}},
		{"huawei-elb.log", "nginx", "huawei-elb", []string{"access_log_topic_id", "listener_id"}},
		{"chi-reqid.log", "nginx", "chi", []string{"request_id", "chi_duration"}},
		{"reactor-netty.log", "nginx", "reactor-netty", []string{"reactor_duration", "time_local"}},
		{"reactor-netty-boot.log", "nginx", "reactor-netty", []string{"spring_boot_head", "reactor_duration"}},
		{"reactor-netty-boot2.log", "nginx", "reactor-netty", []string{"spring_boot_head", "reactor_duration"}},
		{"quarkus-console.log", "nginx", "quarkus", []string{"quarkus_head", "quarkus_duration"}},
		{"quarkus-combined.log", "nginx", "quarkus", []string{"quarkus_thread", "http_user_agent"}},
		{"squid.log", "nginx", "squid", []string{"squid_elapsed", "squid_url", "upstream_addr"}},
		{"uvicorn-sglang.log", "nginx", "uvicorn", []string{"uvicorn_time", "status_phrase"}},
		{"uvicorn-fastchat.log", "nginx", "uvicorn", []string{"uvicorn_time", "status_phrase"}},
		{"uvicorn-openwebui.log", "nginx", "uvicorn", []string{"loguru_time", "loguru_where"}},
		{"uvicorn-openwebui-extra.log", "nginx", "uvicorn", []string{"loguru_time", "loguru_extra"}},
		{"uvicorn-nim.log", "nginx", "uvicorn", []string{"nim_time", "nim_where"}},
		{"uvicorn-xinference.log", "nginx", "uvicorn", []string{"py_time", "xinf_pid"}},
		{"uvicorn-xinference-29.log", "nginx", "uvicorn", []string{"py_time", "xinf_role"}},
		{"uvicorn-xinference-210.log", "nginx", "uvicorn", []string{"xinf_time", "xinf_node"}},
		{"lighttpd.log", "nginx", "lighttpd", []string{"http_host", "remote_user"}},
		{"lighttpd-timed.log", "nginx", "lighttpd", []string{"http_host", "time_local"}},
		{"bentoml.log", "nginx", "bentoml", []string{"bentoml_latency", "bentoml_trace"}},
		{"bentoml-notrace.log", "nginx", "bentoml", []string{"bentoml_latency", "bentoml_time"}},
		{"granian.log", "nginx", "granian", []string{"granian_dt_ms", "granian_time"}},
		{"django-runserver.log", "nginx", "django", []string{"pydev_time", "status"}},
		{"werkzeug.log", "nginx", "werkzeug", []string{"pydev_time", "remote_addr"}},
		{"railway.log", "nginx", "railway", []string{"railway_duration", "time_iso8601"}},
		{"hypercorn.log", "nginx", "hypercorn", []string{"hypercorn_time", "hypercorn_pid"}},
		{"sanic-prod.log", "nginx", "sanic", []string{"sanic_duration", "sanic_ident"}},
		{"sanic-legacy.log", "nginx", "sanic", []string{"sanic_time", "sanic_byte"}},
		{"sanic-legacy-24.log", "nginx", "sanic", []string{"sanic_time", "sanic_byte"}},
		{"serilog.log", "nginx", "serilog", []string{"serilog_time", "serilog_elapsed"}},
		{"ray-serve.log", "nginx", "ray-serve", []string{"ray_latency", "request_id"}},
		{"ray-serve-29.log", "nginx", "ray-serve", []string{"ray_latency", "ray_where"}},
		{"ray-serve-driver.log", "nginx", "ray-serve", []string{"ray_latency", "ray_actor"}},
		{"ray-serve-json.log", "nginx", "ray-serve", []string{"ray_latency", "request_method"}},
		{"ray-serve-json-29.log", "nginx", "ray-serve", []string{"ray_latency", "ray_where"}},
		{"ray-serve-client.log", "nginx", "ray-serve", []string{"ray_latency", "ray_client"}},
		{"ray-serve-json-client.log", "nginx", "ray-serve", []string{"ray_latency", "ray_client"}},
		{"emissary.log", "nginx", "emissary", []string{"DURATION", "REQ(X-FORWARDED-FOR)"}},
		{"kuma.log", "nginx", "kuma", []string{"KUMA_MESH", "KUMA_SOURCE_ADDRESS_WITHOUT_PORT", "REQ(X-B3-TRACEID?X-DATADOG-TRACEID)"}},
		{"kuma-notrace.log", "nginx", "kuma", []string{"KUMA_MESH", "KUMA_SOURCE_ADDRESS_WITHOUT_PORT"}},
		{"linkerd-apache.log", "nginx", "linkerd", []string{"remote_user", "time_iso8601"}},
		{"llama-server.log", "nginx", "llama-server", []string{"llama_timestamp", "llama_params"}},
		{"llama-server-sorted.log", "nginx", "llama-server", []string{"llama_timestamp", "remote_port"}},
		{"llama-server-ollama.log", "nginx", "llama-server", []string{"llama_timestamp", "remote_port"}},
		{"apisix-ai.log", "nginx", "apisix", []string{"llm_time_to_first_token", "request_type"}},
		{"access.ltsv", "ltsv", "ltsv", []string{"time", "method", "uri", "status", "size", "apptime"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "text", tc.file)
			oracle := textOracles[tc.file]
			var want []textWant
			bad, passed := 0, 0
			for _, l := range fixtureLines(t, path) {
				if strings.TrimSpace(l) == "" {
					continue // no line at all
				}
				switch w := oracle(t, l); {
				case w.passed:
					passed++
				case w.ok:
					want = append(want, w)
				default:
					bad++
				}
			}
			fileClients(want)
			got, res := nginxCollect(t, []string{path}, ingest.Options{})
			fs := res.Files[0]
			if string(fs.Format) != tc.format || fs.Source != tc.source {
				t.Errorf("format %s, source %q; want %s, %q", fs.Format, fs.Source, tc.format, tc.source)
			}
			for _, name := range tc.seen {
				if !contains(fs.Seen, name) {
					t.Errorf("seen %q lacks %q", fs.Seen, name)
				}
			}
			if len(got) != len(want) || res.BadLines() != int64(bad) || fs.PassedOver != int64(passed) {
				t.Fatalf("%d records, %d bad lines, %d passed over; want %d, %d and %d (problems %v)",
					len(got), res.BadLines(), fs.PassedOver, len(want), bad, passed, res.Problems)
			}
			for i, g := range got {
				compareText(t, i, g, want[i])
			}
		})
	}
}

func compareText(t *testing.T, i int, g rec, w textWant) {
	t.Helper()
	if g.status != w.status || g.method != w.method || g.uri != w.uri || g.client != w.client || g.model != w.model {
		t.Errorf("record %d: status %d %q %q client %q model %q; want %d %q %q client %q model %q",
			i+1, g.status, g.method, g.uri, g.client, g.model, w.status, w.method, w.uri, w.client, w.model)
	}
	if g.hasRT != w.hasRT || w.hasRT && !near(g.rt, w.rt) {
		t.Errorf("record %d: request_time %v (%v), want %v (%v)", i+1, g.rt, g.hasRT, w.rt, w.hasRT)
	}
	if g.hasURT != w.hasURT || w.hasURT && !near(g.urt, w.urt) {
		t.Errorf("record %d: upstream_response_time %v (%v), want %v (%v)", i+1, g.urt, g.hasURT, w.urt, w.hasURT)
	}
	if g.hasTTFT != w.hasT || w.hasT && !near(g.ttft, w.ttft) {
		t.Errorf("record %d: ttft %v (%v), want %v (%v)", i+1, g.ttft, g.hasTTFT, w.ttft, w.hasT)
	}
	if !g.hasTime {
		t.Errorf("record %d: no time", i+1)
	}
	if !w.at.IsZero() && g.timeNS != w.at.UnixNano() {
		t.Errorf("record %d: time %v, want %v", i+1, time.Unix(0, g.timeNS).UTC(), w.at.UTC())
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// combined with fields of the configuration's own after it, a $host
// before the address, X-Forwarded-For lists in the address slot: every
// line is read, and the unknown trailing numbers are not taken for
// latencies ("1843 0.512" is $request_length $request_time, not two times).
func TestCombinedTrailingFields(t *testing.T) {
	path := filepath.Join("testdata", "text", "nginx-combined-trailing.log")
	got, res := nginxCollect(t, []string{path}, ingest.Options{})
	// By hand from the fixture.
	wantStatus := []int64{200, 200, 404, 206, 200, 200}
	wantClient := []string{"10.1.2.3", "10.1.2.4", "10.1.2.4", "192.168.0.1", "10.0.0.2", "10.2.1.185"}
	if len(got) != 6 || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines; want 6 and 0 (problems %v)", len(got), res.BadLines(), res.Problems)
	}
	if s := res.Files[0].Source; s != "nginx:combined" {
		t.Errorf("source %q, want nginx:combined", s)
	}
	for i, g := range got {
		if g.status != wantStatus[i] || g.client != wantClient[i] || g.hasRT || g.hasURT {
			t.Errorf("record %d: status %d client %q rt %v (%v) urt %v (%v); want %d %q and no times",
				i+1, g.status, g.client, g.rt, g.hasRT, g.urt, g.hasURT, wantStatus[i], wantClient[i])
		}
	}
}

// The real combined logs of SHARED/real/elastic-nginx-combined and alp's
// LTSV example, against the counts their SOURCE.md computed.
func TestRealTextLogs(t *testing.T) {
	real := filepath.Join(sharedDir(t), "real")
	tests := []struct {
		path    string
		records int
		status  map[int64]int
	}{
		{filepath.Join("elastic-nginx-combined", "beats-test.log"), 7, map[int64]int{200: 4, 404: 2, 400: 1}},
		{filepath.Join("elastic-nginx-combined", "integrations-test-access.log"), 14, map[int64]int{200: 2, 206: 2, 304: 2, 404: 8}},
		{filepath.Join("alp-ltsv", "access.log"), 14, map[int64]int{200: 12, 400: 2}},
	}
	for _, tc := range tests {
		got, res := nginxCollect(t, []string{filepath.Join(real, tc.path)}, ingest.Options{})
		if len(got) != tc.records || res.BadLines() != 0 {
			t.Errorf("%s: %d records, %d bad lines; want %d and 0 (problems %v)", tc.path, len(got), res.BadLines(), tc.records, res.Problems)
		}
		status := map[int64]int{}
		var urt []float64
		for _, g := range got {
			status[g.status]++
			if g.hasURT {
				urt = append(urt, g.urt)
			}
			if g.client == "" && res.Files[0].Format == ingest.Nginx {
				t.Errorf("%s: a record without a client", tc.path)
			}
		}
		if !reflect.DeepEqual(status, tc.status) {
			t.Errorf("%s: status %v, want %v", tc.path, status, tc.status)
		}
		if res.Files[0].Format == ingest.LTSV {
			// SOURCE.md: apptime n=12, lower-rank p50 123 ms.
			sort.Float64s(urt)
			if len(urt) != 12 || urt[(len(urt)-1)/2] != 0.123 {
				t.Errorf("%s: apptime %v, want 12 values with median 0.123", tc.path, urt)
			}
		}
	}
}

// Several log formats: each file is read with the one its lines follow,
// given formats before the known ones; a file that fits none is read with
// the first given, so its bad lines say what was expected.
func TestRepeatedLogFormats(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.log": "rt=0.500 st=200 m=x\nrt=0.250 st=429 m=y\n",
		"b.log": "200|1.5|z\n504|60|z\n",
		"c.log": `10.0.0.1 - - [29/Nov/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1 "-" "curl/8"` + "\n",
		"d.log": "something else\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	formatA, formatB := `rt=$request_time st=$status m=$model`, `$status|$request_time|$model`
	got, res := nginxCollect(t, []string{dir}, ingest.Options{LogFormats: []string{formatA, formatB}})
	want := []struct {
		source     string
		records    int64
		bad        int64
		seenPrefix string
	}{
		{"nginx", 2, 0, "request_time"}, // a.log
		{"nginx", 2, 0, "status"},       // b.log
		{"nginx:combined", 1, 0, "remote_addr"},
		{"nginx", 0, 1, "request_time"}, // d.log: read with formatA
	}
	for i, w := range want {
		fs := res.Files[i]
		if fs.Source != w.source || fs.Records != w.records || fs.BadLines != w.bad || len(fs.Seen) == 0 || fs.Seen[0] != w.seenPrefix {
			t.Errorf("%s: source %q, %d records, %d bad, seen %q; want %q, %d, %d, seen from %q",
				fs.Path, fs.Source, fs.Records, fs.BadLines, fs.Seen, w.source, w.records, w.bad, w.seenPrefix)
		}
	}
	wantRT := []float64{0.5, 0.25, 1.5, 60}
	for i, r := range wantRT {
		if !got[i].hasRT || got[i].rt != r {
			t.Errorf("record %d: request_time %v (%v), want %v", i+1, got[i].rt, got[i].hasRT, r)
		}
	}
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Reason, `want "rt="`) {
		t.Errorf("problems %v, want one naming formatA's first literal", res.Problems)
	}
	// A format that does not compile stops the run before any input.
	if _, _, err := ingest.Run([]string{dir}, ingest.Options{LogFormats: []string{"$request_time$status"}}, func() *nginxCollector { return &nginxCollector{} }); err == nil {
		t.Errorf("a bad log format did not stop the run")
	}
}

// TestLinkerdApacheByHand: Linkerd's proxy's apache access log among its
// own lines, counted by hand from the fixture (its documentation's five
// lines and three of an LLM gateway's): eight requests, the proxy's four
// own lines passed over, no duration; the client the caller's identity,
// none on the line without one ("-").
func TestLinkerdApacheByHand(t *testing.T) {
	got, res := nginxCollect(t, []string{filepath.Join("testdata", "text", "linkerd-apache.log")}, ingest.Options{})
	fs := res.Files[0]
	if fs.Source != "linkerd" || len(got) != 8 || fs.PassedOver != 4 || res.BadLines() != 0 {
		t.Fatalf("source %q, %d records, %d passed over, %d bad; want linkerd, 8, 4, 0", fs.Source, len(got), fs.PassedOver, res.BadLines())
	}
	books := "traffic.booksapp.serviceaccount.identity.linkerd.cluster.local"
	web := "web.apps.serviceaccount.identity.linkerd.cluster.local"
	want := []struct {
		status       int64
		method, uri  string
		client, addr string
		at           string
	}{
		{200, "GET", "http://webapp:7000/", books, "10.42.0.63", "2022-08-23T20:28:20.071809491Z"},
		{303, "POST", "http://webapp:7000/authors", books, "10.42.0.63", "2022-08-23T20:28:20.187706137Z"},
		{200, "GET", "http://webapp:7000/authors/104", books, "10.42.0.63", "2022-08-23T20:28:20.301798187Z"},
		{303, "POST", "http://webapp:7000/books", books, "10.42.0.63", "2022-08-23T20:28:20.409177224Z"},
		{200, "GET", "/ping", "", "10.42.0.1", "2022-08-23T20:28:23.049685223Z"},
		{429, "POST", "http://llm-gw:8000/v1/chat/completions", web, "10.42.0.70", "2026-12-05T10:00:01.500Z"},
		{200, "POST", "http://llm-gw:8000/v1/chat/completions", web, "10.42.0.70", "2026-12-05T10:00:02Z"},
		{503, "POST", "http://llm-gw:8000/v1/chat/completions", web, "fd00:10:42::46", "2026-12-05T10:00:03.250006Z"},
	}
	for i, g := range got {
		w := want[i]
		at, err := time.Parse(time.RFC3339Nano, w.at)
		if err != nil {
			t.Fatal(err)
		}
		if g.status != w.status || g.method != w.method || g.uri != w.uri || g.client != w.client || g.addr != w.addr || g.timeNS != at.UnixNano() || g.hasRT {
			t.Errorf("record %d: %d %s %s client %q addr %q time %d request_time %v; want %d %s %s %q %q %d none",
				i+1, g.status, g.method, g.uri, g.client, g.addr, g.timeNS, g.hasRT, w.status, w.method, w.uri, w.client, w.addr, at.UnixNano())
		}
	}
}

// TestLlamaServerByHand: llama.cpp's server's text log, counted by hand
// from the fixture: seven requests (its health check among them) read
// with their time, client, status, method and path and no duration; its
// seventeen other lines (its library's, start-up, slots, timings, a
// verbose request's bodies, a warning, an error) passed over. Its JSON
// form, the same members, stays JSON lines read by their names.
func TestLlamaServerByHand(t *testing.T) {
	got, res := nginxCollect(t, []string{filepath.Join("testdata", "text", "llama-server.log")}, ingest.Options{})
	fs := res.Files[0]
	if fs.Source != "llama-server" || len(got) != 7 || fs.PassedOver != 17 || res.BadLines() != 0 {
		t.Fatalf("source %q, %d records, %d passed over, %d bad; want llama-server, 7, 17, 0", fs.Source, len(got), fs.PassedOver, res.BadLines())
	}
	want := []struct {
		at           int64
		client       string
		status       int64
		method, path string
	}{
		{1773129595, "10.0.3.200", 200, "GET", "/health"},
		{1773129604, "10.0.3.200", 200, "POST", "/v1/chat/completions"},
		{1773129607, "10.0.1.5", 429, "POST", "/v1/chat/completions"},
		{1773129612, "10.0.1.160", 400, "POST", "/v1/completions"},
		{1773129614, "10.0.2.47", 500, "POST", "/v1/embeddings"},
		{1773129619, "::1", 200, "GET", "/v1/models"},
		{1773129620, "10.0.3.10", 503, "POST", "/completion"},
	}
	for i, g := range got {
		w := want[i]
		if g.timeNS != w.at*1e9 || g.client != w.client || g.status != w.status || g.method != w.method || g.uri != w.path || g.hasRT {
			t.Errorf("record %d: time %d client %q %d %s %s request_time %v; want %d %q %d %s %s none",
				i+1, g.timeNS, g.client, g.status, g.method, g.uri, g.hasRT, w.at*1e9, w.client, w.status, w.method, w.path)
		}
	}

	line := `{"tid": "140464586145792", "timestamp": 1773129607, "level": "INFO", "function": "log_server_request", "line": 2741, "msg": "request", "remote_addr": "10.0.1.5", "remote_port": 53959, "status": 429, "method": "POST", "path": "/v1/chat/completions", "params": {}}` + "\n"
	got, res = nginxCollect(t, []string{writeTemp(t, "llama-server.json.log", line+line)}, ingest.Options{})
	if fs := res.Files[0]; fs.Format != ingest.JSONL || len(got) != 2 || res.BadLines() != 0 {
		t.Fatalf("JSON form: %s, %d records, %d bad; want jsonl, 2, 0", fs.Format, len(got), res.BadLines())
	}
	if g := got[0]; g.timeNS != 1773129607e9 || g.client != "10.0.1.5" || g.status != 429 || g.method != "POST" || g.uri != "/v1/chat/completions" || g.hasRT {
		t.Errorf("JSON form: %+v", g)
	}
}

// TestGinOllamaRunner: Ollama's log with OLLAMA_DEBUG, its llama.cpp
// runner's lines among Gin's and its first [GIN] line past the 200th,
// counted from the fixture: each [GIN] line a request with its status
// and latency; each runner's request line (the calls Ollama made while
// serving them) passed over, never a record; the other lines Ollama's
// own (its slog lines, the loader's, the runner's), passed over too. The
// runner's lines alone (its level INFO, as Ollama's copy wrote it before
// it logged requests at DEBUG) are read as llama-server's.
func TestGinOllamaRunner(t *testing.T) {
	path := filepath.Join("testdata", "text", "gin-ollama-runner.log")
	type ginWant struct {
		status int64
		rt     float64
		path   string
	}
	var want []ginWant
	runner, own, other, firstGin := 0, 0, 0, 0
	var runnerLines []string
	for i, l := range fixtureLines(t, path) {
		switch {
		case strings.HasPrefix(l, "[GIN] "):
			if firstGin == 0 {
				firstGin = i + 1
			}
			f := strings.Split(l, "|")
			d, err := time.ParseDuration(strings.TrimSpace(f[2]))
			if err != nil {
				t.Fatal(err)
			}
			req := strings.Fields(f[4])
			want = append(want, ginWant{status: atoi(t, strings.TrimSpace(f[1])), rt: d.Seconds(), path: strings.Trim(req[1], `"`)})
		case strings.HasPrefix(l, "DEBUG [log_server_request] request | ") && strings.Contains(l, " status="):
			runner++
			runnerLines = append(runnerLines, strings.Replace(l, "DEBUG", "INFO", 1))
		case ollamaOwnByHand(l):
			own++
		case strings.TrimSpace(l) != "":
			other++
		}
	}
	if firstGin <= 200 || runner == 0 || own == 0 {
		t.Fatalf("fixture: first [GIN] line %d, %d runner lines, %d own; want past 200 and some", firstGin, runner, own)
	}
	got, res := nginxCollect(t, []string{path}, ingest.Options{})
	fs := res.Files[0]
	if fs.Format != ingest.Gin || len(got) != len(want) || fs.PassedOver != int64(runner+own) || res.BadLines() != int64(other) {
		t.Fatalf("%s, %d records, %d passed over, %d bad; want gin, %d, %d, %d", fs.Format, len(got), fs.PassedOver, res.BadLines(), len(want), runner+own, other)
	}
	for i, g := range got {
		if w := want[i]; g.status != w.status || g.uri != w.path || !g.hasRT || !near(g.rt, w.rt) {
			t.Errorf("record %d: %d %s %v (%v); want %d %s %v", i+1, g.status, g.uri, g.rt, g.hasRT, w.status, w.path, w.rt)
		}
	}

	got, res = nginxCollect(t, []string{writeTemp(t, "ollama-runner.log", strings.Join(runnerLines, "\n")+"\n")}, ingest.Options{})
	if fs := res.Files[0]; fs.Source != "llama-server" || len(got) != runner || res.BadLines() != 0 {
		t.Fatalf("runner's lines alone: source %q, %d records, %d bad; want llama-server, %d, 0", fs.Source, len(got), res.BadLines(), runner)
	}
	for i, g := range got {
		if g.client != "127.0.0.1" || g.method != "POST" || g.hasRT {
			t.Errorf("runner's record %d: %+v", i+1, g)
		}
	}
}

// ollamaOwnByHand reports whether l is one of the lines Ollama writes of
// itself, told by hand from their shapes in its documentation and
// issues: slog's "time=… level=… source=… msg=…", Go's log line with its
// date and file ("2024/12/11 08:59:50 routes.go:1123: INFO …"), Gin's
// "[GIN-debug] " lines and the warning's " - using …" ones, llama.cpp's
// loader lines (a function's name, then ": "), ggml_cuda_init's device
// line, and the runner's "LEVEL [function] message | …" lines other
// than its request lines.
func ollamaOwnByHand(l string) bool {
	if strings.HasPrefix(l, "time=") {
		return strings.Contains(l, " level=") && strings.Contains(l, " msg=")
	}
	if f := strings.Fields(l); len(f) > 2 && len(f[0]) == 10 && f[0][4] == '/' && f[0][7] == '/' && strings.HasSuffix(f[2], ":") && strings.Contains(f[2], ".go:") {
		return true
	}
	if strings.HasPrefix(l, "[GIN-debug] ") || strings.HasPrefix(l, " - using ") {
		return true
	}
	if strings.HasPrefix(l, "  Device ") && strings.Contains(l, ", compute capability ") {
		return true
	}
	if fn, _, ok := strings.Cut(l, ": "); ok && !strings.ContainsAny(fn, " []") {
		switch {
		case fn == "print_info", fn == "load_tensors", fn == "load_backend", fn == "load":
			return true
		}
		for _, p := range []string{"llama_", "llm_", "ggml_", "gguf_", "clip_"} {
			if strings.HasPrefix(fn, p) {
				return true
			}
		}
	}
	head, _, ok := strings.Cut(l, " | ")
	return ok && (strings.HasPrefix(head, "INFO [") || strings.HasPrefix(head, "DEBUG [")) &&
		strings.Contains(l, " timestamp=") && !(strings.Contains(head, "[log_server_request] request") && strings.Contains(l, " status="))
}

// TestGinOllamaOwnLines: `ollama serve`'s log, its journald unit's and
// its container's, counted from the fixture by hand: each well-formed
// [GIN] line a record with its status and latency; Ollama's own lines
// passed over (and, in the journal, systemd's about the unit); a [GIN]
// line cut wrong, a Go panic and its stack trace bad lines.
func TestGinOllamaOwnLines(t *testing.T) {
	path := filepath.Join("testdata", "text", "gin-ollama-serve.log")
	lines := fixtureLines(t, path)
	type ginWant struct {
		status int64
		rt     float64
	}
	var want []ginWant
	own, bad := 0, 0
	for _, l := range lines {
		if strings.HasPrefix(l, "[GIN] ") {
			f := strings.Split(l, "|")
			_, derr := time.Parse("2006/01/02 - 15:04:05", strings.TrimSpace(strings.TrimPrefix(f[0], "[GIN] ")))
			st, serr := strconv.Atoi(strings.TrimSpace(f[1]))
			d, lerr := time.ParseDuration(strings.TrimSpace(f[2]))
			if derr != nil || serr != nil || lerr != nil {
				bad++
				continue
			}
			want = append(want, ginWant{int64(st), d.Seconds()})
			continue
		}
		switch {
		case ollamaOwnByHand(l):
			own++
		case strings.TrimSpace(l) != "":
			bad++
		}
	}
	if len(want) == 0 || own == 0 || bad == 0 {
		t.Fatalf("fixture: %d requests, %d own lines, %d bad; want some of each", len(want), own, bad)
	}

	// The journal's short form: the unit's lines after their date, host
	// and tag, systemd's own about the unit first; blank lines dropped.
	var journal, docker strings.Builder
	journal.WriteString("Dec 11 08:59:50 gpu-1 systemd[1]: Started ollama.service - Ollama Service.\n")
	for _, l := range lines {
		if l != "" {
			journal.WriteString("Dec 11 08:59:50 gpu-1 ollama[1543654]: " + l + "\n")
		}
		b, err := json.Marshal(map[string]string{"log": l + "\n", "stream": "stderr", "time": "2024-12-11T01:00:00.000000000Z"})
		if err != nil {
			t.Fatal(err)
		}
		docker.Write(append(b, '\n'))
	}
	for _, c := range []struct {
		name, path string
		passed     int
	}{
		{"ollama serve", path, own},
		{"journalctl -u ollama", writeTemp(t, "ollama-journal.txt", journal.String()), own + 1},
		{"docker logs", writeTemp(t, "ollama-docker.log", docker.String()), own},
	} {
		got, res := nginxCollect(t, []string{c.path}, ingest.Options{})
		fs := res.Files[0]
		if fs.Format != ingest.Gin || len(got) != len(want) || fs.PassedOver != int64(c.passed) || res.BadLines() != int64(bad) {
			t.Errorf("%s: %s, %d records, %d passed over, %d bad; want gin, %d, %d, %d", c.name, fs.Format, len(got), fs.PassedOver, res.BadLines(), len(want), c.passed, bad)
			continue
		}
		for i, g := range got {
			if w := want[i]; g.status != w.status || !g.hasRT || !near(g.rt, w.rt) {
				t.Errorf("%s: record %d: %d %v; want %d %v", c.name, i+1, g.status, g.rt, w.status, w.rt)
			}
		}
	}
}

// oneAPIOwnByHand reports whether l is a line of one-api's or new-api's
// logger, told by hand from its format (songquanpeng/one-api
// common/logger, QuantumNous/new-api logger/logger.go): a level in
// brackets, Gin's date, then " | ".
func oneAPIOwnByHand(l string) bool {
	level, rest, ok := strings.Cut(l, "] ")
	if !ok || len(rest) < 24 {
		return false
	}
	switch level {
	case "[SYS", "[DEBUG", "[INFO", "[WARN", "[ERR", "[ERROR", "[FATAL":
	default:
		return false
	}
	_, err := time.Parse("2006/01/02 - 15:04:05", rest[:21])
	return err == nil && rest[21:24] == " | "
}

// TestGinOneAPIOwnLines: one-api's and new-api's log, counted from the
// fixture by hand: each [GIN] line that reads (its request id first, the
// client as new-api writes it or not) a record with its status, latency,
// client and path; the logger's own lines and Gin's debug lines passed
// over; a [GIN] line cut wrong and Gin's error after a request bad lines.
func TestGinOneAPIOwnLines(t *testing.T) {
	path := filepath.Join("testdata", "text", "gin-oneapi.log")
	type ginWant struct {
		status     int64
		rt         float64
		addr, path string
	}
	var want []ginWant
	own, bad := 0, 0
	for _, l := range fixtureLines(t, path) {
		switch {
		case strings.HasPrefix(l, "[GIN] "):
			f := strings.Split(l, "|")
			for i := range f {
				f[i] = strings.TrimSpace(f[i])
			}
			st, serr := strconv.Atoi(f[2]) // after the request id
			if serr != nil || len(f) != 6 {
				bad++
				continue
			}
			d, err := time.ParseDuration(f[3])
			if err != nil {
				t.Fatal(err)
			}
			addr := strings.TrimPrefix(f[4], "client_ip=")
			if addr == "unknown" {
				addr = ""
			}
			_, p, _ := strings.Cut(f[5], " ")
			want = append(want, ginWant{int64(st), d.Seconds(), addr, p})
		case oneAPIOwnByHand(l), ollamaOwnByHand(l):
			own++
		case strings.TrimSpace(l) != "":
			bad++
		}
	}
	if len(want) == 0 || own == 0 || bad == 0 {
		t.Fatalf("fixture: %d requests, %d own lines, %d bad; want some of each", len(want), own, bad)
	}
	got, res := nginxCollect(t, []string{path}, ingest.Options{})
	fs := res.Files[0]
	if fs.Format != ingest.Gin || len(got) != len(want) || fs.PassedOver != int64(own) || res.BadLines() != int64(bad) {
		t.Fatalf("%s, %d records, %d passed over, %d bad; want gin, %d, %d, %d", fs.Format, len(got), fs.PassedOver, res.BadLines(), len(want), own, bad)
	}
	for i, g := range got {
		if w := want[i]; g.status != w.status || !g.hasRT || !near(g.rt, w.rt) || g.addr != w.addr || g.uri != w.path {
			t.Errorf("record %d: %d %v %q %q; want %d %v %q %q", i+1, g.status, g.rt, g.addr, g.uri, w.status, w.rt, w.addr, w.path)
		}
	}
}

// TestGinExtraFields: new-api's request lines with its route's tag
// before the request id, and sealos aiproxy's with the model after it,
// counted from the fixtures by hand: the status is the fourth of the
// '|'-separated fields when the line holds seven (the date, two fields,
// the status, the latency, the client, the request), the third when it
// holds six; each such line a record with its status, latency,
// client, method and path; new-api's logger's lines passed over; a line
// of three fields before its status a bad line.
func TestGinExtraFields(t *testing.T) {
	for _, name := range []string{"gin-newapi-tags.log", "gin-aiproxy.log"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "text", name)
			var want []ginRequest
			own, bad := 0, 0
			for _, l := range fixtureLines(t, path) {
				switch {
				case strings.HasPrefix(l, "[GIN] "):
					f := strings.Split(l, "|")
					for i := range f {
						f[i] = strings.TrimSpace(f[i])
					}
					at := map[int]int{6: 2, 7: 3}[len(f)]
					if at == 0 {
						bad++
						continue
					}
					st, err := strconv.Atoi(f[at])
					if err != nil {
						t.Fatal(err)
					}
					d, err := time.ParseDuration(f[at+1])
					if err != nil {
						t.Fatal(err)
					}
					m, p, _ := strings.Cut(f[at+3], " ")
					want = append(want, ginRequest{int64(st), d.Seconds(), f[at+2], m, p})
				case oneAPIOwnByHand(l):
					own++
				case strings.TrimSpace(l) != "":
					bad++
				}
			}
			checkGinRequests(t, path, want, own, bad)
		})
	}
}

// krakendOwnByHand reports whether l is one of KrakenD's own lines, told
// by hand from its loggers: krakend-gologging's (a prefix, the date with
// ms, the level's colour escape or none, "▶ ", the level; krakend-
// gologging log.go DefaultPattern), lura's through Go's log (its date,
// "KRAKEND", the level and a colon; lura logging/log.go), and its
// main's "Signal intercepted: " through Go's log.
func krakendOwnByHand(l string) bool {
	if before, after, ok := strings.Cut(l, "▶ "); ok {
		if i := strings.LastIndex(before, "\x1b["); i >= 0 && strings.HasSuffix(before, "m") {
			before = before[:i]
		}
		if len(before) < 26 || before[len(before)-1] != ' ' {
			return false
		}
		if _, err := time.Parse("2006/01/02 - 15:04:05.000", before[len(before)-26:len(before)-1]); err != nil {
			return false
		}
		level, _, _ := strings.Cut(after, "\x1b[")
		return slices.Contains([]string{"DEBUG", "INFO", "NOTICE", "WARNING", "ERROR", "CRITICAL"}, level)
	}
	if len(l) < 20 || l[19] != ' ' {
		return false
	}
	if _, err := time.Parse("2006/01/02 15:04:05", l[:19]); err != nil {
		return false
	}
	rest := l[20:]
	if strings.HasPrefix(rest, "Signal intercepted: ") {
		return true
	}
	level, _, ok := strings.Cut(strings.TrimPrefix(rest, "KRAKEND "), ": ")
	return ok && strings.HasPrefix(rest, "KRAKEND ") && slices.Contains([]string{"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL", "FATAL"}, level)
}

// TestGinKrakenD: KrakenD's log, its access lines Gin's default ones
// among its own, counted from the fixtures by hand: each [GIN] line a
// record with its status, latency, client, method and quoted path; the
// lines of KrakenD's loggers (krakendOwnByHand) passed over; Gin's
// recovery of a panic and its error bad lines.
func TestGinKrakenD(t *testing.T) {
	for _, name := range []string{"gin-krakend.log", "gin-krakend-lura.log"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "text", name)
			var want []ginRequest
			own, bad := 0, 0
			for _, l := range fixtureLines(t, path) {
				switch {
				case strings.HasPrefix(l, "[GIN] "):
					f := strings.Split(l, "|")
					st, err := strconv.Atoi(strings.TrimSpace(f[1]))
					if err != nil {
						t.Fatal(err)
					}
					d, err := time.ParseDuration(strings.TrimSpace(f[2]))
					if err != nil {
						t.Fatal(err)
					}
					req := strings.Fields(f[4])
					p, err := strconv.Unquote(req[1])
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, ginRequest{int64(st), d.Seconds(), strings.TrimSpace(f[3]), req[0], p})
				case krakendOwnByHand(l):
					own++
				case strings.TrimSpace(l) != "":
					bad++
				}
			}
			if len(want) == 0 || own == 0 {
				t.Fatalf("fixture: %d requests, %d own lines; want some of each", len(want), own)
			}
			checkGinRequests(t, path, want, own, bad)
		})
	}
}

// llamaFuncLineByHand reports whether l is a line llama.cpp's library
// writes, told by hand from its logging (LLAMA_LOG_*("%s: …", __func__)
// in src/llama-*.cpp): a C function's name, lower case letters and
// underscores, then ": ". Go's "panic: " is no such line.
func llamaFuncLineByHand(l string) bool {
	fn, _, ok := strings.Cut(l, ": ")
	if !ok || fn == "" || fn == "panic" {
		return false
	}
	for _, c := range fn {
		if (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// TestGinOllamaLoadLines: an Ollama log whose first request's [GIN] line
// follows the model's load, hundreds of llama.cpp's lines (with
// OLLAMA_DEBUG and Ollama's Go runner: no llama.cpp server's request
// line before it), counted by hand: it is told a Gin log, its own lines
// left out of the lines the first request line is looked for in; each
// [GIN] line a record; Ollama's and llama.cpp's lines passed over; a Go
// panic a bad line.
func TestGinOllamaLoadLines(t *testing.T) {
	path := filepath.Join("testdata", "text", "gin-ollama-load.log")
	type ginWant struct {
		status int64
		rt     float64
	}
	var want []ginWant
	own, bad, firstGin := 0, 0, 0
	for i, l := range fixtureLines(t, path) {
		switch {
		case strings.HasPrefix(l, "[GIN] "):
			if firstGin == 0 {
				firstGin = i + 1
			}
			f := strings.Split(l, "|")
			st, err := strconv.Atoi(strings.TrimSpace(f[1]))
			if err != nil {
				t.Fatal(err)
			}
			d, err := time.ParseDuration(strings.TrimSpace(f[2]))
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, ginWant{int64(st), d.Seconds()})
		case strings.Contains(l, "[log_server_request] request | "):
			t.Fatalf("fixture: line %d is a runner's request line", i+1)
		case ollamaOwnByHand(l), llamaFuncLineByHand(l):
			own++
		case strings.TrimSpace(l) != "":
			bad++
		}
	}
	if firstGin <= 200 || own < 200 || bad == 0 {
		t.Fatalf("fixture: first [GIN] line %d, %d own lines, %d bad; want past 200, 200 or more, some", firstGin, own, bad)
	}
	got, res := nginxCollect(t, []string{path}, ingest.Options{})
	fs := res.Files[0]
	if fs.Format != ingest.Gin || len(got) != len(want) || fs.PassedOver != int64(own) || res.BadLines() != int64(bad) {
		t.Fatalf("%s, %d records, %d passed over, %d bad; want gin, %d, %d, %d", fs.Format, len(got), fs.PassedOver, res.BadLines(), len(want), own, bad)
	}
	for i, g := range got {
		if w := want[i]; g.status != w.status || !g.hasRT || !near(g.rt, w.rt) {
			t.Errorf("record %d: %d %v; want %d %v", i+1, g.status, g.rt, w.status, w.rt)
		}
	}
}

// ginRequest is a Gin request line's values, counted from a fixture by
// hand.
type ginRequest struct {
	status             int64
	rt                 float64
	addr, method, path string
}

// checkGinRequests reads path and checks that it is read as a Gin log of
// the requests want, in order, each with its status, latency, client,
// method and path, own lines passed over and bad bad lines.
func checkGinRequests(t *testing.T, path string, want []ginRequest, own, bad int) {
	t.Helper()
	got, res := nginxCollect(t, []string{path}, ingest.Options{})
	fs := res.Files[0]
	if fs.Format != ingest.Gin || len(got) != len(want) || fs.PassedOver != int64(own) || res.BadLines() != int64(bad) {
		t.Fatalf("%s, %d records, %d passed over, %d bad; want gin, %d, %d, %d", fs.Format, len(got), fs.PassedOver, res.BadLines(), len(want), own, bad)
	}
	for i, g := range got {
		if w := want[i]; g.status != w.status || !g.hasRT || !near(g.rt, w.rt) || g.addr != w.addr || g.method != w.method || g.uri != w.path {
			t.Errorf("record %d: %d %v %q %s %q; want %d %v %q %s %q", i+1, g.status, g.rt, g.addr, g.method, g.uri, w.status, w.rt, w.addr, w.method, w.path)
		}
	}
}

// TestPyDevNotEnvoy: a line that begins as a development server's,
// `[time] "request" status`, but goes on past the size (Envoy's
// `[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)%
// %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %DURATION%
// %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% …`, its durations) is no
// Django's or werkzeug's: a file of them is not read as one, which would
// say it had no request time.
func TestPyDevNotEnvoy(t *testing.T) {
	var b strings.Builder
	for i := range 5 {
		fmt.Fprintf(&b, `[2025-03-10T22:00:%02d.631+0800] "POST /v1/chat/completions HTTP/1.1" 200 - %d %d "10.0.3.12" "10.42.2.9:8000"`+"\n", i, 8845+i, 8843+i)
	}
	_, res := collect(t, []string{writeTemp(t, "envoy.log", b.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Source == "django" || f.Source == "werkzeug" {
		t.Errorf("Envoy's lines read as %s's: %d records", f.Source, f.Records)
	}
}
