package ingest_test

import (
	"bufio"
	"encoding/json"
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

// TestTowerHTTPJSON reads tower-http's TraceLayer events as
// tracing-subscriber's JSON formatter writes them, the event's fields
// nested or flattened: each finished event is one request, its uri the
// span's; the started and failed events and the service's own lines are
// passed over.
func TestTowerHTTPJSON(t *testing.T) {
	for _, file := range []string{"tower-http.jsonl", "tower-http-flat.jsonl"} {
		path := filepath.Join("testdata", "sources", file)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		lines := 0
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			lines++
			var l struct {
				Message string
				Fields  struct{ Message string }
				Span    struct{ URI string }
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			if l.Message == "finished processing request" || l.Fields.Message == "finished processing request" {
				uris = append(uris, l.Span.URI)
			}
		}
		f.Close()
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		fs := res.Files[0]
		if fs.Source != "tower-http" || len(got) != len(uris) || fs.PassedOver != int64(lines-len(uris)) || fs.BadLines != 0 {
			t.Fatalf("%s: source %q, %d records, %d passed over, %d bad; want tower-http, %d, %d, 0",
				file, fs.Source, len(got), fs.PassedOver, fs.BadLines, len(uris), lines-len(uris))
		}
		for i, u := range uris {
			if got[i].uri != u {
				t.Errorf("%s: record %d: uri %q, want %q", file, i, got[i].uri, u)
			}
		}
	}
}

// Of a tracing-subscriber text line (full or compact format), once its
// colours are cut: the time, and the answer's latency, status and uri.
var (
	towerColour  = regexp.MustCompile("\x1b\\[[0-9;]*m")
	towerLatency = regexp.MustCompile(` latency=([0-9.]+) (s|ms|μs|ns)\b`)
	towerStatus  = regexp.MustCompile(` status=([0-9]+)`)
	towerURI     = regexp.MustCompile(`[{ ]uri=([^ }]+)`)
)

// TestTowerHTTPText reads tower-http's TraceLayer events in
// tracing-subscriber's text formats, full and compact: each finished
// event is one request, its latency read in the unit it names, its
// status and uri; the start and failure events are passed over, in the
// request's span or outside it, as is another event in the span; the
// service's own line is a bad line. The wants are worked out here from
// the lines' text.
func TestTowerHTTPText(t *testing.T) {
	type want struct {
		timeNS int64
		rt     float64 // s
		status int64   // 0: none
		uri    string
	}
	// TensorZero's gateway at debug level: the same events under its
	// own target, with their colours or not.
	for _, file := range []string{"tower-http.log", "tower-http-compact.log", "tensorzero-debug.log", "tensorzero-debug-ansi.log"} {
		path := filepath.Join("testdata", "text", file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var wants []want
		passed, bad := 0, 0
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			line = towerColour.ReplaceAllString(line, "")
			switch {
			case strings.Contains(line, "tower_http::trace::on_response: ") && strings.Contains(line, ": finished processing request"),
				strings.Contains(line, "tensorzero_core::observability::request_logging: finished processing request latency="):
			case strings.Contains(line, "tower_http::trace::"), strings.Contains(line, "request{"):
				passed++
				continue
			default:
				bad++
				continue
			}
			at, err := time.Parse(time.RFC3339Nano, strings.Fields(line)[0])
			if err != nil {
				t.Fatal(err)
			}
			w := want{timeNS: at.UnixNano()}
			m := towerLatency.FindStringSubmatch(line)
			v, err := strconv.ParseFloat(m[1], 64)
			if err != nil {
				t.Fatal(err)
			}
			w.rt = v * map[string]float64{"s": 1, "ms": 1e-3, "μs": 1e-6, "ns": 1e-9}[m[2]]
			if m := towerStatus.FindStringSubmatch(line); m != nil {
				w.status, _ = strconv.ParseInt(m[1], 10, 64)
			}
			if m := towerURI.FindStringSubmatch(line); m != nil {
				w.uri = m[1]
			}
			wants = append(wants, w)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.FixedZone("CST", 8*3600)})
		fs := res.Files[0]
		if fs.Format != ingest.Tracing || fs.Source != "tower-http" || len(got) != len(wants) || fs.PassedOver != int64(passed) || fs.BadLines != int64(bad) {
			t.Fatalf("%s: format %q, source %q, %d records, %d passed over, %d bad %v; want tracing, tower-http, %d, %d, %d",
				file, fs.Format, fs.Source, len(got), fs.PassedOver, fs.BadLines, res.Problems, len(wants), passed, bad)
		}
		for i, w := range wants {
			g := got[i]
			if g.timeNS != w.timeNS || math.Abs(g.rt-w.rt) > 1e-12 || g.hasStatus != (w.status != 0) || g.status != w.status || g.uri != w.uri {
				t.Errorf("%s: record %d: time %v, request_time %v s, status %d (%v), uri %q; want %v, %v, %d, %q", file, i,
					time.Unix(0, g.timeNS).UTC(), g.rt, g.status, g.hasStatus, g.uri, time.Unix(0, w.timeNS).UTC(), w.rt, w.status, w.uri)
			}
		}
	}
}
