package ingest_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// isoRow is a row of testdata/durations' files: its request_time and
// upstream_response_time as written (ISO 8601 durations, as Polars'
// write_ndjson and java.time.Duration write them), and what they are in
// seconds, worked out by hand: bad, a row that is a bad line (a negative
// request_time, a year or a month, no unit); NaN, an absent value.
type isoRow struct {
	rt, upstream       string
	rtSecs, upSecs     float64
	status             int64
	bad, noFixedLength bool
}

var isoRows = []isoRow{
	{"PT0.162S", "PT0.122S", 0.162, 0.122, 200, false, false},
	{"PT1M2.5S", "PT1M2S", 62.5, 62, 200, false, false},
	{"PT1H", "PT59M59.9S", 3600, 59*60 + 59.9, 504, false, false},
	{"P1DT2H", "P1D", 24*3600 + 2*3600, 24 * 3600, 504, false, false},
	{"PT8H6M12.345S", "-", 8*3600 + 6*60 + 12.345, math.NaN(), 200, false, false},
	{"P0D", "PT0S", 0, 0, 499, false, false},
	{"pt0,25s", "PT0.2S", 0.25, 0.2, 429, false, false},
	{"-PT0.5S", "PT0.1S", 0, 0, 200, true, false},
	{"PT-0.5S", "PT0.1S", 0, 0, 200, true, false},
	{"P1M", "PT0.1S", 0, 0, 200, true, true},
	{"P1Y2M", "PT0.1S", 0, 0, 200, true, true},
	{"PT1M2.5", "PT0.1S", 0, 0, 200, true, false},
	{"PT2.5S", "P1M", 2.5, math.NaN(), 502, false, false}, // an upstream time of a month: unreadable, absent
	{"P1W", "PT0.5S", 7 * 24 * 3600, 0.5, 200, false, false},
}

// isoStamp is the time of isoRows[i] in the files.
func isoStamp(i int) time.Time {
	return time.Date(2026, 12, 4, 2, 0, i, 0, time.UTC)
}

// isoRowType is isoRows as a Parquet file holds them, text columns.
type isoRowType struct {
	Time     int64  `parquet:"time,timestamp(millisecond)"`
	RT       string `parquet:"request_time"`
	Upstream string `parquet:"upstream_response_time"`
	Status   int64  `parquet:"status"`
}

// TestISODurations: durations in ISO 8601's form are read in JSON
// lines, CSV and Parquet's text columns, as request_time and as an
// upstream time: seconds, minutes, hours, days and weeks, in upper or
// lower case, a comma for the decimal point; a negative one, a year's
// or a month's (no fixed length, said so), and one without a unit make
// the row bad, and an upstream time of a month is unreadable.
func TestISODurations(t *testing.T) {
	var rows []isoRowType
	for i, r := range isoRows {
		rows = append(rows, isoRowType{Time: isoStamp(i).UnixMilli(), RT: r.rt, Upstream: r.upstream, Status: r.status})
	}
	for _, path := range []string{"testdata/durations/iso.ndjson", "testdata/durations/iso.csv", writeParquetRows(t, "iso.parquet", rows)} {
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 100})
		var want []isoRow
		var bad, noFixed int
		for _, r := range isoRows {
			switch {
			case r.bad:
				bad++
				if r.noFixedLength {
					noFixed++
				}
			default:
				want = append(want, r)
			}
		}
		if len(got) != len(want) || res.BadLines() != int64(bad) {
			t.Fatalf("%s: %d records, %d bad lines; want %d, %d: %v", path, len(got), res.BadLines(), len(want), bad, res.Problems)
		}
		j := 0
		for i, r := range isoRows {
			if r.bad {
				continue
			}
			g := got[j]
			j++
			if g.timeNS != isoStamp(i).UnixNano() || !nearSrc(g.rt, r.rtSecs) || !nearSrc(g.urt, r.upSecs) || g.status != r.status {
				t.Errorf("%s: row %d (%s, %s): %v, %g s, %g s, %d; want %v, %g s, %g s, %d", path, i, r.rt, r.upstream,
					time.Unix(0, g.timeNS).UTC(), g.rt, g.urt, g.status, isoStamp(i), r.rtSecs, r.upSecs, r.status)
			}
		}
		n := 0
		for _, p := range res.Problems {
			if strings.HasSuffix(p.Reason, "a year or a month has no fixed length") {
				n++
			}
		}
		if n != noFixed {
			t.Errorf("%s: %d problems of a year or a month, want %d: %v", path, n, noFixed, res.Problems)
		}
	}
}
