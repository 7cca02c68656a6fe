package ingest

import (
	"testing"
	"time"
)

func FuzzPhoenix(f *testing.F) {
	seedLines(f, "testdata/text/phoenix-console.log", "testdata/text/phoenix-dated.log")
	for _, s := range []string{"", "10:00:00.000", "10:00:00.000 [", "10:00:00.000 []", "10:00:00.000 [info] Sent 200 in ms",
		"10:00:00.000 a= [info] Sent 200 in 1e309ms", "10:00:00.000 request_id= [info] GET /", "2025-13-45 99:00:00.000 [info] Sent 200 in 5µs",
		"10:00:00.000 request_id=x [info] Chunked 999 in 0µs"} {
		f.Add([]byte(s))
	}
	p := newPhoenixParser(&parserConfig{loc: time.UTC})
	f.Fuzz(func(t *testing.T, line []byte) {
		phoenixHead(line)
		phoenixClockHead(line)
		var r Record
		if !parsedRequest(t, p, line, &r) {
			return
		}
		if len(p.pending.m) > startLinesMax {
			t.Fatalf("%d request lines kept", len(p.pending.m))
		}
	})
}
