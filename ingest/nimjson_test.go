package ingest_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestNIMJSONLines: NIM's JSON Lines log (NIM_JSONL_LOGGING=true), one
// schema for NIM's, vLLM's and uvicorn's records, is read as the access
// lines its messages hold, each at its "time" in the location given (no
// zone written); the other records (NIM's start-up, vLLM's engine stats,
// uvicorn's own messages, a warning) are passed over, none bad. uvicorn
// writes no request time: none is read.
func TestNIMJSONLines(t *testing.T) {
	path := filepath.Join("testdata", "python", "nim-jsonl.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	loc := time.FixedZone("UTC-05:00", -5*3600)
	type want struct {
		ns     int64
		status int64
		client string
	}
	var wants []want
	others := 0
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct{ Time, Message string }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		// ADDR:PORT - "METHOD URI HTTP/1.1" STATUS
		f := strings.Fields(rec.Message)
		if len(f) != 6 || f[1] != "-" || !strings.HasPrefix(f[2], `"`) {
			others++
			continue
		}
		at, err := time.ParseInLocation("2006-01-02 15:04:05", rec.Time, loc)
		if err != nil {
			t.Fatal(err)
		}
		st, err := strconv.ParseInt(f[5], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		wants = append(wants, want{at.UnixNano(), st, f[0][:strings.LastIndexByte(f[0], ':')]})
	}
	if len(wants) == 0 || others == 0 {
		t.Fatalf("fixture: %d access records, %d others; want some of each", len(wants), others)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: loc})
	f := res.Files[0]
	if f.Envelope != ingest.EnvShipper || f.Source != "uvicorn" || f.Records != int64(len(wants)) || f.BadLines != 0 || f.PassedOver != int64(others) {
		t.Fatalf("file %+v; want %d uvicorn records within a shipper's, %d passed over, none bad", f, len(wants), others)
	}
	for i, w := range wants {
		g := got[i]
		if !g.hasTime || g.timeNS != w.ns || !g.hasStatus || g.status != w.status || g.remoteAddr != w.client || !math.IsNaN(g.rt) {
			t.Errorf("record %d: time %d status %d client %q rt %v; want %d %d %q, no request time", i, g.timeNS, g.status, g.remoteAddr, g.rt, w.ns, w.status, w.client)
		}
	}
}

// TestNIMJSONLinesHead: a NIM JSON Lines log at NIM's default level
// (WARNING: uvicorn's access records are not written) is NIM's own log,
// its records passed over, none bad, not a text log of no known format;
// one whose access records begin after a long start-up (vLLM's, at INFO)
// is read as its access lines.
func TestNIMJSONLinesHead(t *testing.T) {
	own := func(i int) string {
		b, err := json.Marshal(map[string]any{"level": "WARNING", "time": "2026-03-03 12:00:10", "file_name": "config.py", "line_number": 100 + i,
			"message": fmt.Sprintf("startup record %d: %s", i, strings.Repeat("x", 200))})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	var start strings.Builder
	n := 0
	for ; start.Len() < 300<<10; n++ {
		start.WriteString(own(n))
	}
	access := `{"level":"INFO","time":"2026-03-03 12:01:02","file_name":"httptools_impl.py","line_number":481,"message":"10.0.0.5:51240 - \"POST /v1/chat/completions HTTP/1.1\" 429"}` + "\n"
	dir := t.TempDir()
	for _, c := range []struct {
		name, text               string
		records, passed          int64
		wantSource, wantEnvelope string
	}{
		{"warning.jsonl", start.String(), 0, int64(n), "own-log", ""},
		{"late.jsonl", start.String() + access + access, 2, int64(n), "uvicorn", string(ingest.EnvShipper)},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		f := res.Files[0]
		if f.Source != c.wantSource || string(f.Envelope) != c.wantEnvelope || f.Records != c.records || f.PassedOver != c.passed || f.BadLines != 0 || f.Reason != "" {
			t.Fatalf("%s: file %+v; want source %q, %d records, %d passed over, none bad", c.name, f, c.wantSource, c.records, c.passed)
		}
		for _, g := range got {
			if g.status != 429 || g.timeNS != time.Date(2026, 3, 3, 12, 1, 2, 0, time.UTC).UnixNano() {
				t.Errorf("%s: record %+v; want status 429 at 12:01:02", c.name, g)
			}
		}
	}
}
