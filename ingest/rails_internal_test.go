package ingest

import (
	"math"
	"testing"
	"time"
)

func FuzzRails(f *testing.F) {
	seedLines(f, "testdata/text/rails-tagged.log", "testdata/text/rails-logger.log")
	for _, s := range []string{"", "[", "[] ", "Completed ", "Completed 200", "Completed 200  in ms", "Completed 200 OK in 1e309ms",
		"Completed 200 OK in -1ms", `Started GET "`, `[a] Started GET "/" for  at `, `I, [x #1]  INFO -- : [a] Completed 999 in 5ms`} {
		f.Add([]byte(s))
	}
	p := newRailsParser(&parserConfig{loc: time.UTC})
	f.Fuzz(func(t *testing.T, line []byte) {
		railsHead(line)
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
			t.Fatalf("%d Started lines kept", len(p.pending.m))
		}
	})
}
