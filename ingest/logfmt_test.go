package ingest_test

import (
	"bufio"
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
