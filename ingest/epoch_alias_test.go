package ingest_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestEpochAliasBySize reads a CLS export's __TIMESTAMP__ (and msec) in
// whatever unit its size tells, as SPEC §3 has it — ms most often, µs in
// some exports — under its own spelling and another, in JSON lines and
// CSV; a number no unit puts in the years read makes its line bad.
func TestEpochAliasBySize(t *testing.T) {
	at := time.Date(2026, 11, 29, 2, 0, 0, 36_123_000, time.UTC)
	sec, ms, us, ns := at.Unix(), at.UnixMilli(), at.UnixMicro(), at.UnixNano()
	cases := []struct {
		value string
		want  int64 // ns; 0: the line is bad
	}{
		{itoa(ms), ms * 1e6},
		{itoa(us), us * 1e3},
		{itoa(ns), ns},
		{itoa(sec), sec * 1e9},
		{itoa(sec) + ".036", sec*1e9 + 36e6},
		{"99999999999", 0},
	}
	for _, name := range []string{"__TIMESTAMP__", "__timestamp__", "msec"} {
		var jl, csv strings.Builder
		csv.WriteString(name + ",__SOURCE__,model,request_time\n")
		for _, c := range cases {
			jl.WriteString(`{"` + name + `":"` + c.value + `","__SOURCE__":"10.0.0.1","model":"m","request_time":"1.5"}` + "\n")
			csv.WriteString(c.value + ",10.0.0.1,m,1.5\n")
		}
		for ext, text := range map[string]string{".jsonl": jl.String(), ".csv": csv.String()} {
			path := writeTemp(t, "cls"+ext, text)
			rows, res := collect(t, []string{path}, ingest.Options{Workers: 1})
			var want []int64
			bad := 0
			for _, c := range cases {
				if c.want == 0 {
					bad++
				} else {
					want = append(want, c.want)
				}
			}
			if res.BadLines() != int64(bad) || len(rows) != len(want) {
				t.Fatalf("%s %s: %d records, %d bad (%v); want %d and %d", name, ext, len(rows), res.BadLines(), res.Problems, len(want), bad)
			}
			got := map[int64]bool{}
			for _, r := range rows {
				got[r.timeNS] = r.hasTime
			}
			for _, w := range want {
				if !got[w] {
					t.Errorf("%s %s: no record at %d (%v); got %v", name, ext, w, time.Unix(0, w).UTC(), got)
				}
			}
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
