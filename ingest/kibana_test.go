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

// TestKibanaECSExport: Kibana's CSV of Elastic Common Schema fields
// writes numbers in its default format, their thousands grouped
// ("1,234,000,000" ns of event.duration), quoted.
func TestKibanaECSExport(t *testing.T) {
	path := writeTemp(t, "ecs.csv", `"@timestamp","event.duration","http.response.status_code","url.original","source.ip"
"Dec 5, 2026 @ 10:00:00.123","1,234,000,000",200,"/v1/chat/completions","10.0.0.1"
"Dec 5, 2026 @ 10:00:01.456","532,000,000","502","/v1/chat/completions","10.0.0.2"
"Dec 5, 2026 @ 10:00:02.000","12,500",200,"/v1/models","10.0.0.2"
`)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	want := []float64{1.234, 0.532, 12500e-9}
	if f := res.Files[0]; f.Source != "ecs" || f.BadLines != 0 || len(got) != len(want) {
		t.Fatalf("source %q, %d records, %d bad lines (%v); want ecs, %d, none", f.Source, len(got), f.BadLines, res.Problems, len(want))
	}
	for i, g := range got {
		if !nearSrc(g.rt, want[i]) || g.client != []string{"10.0.0.1", "10.0.0.2", "10.0.0.2"}[i] {
			t.Errorf("record %d: %v s, client %q; want %v s", i, g.rt, g.client, want[i])
		}
	}
}
