package ingest_test

import (
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestKibanaCSVExport: Discover's CSV export writes @timestamp in
// Kibana's default dateFormat, "Dec 5, 2026 @ 10:00:00.123", without a
// zone (its dateFormat:tz, the browser's): read in --tz.
func TestKibanaCSVExport(t *testing.T) {
	path := writeTemp(t, "discover.csv", `"@timestamp",status,"request_time",model
"Dec 5, 2026 @ 10:00:00.123",200,"0.5","gpt-4o"
"Dec 5, 2026 @ 09:59:59.000",502,"1.25","qwen-72b"
"Nov 30, 2026 @ 23:00:01.5",200,"2","qwen-72b"
`)
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: shanghai})
	want := []struct {
		at time.Time
		rt float64
	}{
		{time.Date(2026, 11, 30, 23, 0, 1, 500e6, shanghai), 2},
		{time.Date(2026, 12, 5, 9, 59, 59, 0, shanghai), 1.25},
		{time.Date(2026, 12, 5, 10, 0, 0, 123e6, shanghai), 0.5},
	}
	if res.BadLines() != 0 || len(got) != len(want) {
		t.Fatalf("%d records, %d bad lines (%v); want %d, none", len(got), res.BadLines(), res.Problems, len(want))
	}
	for i, g := range got {
		if g.timeNS != want[i].at.UnixNano() || !nearSrc(g.rt, want[i].rt) {
			t.Errorf("record %d: %v, %v s; want %v, %v s", i, time.Unix(0, g.timeNS).In(shanghai), g.rt, want[i].at, want[i].rt)
		}
	}
}
