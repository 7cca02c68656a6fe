package ingest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestCSVHeaderGiven: --csv-header names the columns of CSV and TSV
// files written without a header row (CLS's shipping to COS without the
// field names): every row is a record, the first too, read by the names
// given. A file whose first row is that header (a BOM and CRLF or not)
// has it read as its header, not as a record.
func TestCSVHeaderGiven(t *testing.T) {
	const rows = 50
	var body, tsv, tabUA strings.Builder
	var sum float64
	for i := range rows {
		rt := float64(100+7*i) / 1000
		sum += rt
		fmt.Fprintf(&body, "2026-12-05T10:%02d:00Z,ap-beijing,qwen2-7b-instruct,200,%.3f\n", i, rt)
		fmt.Fprintf(&tsv, "2026-12-05T10:%02d:00Z\tap-beijing\tqwen2-7b-instruct\t200\t%.3f\n", i, rt)
		// Tabs in a file named .csv, a user agent's "; " twice in each
		// row: the header given tells the separator, not a row.
		fmt.Fprintf(&tabUA, "2026-12-05T10:%02d:00Z\tap-beijing\tqwen2-7b-instruct\t200\t%.3f\tMozilla/5.0 (Windows NT 10.0; Win64; x64)\n", i, rt)
	}
	const header = "time,region,model,status,request_time"
	for _, c := range []struct {
		name, content, header string
	}{
		{"nohead.csv", body.String(), header},
		{"head.csv", header + "\n" + body.String(), header},
		{"bom.csv", "\ufeff" + header + "\r\n" + body.String(), header},
		{"nohead.tsv", tsv.String(), strings.ReplaceAll(header, ",", "\t")},
		{"tabs.csv", tabUA.String(), strings.ReplaceAll(header, ",", "\t") + "\thttp_user_agent"},
	} {
		path := writeTemp(t, c.name, c.content)
		got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC, CSVHeader: c.header})
		if res.BadLines() != 0 || len(got) != rows {
			t.Fatalf("%s: %d records, %d bad lines, want %d and 0: %v", c.name, len(got), res.BadLines(), rows, res.Problems)
		}
		var s float64
		for _, r := range got {
			s += r.rt
			if r.region != "ap-beijing" || r.model != "qwen2-7b-instruct" || r.status != 200 || !r.hasTime {
				t.Fatalf("%s: record %+v", c.name, r)
			}
		}
		if d := s - sum; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: request_time sums to %v, the rows to %v", c.name, s, sum)
		}
	}
	// Without it, the first row is taken for a header: one record fewer.
	got, _ := collect(t, []string{writeTemp(t, "plain.csv", body.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) == rows {
		t.Errorf("a header-less file read whole without --csv-header")
	}
}
