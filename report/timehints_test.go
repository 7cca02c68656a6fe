package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// tsJSONL writes n records timed by name (epoch seconds, a fraction),
// each with a request_time.
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
	r := buildFrom(t, tsJSONL(200, "eventTime"), nil, 2, 10, nil)
	if r.Window != nil || len(r.TimeHints) != 1 || r.TimeHints[0].Flag != "--map time=eventTime" {
		t.Fatalf("window %v, hints %+v; want no window and --map time=eventTime", r.Window, r.TimeHints)
	}
	if md := string(render(t, r, "md")); !strings.Contains(md, "No record carries a time") || !strings.Contains(md, "try `--map time=eventTime`; eventTime looks like the requests' time") {
		t.Errorf("Markdown lacks the hint:\n%s", md)
	}
	if page := string(render(t, r, "html")); !strings.Contains(page, "try --map time=eventTime; eventTime looks like the requests&#39; time") {
		t.Error("HTML lacks the hint")
	}
	input, _ := jsonDoc(t, r)["input"].(map[string]any)
	hints, _ := input["time_hints"].([]any)
	if len(hints) != 1 || hints[0].(map[string]any)["flag"] != "--map time=eventTime" {
		t.Errorf("JSON input.time_hints %v", input["time_hints"])
	}

	for _, name := range []string{"time", "ts"} { // the canonical name, and zap's
		timed := buildFrom(t, tsJSONL(200, name), nil, 2, 10, nil)
		if timed.Window == nil || timed.TimeHints != nil || !timed.Window.From.Equal(time.Unix(1795000000, 250e6)) {
			t.Fatalf("records timed by %s: window %+v, hints %+v", name, timed.Window, timed.TimeHints)
		}
	}
	timed := buildFrom(t, tsJSONL(200, "time"), nil, 2, 10, nil)
	input, _ = jsonDoc(t, timed)["input"].(map[string]any)
	if _, ok := input["time_hints"]; ok {
		t.Error("JSON input.time_hints present for records with a time")
	}
}

