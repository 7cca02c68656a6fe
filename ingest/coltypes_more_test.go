package ingest_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/decimal128"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// TestParquetDateAndUUID reads a DATE time column as the day's midnight
// in --tz (DuckDB's ts::DATE: its days since 1970), and a UUID caller as
// its text (DuckDB's UUID, FIXED[16]).
func TestParquetDateAndUUID(t *testing.T) {
	type row struct {
		Day         int32    `parquet:"time,date"`
		AppID       [16]byte `parquet:"app_id,uuid"`
		RequestTime float64  `parquet:"request_time"`
	}
	days := []time.Time{time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)}
	var rows []row
	var wantClients []string
	for i := range 6 {
		var id [16]byte
		for j := range id {
			id[j] = byte(16*i + j)
		}
		rows = append(rows, row{Day: int32(days[i%2].Unix() / 86400), AppID: id, RequestTime: 0.5})
		wantClients = append(wantClients, fmt.Sprintf("%x-%x-%x-%x-%x", id[0:4], id[4:6], id[6:8], id[8:10], id[10:16]))
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dates.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	shanghai := time.FixedZone("CST", 8*3600)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: shanghai})
	if len(got) != len(rows) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad (%v); want %d, 0", len(got), res.BadLines(), res.Problems, len(rows))
	}
	clients := map[string]bool{}
	for _, g := range got {
		clients[g.client] = true
		d := time.Unix(0, g.timeNS).In(shanghai)
		if !g.hasTime || d.Hour() != 0 || d.Minute() != 0 || d.Day() != 4 && d.Day() != 5 {
			t.Errorf("time %v, want a midnight of 2026-12-04 or -05 in UTC+8", d)
		}
	}
	for _, c := range wantClients {
		if !clients[c] {
			t.Errorf("no record of client %s (got %v)", c, clients)
		}
	}
}

// moreTypesRow is a row moreTypesRecord writes: its model, request time
// (s), ttft (ms) and day.
type moreTypesRow struct {
	model   string
	rt      float64
	ttft    float64
	dayUnix int64
}

// moreTypesRecord is 40 rows of date32 days, string views, decimal128
// seconds and durations, and what each holds; the caller releases it.
func moreTypesRecord(mem memory.Allocator) (arrow.Record, []moreTypesRow) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "time", Type: arrow.FixedWidthTypes.Date32},
		{Name: "model", Type: arrow.BinaryTypes.StringView},
		{Name: "request_time", Type: &arrow.Decimal128Type{Precision: 10, Scale: 3}},
		{Name: "duration", Type: arrow.FixedWidthTypes.Duration_us, Nullable: true}, // ms by its name: µs by its type
		{Name: "first_token_ms", Type: arrow.FixedWidthTypes.Duration_ms},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	var wants []moreTypesRow
	for i := range 40 {
		day := time.Date(2026, 12, 1+i%3, 0, 0, 0, 0, time.UTC)
		model := fmt.Sprintf("model-with-a-long-name-%d", i%4) // past a view's 12 inline bytes
		if i%5 == 0 {
			model = "qwen"
		}
		rtMS := int64(150 + 37*i)
		b.Field(0).(*array.Date32Builder).Append(arrow.Date32FromTime(day))
		b.Field(1).(*array.StringViewBuilder).Append(model)
		b.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(rtMS)) // ms at scale 3: seconds
		if i%7 == 3 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.DurationBuilder).Append(arrow.Duration(rtMS * 1000))
		}
		b.Field(4).(*array.DurationBuilder).Append(arrow.Duration(40 + i))
		wants = append(wants, moreTypesRow{model, float64(rtMS) / 1000, float64(40 + i), day.Unix()})
	}
	return b.NewRecord(), wants
}

