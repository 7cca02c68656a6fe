package ingest_test

import (
	"testing"
	"time"
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
