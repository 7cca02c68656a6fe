package ingest_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// splunkResults returns rows as Splunk's REST API answers a search job's
// results with output_mode=json (services/search/jobs/{sid}/results):
// {"preview":false,"init_offset":0,"messages":[],"fields":[…],
// "results":[…],"highlighted":{}}, every value a string.
func splunkResults(t *testing.T, rows []map[string]any) []byte {
	t.Helper()
	return jsonOf(t, map[string]any{"preview": false, "init_offset": 0, "messages": []any{},
		"fields":  []map[string]string{{"name": "_bkt"}, {"name": "_cd"}, {"name": "_raw"}, {"name": "_time"}, {"name": "host"}},
		"results": rows, "highlighted": map[string]any{}}, "")
}

// TestSplunkResults: a Splunk search job's results give the records of
// the events' lines in their _raw, as the lines alone do.
func TestSplunkResults(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		var rows []map[string]any
		for i, l := range fileLines(t, src) {
			at := time.Date(2026, 12, 4, 10, 0, i%60, 510e6, time.FixedZone("", 8*3600))
			rows = append(rows, map[string]any{"_bkt": "main~12~0A1B", "_cd": fmt.Sprintf("12:%d", i), "_indextime": fmt.Sprint(at.Unix() + 2),
				"_raw": l, "_serial": fmt.Sprint(i), "_si": []string{"idx-1", "main"}, "_sourcetype": "gw:access",
				"_time": at.Format("2006-01-02T15:04:05.000-07:00"), "host": "gw-1", "index": "main", "linecount": "1",
				"source": "/var/log/gw/access.log", "sourcetype": "gw:access", "splunk_server": "idx-1"})
		}
		checkAsLines(t, src, ingest.EnvSplunk, map[string][]byte{
			filepath.Join(dir, "results-"+filepath.Base(src)): splunkResults(t, rows),
		})
	}
}

// TestSplunkResultsTimeAndFields: a JSON line of no time of its own takes
// its result's _time; results of a search that extracted a request time
// beside _raw are read by their fields, and a stats search's (no _raw)
// as the records they are.
func TestSplunkResultsTimeAndFields(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	var rows []map[string]any
	for _, l := range timedLines {
		rows = append(rows, map[string]any{"_raw": l, "_time": "2026-12-05T18:00:00.250+08:00", "_cd": "1:2", "host": "gw-1"})
	}
	checkEnvelopeTime(t, splunkResults(t, rows), ingest.EnvSplunk, at, time.UTC)
	for name, rows := range map[string][]map[string]any{
		"extracted": {{"_raw": "GET /x", "_time": "2026-12-05T10:00:00.000+00:00", "request_time": "0.5", "status": "429"},
			{"_raw": "GET /y", "_time": "2026-12-05T10:00:01.000+00:00", "request_time": "1.5", "status": "200"}},
		"stats": {{"status": "429", "request_time": "0.5"}, {"status": "200", "request_time": "1.5"}},
	} {
		got, res := collect(t, []string{writeTemp(t, name+".json", string(splunkResults(t, rows)))}, ingest.Options{Workers: 1})
		if f := res.Files[0]; f.Envelope != ingest.NoEnvelope || len(got) != 2 || f.BadLines != 0 || !nearSrc(got[0].rt+got[1].rt, 2) || got[0].status+got[1].status != 629 {
			t.Errorf("%s: envelope %q, %d records (%+v), %d bad lines; want none, 2 of 0.5 s 429 and 1.5 s 200, 0", name, f.Envelope, len(got), got, f.BadLines)
		}
	}
}
