package ingest_test

import (
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestHeaderlessDelimitedRows: rows of values cut by '|' (Amazon
// Redshift's UNLOAD, which writes no header by default) or ';', in a
// file no known text format reads, are a CSV whose first row holds
// values, which the report names --csv-header for; with --csv-header
// they are read; and a --log-format given for such lines (a web
// server's own log_format cut by '|') reads them as the log they are.
func TestHeaderlessDelimitedRows(t *testing.T) {
	rows := []string{
		"2026-12-04 02:00:01.457|0.162|200|glm-4|ap-guangzhou",
		"2026-12-04 02:00:06.071|1.643|429|qwen|ap-guangzhou",
		"2026-12-04 02:00:09.500|0.5|200|qwen|ap-beijing",
		"2026-12-04 02:00:12.000|2.25|502|glm-4|ap-beijing",
	}
	for _, sep := range []string{"|", ";"} {
		text := strings.ReplaceAll(strings.Join(rows, "\n")+"\n", "|", sep)
		path := writeTemp(t, "0000_part_00", text)
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if f := res.Files[0]; f.Format != ingest.CSV || len(got) != 0 || f.BadLines != int64(len(rows)-1) {
			t.Errorf("sep %q: format %q, %d records, %d bad lines; want csv, none, %d (the first row its header)", sep, f.Format, len(got), f.BadLines, len(rows)-1)
		}
		header := strings.ReplaceAll("time|request_time|status|model|region", "|", sep)
		got, res = collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC, CSVHeader: header})
		if len(got) != len(rows) || res.BadLines() != 0 || got[3].status != 502 || !nearSrc(got[1].rt, 1.643) {
			t.Errorf("sep %q, --csv-header: %d records (%+v), %d bad lines; want %d, none", sep, len(got), got, res.BadLines(), len(rows))
		}
	}
	// A web server's log_format cut by '|', given: its log.
	text := "10.0.0.1|04/Dec/2026:10:00:01 +0800|POST /v1/chat/completions HTTP/1.1|200|0.162\n" +
		"10.0.0.2|04/Dec/2026:10:00:02 +0800|POST /v1/chat/completions HTTP/1.1|429|0.004\n" +
		"10.0.0.3|04/Dec/2026:10:00:03 +0800|POST /v1/embeddings HTTP/1.1|200|0.052\n"
	got, res := collect(t, []string{writeTemp(t, "access.log", text)}, ingest.Options{Workers: 1, Location: time.UTC,
		LogFormats: []string{`$remote_addr|$time_local|$request|$status|$request_time`}})
	if f := res.Files[0]; f.Format != ingest.Nginx || len(got) != 3 || res.BadLines() != 0 || got[1].status != 429 {
		t.Errorf("--log-format: format %q, %d records, %d bad lines; want nginx, 3, none", f.Format, len(got), res.BadLines())
	}
}
