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

// TestDayAloneIsNoTime: a column "date" of the day alone (a table's,
// beside times of its own or none) is no time, as Fluent Bit's epoch or
// ISO 8601 date is: its records are read without one, not made bad.
func TestDayAloneIsNoTime(t *testing.T) {
	for name, text := range map[string]string{
		"days.csv":   "date,request_time,status\n2026-12-05,1.326,200\n2026-12-05,0.012,429\n2026-12-06,0.5,200\n",
		"days.jsonl": `{"date":"2026-12-05","request_time":1.326,"status":200}` + "\n" + `{"date":"2026-12-05","request_time":0.012,"status":429}` + "\n",
	} {
		got, res := collect(t, []string{writeTemp(t, name, text)}, ingest.Options{Workers: 1, Location: time.UTC})
		want := strings.Count(text, "\n")
		if name == "days.csv" {
			want-- // the header
		}
		if len(got) != want || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad lines (%v); want %d, none", name, len(got), res.BadLines(), res.Problems, want)
		}
		limited, slow := 0, 0
		for _, r := range got {
			if r.hasTime {
				t.Errorf("%s: a record with a time (%v): the day alone is none", name, time.Unix(0, r.timeNS).UTC())
			}
			if r.status == 429 && nearSrc(r.rt, 0.012) {
				limited++
			}
			if r.status == 200 && nearSrc(r.rt, 1.326) {
				slow++
			}
		}
		if limited != 1 || slow != 1 {
			t.Errorf("%s: records %+v; want the 429 of 0.012 s and the 200 of 1.326 s", name, got)
		}
	}
}
