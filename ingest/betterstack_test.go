package ingest_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"loganalyze/ingest"
)

// betterStackDT is how Better Stack's SQL API (ClickHouse's text of a
// DateTime64(6)) writes dt, in UTC
// (https://betterstack.com/docs/logs/query-api/connect-remotely/).
const betterStackDT = "2006-01-02 15:04:05.000000"

// betterStackRow is a row of Better Stack's SQL API, SELECT dt, raw …
// FORMAT JSONEachRow.
type betterStackRow struct {
	DT  string `json:"dt"`
	Raw string `json:"raw"`
}

// TestBetterStackSQL: Better Stack's SQL API's rows, newest first, are
// read by the message in their raw log, nginx lines here; a message that
// is no request line is a bad line.
func TestBetterStackSQL(t *testing.T) {
	const path = "testdata/text/betterstack-sql.jsonl"
	lines := fileLines(t, path)
	var want []row
	for _, l := range lines {
		var r betterStackRow
		var raw struct{ Message string }
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(r.Raw), &raw); err != nil {
			t.Fatal(err)
		}
		if at, status, rt, ok := nginxTruth(raw.Message); ok {
			want = append(want, row{timeNS: at.UnixNano(), status: status, rt: rt})
		}
	}
	slices.SortFunc(want, func(a, b row) int { return cmp.Compare(a.timeNS, b.timeNS) }) // collect's order
	checkUnwrappedNginx(t, path, ingest.EnvBetterStack, want, len(lines)-len(want))
}

// TestBetterStackSQLFields: a raw log of no message, the fields a
// structured log sent, is the record; one of no time of its own takes
// the row's dt, UTC whatever --tz says (to the millisecond); one with
// its own keeps it.
func TestBetterStackSQLFields(t *testing.T) {
	const path = "testdata/text/betterstack-sql-fields.jsonl"
	var want []row
	for _, l := range fileLines(t, path) {
		var r betterStackRow
		var m struct {
			Time        string  `json:"time_iso8601"`
			Status      int64   `json:"status"`
			RequestTime float64 `json:"request_time"`
			Model       string  `json:"model"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(r.Raw), &m); err != nil {
			t.Fatal(err)
		}
		at, err := time.Parse(betterStackDT, r.DT)
		if err != nil {
			t.Fatal(err)
		}
		at = at.Truncate(time.Millisecond)
		if m.Time != "" {
			if at, err = time.Parse(time.RFC3339, m.Time); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, row{timeNS: at.UnixNano(), status: m.Status, rt: m.RequestTime, model: m.Model})
	}
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: shanghai})
	if f := res.Files[0]; f.Envelope != ingest.EnvBetterStack || f.Format != ingest.JSONL || len(got) != len(want) || res.BadLines() != 0 {
		t.Fatalf("read as %q %s: %d records, %d bad; want betterstack jsonl, %d, 0: %v", f.Envelope, f.Format, len(got), res.BadLines(), len(want), res.Problems)
	}
	sameRows(t, got, want, true)
}

// betterStackOf returns Better Stack's row of line at at: the SQL API's
// and the legacy Query API v1's.
func betterStackOf(t *testing.T, line string, at time.Time) (betterStackRow, map[string]any) {
	raw := jsonOf(t, map[string]any{"dt": at.Format(time.RFC3339Nano), "message": line, "kubernetes": map[string]string{"pod_name": "llm-gw-7d9f"}}, "")
	return betterStackRow{DT: at.UTC().Format(betterStackDT), Raw: string(raw)},
		map[string]any{"app": "llm-gw", "source_id": "123", "dt": at.UTC().Format(betterStackDT), "message": line, "level": "info",
			"context.http.path": nil, "event.http_response_sent.status": nil}
}

// TestBetterStackLines: the lines of several formats and sources in
// Better Stack's SQL API's rows (JSONEachRow lines, FORMAT JSON's data)
// and its Query API v1's data read as the lines alone do.
func TestBetterStackLines(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		name := filepath.Base(src)
		var lines bytes.Buffer
		var rows []betterStackRow
		var v1 []map[string]any
		for i, l := range fileLines(t, src) {
			r, q := betterStackOf(t, l, time.Date(2026, 12, 4, 2, 0, i%60, 0, time.UTC))
			writeJSONLine(t, &lines, r)
			rows, v1 = append(rows, r), append(v1, q)
		}
		checkAsLines(t, src, ingest.EnvBetterStack, map[string][]byte{
			filepath.Join(dir, name+".jsonl"): lines.Bytes(),
			filepath.Join(dir, name+"-json.json"): jsonOf(t, map[string]any{"meta": []map[string]string{{"name": "dt", "type": "DateTime64(6)"}, {"name": "raw", "type": "String"}},
				"data": rows, "rows": len(rows), "statistics": map[string]any{"elapsed": 0.01, "rows_read": len(rows), "bytes_read": 1}}, ""),
			filepath.Join(dir, name+"-v1.json"): jsonOf(t, map[string]any{"data": v1, "pagination": map[string]any{"page": 1, "per_page": 1000, "total_pages": 1, "next": nil}}, "  "),
		})
	}
}

// TestBetterStackTime: a JSON line of no time of its own takes its row's
// dt, read in UTC whatever --tz says; one with its own keeps it.
func TestBetterStackTime(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	var lines bytes.Buffer
	var v1 []map[string]any
	for _, l := range timedLines {
		r, q := betterStackOf(t, l, at)
		writeJSONLine(t, &lines, r)
		v1 = append(v1, q)
	}
	checkEnvelopeTime(t, lines.Bytes(), ingest.EnvBetterStack, at, shanghai)
	checkEnvelopeTime(t, jsonOf(t, map[string]any{"data": v1}, ""), ingest.EnvBetterStack, at, shanghai)
}
