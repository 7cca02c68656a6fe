package ingest_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// vectorEvent is an event of Vector's native_json codec as encoding/json
// decodes it: one of log, metric and trace.
type vectorEvent struct {
	Log    map[string]any `json:"log"`
	Metric map[string]any `json:"metric"`
	Trace  map[string]any `json:"trace"`
}

// vectorEvents returns the events of the file at path, one a line.
func vectorEvents(t *testing.T, path string) []vectorEvent {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []vectorEvent
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e vectorEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// vectorArray returns the events of the file at path, a JSON array of
// them.
func vectorArray(t *testing.T, path string) []vectorEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var evs []vectorEvent
	if err := json.Unmarshal(b, &evs); err != nil {
		t.Fatal(err)
	}
	return evs
}

// checkVectorRows checks got against want: time, status and request_time.
func checkVectorRows(t *testing.T, got, want []row) {
	t.Helper()
	sameRows(t, got, want, false)
}

// TestVectorNativeLines: Vector's native_json events of the lines its
// file source read from an nginx access log: each log event's message is
// read as an nginx line, one that is none a bad line; its metric and
// trace events are passed over.
func TestVectorNativeLines(t *testing.T) {
	const path = "testdata/vector/native-file.ndjson"
	testVectorLines(t, path, vectorEvents(t, path), ingest.EnvVector)
}

// TestVectorNativeArray: the same events in a JSON array, as jq -s
// gathers the lines (or Vector's http sink batches them), are read as
// their lines are.
func TestVectorNativeArray(t *testing.T) {
	const path = "testdata/vector/native-array.json"
	testVectorLines(t, path, vectorArray(t, path), ingest.EnvShipper)
}

// testVectorLines reads path, whose events are evs, nginx lines in
// their log events' messages, within env.
func testVectorLines(t *testing.T, path string, evs []vectorEvent, env ingest.Envelope) {
	t.Helper()
	var want []row
	var bad, other int64
	for _, e := range evs {
		if e.Log == nil {
			other++
			continue
		}
		if at, status, rt, ok := nginxTruth(e.Log["message"].(string)); ok {
			want = append(want, row{timeNS: at.UnixNano(), status: status, rt: rt})
		} else {
			bad++
		}
	}
	sortRows(want)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC, MaxProblems: 10})
	f := res.Files[0]
	if f.Envelope != env || f.Format != ingest.Nginx {
		t.Fatalf("read as %q %s, want %q nginx", f.Envelope, f.Format, env)
	}
	if len(got) != len(want) || f.BadLines != bad || f.PassedOver != other {
		t.Fatalf("%d records, %d bad, %d passed over; want %d, %d, %d: %v", len(got), f.BadLines, f.PassedOver, len(want), bad, other, res.Problems)
	}
	checkVectorRows(t, got, want)
}

// TestVectorNativeTime: the events of a container's JSON lines, as
// Vector's kubernetes_logs source reads them: a line without a time of
// its own takes the event's timestamp, one with its own keeps it.
func TestVectorNativeTime(t *testing.T) {
	const path = "testdata/vector/native-k8s.ndjson"
	var want []row
	for _, e := range vectorEvents(t, path) {
		var line struct {
			Time        string  `json:"time"`
			Status      int64   `json:"status"`
			RequestTime float64 `json:"request_time"`
		}
		if err := json.Unmarshal([]byte(e.Log["message"].(string)), &line); err != nil {
			t.Fatal(err)
		}
		stamp := e.Log["timestamp"].(string)
		if line.Time != "" {
			stamp = line.Time
		}
		at, err := time.Parse(time.RFC3339Nano, stamp)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, row{timeNS: at.UnixNano(), status: line.Status, rt: line.RequestTime})
	}
	sortRows(want)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	f := res.Files[0]
	if f.Envelope != ingest.EnvVector || f.Format != ingest.JSONL || len(got) != len(want) || f.BadLines != 0 {
		t.Fatalf("read as %q %s: %d records, %d bad; want vector jsonl, %d, 0: %v", f.Envelope, f.Format, len(got), f.BadLines, len(want), res.Problems)
	}
	checkVectorRows(t, got, want)
}

// TestVectorNativeRemap: log events whose fields a VRL remap parsed out
// of the line (parse_nginx_log's ingress_upstreaminfo, the message
// deleted) are read as records by those fields; a metric event beside
// them is passed over.
func TestVectorNativeRemap(t *testing.T) {
	const path = "testdata/vector/native-remap.ndjson"
	testVectorRemap(t, path, vectorEvents(t, path), ingest.EnvVector, ingest.JSONL)
}

// TestVectorNativeRemapArray: the same events in a JSON array on one
// line, as Vector's http sink posts a batch of them, are read as their
// lines are.
func TestVectorNativeRemapArray(t *testing.T) {
	const path = "testdata/vector/native-remap-array.json"
	testVectorRemap(t, path, vectorArray(t, path), ingest.NoEnvelope, ingest.JSONDoc)
}

// testVectorRemap reads path, whose events are evs, records in their log
// events' fields, as format within env.
func testVectorRemap(t *testing.T, path string, evs []vectorEvent, env ingest.Envelope, format ingest.Format) {
	t.Helper()
	var want []row
	var other int64
	for _, e := range evs {
		if e.Log == nil {
			other++
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, e.Log["timestamp"].(string))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, row{timeNS: at.UnixNano(), status: int64(e.Log["status"].(float64)), rt: e.Log["request_time"].(float64),
			uri: strings.Fields(e.Log["request"].(string))[1]})
	}
	sortRows(want)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	f := res.Files[0]
	if f.Envelope != env || f.Format != format || len(got) != len(want) || f.BadLines != 0 || f.PassedOver != other {
		t.Fatalf("read as %q %s: %d records, %d bad, %d passed over; want %q %s, %d, 0, %d: %v",
			f.Envelope, f.Format, len(got), f.BadLines, f.PassedOver, env, format, len(want), other, res.Problems)
	}
	checkVectorRows(t, got, want)
	for i, w := range want {
		if got[i].uri != w.uri {
			t.Errorf("record %d: uri %q, want %q", i, got[i].uri, w.uri)
		}
	}
}
