package ingest_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"loganalyze/ingest"
)

// appendArrowMap appends entries (nil: a null map) to a map builder whose
// keys are strings and values strings or int64s, a nil value null.
func appendArrowMap(mb *array.MapBuilder, entries []mapEntry) {
	if entries == nil {
		mb.AppendNull()
		return
	}
	mb.Append(true)
	for _, e := range entries {
		mb.KeyBuilder().(*array.StringBuilder).Append(e.key)
		switch v := e.val.(type) {
		case string:
			mb.ItemBuilder().(*array.StringBuilder).Append(v)
		case int64:
			mb.ItemBuilder().(*array.Int64Builder).Append(v)
		default:
			mb.ItemBuilder().AppendNull()
		}
	}
}

// mapArrowRecord is rows as an Arrow record of mapSchema's columns, as
// DuckDB or polars write MAP(VARCHAR, VARCHAR) and MAP(VARCHAR, BIGINT)
// (apache/arrow docs/source/format/Columnar.rst, "Map Layout"): tags,
// time, timing; the caller releases it.
func mapArrowRecord(mem memory.Allocator, rows []mapRow) arrow.Record {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "tags", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String), Nullable: true},
		{Name: "time", Type: arrow.FixedWidthTypes.Timestamp_ms},
		{Name: "timing", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, r := range rows {
		appendArrowMap(b.Field(0).(*array.MapBuilder), r.tags)
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(r.at.UnixMilli()))
		appendArrowMap(b.Field(2).(*array.MapBuilder), r.timing)
	}
	return b.NewRecord()
}

// writeArrowSlices writes rec as an Arrow IPC file (or stream) of three
// record batches, the later two slices of it (their maps have offsets).
func writeArrowSlices(t *testing.T, mem memory.Allocator, rec arrow.Record, stream bool) string {
	t.Helper()
	n := rec.NumRows()
	return writeArrowCuts(t, mem, rec, stream, "maps.arrow", [][2]int64{{0, n / 3}, {n / 3, n/3 + 47}, {n/3 + 47, n}})
}

// writeArrowCuts writes rec as an Arrow IPC file (or stream) named name
// in a temporary directory, a record batch for each of cuts, the rows
// [from, to) of rec, and returns its path.
func writeArrowCuts(t testing.TB, mem memory.Allocator, rec arrow.Record, stream bool, name string, cuts [][2]int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w interface {
		Write(arrow.Record) error
		Close() error
	}
	if stream {
		w = ipc.NewWriter(f, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	} else if w, err = ipc.NewFileWriter(f, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem)); err != nil {
		t.Fatal(err)
	}
	for _, cut := range cuts {
		part := rec.NewSlice(cut[0], cut[1])
		err := w.Write(part)
		part.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestArrowMapKeys is TestParquetMapKeys for an Arrow file and stream:
// a key of each of two MAP columns, of strings and of integers (--map
// model=tags.model, request_time=timing.total_ms): each record has the
// value of the last entry of that key in its row's map, none when the
// map is null, empty or lacks it, or the entry's value is null.
func TestArrowMapKeys(t *testing.T) {
	schema, err := ingest.NewSchema([]string{"model=tags.model", "request_time=timing.total_ms:ms"})
	if err != nil {
		t.Fatal(err)
	}
	rows := mapRows(150)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := mapArrowRecord(mem, rows)
	defer rec.Release()
	for _, stream := range []bool{false, true} {
		path := writeArrowSlices(t, mem, rec, stream)
		for _, workers := range []int{1, 3} {
			name := fmt.Sprintf("stream %v, %d workers", stream, workers)
			got, res := collect(t, []string{path}, ingest.Options{Workers: workers, Location: time.UTC, Schema: schema})
			if f := res.Files[0]; f.Incomplete || f.BadLines != 0 || len(got) != len(rows) {
				t.Fatalf("%s: %d records of %d, %+v", name, len(got), len(rows), f)
			}
			checkMapRows(t, name, got, rows)
		}
	}
}

// TestArrowMapUnbound: without a name bound below them, an Arrow file's
// maps give no field, as before.
func TestArrowMapUnbound(t *testing.T) {
	rows := mapRows(30)
	rec := mapArrowRecord(memory.NewGoAllocator(), rows)
	got, res := collectRecord(t, rec)
	if f := res.Files[0]; f.Incomplete || len(got) != len(rows) {
		t.Fatalf("%d records of %d, %+v", len(got), len(rows), f)
	}
	for i, g := range got {
		if g.hasModel || !math.IsNaN(g.rt) {
			t.Fatalf("record %d has model %q, request_time %v; want neither", i, g.model, g.rt)
		}
	}
}

// dbxMapArrow is dbxMapParquet's table as an Arrow record: the legacy
// Databricks inference table's columns (docs.databricks.com/en/
// machine-learning/model-serving/inference-tables.html), request_metadata
// a nullable MAP<STRING, STRING> of the rows' tags, their "model" keys
// named model_name. The caller releases it.
func dbxMapArrow(mem memory.Allocator, rows []mapRow) arrow.Record {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "databricks_request_id", Type: arrow.BinaryTypes.String},
		{Name: "execution_time_ms", Type: arrow.PrimitiveTypes.Int64},
		{Name: "request_metadata", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String), Nullable: true},
		{Name: "status_code", Type: arrow.PrimitiveTypes.Int32},
		{Name: "timestamp_ms", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, r := range rows {
		var tags []mapEntry
		if r.tags != nil {
			tags = []mapEntry{}
		}
		for _, e := range r.tags {
			if strings.EqualFold(e.key, "model") {
				e.key = e.key + "_name"
			}
			tags = append(tags, e)
		}
		b.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("req-%04d", i))
		b.Field(1).(*array.Int64Builder).Append(int64(100 + i))
		appendArrowMap(b.Field(2).(*array.MapBuilder), tags)
		b.Field(3).(*array.Int32Builder).Append(200)
		b.Field(4).(*array.Int64Builder).Append(r.at.UnixMilli())
	}
	return b.NewRecord()
}

