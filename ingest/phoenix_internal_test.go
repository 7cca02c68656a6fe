package ingest

import (
	"math"
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
		if err := p.Parse(line, &r); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if v, ok := r.Float(FRequestTime); !ok || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("request_time %v %v from %q", v, ok, line)
		}
		if len(p.pending.m) > startLinesMax {
			t.Fatalf("%d request lines kept", len(p.pending.m))
		}
	})
}
