package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// tsJSONL writes n records timed by zap's "ts" (epoch seconds, a
// fraction) or by name, each with a request_time.
func tsJSONL(n int, name string) []byte {
	var b bytes.Buffer
	for i := range n {
		line, _ := json.Marshal(map[string]any{
			name: 1795000000 + float64(i)*2 + 0.25, "level": "info", "msg": "request",
			"model": "gpt-4o", "status": 200, "request_time": 0.5 + float64(i%7)/10,
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestTimeHints: records read without a time get the --map flag that
// would give them one, from a name they carry that reads as a time of
// day, in every renderer; records with a time get none, and their JSON
// report keeps its shape.
func TestTimeHints(t *testing.T) {
	r := buildFrom(t, tsJSONL(200, "ts"), nil, 2, 10, nil)
	if r.Window != nil || len(r.TimeHints) != 1 || r.TimeHints[0].Flag != "--map time=ts" {
		t.Fatalf("window %v, hints %+v; want no window and --map time=ts", r.Window, r.TimeHints)
	}
	if md := string(render(t, r, "md")); !strings.Contains(md, "No record carries a time") || !strings.Contains(md, "try `--map time=ts`; ts looks like the requests' time") {
		t.Errorf("Markdown lacks the hint:\n%s", md)
	}
	if page := string(render(t, r, "html")); !strings.Contains(page, "try --map time=ts; ts looks like the requests&#39; time") {
		t.Error("HTML lacks the hint")
	}
	input, _ := jsonDoc(t, r)["input"].(map[string]any)
	hints, _ := input["time_hints"].([]any)
	if len(hints) != 1 || hints[0].(map[string]any)["flag"] != "--map time=ts" {
		t.Errorf("JSON input.time_hints %v", input["time_hints"])
	}

	timed := buildFrom(t, tsJSONL(200, "time"), nil, 2, 10, nil)
	if timed.Window == nil || timed.TimeHints != nil {
		t.Fatalf("timed records: window %v, hints %+v", timed.Window, timed.TimeHints)
	}
	input, _ = jsonDoc(t, timed)["input"].(map[string]any)
	if _, ok := input["time_hints"]; ok {
		t.Error("JSON input.time_hints present for records with a time")
	}
}

func TestTimeLike(t *testing.T) {
	for name, want := range map[string]bool{
		"ts": true, "@t": true, "req_ts": true, "created_at": true, "startedAt": true, "log_time": true,
		"eventTime": true, "event_timestamp": true, "date": true, "datetime": true,
		"latency_ms": false, "duration": false, "request_time_ms": false, "response_time": false,
		"upstream_time": false, "time_to_first_token": false, "timeout": false, "timezone": false,
		"ttft": false, "elapsed": false, "total_time_s": false, "times": false, "status": false,
		"log_start_time": true, "gen_time_ms": false, "time_sec": false,
	} {
		if got := timeLike(name); got != want {
			t.Errorf("timeLike(%q) = %v, want %v", name, got, want)
		}
	}
}
