package ingest

import (
	"bytes"
	"testing"
	"time"
)

func FuzzFiber(f *testing.F) {
	seedLines(f, "testdata/text/fiber-default.log", "testdata/text/fiber-classic.log")
	for _, s := range []string{"", "|", "[", "[]", "] 200 - 1s GET /", "x | 200 | 1s | a | GET | /", "[x] 200 - 1e309s GET /",
		"10:00:06 | 200 | -1s | a | GET | /", "99:99:99 | 200 | 1ms | a | GET | /", "[2026-13-45 99:00:00] 200 - 1ms GET /"} {
		f.Add([]byte(s))
	}
	p := newFiberParser(&parserConfig{loc: time.UTC})
	f.Fuzz(func(t *testing.T, line []byte) {
		fiberHead(line)
		fiberClockHead(line)
		var r Record
		if !parsedRequest(t, p, line, &r) {
			return
		}
		if m := r.Text(FMethod); !bytes.Contains(line, m) {
			t.Fatalf("method %q is not in %q", m, line)
		}
	})
}
