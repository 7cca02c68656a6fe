package ingest_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// logfmtPair is a key=value pair as logfmt writes it: a bare value, or
// a quoted one with Go's escapes. The oracle's own reading, with
// strconv.Unquote for the quoted values.
var logfmtPair = regexp.MustCompile(`(?:^|\s)([^\s="]+)=("(?:[^"\\]|\\.)*"|[^\s"]*)`)

// logfmtOracle reads a line's pairs, or nil for a line with a quote no
// quote closes (a bad line) or no pair.
func logfmtOracle(t *testing.T, line string) map[string]string {
	t.Helper()
	if strings.Count(strings.ReplaceAll(line, `\"`, ""), `"`)%2 == 1 {
		return nil
	}
	out := map[string]string{}
	for _, m := range logfmtPair.FindAllStringSubmatch(line, -1) {
		v := m[2]
		if strings.HasPrefix(v, `"`) {
			u, err := strconv.Unquote(v)
			if err != nil {
				t.Fatalf("oracle: %q: %v", v, err)
			}
			v = u
		}
		out[m[1]] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// oracleMs is a duration value in ms: a Go duration with its unit, or a
// number in the name's unit (ms: SPEC's duration).
func oracleMs(t *testing.T, v string) float64 {
	t.Helper()
	if d, err := time.ParseDuration(strings.ReplaceAll(v, "µs", "us")); err == nil {
		return float64(d) / 1e6
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("oracle: duration %q", v)
	}
	return f
}

// TestLogfmt reads a log of Go's loggers' logfmt (slog's TextHandler,
// logrus' text format): each line's pairs by their names, quoted values
// with their escapes, a time before the pairs, a quote no quote closes
// a bad line; the values held to the oracle's reading of the file.
func TestLogfmt(t *testing.T) {
	path := filepath.Join("testdata", "text", "logfmt.log")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type want struct {
		timeNS       int64
		rt           float64 // ms
		status       int64
		uri, addr    string
		model, words string
	}
	var wants []want
	bad := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		kv := logfmtOracle(t, line)
		if kv == nil {
			bad++
			continue
		}
		ts := kv["time"]
		if ts == "" {
			ts = strings.Fields(line)[0] // the time before the pairs
		}
		tm, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			t.Fatalf("oracle: time %q", ts)
		}
		st, _ := strconv.ParseInt(kv["status"], 10, 64)
		wants = append(wants, want{timeNS: tm.UnixNano(), rt: oracleMs(t, kv["duration"]), status: st,
			uri: kv["path"], addr: kv["client_ip"], model: kv["model"]})
	}
	if len(wants) != 6 || bad != 1 {
		t.Fatalf("oracle: %d records and %d bad lines, want 6 and 1", len(wants), bad)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(res.Files) != 1 || res.Files[0].Format != "logfmt" || res.Files[0].Source != "logfmt" {
		t.Fatalf("files %+v, want one read as logfmt", res.Files)
	}
	if len(got) != len(wants) || res.BadLines() != int64(bad) {
		t.Fatalf("%d records and %d bad lines, want %d and %d: %v", len(got), res.BadLines(), len(wants), bad, res.Problems)
	}
	if p := res.Problems[0]; p.Line != 6 || !strings.Contains(p.Reason, "quote") {
		t.Errorf("bad line %+v, want line 6's unclosed quote", p)
	}
	for i, w := range wants { // the file's lines are in time order, as collect sorts
		g := got[i]
		if g.timeNS != w.timeNS || math.Abs(g.rt*1000-w.rt) > 1e-9*w.rt || g.status != w.status ||
			g.uri != w.uri || g.remoteAddr != w.addr || g.model != w.model {
			t.Errorf("record %d: time %d, rt %v ms, status %d, uri %q, addr %q, model %q; want %+v",
				i, g.timeNS, g.rt*1000, g.status, g.uri, g.remoteAddr, g.model, w)
		}
	}
}

// TestHerokuRouter reads Heroku's router log as `heroku logs` prints it:
// the router's lines by Heroku's names (service ms the request_time,
// connect ms, fwd the caller), the other processes' lines passed over.
func TestHerokuRouter(t *testing.T) {
	path := filepath.Join("testdata", "text", "heroku-router.log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		timeNS      int64
		rt, connect float64
		status      int64
		uri, client string
		passedOver  bool
	}
	var wants []want
	passed := int64(0)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		words := strings.Fields(line)
		if words[1] != "heroku[router]:" {
			passed++
			continue
		}
		kv := logfmtOracle(t, line)
		tm, err := time.Parse(time.RFC3339Nano, words[0])
		if err != nil {
			t.Fatal(err)
		}
		st, _ := strconv.ParseInt(kv["status"], 10, 64)
		wants = append(wants, want{timeNS: tm.UnixNano(), rt: oracleMs(t, kv["service"]), connect: oracleMs(t, kv["connect"]),
			status: st, uri: kv["path"], client: kv["fwd"]})
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(res.Files) != 1 || res.Files[0].Source != "heroku-router" || res.Files[0].PassedOver != passed || passed != 3 {
		t.Fatalf("files %+v, want source heroku-router with %d lines passed over", res.Files, passed)
	}
	if len(got) != len(wants) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines, want %d and 0: %v", len(got), res.BadLines(), len(wants), res.Problems)
	}
	for i, w := range wants {
		g := got[i]
		if g.timeNS != w.timeNS || math.Abs(g.rt*1000-w.rt) > 1e-9 || g.status != w.status || g.uri != w.uri ||
			g.remoteAddr != w.client || g.client != w.client {
			t.Errorf("record %d: time %d, rt %v ms, status %d, uri %q, addr %q, client %q; want %+v",
				i, g.timeNS, g.rt*1000, g.status, g.uri, g.remoteAddr, g.client, w)
		}
	}
	acc, _ := accumulate(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if n := acc.Present()[ingest.FUpstreamConnectTime]; n != int64(len(wants)) {
		t.Errorf("%d records with upstream_connect_time, want %d", n, len(wants))
	}
}

// TestLogfmtOwnLog: a logfmt file of a program's own lines (a level and
// a message, no request's key) is its own log, each line passed over, as
// a JSON-lines own log is; a logrus line that carries a request's keys
// after time="…" level=… msg=… is read, not taken for Traefik's own log.
func TestLogfmtOwnLog(t *testing.T) {
	own := filepath.Join("testdata", "text", "logfmt-own.log")
	got, res := collect(t, []string{own}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 0 || res.Files[0].Source != "own-log" || res.Files[0].PassedOver != 3 || res.BadLines() != 0 {
		t.Fatalf("%d records, files %+v, want an own log of 3 lines passed over", len(got), res.Files)
	}
	dir := t.TempDir()
	logrus := filepath.Join(dir, "app.log")
	lines := `time="2026-12-05T10:00:00Z" level=info msg="request completed" method=POST path=/v1/chat/completions status=200 duration=12ms
time="2026-12-05T10:00:01Z" level=info msg="request completed" method=POST path=/v1/chat/completions status=429 duration=3ms
`
	if err := os.WriteFile(logrus, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res = collect(t, []string{logrus}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 2 || res.Files[0].Format != "logfmt" || got[0].rt != 0.012 || got[1].status != 429 {
		t.Fatalf("%+v, files %+v: want the 2 requests read as logfmt", got, res.Files)
	}
}

// TestAgentgatewayText reads agentgateway's default text log: its lines
// are a date, a level and a target cut by tabs; the request target's
// ("request") go on with logfmt pairs, read by agentgateway's names, and
// the gateway's own lines are passed over. Its tabs make no TSV of it,
// nor do more start-up lines than a sniff looks at.
func TestAgentgatewayText(t *testing.T) {
	path := filepath.Join("testdata", "text", "agentgateway.log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		timeNS       int64
		rt, ttft     float64 // ms; ttft NaN when absent
		status       int64
		uri, model   string
		client       string
		prompt, comp int64 // -1 when absent
	}
	var wants []want
	passed := int64(0)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) != 3 || !strings.HasPrefix(cols[2], "request ") {
			passed++
			continue
		}
		kv := logfmtOracle(t, cols[2])
		tm, err := time.Parse(time.RFC3339Nano, cols[0])
		if err != nil {
			t.Fatal(err)
		}
		w := want{timeNS: tm.UnixNano(), rt: oracleMs(t, kv["duration"]), ttft: math.NaN(), uri: kv["http.path"], model: kv["gen_ai.request.model"]}
		w.status, _ = strconv.ParseInt(kv["http.status"], 10, 64)
		w.prompt, w.comp = -1, -1 // absent
		if n, err := strconv.ParseInt(kv["gen_ai.usage.input_tokens"], 10, 64); err == nil {
			w.prompt = n
		}
		if n, err := strconv.ParseInt(kv["gen_ai.usage.output_tokens"], 10, 64); err == nil {
			w.comp = n
		}
		if s := kv["agw.ai.time_to_first_token"]; s != "" { // seconds
			f, _ := strconv.ParseFloat(s, 64)
			w.ttft = f * 1000
		}
		addr := kv["src.addr"]
		w.client = strings.Trim(addr[:strings.LastIndexByte(addr, ':')], "[]")
		wants = append(wants, w)
	}
	if len(wants) != 4 || passed != 4 {
		t.Fatalf("oracle: %d requests and %d own lines, want 4 and 4", len(wants), passed)
	}
	// The same log after a start-up longer than the lines a sniff reads.
	var long strings.Builder
	for i := range 30 {
		fmt.Fprintf(&long, "2026-03-10T08:00:00.%06dZ\tinfo\tproxy::gateway\tstarted bind\tbind=\"bind/%d\"\n", i, 8000+i)
	}
	long.Write(b)
	longPath := filepath.Join(t.TempDir(), "agentgateway-long.log")
	if err := os.WriteFile(longPath, []byte(long.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path   string
		passed int64
	}{{path, passed}, {longPath, passed + 30}} {
		got, res := collect(t, []string{c.path}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(res.Files) != 1 || res.Files[0].Format != "logfmt" || res.Files[0].Source != "agentgateway" || res.Files[0].PassedOver != c.passed {
			t.Fatalf("%s: files %+v, want logfmt of source agentgateway, %d lines passed over", c.path, res.Files, c.passed)
		}
		if len(got) != len(wants) || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad lines, want %d and 0: %v", c.path, len(got), res.BadLines(), len(wants), res.Problems)
		}
		for i, w := range wants {
			g := got[i]
			if g.timeNS != w.timeNS || math.Abs(g.rt*1000-w.rt) > 1e-9 || math.IsNaN(g.ttft) != math.IsNaN(w.ttft) || math.Abs(g.ttft-w.ttft) > 1e-9 || g.status != w.status ||
				g.uri != w.uri || g.model != w.model || g.client != w.client || g.prompt != w.prompt || g.completion != w.comp {
				t.Errorf("%s: record %d: time %d, rt %v ms, ttft %v ms, status %d, uri %q, model %q, client %q, tokens %d/%d; want %+v",
					c.path, i, g.timeNS, g.rt*1000, g.ttft, g.status, g.uri, g.model, g.client, g.prompt, g.completion, w)
			}
		}
	}
}

// rubyLoggerLine is Ruby's Logger::Formatter's line (ruby/logger
// lib/logger/formatter.rb, "%.1s, [%s #%d] %5s -- %s: %s\n"): the
// oracle's own reading of its time and its message.
var rubyLoggerLine = regexp.MustCompile(`^[A-Z], \[(\S+) #\d+\] +[A-Z]+ -- [^:]*: (.*)$`)

// TestLogfmtRubyLogger reads lograge's key=value lines behind the prefix
// Ruby's Logger writes (Rails up to 7.0 in production): each line's
// pairs, and the prefix's time, which has no zone, in --tz.
func TestLogfmtRubyLogger(t *testing.T) {
	path := filepath.Join("testdata", "text", "lograge-rubylogger.log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	loc := time.FixedZone("UTC+3", 3*3600)
	type want struct {
		timeNS int64
		rt     float64 // ms
		status int64
		uri    string
	}
	var wants []want
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		m := rubyLoggerLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("oracle: %q is no Logger line", line)
		}
		tm, err := time.ParseInLocation("2006-01-02T15:04:05.000000", m[1], loc)
		if err != nil {
			t.Fatal(err)
		}
		kv := logfmtOracle(t, m[2])
		st, _ := strconv.ParseInt(kv["status"], 10, 64)
		wants = append(wants, want{timeNS: tm.UnixNano(), rt: oracleMs(t, kv["duration"]), status: st, uri: kv["path"]})
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: loc})
	if len(res.Files) != 1 || res.Files[0].Format != "logfmt" {
		t.Fatalf("files %+v, want one read as logfmt", res.Files)
	}
	if len(got) != len(wants) || res.BadLines() != 0 {
		t.Fatalf("%d records and %d bad lines, want %d and 0: %v", len(got), res.BadLines(), len(wants), res.Problems)
	}
	for i, w := range wants {
		g := got[i]
		if g.timeNS != w.timeNS || !(math.Abs(g.rt*1000-w.rt) <= 1e-9*w.rt) || g.status != w.status || g.uri != w.uri {
			t.Errorf("record %d: time %d, rt %v ms, status %d, uri %q; want %+v", i, g.timeNS, g.rt*1000, g.status, g.uri, w)
		}
	}
}
