package ingest_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

func readLines(t *testing.T, name string, lines []string, opts ingest.Options) ([]row, *ingest.Result) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Workers = 1 // keeps the records in file order
	return collect(t, []string{path}, opts)
}

// TestHigressAILog reads AI-gateway lines whose model and timings sit in
// an ai_log object, given as a JSON string or as a nested object.
func TestHigressAILog(t *testing.T) {
	lines := []string{
		`{"start_time":"2026-11-29T02:00:00.100Z","method":"POST","path":"/v1/chat/completions","response_code":200,"ai_log":"{\"model\":\"qwen-max\",\"llm_first_token_duration\":350,\"llm_service_duration\":4200}"}`,
		`{"start_time":"2026-11-29T02:00:01.200Z","method":"POST","response_code":200,"ai_log":{"model":"qwen-plus","llm_first_token_duration":120.5,"llm_service_duration":1500}}`,
		`{"start_time":"2026-11-29T02:00:02.300Z","response_code":504,"duration":4300,"ai_log":"{\"model\":\"qwen-max\",\"llm_service_duration\":4200}"}`,
	}
	type want struct {
		time  time.Time
		model string
		ttft  float64 // ms, NaN when absent
		rt    float64 // s
		code  int64
	}
	wants := []want{
		{time.Date(2026, 11, 29, 2, 0, 0, 100e6, time.UTC), "qwen-max", 350, 4.2, 200},
		{time.Date(2026, 11, 29, 2, 0, 1, 200e6, time.UTC), "qwen-plus", 120.5, 1.5, 200},
		// duration (ms) outranks llm_service_duration (SPEC §3 order).
		{time.Date(2026, 11, 29, 2, 0, 2, 300e6, time.UTC), "qwen-max", math.NaN(), 4.3, 504},
	}
	rows, res := readLines(t, "higress.jsonl", lines, ingest.Options{})
	if res.BadLines() != 0 || len(rows) != len(wants) {
		t.Fatalf("%d records, %d bad lines (%v); want %d, 0", len(rows), res.BadLines(), res.Problems, len(wants))
	}
	for i, w := range wants {
		g := rows[i]
		if !g.hasTime || g.timeNS != w.time.UnixNano() {
			t.Errorf("line %d: time %d, want %d", i+1, g.timeNS, w.time.UnixNano())
		}
		if g.model != w.model {
			t.Errorf("line %d: model %q, want %q", i+1, g.model, w.model)
		}
		if math.IsNaN(w.ttft) != math.IsNaN(g.ttft) || !math.IsNaN(w.ttft) && math.Abs(g.ttft-w.ttft) > 1e-9 {
			t.Errorf("line %d: ttft %v ms, want %v", i+1, g.ttft, w.ttft)
		}
		if math.Abs(g.rt-w.rt) > 1e-9 {
			t.Errorf("line %d: request_time %v s, want %v", i+1, g.rt, w.rt)
		}
		if !g.hasStatus || g.status != w.code {
			t.Errorf("line %d: status %d, want %d", i+1, g.status, w.code)
		}
	}
}

// TestHigressFirstLineWithoutAI: a Higress log whose first line is of a
// route without AI (its ai_log "-", the rest Envoy's fields) is Higress's
// all the same, as its later lines show, its ttft read from them.
func TestHigressFirstLineWithoutAI(t *testing.T) {
	envoy := `"authority":"gw","method":"%s","path":"%s","response_code":"200","response_flags":"-","start_time":"2026-11-29T02:00:0%d.000Z","upstream_service_time":"%d","duration":"%d"`
	lines := []string{
		`{"ai_log":"-",` + fmt.Sprintf(envoy, "GET", "/healthz", 0, 3, 4) + `}`,
		`{"ai_log":"{\"model\":\"qwen-max\",\"llm_first_token_duration\":\"300\",\"llm_service_duration\":\"4770\",\"response_type\":\"stream\"}",` + fmt.Sprintf(envoy, "POST", "/v1/chat/completions", 1, 4769, 4770) + `}`,
		`{"ai_log":"{\"model\":\"qwen-max\",\"llm_first_token_duration\":\"250\",\"llm_service_duration\":\"2616\",\"response_type\":\"normal\"}",` + fmt.Sprintf(envoy, "POST", "/v1/chat/completions", 2, 2615, 2616) + `}`,
	}
	rows, res := readLines(t, "higress.jsonl", lines, ingest.Options{})
	if len(res.Files) != 1 || res.Files[0].Source != "higress" || len(rows) != 3 {
		t.Fatalf("files %+v, %d records; want one Higress file of 3", res.Files, len(rows))
	}
	for i, want := range []float64{math.NaN(), 300, 250} {
		if g := rows[i].ttft; math.IsNaN(want) != math.IsNaN(g) || !math.IsNaN(want) && g != want {
			t.Errorf("line %d: ttft %v ms, want %v", i+1, g, want)
		}
	}
}

