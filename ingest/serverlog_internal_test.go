package ingest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzServerLog: any bytes as a file's first lines either are a server's
// own log or not, without a panic; as one, each line is passed over
// exactly when it has the log's shape, and is otherwise a bad line. A
// line any log's expression matches begins as mayBeServerLine asks.
func FuzzServerLog(f *testing.F) {
	for _, file := range []string{"nginx-error.log", "apache-error.log", "envoy-own.log", "traefik-own.log", "nginx-combined-rt.log"} {
		b, err := os.ReadFile(filepath.Join("testdata", "text", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("2026/12/04 09:00:00 [error] 1#1: x\n\n\r\ngoroutine 1 [running]:\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, l := range bytes.Split(b, []byte("\n")) {
			for k := range serverLogs {
				if serverLogs[k].re().Match(l) && !mayBeServerLine(l) {
					t.Fatalf("line %q is %s's, but not mayBeServerLine's", l, serverLogs[k].name)
				}
			}
		}
		s := serverLogOf(b)
		if s == nil {
			return
		}
		p := newServerLogParser(s)
		for _, l := range bytes.Split(b, []byte("\n")) {
			err := p.Parse(l, nil)
			if errors.Is(err, errPassOver) != s.re().Match(l) || err == nil {
				t.Fatalf("line %q: %v", l, err)
			}
		}
	})
}
