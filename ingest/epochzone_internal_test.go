package ingest

import (
	"bytes"
	"testing"
	"time"
)

// FuzzEpochZone: any first records' times and epochs tell a zone or
// none, without a panic; a zone told is a whole quarter hour within 14
// hours of UTC, and not --tz's.
func FuzzEpochZone(f *testing.F) {
	f.Add([]byte("2026-12-04 09:00:00.123\x001796346000\n2026-12-04 09:01:37.123\x001796346097\n2026-12-04 09:03:14.123\x001796346196\n"))
	f.Add([]byte("2026-12-04T09:00:00\x001796346000123\n2026-12-04T09:00:00\x00x\n"))
	f.Add([]byte("04/Dec/2026:09:00:00 +0800\x001796346000\n"))
	schema, err := NewSchema(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var ps [][2][]byte
		for _, l := range bytes.Split(b, []byte("\n")) {
			if w, e, ok := bytes.Cut(l, []byte{0}); ok {
				ps = append(ps, [2][]byte{w, e})
			}
		}
		for _, name := range epochNames {
			loc := epochZone(schema, []string{"time", name}, func(string, string) [][2][]byte { return ps }, time.UTC)
			if loc == nil {
				continue
			}
			_, off := time.Unix(0, 0).In(loc).Zone()
			d := time.Duration(off) * time.Second
			if d%zoneStep != 0 || d > zoneMax || d < -zoneMax || d == 0 {
				t.Fatalf("zone %v (%v) from %q", loc, d, b)
			}
		}
	})
}