// TestMapOverrides checks --map end to end: secret_id becomes the client
// ahead of app_id, and first_byte (seconds) the ttft in milliseconds.
func TestMapOverrides(t *testing.T) {
	lines := []string{
		`{"time":"2026-11-29T10:00:00+08:00","app_id":"app-001","secret_id":"AKIDabc","first_byte":0.35,"request_time":1.25,"status":200}`,
		`{"time":"2026-11-29T10:00:01+08:00","app_id":"app-002","secret_id":"AKIDxyz","first_byte":"1.5","request_time":2,"status":200}`,
	}
	schema, err := ingest.NewSchema([]string{"client=secret_id", "ttft=first_byte:s"})
	if err != nil {
		t.Fatal(err)
	}
	rows, res := readLines(t, "mapped.jsonl", lines, ingest.Options{Schema: schema})
	if res.BadLines() != 0 || len(rows) != 2 {
		t.Fatalf("%d records, %d bad lines", len(rows), res.BadLines())
	}
	for i, w := range []struct {
		client string
		ttft   float64
	}{{"AKIDabc", 350}, {"AKIDxyz", 1500}} {
		if rows[i].client != w.client || math.Abs(rows[i].ttft-w.ttft) > 1e-9 {
			t.Errorf("line %d: client %q ttft %v ms, want %q %v", i+1, rows[i].client, rows[i].ttft, w.client, w.ttft)
		}
	}
	// Without the mapping app_id is the client and first_byte means nothing.
	rows, _ = readLines(t, "plain.jsonl", lines, ingest.Options{})
	if len(rows) != 2 || rows[0].client != "app-001" || !math.IsNaN(rows[0].ttft) {
		t.Errorf("unmapped: %+v", rows)
	}
}

// TestMapNameOfTime: --map request_time=time, for a log whose "time" is
// the request's duration and "timestamp" its time, reads every record:
// the name mapped no longer feeds the time it fed unmapped, whose
// reading of 0.42 would make each record bad. A name mapped to another
// field keeps feeding what else it fed (remote_addr, mapped to client).
func TestMapNameOfTime(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-11-29T02:00:00Z","time":0.42,"remote_addr":"10.0.0.1","status":200}`,
		`{"timestamp":"2026-11-29T02:00:01Z","time":1.5,"remote_addr":"10.0.0.2","status":200}`,
	}
	// Unmapped, each line is bad for its time, and counted as a time
	// that was a number (the report's hint to map it); a time that is
	// text no time is read from is not.
	unmapped := append(lines, `{"timestamp":"2026-11-29T02:00:02Z","time":"yesterday"}`)
	_, res := readLines(t, "unmapped.jsonl", unmapped, ingest.Options{})
	if f := res.Files[0]; f.Records != 0 || f.BadLines != 3 || f.TimeNumbers != 2 {
		t.Errorf("unmapped: %d records, %d bad lines, %d times that were numbers; want 0, 3, 2", f.Records, f.BadLines, f.TimeNumbers)
	}
	schema, err := ingest.NewSchema([]string{"request_time=time", "client=remote_addr"})
	if err != nil {
		t.Fatal(err)
	}
	rows, res := readLines(t, "mapped.jsonl", lines, ingest.Options{Schema: schema})
	if res.BadLines() != 0 || len(rows) != 2 {
		t.Fatalf("%d records, %d bad lines (%v); want 2, 0", len(rows), res.BadLines(), res.Problems)
	}
	for i, w := range []struct {
		rt   float64
		sec  int
		addr string
	}{{0.42, 0, "10.0.0.1"}, {1.5, 1, "10.0.0.2"}} {
		g := rows[i]
		if g.rt != w.rt {
			t.Errorf("line %d: request_time %v, want %v", i+1, g.rt, w.rt)
		}
		if want := time.Date(2026, 11, 29, 2, 0, w.sec, 0, time.UTC).UnixNano(); !g.hasTime || g.timeNS != want {
			t.Errorf("line %d: time %d (%v), want %d", i+1, g.timeNS, g.hasTime, want)
		}
		if g.client != w.addr || g.remoteAddr != w.addr {
			t.Errorf("line %d: client %q, remote_addr %q, want %q for both", i+1, g.client, g.remoteAddr, w.addr)
		}
	}
}