// TestDatabricksArrowMapEntries is TestDatabricksMapEntries for an Arrow
// file: each record's model is the value of its request_metadata's last
// model_name entry.
func TestDatabricksArrowMapEntries(t *testing.T) {
	rows := mapRows(100)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := dbxMapArrow(mem, rows)
	defer rec.Release()
	for _, stream := range []bool{false, true} {
		path := writeArrowSlices(t, mem, rec, stream)
		for _, workers := range []int{1, 3} {
			got, res := collect(t, []string{path}, ingest.Options{Workers: workers, Location: time.UTC})
			if f := res.Files[0]; f.Source != "databricks" || f.Incomplete || len(got) != len(rows) {
				t.Fatalf("stream %v, %d workers: %d records of %d, %+v", stream, workers, len(got), len(rows), f)
			}
			checkMapModels(t, fmt.Sprintf("stream %v, %d workers", stream, workers), got, rows)
		}
	}
}

// TestLangfuseArrowUsageMap is TestLangfuseParquetUsageMap for an Arrow
// stream: usage_details a MAP of text keys to integers gives each
// generation's tokens, its input and output entries; none where the map
// is null or lacks the key.
func TestLangfuseArrowUsageMap(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "trace_id", Type: arrow.BinaryTypes.String},
		{Name: "project_id", Type: arrow.BinaryTypes.String},
		{Name: "type", Type: arrow.BinaryTypes.String},
		{Name: "start_time", Type: arrow.BinaryTypes.String},
		{Name: "end_time", Type: arrow.BinaryTypes.String},
		{Name: "usage_details", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	var usage [][]mapEntry
	for i := range 60 {
		start := time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
		var u []mapEntry
		switch i % 4 {
		case 0: // null
		case 1:
			u = []mapEntry{{"input", int64(10 + i)}}
		default:
			u = []mapEntry{{"input", int64(10 + i)}, {"input_cached_tokens", int64(4)}, {"output", int64(2 * i)}, {"total", int64(10 + 3*i)}}
		}
		usage = append(usage, u)
		b.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("t%d", i))
		b.Field(1).(*array.StringBuilder).Append("p1")
		b.Field(2).(*array.StringBuilder).Append("GENERATION")
		b.Field(3).(*array.StringBuilder).Append(start.Format("2006-01-02 15:04:05.000000"))
		b.Field(4).(*array.StringBuilder).Append(start.Add(500 * time.Millisecond).Format("2006-01-02 15:04:05.000000"))
		appendArrowMap(b.Field(5).(*array.MapBuilder), u)
	}
	rec := b.NewRecord()
	defer rec.Release()
	data := arrowStream(t, rec)
	for _, workers := range []int{1, 3} {
		got, res := collect(t, []string{"-"}, ingest.Options{Workers: workers, Location: time.UTC, Stdin: bytes.NewReader(data)})
		if f := res.Files[0]; f.Source != "langfuse" || f.Incomplete || len(got) != len(usage) {
			t.Fatalf("%d workers: %d records of %d, %+v", workers, len(got), len(usage), f)
		}
		for i, u := range usage {
			in, ok := lastValue(u, "input").(int64)
			if !ok {
				in = -1
			}
			out, ok := lastValue(u, "output").(int64)
			if !ok {
				out = -1
			}
			if g := got[i]; g.prompt != in || g.completion != out {
				t.Errorf("%d workers: record %d has tokens %d and %d, want %d and %d (%v)", workers, i, g.prompt, g.completion, in, out, u)
			}
		}
	}
}

