package ingest_test

import (
	"testing"

	"loganalyze/ingest"
)

// TestZeroStatus: a status 0 is read as what its program documents it
// to mean: Envoy's (a response never begun, the client gone) as 499, in
// its text and JSON logs; Azure Front Door's (the origin timed out) as
// 504 (TestSourceFixtures). Elsewhere a 0 stays 0.
func TestZeroStatus(t *testing.T) {
	for _, c := range []struct {
		name, text, source string
		want               []int64
	}{
		{"envoy.log", `[2026-12-04T10:00:00.310Z] "POST /v1/chat/completions HTTP/1.1" 0 DC 512 0 30012 - "-" "python-requests/2.31.0" "1b2c3d4e-0000-4000-8000-000000000002" "api.example.com" "10.0.2.9:8080"
[2026-12-04T10:00:01.112Z] "GET /v1/models HTTP/1.1" 200 - 0 1834 42 40 "203.0.113.7" "curl/8.5.0" "1b2c3d4e-0000-4000-8000-000000000001" "api.example.com" "10.0.2.7:8080"
`, "envoy", []int64{499, 200}},
		{"envoy.jsonl", `{"authority":"api","bytes_received":0,"bytes_sent":0,"duration":30012,"method":"POST","path":"/v1/chat/completions","protocol":"HTTP/1.1","response_code":0,"response_flags":"DC","start_time":"2026-12-04T10:00:00.656Z","upstream_cluster":"outbound|8080||api","upstream_host":"10.124.1.9:8080","upstream_service_time":null}
{"authority":"api","bytes_received":0,"bytes_sent":358,"duration":15,"method":"POST","path":"/v1/chat/completions","protocol":"HTTP/1.1","response_code":200,"response_flags":"-","start_time":"2026-12-04T10:00:01.656Z","upstream_cluster":"outbound|8080||api","upstream_host":"10.124.1.9:8080","upstream_service_time":"14"}
`, "envoy", []int64{499, 200}},
		{"plain.jsonl", `{"time":"2026-12-04T10:00:00Z","status":0,"request_time":0.5}
{"time":"2026-12-04T10:00:01Z","status":200,"request_time":0.5}
`, "", []int64{0, 200}},
	} {
		rows, res := collect(t, []string{writeTemp(t, c.name, c.text)}, ingest.Options{Workers: 1})
		if res.Files[0].Source != c.source || len(rows) != len(c.want) {
			t.Fatalf("%s: source %q, %d records; want %q, %d", c.name, res.Files[0].Source, len(rows), c.source, len(c.want))
		}
		for i, r := range rows {
			if !r.hasStatus || r.status != c.want[i] {
				t.Errorf("%s record %d: status %d (%v), want %d", c.name, i, r.status, r.hasStatus, c.want[i])
			}
		}
	}
}
