package ingest_test

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestHoneycombSpans: Honeycomb's export of a query's raw rows of
// spans, OpenTelemetry's (span.kind) and a Beeline's (meta.span_type
// alone), reads a request of each server span, or root and subroot
// span, its duration_ms in ms and its status; the client and internal
// spans, and a Beeline's leaves, are passed over.
func TestHoneycombSpans(t *testing.T) {
	text := `Timestamp,service.name,trace.trace_id,trace.span_id,trace.parent_id,name,span.kind,meta.span_type,duration_ms,http.status_code,http.route,gen_ai.request.model
2026-12-05T10:00:04.201000Z,gw,t1,s1,,POST /v1/chat/completions,server,,1326.77,200,/v1/chat/completions,gpt-4o
2026-12-05T10:00:04.202500Z,gw,t1,s2,s1,POST,client,,1323.77,200,,
2026-12-05T10:00:04.203000Z,gw,t1,s3,s1,auth.verify_key,internal,,1.5,,,
2026-12-05T10:00:05.000000Z,gw,t2,s4,up9,POST /v1/chat/completions,server,,250.25,429,/v1/chat/completions,gpt-4o-mini
2026-12-05T10:00:06.000000Z,api,t3,s5,,/v1/embeddings,,root,88,200,/v1/embeddings,
2026-12-05T10:00:06.010000Z,api,t3,s6,s5,db.query,,leaf,12,,,
2026-12-05T10:00:07.000000Z,api,t4,s7,x1,/v1/chat/completions,,subroot,4096.5,503,/v1/chat/completions,
`
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		ms     float64
		status int64
	}
	var wants []want
	passed := 0
	for _, r := range rows[1:] {
		if r[6] == "server" || r[6] == "" && (r[7] == "root" || r[7] == "subroot") {
			ms, _ := strconv.ParseFloat(r[8], 64)
			st, _ := strconv.ParseInt(r[9], 10, 64)
			wants = append(wants, want{ms, st})
		} else {
			passed++
		}
	}
	got, res := collect(t, []string{writeTemp(t, "query_result.csv", text)}, ingest.Options{Workers: 1, Location: time.UTC})
	f := res.Files[0]
	if f.Source != "honeycomb" || len(got) != len(wants) || f.PassedOver != int64(passed) || f.BadLines != 0 {
		t.Fatalf("source %q, %d records, %d passed over, %d bad; want honeycomb, %d, %d, 0", f.Source, len(got), f.PassedOver, f.BadLines, len(wants), passed)
	}
	for i, g := range got {
		if !nearSrc(g.rt*1000, wants[i].ms) || g.status != wants[i].status {
			t.Errorf("request %d: %v ms, status %d; want %v ms, %d", i, g.rt*1000, g.status, wants[i].ms, wants[i].status)
		}
	}
	if got[0].model != "gpt-4o" || got[0].uri != "/v1/chat/completions" {
		t.Errorf("first request: model %q, uri %q; want gpt-4o, /v1/chat/completions", got[0].model, got[0].uri)
	}
}
