package ingest_test

import (
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestAzurePortalCSV: Azure's portal exports a Log Analytics query's
// results as CSV, its columns of times named with " [UTC]" after them
// and written as the browser's toLocaleString() writes them in the
// USA's English ("12/4/2026, 9:00:12.611 AM"): UTC's, whatever --tz
// says, and the file's zone says so. Without the suffix, the same times
// are read in --tz.
func TestAzurePortalCSV(t *testing.T) {
	rows := `,OperationName,TotalTime,ResponseCode,Url
"12/4/2026, 9:00:12.611 AM",Microsoft.ApiManagement/GatewayLogs,950,200,https://contoso.azure-api.net/openai/deployments/gpt-4o/chat/completions
"12/4/2026, 12:07:23.005 PM",Microsoft.ApiManagement/GatewayLogs,4056,429,https://contoso.azure-api.net/openai/deployments/gpt-4o/chat/completions
"12/4/2026, 12:30:00 AM",Microsoft.ApiManagement/GatewayLogs,12,200,https://contoso.azure-api.net/openai/deployments/gpt-4o/chat/completions
`
	utc := []time.Time{
		time.Date(2026, 12, 4, 0, 30, 0, 0, time.UTC),
		time.Date(2026, 12, 4, 9, 0, 12, 611e6, time.UTC),
		time.Date(2026, 12, 4, 12, 7, 23, 5e6, time.UTC),
	}
	shanghai := time.FixedZone("CST", 8*3600)
	for _, c := range []struct {
		head, zone string
		at         *time.Location // the zone the times are in
	}{{"TimeGenerated [UTC]", "UTC", time.UTC}, {"TimeGenerated", "", shanghai}} {
		got, res := collect(t, []string{writeTemp(t, "query_data.csv", c.head+rows)}, ingest.Options{Workers: 1, Location: shanghai})
		if len(got) != 3 || res.BadLines() != 0 || res.Files[0].Zone != c.zone {
			t.Fatalf("%s: %d records, %d bad lines (%v), zone %q; want 3, 0, %q", c.head, len(got), res.BadLines(), res.Problems, res.Files[0].Zone, c.zone)
		}
		for i, g := range got {
			w := utc[i]
			if c.at != time.UTC {
				w = time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), c.at)
			}
			if g.timeNS != w.UnixNano() {
				t.Errorf("%s: record %d at %v, want %v", c.head, i, time.Unix(0, g.timeNS).UTC(), w.UTC())
			}
		}
	}
}
