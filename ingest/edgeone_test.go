package ingest_test

import (
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestEdgeOneMinusOne: EdgeOne writes -1 for an integer it has no value
// of: absent, in its JSON lines and in a CSV export of them, whichever
// path reads the number, not a negative duration (a bad line for
// request_time, an unreadable value for another) nor a status.
func TestEdgeOneMinusOne(t *testing.T) {
	for _, name := range []string{"edgeone.jsonl", "edgeone.csv"} {
		path := filepath.Join("testdata", "sources", name)
		for _, workers := range []int{1, 2} {
			acc, res := accumulate(t, []string{path}, ingest.Options{Workers: workers, Location: time.UTC})
			f := res.Files[0]
			if f.Source != "edgeone" || f.BadLines != 0 || f.PassedOver != 1 || len(f.UnreadValues) != 0 {
				t.Fatalf("%s: %+v, want no bad line, one record passed over, no value unreadable", name, f)
			}
			p := acc.Present()
			if p[ingest.FRequestTime] != 4 || p[ingest.FUpstreamHeaderTime] != 3 || p[ingest.FStatus] != 4 {
				t.Errorf("%s: %d request_time, %d upstream_header_time, %d status; want 4, 3 and 4",
					name, p[ingest.FRequestTime], p[ingest.FUpstreamHeaderTime], p[ingest.FStatus])
			}
		}
	}
}
