package ingest_test

import (
	"math"
	"strings"
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

// TestAzurePortalCSVStdin: the portal's export, piped in or saved under a
// name that says no table (query_data.txt), is told a CSV by its header:
// the brackets of "TimeGenerated [UTC]" between its commas are a name's,
// not an nginx line's [time]. A line of combined with commas in its user
// agent stays a text log's.
func TestAzurePortalCSVStdin(t *testing.T) {
	export := "TenantId,TimeGenerated [UTC],OperationName,CorrelationId,IsRequestSuccess,TotalTime,BackendTime,ClientTime,CallerIpAddress,Method,ResponseCode,Url\n" +
		`ws1,"12/4/2026, 9:00:12.611 AM",Microsoft.ApiManagement/GatewayLogs,c-1,true,950,930,20,203.0.113.7,POST,200,https://contoso.azure-api.net/openai/deployments/gpt-4o/chat/completions` + "\n" +
		`ws1,"12/4/2026, 12:07:23.005 PM",Microsoft.ApiManagement/GatewayLogs,c-2,false,4056,4040,16,203.0.113.8,POST,429,https://contoso.azure-api.net/openai/deployments/gpt-4o/chat/completions` + "\n"
	for name, opts := range map[string]ingest.Options{
		"stdin": {Workers: 1, Location: time.UTC, Stdin: strings.NewReader(export)},
		"txt":   {Workers: 1, Location: time.UTC},
	} {
		path := "-"
		if name == "txt" {
			path = writeTemp(t, "query_data.txt", export)
		}
		got, res := collect(t, []string{path}, opts)
		if f := res.Files[0]; f.Format != ingest.CSV || len(got) != 2 || res.BadLines() != 0 {
			t.Fatalf("%s: format %s, %d records, %d bad lines; want csv, 2, 0", name, f.Format, len(got), res.BadLines())
		}
		if got[0].status != 200 || got[1].status != 429 || math.Abs(got[0].rt-0.950) > 1e-9 || math.Abs(got[1].rt-4.056) > 1e-9 {
			t.Errorf("%s: statuses %d %d, request_time %v %v; want 200 429, 0.95 4.056", name, got[0].status, got[1].status, got[0].rt, got[1].rt)
		}
	}
	combined := `10.0.0.1 - - [04/Dec/2026:09:00:12 +0000] "POST /v1/chat/completions HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11, Linux, x86_64)"` + "\n"
	_, res := collect(t, []string{"-"}, ingest.Options{Workers: 1, Location: time.UTC, Stdin: strings.NewReader(strings.Repeat(combined, 3))})
	if f := res.Files[0]; f.Format != ingest.Nginx || f.Records != 3 {
		t.Errorf("combined with commas: format %s, %d records; want nginx, 3", f.Format, f.Records)
	}
}
