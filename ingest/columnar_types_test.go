package ingest_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// typedWant is one row of the typed-column files and what it must read as.
type typedWant struct {
	t      time.Time
	durMS  float32 // "duration" column, ms; negative makes a bad row
	model  string  // "" is null
	code   int64
	ttftMS float32 // NaN is null
	stream bool
}

var typedRows = []typedWant{
	{time.Date(2026, 11, 29, 10, 0, 0, 123456000, time.UTC), 1500, "qwen-max", 200, 320.5, true},
	{time.Date(2026, 11, 29, 10, 0, 1, 5000, time.UTC), 250.25, "", 429, float32(math.NaN()), false},
	{time.Date(2026, 11, 29, 10, 0, 2, 0, time.UTC), -3, "qwen-max", 200, 100, true},
	{time.Date(2026, 11, 29, 10, 0, 3, 999999000, time.UTC), 9000, "deepseek-v3", 504, 1200, false},
}

// checkTyped compares what was read with typedRows: the row with a
// negative duration is bad, nulls are absent, units converted.
func checkTyped(t *testing.T, rows []row, res *ingest.Result) {
	t.Helper()
	if res.Incomplete() || res.BadLines() != 1 || len(res.Problems) != 1 || res.Problems[0].Line != 3 {
		t.Fatalf("files %+v problems %v; want one bad row, row 3", res.Files, res.Problems)
	}
	var want []typedWant
	for _, w := range typedRows {
		if w.durMS >= 0 {
			want = append(want, w)
		}
	}
	if len(rows) != len(want) {
		t.Fatalf("%d records, want %d", len(rows), len(want))
	}
	for i, w := range want {
		g := rows[i]
		if !g.hasTime || g.timeNS != w.t.UnixNano() {
			t.Errorf("row %d: time %d, want %d", i, g.timeNS, w.t.UnixNano())
		}
		if math.Abs(g.rt-float64(w.durMS)/1000) > 1e-9 {
			t.Errorf("row %d: request_time %v s, want %v ms", i, g.rt, w.durMS)
		}
		if g.model != w.model || g.hasModel != (w.model != "") {
			t.Errorf("row %d: model %q (present %v), want %q", i, g.model, g.hasModel, w.model)
		}
		if !g.hasStatus || g.status != w.code {
			t.Errorf("row %d: status %d, want %d", i, g.status, w.code)
		}
		if math.IsNaN(float64(w.ttftMS)) != math.IsNaN(g.ttft) || !math.IsNaN(g.ttft) && g.ttft != float64(w.ttftMS) {
			t.Errorf("row %d: ttft %v, want %v", i, g.ttft, w.ttftMS)
		}
		if !g.hasStream || g.stream != w.stream {
			t.Errorf("row %d: stream %v, want %v", i, g.stream, w.stream)
		}
	}
}

// TestParquetColumnTypes reads columns in another order, under alias
// names, of other types and units, with an extra column and nulls.
func TestParquetColumnTypes(t *testing.T) {
	type pqAlt struct {
		Extra    string   `parquet:"extra"`
		Duration float32  `parquet:"duration"`
		Stream   bool     `parquet:"llm_stream"`
		TS       int64    `parquet:"timestamp,timestamp(microsecond)"`
		Model    *string  `parquet:"ModelName,optional,dict"`
		Code     int64    `parquet:"response_code"`
		TTFT     *float32 `parquet:"ttft_ms,optional"`
	}
	var rows []pqAlt
	for _, w := range typedRows {
		r := pqAlt{Extra: "x", Duration: w.durMS, Stream: w.stream, TS: w.t.UnixMicro(), Code: w.code}
		if w.model != "" {
			m := w.model
			r.Model = &m
		}
		if !math.IsNaN(float64(w.ttftMS)) {
			v := w.ttftMS
			r.TTFT = &v
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "typed.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1})
	checkTyped(t, got, res)
}

// TestArrowColumnTypes is TestParquetColumnTypes for an Arrow stream,
// with a nanosecond timestamp, float32 and int16 columns.
func TestArrowColumnTypes(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "extra", Type: arrow.PrimitiveTypes.Int8},
		{Name: "request_duration_ms", Type: arrow.PrimitiveTypes.Float32},
		{Name: "StartTime", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}},
		{Name: "model_id", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "rsp_st", Type: arrow.PrimitiveTypes.Int16},
		{Name: "first_token_ms", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "stream", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, w := range typedRows {
		b.Field(0).(*array.Int8Builder).Append(1)
		b.Field(1).(*array.Float32Builder).Append(w.durMS)
		b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(w.t.UnixNano()))
		if w.model == "" {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.LargeStringBuilder).Append(w.model)
		}
		b.Field(4).(*array.Int16Builder).Append(int16(w.code))
		if math.IsNaN(float64(w.ttftMS)) {
			b.Field(5).AppendNull()
		} else {
			b.Field(5).(*array.Float32Builder).Append(w.ttftMS)
		}
		b.Field(6).(*array.BooleanBuilder).Append(w.stream)
	}
	rec := b.NewRecord()
	defer rec.Release()
	var buf bytes.Buffer
	wr := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err := wr.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{"-"}, ingest.Options{Workers: 1, Stdin: bytes.NewReader(buf.Bytes())})
	checkTyped(t, got, res)
}
