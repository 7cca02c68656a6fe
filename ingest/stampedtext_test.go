package ingest_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// stampedWant is a text log's request behind a time, as the test reads
// it from the line itself: its own time, status and duration.
type stampedWant struct {
	timeNS int64
	status int64
	rt     float64 // seconds
}

// envoyLine reads Envoy's default format by hand
// (https://www.envoyproxy.io/docs/envoy/latest/configuration/observability/access_log/usage#default-format-string):
// [START_TIME] "REQUEST" RESPONSE_CODE RESPONSE_FLAGS BYTES_RECEIVED
// BYTES_SENT DURATION (ms) …
var envoyLine = regexp.MustCompile(`\[([^\]]+)\] "[^"]*" (\d{3}) \S+ \d+ \d+ (\d+) `)

// elbLine reads AWS Classic ELB's access log by hand
// (https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/access-log-collection.html):
// time elb client:port backend:port request_processing_time
// backend_processing_time response_processing_time elb_status_code …;
// the request's time is the three processing times' sum.
func elbLine(t *testing.T, l string) stampedWant {
	f := strings.Fields(l)
	at, err := time.Parse(time.RFC3339Nano, f[0])
	if err != nil {
		t.Fatal(err)
	}
	st, err := strconv.ParseInt(f[7], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return stampedWant{timeNS: at.UnixNano(), status: st, rt: -1}
}

// albLine reads AWS ALB's access log by hand
// (https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-access-logs.html):
// type time elb client:port target:port request_processing_time
// target_processing_time response_processing_time elb_status_code …
// matched_rule_priority request_creation_time …; the request's time is
// from request_creation_time to time.
func albLine(t *testing.T, l string) stampedWant {
	f := strings.Fields(l)
	end, err := time.Parse(time.RFC3339Nano, f[1])
	if err != nil {
		t.Fatal(err)
	}
	st, err := strconv.ParseInt(f[8], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`" -?\d+ (\S+Z) "`).FindStringSubmatch(l)
	if m == nil {
		t.Fatalf("no request_creation_time in %q", l)
	}
	start, err := time.Parse(time.RFC3339Nano, m[1])
	if err != nil {
		t.Fatal(err)
	}
	return stampedWant{timeNS: start.UnixNano(), status: st, rt: end.Sub(start).Seconds()}
}

// TestStampedText: a text format's lines behind the time a log platform
// prints before each (logcli's default output with --no-labels; aws logs
// tail's time and log stream), whose own line begins with '[' (Envoy's
// default format) or with its own time (AWS Classic ELB's), are read as
// the lines alone, each with its own time; Envoy's own lines among them
// are passed over.
func TestStampedText(t *testing.T) {
	cases := []struct {
		path   string
		inner  func(t *testing.T, l string) (stampedWant, bool)
		passed int64
	}{
		{"testdata/text/envoy-logcli.log", envoyWant, 0},
		{"testdata/text/envoy-awstail.log", envoyWant, 1},
		{"testdata/text/envoy-logcli-labels.log", envoyWant, 0},
		{"testdata/text/aws-elb-logcli.log", func(t *testing.T, l string) (stampedWant, bool) { return elbLine(t, l), true }, 0},
		// kubectl logs --timestamps of AWS ALB's lines, which go on past
		// the fields the format reads.
		{"testdata/text/aws-alb-kubectl.log", func(t *testing.T, l string) (stampedWant, bool) { return albLine(t, l), true }, 0},
	}
	for _, c := range cases {
		raw, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		var want []stampedWant
		for _, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
			// The line behind the time, and the stream's name when one
			// follows it.
			l = l[strings.IndexByte(l, ' ')+1:]
			if strings.HasPrefix(l, "envoy-") {
				l = l[strings.IndexByte(l, ' ')+1:]
			}
			if strings.HasPrefix(l, "{") { // logcli's labels, none holding "} "
				l = l[strings.Index(l, "} ")+2:]
			}
			if w, ok := c.inner(t, l); ok {
				want = append(want, w)
			}
		}
		for _, workers := range []int{1, 2} {
			rows, res := collect(t, []string{c.path}, ingest.Options{Workers: workers, MaxProblems: 10})
			f := res.Files[0]
			if f.Envelope != ingest.EnvStamped || f.BadLines != 0 || f.PassedOver != c.passed || len(rows) != len(want) {
				t.Fatalf("%s: %d rows (want %d), %+v, %+v", c.path, len(rows), len(want), f, res.Problems)
			}
			slices.SortFunc(want, func(a, b stampedWant) int { return int(a.timeNS - b.timeNS) })
			for i, r := range rows {
				w := want[i]
				if !r.hasTime || r.timeNS != w.timeNS || r.status != w.status || w.rt >= 0 && math.Abs(r.rt-w.rt) > 1e-9 {
					t.Errorf("%s row %d: time %d, status %d, request_time %g; want %+v", c.path, i, r.timeNS, r.status, r.rt, w)
				}
			}
		}
	}
}

