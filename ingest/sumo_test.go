package ingest_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// sumoAnswer returns maps as Sumo Logic's Search Job API returns its
// messages ({"fields":[…],"messages":[{"map":{…}},…]}), every value a
// string.
func sumoAnswer(t *testing.T, maps []map[string]string) []byte {
	t.Helper()
	var msgs []map[string]any
	for _, m := range maps {
		msgs = append(msgs, map[string]any{"map": m})
	}
	return jsonOf(t, map[string]any{"fields": []map[string]any{{"name": "_raw", "fieldType": "string", "keyField": false}},
		"messages": msgs}, "  ")
}

// TestSumoMessages: Sumo Logic's search messages give the records of
// the lines in their _raw, as the lines alone do.
func TestSumoMessages(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		var maps []map[string]string
		for i, l := range fileLines(t, src) {
			ms := fmt.Sprint(time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC).UnixMilli() + int64(i))
			maps = append(maps, map[string]string{"_messageid": fmt.Sprint(-9223372036854773772 + i), "_sourcecategory": "prod/gw",
				"_sourcehost": "gw-1", "_collector": "gw-1", "_receipttime": ms, "_messagetime": ms, "_raw": l, "_size": fmt.Sprint(len(l))})
		}
		checkAsLines(t, src, ingest.EnvSumo, map[string][]byte{filepath.Join(dir, "sumo-"+filepath.Base(src)): sumoAnswer(t, maps)})
	}
}

// TestSumoTimeAndFields: a JSON line of no time of its own takes its
// message's _messagetime (epoch ms); messages whose maps hold fields the
// query parsed, a request time among them, are read by those fields.
func TestSumoTimeAndFields(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	var maps []map[string]string
	for _, l := range timedLines {
		maps = append(maps, map[string]string{"_raw": l, "_messagetime": fmt.Sprint(at.UnixMilli()), "_sourcecategory": "gw"})
	}
	checkEnvelopeTime(t, sumoAnswer(t, maps), ingest.EnvSumo, at, time.UTC)
	parsed := sumoAnswer(t, []map[string]string{
		{"_raw": "GET /x", "_messagetime": "1", "time": "2026-12-05T10:00:00Z", "request_time": "0.5", "status": "429", "model": "m"},
		{"_raw": "GET /y", "_messagetime": "2", "time": "2026-12-05T10:00:01Z", "request_time": "1.5", "status": "200", "model": "m"},
	})
	got, res := collect(t, []string{writeTemp(t, "p.json", string(parsed))}, ingest.Options{Workers: 1})
	if f := res.Files[0]; f.Envelope != ingest.NoEnvelope || len(got) != 2 || f.BadLines != 0 || !nearSrc(got[0].rt, 0.5) || got[0].status != 429 || !nearSrc(got[1].rt, 1.5) {
		t.Fatalf("envelope %q, %d records (%+v), %d bad lines; want none, 2 of 0.5 s 429 and 1.5 s, 0", f.Envelope, len(got), got, f.BadLines)
	}
}
