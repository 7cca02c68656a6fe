package ingest_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"loganalyze/ingest"
)

// caddyArrowRecord is caddyPQRows's rows as an Arrow record, the request
// a struct column; the caller releases it.
func caddyArrowRecord(mem memory.Allocator, rows []caddyPQRow) arrow.Record {
	reqType := arrow.StructOf(
		arrow.Field{Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "method", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "uri", Type: arrow.BinaryTypes.String},
	)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "ts", Type: arrow.PrimitiveTypes.Float64},
		{Name: "logger", Type: arrow.BinaryTypes.String},
		{Name: "request", Type: reqType, Nullable: true},
		{Name: "resp_headers", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String)},
		{Name: "user_id", Type: arrow.BinaryTypes.String},
		{Name: "duration", Type: arrow.PrimitiveTypes.Float64},
		{Name: "status", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Float64Builder).Append(r.TS)
		b.Field(1).(*array.StringBuilder).Append(r.Logger)
		sb := b.Field(2).(*array.StructBuilder)
		if r.Request == nil {
			// A null struct whose fields hold values of their own
			// there (AppendValues leaves the fields to the caller),
			// which must not be read.
			sb.AppendValues([]bool{false})
			sb.FieldBuilder(0).(*array.StringBuilder).Append("10.9.9.9")
			sb.FieldBuilder(1).(*array.StringBuilder).Append("PUT")
			sb.FieldBuilder(2).(*array.StringBuilder).Append("/ghost")
		} else {
			sb.Append(true)
			if r.Request.ClientIP == nil {
				sb.FieldBuilder(0).AppendNull()
			} else {
				sb.FieldBuilder(0).(*array.StringBuilder).Append(*r.Request.ClientIP)
			}
			sb.FieldBuilder(1).(*array.StringBuilder).Append(r.Request.Method)
			sb.FieldBuilder(2).(*array.StringBuilder).Append(r.Request.URI)
		}
		mb := b.Field(3).(*array.MapBuilder)
		mb.Append(true)
		for k, v := range r.Headers {
			mb.KeyBuilder().(*array.StringBuilder).Append(k)
			mb.ItemBuilder().(*array.StringBuilder).Append(v)
		}
		b.Field(4).(*array.StringBuilder).Append(r.UserID)
		b.Field(5).(*array.Float64Builder).Append(r.Duration)
		b.Field(6).(*array.Int64Builder).Append(r.Status)
	}
	return b.NewRecord()
}

// TestArrowStructColumns is TestParquetStructColumns for an Arrow file:
// Caddy's request object as a struct column, null in some rows and its
// client_ip null in others, in record batches that slice it.
func TestArrowStructColumns(t *testing.T) {
	rows := caddyPQRows(300)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := caddyArrowRecord(mem, rows)
	defer rec.Release()
	schema := rec.Schema()
	path := filepath.Join(t.TempDir(), "caddy.arrow")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	// Three batches, the later two slices of the record: their struct
	// arrays have offsets.
	for _, cut := range [][2]int64{{0, 100}, {100, 217}, {217, 300}} {
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
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
	if len(got) != len(rows) || res.BadLines() != 0 || res.Files[0].Source != "caddy" {
		t.Fatalf("%d records, %d bad lines, source %q; want %d, 0, caddy: %v", len(got), res.BadLines(), res.Files[0].Source, len(rows), res.Problems)
	}
	for i, g := range got { // in time order, as written
		w := rows[i]
		var uri, client string
		if w.Request != nil {
			uri = w.Request.URI
			if w.Request.ClientIP != nil {
				client = *w.Request.ClientIP
			}
		}
		if g.uri != uri || g.client != client || math.Abs(g.rt-w.Duration) > 1e-12 {
			t.Fatalf("row %d: uri %q, client %q, request_time %v; want %q, %q, %v", i, g.uri, g.client, g.rt, uri, client, w.Duration)
		}
	}
}
