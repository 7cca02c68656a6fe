package ingest

import (
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
		if !parsedRequest(t, p, line, &r) {
			return
		}
		if len(p.pending.m) > startLinesMax {
			t.Fatalf("%d Started lines kept", len(p.pending.m))
		}
	})
}