// TestArrowMoreTypes reads the Arrow types polars and other writers use:
// string views (polars' strings), decimal128, durations in their unit
// and date32 days.
func TestArrowMoreTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec, wants := moreTypesRecord(mem)
	defer rec.Release()
	schema := rec.Schema()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{"-"}, ingest.Options{Workers: 1, Location: time.UTC, Stdin: bytes.NewReader(buf.Bytes())})
	if len(got) != len(wants) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad (%v); want %d, 0", len(got), res.BadLines(), res.Problems, len(wants))
	}
	// collect orders by time, then request time: the same order here.
	byKey := map[[2]int64]moreTypesRow{}
	for _, w := range wants {
		byKey[[2]int64{w.dayUnix, int64(math.Round(w.rt * 1000))}] = w
	}
	for _, g := range got {
		w, ok := byKey[[2]int64{g.timeNS / 1e9, int64(math.Round(g.rt * 1000))}]
		if !ok {
			t.Errorf("a record of time %v, request_time %v s that was not written", time.Unix(0, g.timeNS).UTC(), g.rt)
			continue
		}
		if g.model != w.model || g.ttft != w.ttft {
			t.Errorf("record of %v s: model %q, ttft %v ms; want %q, %v", w.rt, g.model, g.ttft, w.model, w.ttft)
		}
	}
}

// TestArrowDurationUnit reads an Arrow duration in its own unit, whatever
// its name's: a "duration" (milliseconds by name) of microseconds.
func TestArrowDurationUnit(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}},
		{Name: "duration", Type: arrow.FixedWidthTypes.Duration_us},
	}, nil)
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	var want []float64 // s
	for i := range 10 {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(1764900000 + i))
		us := int64(250_000 + 1_000*i)
		b.Field(1).(*array.DurationBuilder).Append(arrow.Duration(us))
		want = append(want, float64(us)/1e6)
	}
	got, res := collectRecord(t, b.NewRecord())
	if len(got) != len(want) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad; want %d", len(got), res.BadLines(), len(want))
	}
	for i, g := range got {
		if math.Abs(g.rt-want[i]) > 1e-9 {
			t.Errorf("row %d: request_time %v s, want %v", i, g.rt, want[i])
		}
	}
}

// TestArrowIntervals reads Arrow intervals as the durations they hold,
// in their own unit whatever the name's: DuckDB's end − start as
// month_day_nano (a request_time) and day_time (a duration, ms by name);
// a day counts 86,400 s.
func TestArrowIntervals(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}},
		{Name: "request_time", Type: arrow.FixedWidthTypes.MonthDayNanoInterval, Nullable: true},
		{Name: "upstream_service_time", Type: arrow.FixedWidthTypes.DayTimeInterval},
	}, nil)
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	var rts, urts []float64 // s; NaN when null
	for i := range 12 {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(1764900000 + i))
		ns := int64(1_250_000_000 + 3_000_000*i)
		switch {
		case i == 5:
			b.Field(1).AppendNull()
			rts = append(rts, math.NaN())
		case i == 7:
			b.Field(1).(*array.MonthDayNanoIntervalBuilder).Append(arrow.MonthDayNanoInterval{Days: 1, Nanoseconds: ns})
			rts = append(rts, 86400+float64(ns)/1e9)
		default:
			b.Field(1).(*array.MonthDayNanoIntervalBuilder).Append(arrow.MonthDayNanoInterval{Nanoseconds: ns})
			rts = append(rts, float64(ns)/1e9)
		}
		ms := int32(900 + 11*i)
		b.Field(2).(*array.DayTimeIntervalBuilder).Append(arrow.DayTimeInterval{Milliseconds: ms})
		urts = append(urts, float64(ms)/1e3)
	}
	got, res := collectRecord(t, b.NewRecord())
	if len(got) != len(rts) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad; want %d", len(got), res.BadLines(), len(rts))
	}
	for i, g := range got {
		if math.IsNaN(rts[i]) != math.IsNaN(g.rt) || !math.IsNaN(rts[i]) && math.Abs(g.rt-rts[i]) > 1e-9 || math.Abs(g.urt-urts[i]) > 1e-9 {
			t.Errorf("row %d: request_time %v s, upstream %v s; want %v, %v", i, g.rt, g.urt, rts[i], urts[i])
		}
	}
}

// collectRecord writes rec, which it releases, as an Arrow IPC stream
// and reads it back from stdin with one worker.
func collectRecord(t *testing.T, rec arrow.Record) ([]row, *ingest.Result) {
	t.Helper()
	defer rec.Release()
	return collect(t, []string{"-"}, ingest.Options{Workers: 1, Stdin: bytes.NewReader(arrowStream(t, rec))})
}

// arrowStream returns recs, of one schema, as an Arrow IPC stream.
func arrowStream(tb testing.TB, recs ...arrow.Record) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(recs[0].Schema()))
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
