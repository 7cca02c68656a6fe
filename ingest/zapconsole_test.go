package ingest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestZapConsoleGinzap reads gin-contrib/zap's request log as zap's
// development config writes it (the console encoder: time, level,
// caller, message, then the fields' object after a tab), with the
// program's own entry without fields and an error's stack trace among
// the requests. Each request is worked out from the fixture with
// encoding/json and time.ParseDuration; the same requests in the
// production config's JSON (sources/ginzap.jsonl) read the same.
func TestZapConsoleGinzap(t *testing.T) {
	path := filepath.Join("testdata", "text", "ginzap-development.log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var wants []sourceWant
	own := int64(0)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Bytes()
		i := bytes.LastIndex(line, []byte("\t{"))
		if i < 0 {
			own++ // the server's own entry, a stack trace's line
			continue
		}
		var f struct {
			Status  int
			IP      string
			Latency string
			Time    string
		}
		if err := json.Unmarshal(line[i+1:], &f); err != nil {
			t.Fatalf("fixture: %v", err)
		}
		l, err := time.ParseDuration(f.Latency)
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		tm, err := time.Parse(time.RFC3339, f.Time)
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		wants = append(wants, sourceWant{rt: float64(l) / 1e6, ups: math.NaN(), ttft: math.NaN(), status: f.Status,
			client: f.IP, stream: -1, timeNS: tm.UnixNano()})
	}
	if len(wants) != 6 || own != 5 {
		t.Fatalf("fixture: %d requests and %d other lines, want 6 and 5", len(wants), own)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(res.Files) != 1 || res.Files[0].Source != "ginzap" {
		t.Fatalf("files %+v, want source ginzap", res.Files)
	}
	if res.BadLines() != 0 || len(got) != len(wants) || res.Files[0].PassedOver != own {
		t.Fatalf("%d records, %d bad lines, %d passed over; want %d, 0, %d: %v",
			len(got), res.BadLines(), res.Files[0].PassedOver, len(wants), own, res.Problems)
	}
	for i, w := range wants {
		checkSourceRecord(t, i, got[i], w)
	}
	prod, _ := collect(t, []string{filepath.Join("testdata", "sources", "ginzap.jsonl")}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(prod) != len(got) {
		t.Fatalf("production JSON: %d records, the console lines %d", len(prod), len(got))
	}
	for i := range prod {
		if !nearSrc(prod[i].rt*1000, got[i].rt*1000) || prod[i].status != got[i].status || prod[i].timeNS != got[i].timeNS {
			t.Errorf("record %d: console %+v, production JSON %+v", i, got[i], prod[i])
		}
	}
}

// TestZapConsoleOneHub reads one-hub's and done-hub's log (stdout, and
// logs/one-hub.log): zap's console encoder with Gin's date for its time,
// "2006/01/02 - 15:04:05" without a zone, in the process's local time
// (common/logger/logger.go getEncoder), so read in --tz. Each request
// (middleware/logger.go's fields, after "GIN request" or an error's
// text) is worked out from the fixture with encoding/json,
// time.ParseDuration and time.ParseInLocation; the server's own entries
// without fields ([SYS], a request's "record consume log") are passed
// over, and the empty line after each of the latter (its message ends
// in "\n") is nothing.
func TestZapConsoleOneHub(t *testing.T) {
	path := filepath.Join("testdata", "text", "one-hub.log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	var wants []sourceWant
	own := int64(0)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		i := bytes.LastIndex(line, []byte("\t{"))
		if i < 0 {
			own++
			continue
		}
		var f struct {
			Status    int
			Latency   string
			TokenName string `json:"token_name"`
		}
		if err := json.Unmarshal(line[i+1:], &f); err != nil {
			t.Fatalf("fixture: %v", err)
		}
		l, err := time.ParseDuration(f.Latency)
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		stamp, _, _ := bytes.Cut(line, []byte("\t"))
		tm, err := time.ParseInLocation("2006/01/02 - 15:04:05", string(stamp), shanghai)
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		// The client is the key's name (token_name, SPEC §3), none for
		// a request without a key (the console's).
		wants = append(wants, sourceWant{rt: float64(l) / 1e6, ups: math.NaN(), ttft: math.NaN(), status: f.Status,
			client: f.TokenName, clientBy: []string{}, stream: -1, timeNS: tm.UnixNano()})
	}
	if len(wants) != 5 || own != 4 {
		t.Fatalf("fixture: %d requests and %d other lines, want 5 and 4", len(wants), own)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: shanghai})
	if len(res.Files) != 1 || res.Files[0].Source != "ginzap" {
		t.Fatalf("files %+v, want source ginzap", res.Files)
	}
	if res.BadLines() != 0 || len(got) != len(wants) || res.Files[0].PassedOver != own {
		t.Fatalf("%d records, %d bad lines, %d passed over; want %d, 0, %d: %v",
			len(got), res.BadLines(), res.Files[0].PassedOver, len(wants), own, res.Problems)
	}
	for i, w := range wants {
		checkSourceRecord(t, i, got[i], w)
	}
}
