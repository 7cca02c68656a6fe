package ingest_test

import (
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestFluentBitDateKey reads the time of a record Fluent Bit's JSON
// outputs wrote (file, stdout, http, s3 with format json_lines) under
// their json_date_key, "date", in each json_date_format its manual
// lists: double, epoch, epoch_ms, iso8601 and java_sql_timestamp (UTC,
// as Fluent Bit writes it; read here in --tz UTC). The record has no
// time of its own: without "date" the run had no timestamps at all.
func TestFluentBitDateKey(t *testing.T) {
	at := time.Date(2026, 12, 4, 2, 0, 1, 125_000_000, time.UTC)
	cases := map[string]struct {
		value string
		want  int64
	}{
		"double":             {"1796349601.125", at.UnixNano()},
		"epoch":              {"1796349601", at.Truncate(time.Second).UnixNano()},
		"epoch_ms":           {"1796349601125", at.UnixNano()},
		"iso8601":            {`"2026-12-04T02:00:01.125000Z"`, at.UnixNano()},
		"java_sql_timestamp": {`"2026-12-04 02:00:01.125000"`, at.UnixNano()},
	}
	for name, c := range cases {
		var b strings.Builder
		for i := range 3 {
			b.WriteString(`{"date":` + c.value + `,"remote_addr":"10.0.1.` + itoa(int64(i)) +
				`","request_method":"POST","request_uri":"/v1/chat/completions","status":"200","request_time":"0.188","model":"deepseek-chat"}` + "\n")
		}
		path := writeTemp(t, "fb.log", b.String())
		rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(rows) != 3 || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad (%v); want 3 and 0", name, len(rows), res.BadLines(), res.Problems)
		}
		for _, r := range rows {
			if !r.hasTime || r.timeNS != c.want {
				t.Errorf("%s: time %v (%v); want %v", name, time.Unix(0, r.timeNS).UTC(), r.hasTime, time.Unix(0, c.want).UTC())
			}
		}
	}
}