// TestTimeHintsByValue: a log of no known source that carries its
// request's time as reqTimeSec, epoch seconds with ms written as a
// string, and its durations as …TimeMSec, numbers of ms: the time is
// offered to --map time= by its values, though its name holds "times",
// and the durations, named like times, are not offered by theirs.
// Akamai's DataStream log, whose names these are, is a source whose
// time is read: no hint.
func TestTimeHintsByValue(t *testing.T) {
	var b, akamai bytes.Buffer
	for i := range 40 {
		fmt.Fprintf(&b, `{"reqTimeSec":"%.3f","statusCode":"200","queueTimeMSec":"%d","originTimeMSec":"%d","sendTimeMSec":"%d","request_time":0.5}`+"\n",
			1764583200+float64(i)*1.5, 1+i%3, 900+i*10, 40+i)
		fmt.Fprintf(&akamai, `{"reqTimeSec":"%.3f","statusCode":"200","reqEndTimeMSec":"%d","turnAroundTimeMSec":"%d","transferTimeMSec":"%d"}`+"\n",
			1764583200+float64(i)*1.5, 1+i%3, 900+i*10, 40+i)
	}
	r := buildFrom(t, b.Bytes(), nil, 2, 10, nil)
	if len(r.TimeHints) != 1 || r.TimeHints[0].Flag != "--map time=reqTimeSec" {
		t.Errorf("hints %+v, want --map time=reqTimeSec alone", r.TimeHints)
	}
	if a := buildFrom(t, akamai.Bytes(), nil, 2, 10, nil); a.TimeHints != nil || a.Window == nil || !a.Window.From.Equal(time.Unix(1764583200, 0)) {
		t.Errorf("Akamai's records: window %+v, hints %+v", a.Window, a.TimeHints)
	}
	files := []ingest.FileStats{{Path: "a.jsonl", Format: ingest.JSONL, Records: 5,
		Seen: []string{"log_time", "eventTime", "startTs"},
		Magnitudes: map[string]ingest.Magnitude{
			"log_time":  {N: 5, Median: 12, Whole: true},                  // a duration's value under a time's name
			"eventTime": {N: 5, Median: 1733565600, Whole: true},          // epoch seconds, or a duration in ns
			"startTs":   {N: 5, Median: 1733565600123456789, Whole: true}, // epoch ns
		}}}
	if names := timeNames(files); !slices.Equal(names, []string{"startTs", "eventTime"}) {
		t.Errorf("timeNames = %q, want [startTs eventTime]", names)
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

// TestFileNoteWithoutRequestTime: a file read among others that carry
// request_time says how many of its records have none, and offers the
// --map flag for a duration it carried when none of its records has
// one; a file whose request_time is read only notes its records
// without a value.
func TestFileNoteWithoutRequestTime(t *testing.T) {
	var partial, latency bytes.Buffer
	for i := range 60 {
		rt := `,"request_time":0.5`
		if i%4 == 0 {
			rt = ""
		}
		fmt.Fprintf(&partial, `{"time":"2026-11-29T10:00:%02dZ","status":200%s}`+"\n", i, rt)
		fmt.Fprintf(&latency, `{"time":"2026-11-29T10:01:%02dZ","status":200,"latency_ms":%d}`+"\n", i, 100+i)
	}
	path := filepath.Join(t.TempDir(), "latency.jsonl")
	if err := os.WriteFile(path, latency.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := buildFrom(t, partial.Bytes(), []string{path}, 2, 10, nil)
	if r.NoData != nil || len(r.Input.Files) != 2 {
		t.Fatalf("no_data %v, %d files", r.NoData, len(r.Input.Files))
	}
	notes := map[string]string{}
	for _, f := range r.Input.Files {
		notes[filepath.Base(f.Path)] = r.fileNote(english, f)
	}
	if got := notes["-"]; got != "15 records without request_time, not in the latency figures" {
		t.Errorf("stdin's note %q", got)
	}
	if got := notes["latency.jsonl"]; got != "60 records without request_time, not in the latency figures; try --map request_time=latency_ms:ms" {
		t.Errorf("latency.jsonl's note %q", got)
	}
	input, _ := jsonDoc(t, r)["input"].(map[string]any)
	files, _ := input["files"].([]any)
	var counts []any
	for _, f := range files {
		counts = append(counts, f.(map[string]any)["without_request_time"])
	}
	if fmt.Sprint(counts) != "[15 60]" {
		t.Errorf("JSON input.files[].without_request_time %v, want [15 60]", counts)
	}
}

// TestClocks: records whose time was a time of day alone (Fiber's
// logger's "15:04:05") are read without one, and every renderer says
// which name held it and that the time is unknown, with no --map flag
// offered for it.
func TestClocks(t *testing.T) {
	var b bytes.Buffer
	for i := range 20 {
		line, _ := json.Marshal(map[string]any{"time": fmt.Sprintf("10:00:%02d", i), "ip": "10.0.0.1",
			"method": "POST", "url": "/v1/chat/completions", "status": 200, "bytesSent": 100 + i})
		b.Write(line)
		b.WriteByte('\n')
	}
	r := buildFrom(t, b.Bytes(), nil, 2, 10, nil)
	if r.Window != nil || len(r.Clocks) != 1 || r.Clocks[0].Name != "time" || len(r.TimeHints) != 0 {
		t.Fatalf("window %v, clocks %+v, hints %+v; want no window, the time of day named, no hint", r.Window, r.Clocks, r.TimeHints)
	}
	if md := string(render(t, r, "md")); !strings.Contains(md, "`time` in") || !strings.Contains(md, "holds a time of day alone, no date") {
		t.Errorf("Markdown lacks the time of day:\n%s", md)
	}
	if page := string(render(t, r, "html")); !strings.Contains(page, "holds a time of day alone, no date") {
		t.Error("HTML lacks the time of day")
	}
	input, _ := jsonDoc(t, r)["input"].(map[string]any)
	clocks, _ := input["time_of_day_only"].([]any)
	if len(clocks) != 1 || clocks[0].(map[string]any)["field"] != "time" {
		t.Errorf("JSON input.time_of_day_only %v", input["time_of_day_only"])
	}
}
