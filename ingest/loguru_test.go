package ingest_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestLoguruSerialized: loguru's records with serialize=True are read by
// their record's extra, each at its time.timestamp (epoch s); elapsed,
// the time since the program started, is no request time; records whose
// extra holds no request field (the start-up's, empty; an app's line with
// a request id) are passed over. With --map the extra's process_time and
// status_code are read.
func TestLoguruSerialized(t *testing.T) {
	path := filepath.Join("testdata", "python", "loguru-serialize.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type extra struct {
		Path        string   `json:"path"`
		StatusCode  int64    `json:"status_code"`
		ProcessTime *float64 `json:"process_time"`
	}
	var wants []extra
	var stamps []float64
	others := 0
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Record struct {
				Extra extra
				Time  struct{ Timestamp float64 }
			}
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Record.Extra.Path == "" {
			others++
			continue
		}
		wants = append(wants, rec.Record.Extra)
		stamps = append(stamps, rec.Record.Time.Timestamp)
	}
	schema, err := ingest.NewSchema([]string{"request_time=process_time:s", "status=status_code"})
	if err != nil {
		t.Fatal(err)
	}
	for _, mapped := range []bool{false, true} {
		opts := ingest.Options{Workers: 1, Location: time.UTC}
		if mapped {
			opts.Schema = schema
		}
		got, res := collect(t, []string{path}, opts)
		f := res.Files[0]
		if f.Envelope != ingest.EnvLoguru || f.Records != int64(len(wants)) || f.BadLines != 0 || f.PassedOver != int64(others) {
			t.Fatalf("mapped %v: file %+v; want %d records within loguru's, %d passed over, none bad", mapped, f, len(wants), others)
		}
		for i, w := range wants {
			g := got[i]
			if !g.hasTime || math.Abs(float64(g.timeNS)/1e9-stamps[i]) > 1e-6 || g.uri != w.Path {
				t.Errorf("mapped %v: record %d time %d uri %q; want %v %q", mapped, i, g.timeNS, g.uri, stamps[i], w.Path)
			}
			if !mapped && (!math.IsNaN(g.rt) || g.hasStatus) {
				t.Errorf("record %d: request_time %v, status %v read unmapped; want none", i, g.rt, g.status)
			}
			if mapped && (math.Abs(g.rt-*w.ProcessTime) > 1e-12 || g.status != w.StatusCode) {
				t.Errorf("mapped: record %d request_time %v status %d; want %v %d", i, g.rt, g.status, *w.ProcessTime, w.StatusCode)
			}
		}
	}
}
