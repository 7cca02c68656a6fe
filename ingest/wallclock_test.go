package ingest_test

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"

	"loganalyze/ingest"
)

// wallTimes are times around New York's spring-forward (02:00 EST became
// 03:00 EDT on 2026-03-08) and a day later, as wall clocks read them.
var wallTimes = []time.Time{
	time.Date(2026, 3, 8, 1, 30, 0, 0, time.UTC),
	time.Date(2026, 3, 8, 1, 59, 59, 500_000_000, time.UTC),
	time.Date(2026, 3, 8, 3, 0, 0, 0, time.UTC),
	time.Date(2026, 3, 9, 12, 0, 0, 250_000_000, time.UTC),
	time.Date(2026, 1, 2, 23, 0, 0, 0, time.UTC),
}

// inZone is the instant wall clock w reads in loc.
func inZone(w time.Time, loc *time.Location) int64 {
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc).UnixNano()
}

// checkTimes compares the records' times, sorted (collect's order), with
// want's.
func checkTimes(t *testing.T, got []row, res *ingest.Result, want []int64) {
	t.Helper()
	want = slices.Sorted(slices.Values(want))
	if res.BadLines() != 0 || len(got) != len(want) {
		t.Fatalf("%d records, %d bad (%v); want %d", len(got), res.BadLines(), res.Problems, len(want))
	}
	for i, w := range want {
		if !got[i].hasTime || got[i].timeNS != w {
			t.Errorf("row %d: time %v, want %v", i, time.Unix(0, got[i].timeNS).UTC(), time.Unix(0, w).UTC())
		}
	}
}

// TestParquetWallClockTimestamp reads a TIMESTAMP not adjusted to UTC
// (pandas' naive datetime, DuckDB's TIMESTAMP) in --tz, and one adjusted
// to UTC as the instant it is, whatever --tz.
func TestParquetWallClockTimestamp(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, adjusted := range []bool{false, true} {
		schema := parquet.NewSchema("log", parquet.Group{
			"time":         parquet.TimestampAdjusted(parquet.Millisecond, adjusted),
			"request_time": parquet.Leaf(parquet.DoubleType),
		})
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[any](&buf, schema)
		var rows []parquet.Row
		for _, wt := range wallTimes {
			rows = append(rows, parquet.Row{ // columns by name: request_time, time
				parquet.DoubleValue(0.5).Level(0, 0, 0),
				parquet.Int64Value(wt.UnixMilli()).Level(0, 0, 1),
			})
		}
		if n, err := w.WriteRows(rows); err != nil || n != len(rows) {
			t.Fatalf("wrote %d rows: %v", n, err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{writeTemp(t, "wall.parquet", buf.String())}, ingest.Options{Workers: 1, Location: ny})
		var want []int64
		for _, wt := range wallTimes {
			if adjusted {
				want = append(want, wt.UnixNano()/1e6*1e6)
			} else {
				want = append(want, inZone(wt, ny)/1e6*1e6)
			}
		}
		t.Run(map[bool]string{false: "wall clock", true: "instant"}[adjusted], func(t *testing.T) {
			checkTimes(t, got, res, want)
		})
	}
}

// int96Of is the INT96 timestamp Spark writes for instant ts: the
// nanoseconds within its UTC day, little-endian, then the Julian day.
// (DuckDB reads int96Of(2026-12-05 09:30:15.123456789 UTC) as
// 2026-12-05 09:30:15.123456 UTC.)
func int96Of(ts time.Time) deprecated.Int96 {
	day := time.Date(ts.Year(), ts.Month(), ts.Day(), 0, 0, 0, 0, time.UTC)
	nanos := uint64(ts.Sub(day))
	// 1970-01-01 is Julian day 2,440,588 (and 2000-01-01 day 2,451,545).
	julian := 2451545 + int(day.Sub(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).Hours()/24)
	return deprecated.Int96{uint32(nanos), uint32(nanos >> 32), uint32(julian)}
}

// TestParquetInt96Timestamp reads Spark's, Hive's and Impala's INT96
// timestamps as the UTC instants Spark writes, plain and in a
// dictionary, a null among them.
func TestParquetInt96Timestamp(t *testing.T) {
	type sparkRow struct {
		Time        *deprecated.Int96 `parquet:"time,optional"`
		RequestTime float64           `parquet:"request_time"`
	}
	type sparkDictRow struct {
		Time        deprecated.Int96 `parquet:"timestamp,dict"`
		RequestTime float64          `parquet:"request_time"`
	}
	instants := []time.Time{
		time.Date(2026, 12, 5, 9, 30, 15, 123456789, time.UTC),
		time.Date(2026, 12, 5, 23, 59, 59, 999999999, time.UTC),
		time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC),
		time.Date(2001, 2, 3, 4, 5, 6, 7, time.UTC),
	}
	var plain []sparkRow
	var dict []sparkDictRow
	for _, ts := range instants {
		v := int96Of(ts)
		plain = append(plain, sparkRow{Time: &v, RequestTime: 0.25})
		dict = append(dict, sparkDictRow{Time: v, RequestTime: 0.25}, sparkDictRow{Time: v, RequestTime: 0.5})
	}
	plain = append(plain, sparkRow{RequestTime: 1}) // no time: a record without one
	var pb, db bytes.Buffer
	if err := parquet.Write(&pb, plain); err != nil {
		t.Fatal(err)
	}
	if err := parquet.Write(&db, dict); err != nil {
		t.Fatal(err)
	}
	shanghai := time.FixedZone("CST", 8*3600) // instants: --tz changes nothing
	got, res := collect(t, []string{writeTemp(t, "spark.parquet", pb.String())}, ingest.Options{Workers: 1, Location: shanghai})
	timed := slices.DeleteFunc(slices.Clone(got), func(r row) bool { return !r.hasTime })
	if len(got) != len(instants)+1 || len(timed) != len(instants) {
		t.Fatalf("%d records, %d with a time; want %d, one without", len(got), len(timed), len(instants)+1)
	}
	var want []int64
	for _, ts := range instants {
		want = append(want, ts.UnixNano())
	}
	checkTimes(t, timed, res, want)
	got, res = collect(t, []string{writeTemp(t, "spark-dict.parquet", db.String())}, ingest.Options{Workers: 1, Location: shanghai})
	want = want[:0]
	for _, ts := range instants {
		want = append(want, ts.UnixNano(), ts.UnixNano())
	}
	checkTimes(t, got, res, want)
}

// TestArrowWallClockTimestamp reads an Arrow timestamp without a zone in
// --tz, and one with a zone as the instant it is.
func TestArrowWallClockTimestamp(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, zone := range []string{"", "UTC", "+08:00"} {
		schema := arrow.NewSchema([]arrow.Field{
			{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: zone}},
			{Name: "request_time", Type: arrow.PrimitiveTypes.Float64},
		}, nil)
		mem := memory.NewGoAllocator()
		b := array.NewRecordBuilder(mem, schema)
		var want []int64
		for _, wt := range wallTimes {
			b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(wt.UnixMicro()))
			b.Field(1).(*array.Float64Builder).Append(0.5)
			if zone == "" {
				want = append(want, inZone(wt, ny))
			} else {
				want = append(want, wt.UnixNano())
			}
		}
		rec := b.NewRecord()
		var buf bytes.Buffer
		wr := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		if err := wr.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := wr.Close(); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		b.Release()
		t.Run("zone "+zone, func(t *testing.T) {
			got, res := collect(t, []string{"-"}, ingest.Options{Workers: 1, Location: ny, Stdin: bytes.NewReader(buf.Bytes())})
			checkTimes(t, got, res, want)
		})
	}
}
