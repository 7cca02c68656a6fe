package ingest_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// grafanaRows returns lines as Grafana's "Download logs" writes them
// (grafana/grafana public/app/features/logs/utils.ts): as JSON, one
// line of {line, timestamp (epoch ns, a string), date, fields} objects,
// date left out as Grafana wrote it before version 11 when old; as CSV,
// the data frame of Loki's rows after a Date column, Time (epoch ms),
// Line, tsNs (epoch ns) and id, every field quoted.
func grafanaRows(t *testing.T, lines []string, at func(i int) time.Time, old bool) (js, csv []byte) {
	t.Helper()
	var rows []map[string]any
	table := [][]string{{"Date", "Time", "Line", "tsNs", "id"}}
	for i, l := range lines {
		ts := at(i)
		ns := fmt.Sprint(ts.UnixNano())
		row := map[string]any{"line": l, "timestamp": ns,
			"fields": map[string]string{"app": "gw", "namespace": "gw", "pod": "gw-7d9f-abcde", "stream": "stdout"}}
		if !old {
			row["date"] = ts.UTC().Format("2006-01-02T15:04:05.000Z")
		}
		rows = append(rows, row)
		table = append(table, []string{ts.UTC().Format("2006-01-02T15:04:05.000Z"), fmt.Sprint(ts.UnixMilli()), l, ns, ns + "_" + fmt.Sprintf("%08x", i)})
	}
	return jsonOf(t, rows, ""), []byte(csvOf(t, table))
}

// TestGrafanaDownload: Grafana's logs downloaded as JSON and as CSV give
// the records of their lines, as the lines alone do.
func TestGrafanaDownload(t *testing.T) {
	dir := t.TempDir()
	at := func(i int) time.Time { return time.Date(2026, 12, 4, 2, 0, i%60, 123456789, time.UTC) }
	for _, src := range lineSamples {
		name := filepath.Base(src)
		lines := fileLines(t, src)
		js, csv := grafanaRows(t, lines, at, false)
		old, _ := grafanaRows(t, lines, at, true)
		checkAsLines(t, src, ingest.EnvGrafana, map[string][]byte{
			filepath.Join(dir, "Explore-logs-"+name+".json"): js,
			filepath.Join(dir, "Logs-old-"+name+".json"):     old,
		})
		checkAsLines(t, src, ingest.EnvRawCSV, map[string][]byte{
			filepath.Join(dir, "Logs-A-data-"+name+".csv"): csv,
		})
	}
}

// TestGrafanaTime: a JSON line of no time of its own takes its row's
// timestamp (epoch ns) in Grafana's JSON, and its tsNs in Grafana's CSV.
func TestGrafanaTime(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	js, csv := grafanaRows(t, timedLines, func(int) time.Time { return at }, false)
	checkEnvelopeTime(t, js, ingest.EnvGrafana, at, time.UTC)
	got, res := collect(t, []string{writeTemp(t, "Logs-A.csv", string(csv))}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.EnvRawCSV || len(got) != 2 || f.BadLines != 0 {
		t.Fatalf("envelope %q, %d records, %d bad lines; want csv-raw, 2, 0", f.Envelope, len(got), f.BadLines)
	}
	if got[0].timeNS != at.UnixNano() || !nearSrc(got[0].rt, 0.25) {
		t.Errorf("the line of no time: %v, %v s; want tsNs's %v, 0.25 s", time.Unix(0, got[0].timeNS).UTC(), got[0].rt, at)
	}
	if want := time.Date(2026, 12, 5, 10, 30, 0, 0, time.UTC).UnixNano(); got[1].timeNS != want || got[1].status != 502 {
		t.Errorf("the line of its own time: %v, %d; want %v, 502", time.Unix(0, got[1].timeNS).UTC(), got[1].status, time.Unix(0, want).UTC())
	}
}
