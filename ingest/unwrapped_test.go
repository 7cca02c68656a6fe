package ingest_test

import (
	"testing"
	"time"

	"loganalyze/ingest"
)

// sameRows checks that each record got holds the time, status and
// request time of its row of want (and its model, with model): the
// records of a log platform's or a collector's lines, unwrapped, against
// what the lines themselves say.
func sameRows(t *testing.T, got, want []row, model bool) {
	t.Helper()
	for i, w := range want {
		g := got[i]
		if g.timeNS == w.timeNS && g.status == w.status && nearSrc(g.rt, w.rt) && (!model || g.model == w.model) {
			continue
		}
		if model {
			t.Errorf("record %d: %v, %d, %g s, %q; want %v, %d, %g s, %q", i, time.Unix(0, g.timeNS).UTC(), g.status, g.rt, g.model, time.Unix(0, w.timeNS).UTC(), w.status, w.rt, w.model)
		} else {
			t.Errorf("record %d: %v, %d, %g s; want %v, %d, %g s", i, time.Unix(0, g.timeNS).UTC(), g.status, g.rt, time.Unix(0, w.timeNS).UTC(), w.status, w.rt)
		}
	}
}

// checkUnwrappedNginx reads path, a platform's or a tool's records of
// nginx lines, and checks it is read within env as nginx text: want's
// records, those of the lines nginxTruth reads, and bad bad lines.
func checkUnwrappedNginx(t *testing.T, path string, env ingest.Envelope, want []row, bad int) {
	t.Helper()
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
	f := res.Files[0]
	if f.Envelope != env || f.Format != ingest.Nginx {
		t.Fatalf("read as %q %s, want %s nginx", f.Envelope, f.Format, env)
	}
	if len(got) != len(want) || res.BadLines() != int64(bad) {
		t.Fatalf("%d records, %d bad, want %d and %d: %v", len(got), res.BadLines(), len(want), bad, res.Problems)
	}
	sameRows(t, got, want, false)
}