func envoyWant(t *testing.T, l string) (stampedWant, bool) {
	m := envoyLine.FindStringSubmatch(l)
	if m == nil {
		return stampedWant{}, false // Envoy's own line
	}
	at, err := time.Parse(time.RFC3339Nano, m[1])
	if err != nil {
		t.Fatal(err)
	}
	st, _ := strconv.ParseInt(m[2], 10, 64)
	ms, _ := strconv.ParseFloat(m[3], 64)
	return stampedWant{timeNS: at.UnixNano(), status: st, rt: ms / 1000}, true
}

// TestStampedTextOwnTime: a text format whose own first field is a time
// ($time_iso8601) or whose address slot takes the time before it in
// (nginx's main, read as before) keeps its lines as they are: the file
// has no envelope, and each record its own time.
func TestStampedTextOwnTime(t *testing.T) {
	dir := t.TempDir()
	iso := "2026-12-04T10:00:01+08:00 [10.0.0.1] \"POST /v1/chat/completions HTTP/1.1\" 200 0.512\n" +
		"2026-12-04T10:00:02+08:00 [10.0.0.2] \"POST /v1/chat/completions HTTP/1.1\" 429 0.004\n"
	path := filepath.Join(dir, "iso.log")
	if err := os.WriteFile(path, []byte(iso), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, LogFormats: []string{`$time_iso8601 [$remote_addr] "$request" $status $request_time`}})
	wantNS := []int64{time.Date(2026, 12, 4, 2, 0, 1, 0, time.UTC).UnixNano(), time.Date(2026, 12, 4, 2, 0, 2, 0, time.UTC).UnixNano()}
	if len(rows) != 2 || res.Files[0].Envelope != ingest.NoEnvelope || rows[0].timeNS != wantNS[0] || rows[1].timeNS != wantNS[1] ||
		rows[0].remoteAddr != "10.0.0.1" || rows[1].status != 429 {
		t.Fatalf("%+v, %+v", rows, res.Files)
	}
}

// TestLogcliLabels: JSON lines and nginx's text behind logcli's default
// output, each line's time and its labels ({app="gw", pod="…"}, a value
// may hold '}' and an escaped quote), give the records the lines give
// alone.
func TestLogcliLabels(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{"../testdata/shared/examples/tokenhub-sample.jsonl", "../testdata/shared/examples/tokenhub-sample-nginx.log"} {
		var b strings.Builder
		for i, l := range fileLines(t, src) {
			fmt.Fprintf(&b, "2026-12-04T10:00:%02dZ {app=\"gw\", note=\"a } and \\\" in it\", pod=\"gw-7d9f\"} %s\n", i%60, l)
		}
		env := ingest.EnvStamped
		if strings.HasSuffix(src, ".log") {
			env = ingest.NoEnvelope // nginx's address slot takes the time and labels in, its last word the address
		}
		checkAsLines(t, src, env, map[string][]byte{filepath.Join(dir, "logcli-"+filepath.Base(src)): []byte(b.String())})
	}
}