// TestArrowMapInStruct is TestParquetMapInStruct for an Arrow stream: a
// key of a MAP column within a nullable struct, by its dotted path
// (--map model=meta.tags.model), absent where the struct or the map is
// null; in batches that slice the struct.
func TestArrowMapInStruct(t *testing.T) {
	schema, err := ingest.NewSchema([]string{"model=meta.tags.model"})
	if err != nil {
		t.Fatal(err)
	}
	metaType := arrow.StructOf(arrow.Field{Name: "tags", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String), Nullable: true})
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "time", Type: arrow.FixedWidthTypes.Timestamp_ms},
		{Name: "meta", Type: metaType, Nullable: true},
	}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewRecordBuilder(mem, sch)
	defer b.Release()
	start := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	var want []string
	for i := range 40 {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(start.Add(time.Duration(i) * time.Second).UnixMilli()))
		sb := b.Field(1).(*array.StructBuilder)
		mb := sb.FieldBuilder(0).(*array.MapBuilder)
		m := fmt.Sprintf("model-%d", i%5)
		switch i % 4 {
		case 0: // a null struct, whose map holds an entry of its own there
			sb.AppendValues([]bool{false})
			appendArrowMap(mb, []mapEntry{{"model", "ghost"}})
			m = ""
		case 1: // a null map
			sb.Append(true)
			appendArrowMap(mb, nil)
			m = ""
		default:
			sb.Append(true)
			appendArrowMap(mb, []mapEntry{{"a_first", "x"}, {"model", m}, {"zone", "y"}})
		}
		want = append(want, m)
	}
	rec := b.NewRecord()
	defer rec.Release()
	first, second := rec.NewSlice(0, 13), rec.NewSlice(13, 40)
	data := arrowStream(t, first, second)
	first.Release()
	second.Release()
	got, res := collect(t, []string{"-"}, ingest.Options{Workers: 1, Location: time.UTC, Schema: schema, Stdin: bytes.NewReader(data)})
	if f := res.Files[0]; f.Incomplete || len(got) != len(want) {
		t.Fatalf("%d records of %d, %+v", len(got), len(want), f)
	}
	for i, m := range want {
		if g := got[i]; g.model != m || g.hasModel != (m != "") {
			t.Errorf("record %d has model %q (%v), want %q", i, g.model, g.hasModel, m)
		}
	}
}

// TestArrowMapDamaged writes a stream whose second record batch has a
// map whose first row's offsets run past its entries (0 to 5 of 2):
// the first batch's rows are read, and the stream is incomplete, naming
// the column, without a crash.
func TestArrowMapDamaged(t *testing.T) {
	schema, err := ingest.NewSchema([]string{"model=tags.model"})
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewGoAllocator()
	rows := mapRows(20)
	good := mapArrowRecord(mem, rows)
	defer good.Release()
	// Three rows: the second batch's columns, its tags rebuilt around
	// their entries with offsets 0, 5, 2, 2.
	three := mapArrowRecord(mem, []mapRow{
		{at: rows[19].at.Add(time.Second), tags: []mapEntry{{"endpoint_name", "ep"}, {"model", "m"}}},
		{at: rows[19].at.Add(2 * time.Second), tags: []mapEntry{}},
		{at: rows[19].at.Add(3 * time.Second), tags: []mapEntry{}},
	})
	defer three.Release()
	tags := three.Column(0).(*array.Map)
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 5, 2, 2}))
	data := array.NewData(tags.DataType(), 3, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{tags.ListValues().Data()}, 0, 0)
	bad := array.NewMapData(data)
	data.Release()
	defer bad.Release()
	damaged := array.NewRecord(three.Schema(), []arrow.Array{bad, three.Column(1), three.Column(2)}, 3)
	defer damaged.Release()
	stream := arrowStream(t, good, damaged)
	for _, workers := range []int{1, 3} {
		got, res := collect(t, []string{"-"}, ingest.Options{Workers: workers, Location: time.UTC, Schema: schema, Stdin: bytes.NewReader(stream)})
		f := res.Files[0]
		if !f.Incomplete || !strings.Contains(f.Reason, `column "tags.model"`) || len(got) != len(rows) {
			t.Fatalf("%d workers: %d records, incomplete %v (%q); want %d, incomplete, tags.model", workers, len(got), f.Incomplete, f.Reason, len(rows))
		}
	}
}
