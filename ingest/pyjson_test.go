package ingest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestPythonJSONLogger: uvicorn's records through python-json-logger's
// JsonFormatter ({"asctime","levelname","name","message"}) are read as
// the access lines their messages hold, each at its asctime in the
// location given (Python writes the local time, no zone); the records of
// other loggers (uvicorn.error's start-up, an app's) are passed over.
func TestPythonJSONLogger(t *testing.T) {
	path := filepath.Join("testdata", "python", "pjl-uvicorn.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	loc := time.FixedZone("UTC+08:00", 8*3600)
	type want struct {
		ns     int64
		status int64
		uri    string
	}
	var wants []want
	others := 0
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct{ Asctime, Name, Message string }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Name != "uvicorn.access" {
			others++
			continue
		}
		at, err := time.ParseInLocation("2006-01-02 15:04:05,000", rec.Asctime, loc)
		if err != nil {
			t.Fatal(err)
		}
		// ADDR - "METHOD URI HTTP/1.1" STATUS
		f := strings.Fields(rec.Message)
		st, err := strconv.ParseInt(f[len(f)-1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		wants = append(wants, want{at.UnixNano(), st, f[3]})
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: loc})
	f := res.Files[0]
	if f.Envelope != ingest.EnvShipper || f.Records != int64(len(wants)) || f.BadLines != 0 || f.PassedOver != int64(others) {
		t.Fatalf("file %+v; want %d records within a shipper's, %d passed over, none bad", f, len(wants), others)
	}
	for i, w := range wants {
		g := got[i]
		if !g.hasTime || g.timeNS != w.ns || !g.hasStatus || g.status != w.status || g.uri != w.uri {
			t.Errorf("record %d: time %d status %d uri %q; want %d %d %q", i, g.timeNS, g.status, g.uri, w.ns, w.status, w.uri)
		}
	}
}
