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

// TestTowerHTTPJSON reads tower-http's TraceLayer events as
// tracing-subscriber's JSON formatter writes them, the event's fields
// nested or flattened: each finished event is one request, its uri the
// span's; the started and failed events and the service's own lines are
// passed over.
func TestTowerHTTPJSON(t *testing.T) {
	for _, file := range []string{"tower-http.jsonl", "tower-http-flat.jsonl"} {
		path := filepath.Join("testdata", "sources", file)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		lines := 0
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			lines++
			var l struct {
				Message string
				Fields  struct{ Message string }
				Span    struct{ URI string }
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			if l.Message == "finished processing request" || l.Fields.Message == "finished processing request" {
				uris = append(uris, l.Span.URI)
			}
		}
		f.Close()
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		fs := res.Files[0]
		if fs.Source != "tower-http" || len(got) != len(uris) || fs.PassedOver != int64(lines-len(uris)) || fs.BadLines != 0 {
			t.Fatalf("%s: source %q, %d records, %d passed over, %d bad; want tower-http, %d, %d, 0",
				file, fs.Source, len(got), fs.PassedOver, fs.BadLines, len(uris), lines-len(uris))
		}
		for i, u := range uris {
			if got[i].uri != u {
				t.Errorf("%s: record %d: uri %q, want %q", file, i, got[i].uri, u)
			}
		}
	}
}
