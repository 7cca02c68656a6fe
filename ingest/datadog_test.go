package ingest_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// datadogLog returns Datadog's log of line, a line no pipeline parsed,
// as the Logs API returns it (https://docs.datadoghq.com/api/latest/logs/):
// v2's search {"id","type":"log","attributes":{…}}, or v1's list
// {"id","content":{…}} when v1; its own attributes empty.
func datadogLog(line string, at time.Time, i int, v1 bool) map[string]any {
	log := map[string]any{
		"timestamp": at.Format(time.RFC3339Nano), "host": "node-1", "service": "ingress-nginx",
		"status": "info", "tags": []string{"env:prod", "source:nginx"}, "message": line,
		"attributes": map[string]any{},
	}
	id := fmt.Sprintf("AQAAAY%016x", i)
	if v1 {
		return map[string]any{"id": id, "content": log}
	}
	return map[string]any{"id": id, "type": "log", "attributes": log}
}

// TestDatadogLines: Datadog's logs whose lines no pipeline parsed, as
// its Logs API v2 (search) and v1 (list) return them and as JSON lines
// (jq -c '.data[]'), give the records of the lines in their message, as
// the lines alone do.
func TestDatadogLines(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		name := filepath.Base(src)
		var v2, v1 []map[string]any
		var lines bytes.Buffer
		for i, l := range fileLines(t, src) {
			at := time.Date(2026, 12, 4, 2, 0, i%60, 0, time.UTC)
			v2 = append(v2, datadogLog(l, at, i, false))
			v1 = append(v1, datadogLog(l, at, i, true))
			writeJSONLine(t, &lines, datadogLog(l, at, i, false))
		}
		checkAsLines(t, src, ingest.EnvDatadog, map[string][]byte{
			filepath.Join(dir, "v2-"+name+".json"): jsonOf(t, map[string]any{"data": v2, "links": map[string]any{"next": "https://api.datadoghq.com/api/v2/logs/events?page[cursor]=x"},
				"meta": map[string]any{"page": map[string]any{"after": "x"}, "status": "done"}}, ""),
			filepath.Join(dir, "v1-"+name+".json"):    jsonOf(t, map[string]any{"logs": v1, "nextLogId": nil, "status": "done"}, "  "),
			filepath.Join(dir, "lines-"+name+".json"): lines.Bytes(),
		})
	}
}

// TestDatadogTime: a JSON line of no time of its own takes its log's
// timestamp; one with its own keeps it.
func TestDatadogTime(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	var logs []map[string]any
	var lines bytes.Buffer
	for i, l := range timedLines {
		logs = append(logs, datadogLog(l, at, i, false))
		writeJSONLine(t, &lines, datadogLog(l, at, i, false))
	}
	checkEnvelopeTime(t, jsonOf(t, map[string]any{"data": logs}, ""), ingest.EnvDatadog, at, time.UTC)
	checkEnvelopeTime(t, lines.Bytes(), ingest.EnvDatadog, at, time.UTC)
}

// TestDatadogParsed: a log whose own attributes hold Datadog's
// duration or http (a pipeline parsed its line) is the datadog
// source's record, read by those attributes, not by its message.
func TestDatadogParsed(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	var logs []map[string]any
	for i, ms := range []int64{250, 1500} {
		l := datadogLog("not a line of any format", at, i, false)
		l["attributes"].(map[string]any)["attributes"] = map[string]any{"duration": ms * 1e6, "http": map[string]any{"status_code": 200, "method": "POST"}}
		logs = append(logs, l)
	}
	got, res := collect(t, []string{writeTemp(t, "parsed.json", string(jsonOf(t, map[string]any{"data": logs}, "")))}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.NoEnvelope || f.Source != "datadog" || len(got) != 2 || !nearSrc(got[1].rt, 1.5) || got[0].status != 200 {
		t.Errorf("envelope %q, source %q, %d records (%+v); want none, datadog, 2 of 0.25 and 1.5 s, status 200", f.Envelope, f.Source, len(got), got)
	}
}
