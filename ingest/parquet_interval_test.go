package ingest_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// intervalRow is a row as DuckDB's COPY writes end − start: an INTERVAL,
// 12 bytes of months, days and milliseconds, little endian (Parquet's
// LogicalTypes.md). upstream_service_time is a name the generic table
// reads in ms, first_token_ms one in ms too: an interval is in its own
// unit whatever the name's. A zero first_token_ms is written as null.
type intervalRow struct {
	Time     int64    `parquet:"time,timestamp(millisecond)"`
	RT       [12]byte `parquet:"request_time,interval"`
	Upstream [12]byte `parquet:"upstream_service_time,interval"`
	TTFT     [12]byte `parquet:"first_token_ms,interval,optional"`
	Status   int32    `parquet:"status"`
}

// interval is an INTERVAL's 12 bytes.
func interval(months, days, ms uint32) (b [12]byte) {
	binary.LittleEndian.PutUint32(b[0:], months)
	binary.LittleEndian.PutUint32(b[4:], days)
	binary.LittleEndian.PutUint32(b[8:], ms)
	return b
}

// TestParquetInterval: an INTERVAL column is read as the duration it
// holds, in the unit of the field its name feeds: a request_time of
// 1,234 ms is 1.234 s, an upstream_service_time of it 1.234 s as well, a
// first_token_ms of 456 ms 456 ms; a day counts 86,400 s.
func TestParquetInterval(t *testing.T) {
	var rows []intervalRow
	var rts, urts, ttfts []float64 // s, s, ms; NaN when null
	for i := range 150 {
		r := intervalRow{Time: 1764381600000 + int64(i)*1000, Status: 200,
			RT: interval(0, 0, uint32(800+37*i)), Upstream: interval(0, 0, uint32(700+31*i))}
		rt, ttft := float64(800+37*i)/1e3, math.NaN()
		if i%3 != 0 {
			r.TTFT, ttft = interval(0, 0, uint32(100+7*i)), float64(100+7*i)
		}
		if i == 149 {
			r.RT, rt = interval(0, 1, 5), 86400.005
		}
		rows = append(rows, r)
		rts, urts, ttfts = append(rts, rt), append(urts, float64(700+31*i)/1e3), append(ttfts, ttft)
	}
	var buf bytes.Buffer
	if err := writeRows(&buf, rows); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "interval.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != len(rows) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines %v; want %d, 0", len(got), res.BadLines(), res.Problems, len(rows))
	}
	for i, g := range got {
		if math.Abs(g.rt-rts[i]) > 1e-9 || math.Abs(g.urt-urts[i]) > 1e-9 || math.IsNaN(ttfts[i]) != math.IsNaN(g.ttft) || !math.IsNaN(ttfts[i]) && math.Abs(g.ttft-ttfts[i]) > 1e-9 {
			t.Errorf("row %d: request_time %v s, upstream %v s, ttft %v ms; want %v, %v, %v", i, g.rt, g.urt, g.ttft, rts[i], urts[i], ttfts[i])
		}
	}
}
