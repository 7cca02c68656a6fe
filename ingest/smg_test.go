package ingest_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestSMGJSONUTC reads the SGLang router's JSON log in UTC whatever
// --tz says (its timer is ChronoUtc, its times written without a zone),
// each answer's uri the span's.
func TestSMGJSONUTC(t *testing.T) {
	for _, file := range []string{"smg.jsonl", "sglang-router.jsonl"} {
		path := filepath.Join("testdata", "sources", file)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		type want struct {
			unix int64
			uri  string
		}
		var wants []want
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var l struct {
				Timestamp string
				Message   string
				Span      struct{ URI string }
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			switch l.Message {
			case "finished processing request", "request failed with client error", "request failed with server error":
				at, err := time.Parse("2006-01-02 15:04:05.999", l.Timestamp) // UTC
				if err != nil {
					t.Fatal(err)
				}
				wants = append(wants, want{at.UnixNano(), l.Span.URI})
			}
		}
		f.Close()
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.FixedZone("CST", 8*3600)})
		if len(got) != len(wants) || res.Files[0].Source != "smg" {
			t.Fatalf("%s: source %q, %d records, want smg, %d", file, res.Files[0].Source, len(got), len(wants))
		}
		for i, w := range wants {
			if got[i].timeNS != w.unix || got[i].uri != w.uri {
				t.Errorf("%s: record %d: time %v, uri %q; want %v, %q", file, i,
					time.Unix(0, got[i].timeNS).UTC(), got[i].uri, time.Unix(0, w.unix).UTC(), w.uri)
			}
		}
	}
}
