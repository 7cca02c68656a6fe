package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// A log platform's export of lines to Parquet holds each line in a text
// column beside its time: Better Stack's dt and raw, Mezmo's _ts and
// _line, a shipper's @timestamp and message, as DuckDB's COPY of their
// JSON lines writes them. Such a table is read as the JSON lines its
// rows are, one a row, through the same envelope path (readStream,
// unwrap), which tells the envelope once from the first rows; a table
// whose columns carry a request field is read by columns as before.

// tableRows writes a table's rows to emit as JSON lines, one a row, of
// its top-level scalar columns, and stops when emit returns false. The
// slice emit gets is valid until it returns.
type tableRows func(emit func(line []byte) bool) error

// tableHeadRows is how many rows a table's envelope is told from, as a
// JSON-lines file's first lines tell it.
const tableHeadRows = 16

// tableHead returns the first rows of rows as lines.
func tableHead(rows tableRows) ([]byte, error) {
	var head []byte
	n := 0
	err := rows(func(line []byte) bool {
		head = append(append(head, line...), '\n')
		n++
		return n < tableHeadRows && len(head) < 64<<10
	})
	return head, err
}

// linesTable reports whether a table of columns names (and nested
// paths) may hold a log platform's lines: no format given but the
// table's own, and no column read as a request field (an ordinary table
// of requests, read by columns, its first rows not read twice).
func (p *pipeline) linesTable(names, paths []string) bool {
	switch p.opts.Format {
	case Auto, "", Parquet, Arrow:
		return !p.requestNames(names, paths)
	}
	return false
}

// tableEnvelope reports whether a table whose rows are rows holds an
// envelope's lines: its first row an envelope's record of a line
// (envelopeOfHead), as the JSON-lines path decides it.
func (p *pipeline) tableEnvelope(rows tableRows) bool {
	head, err := tableHead(rows)
	if err != nil {
		return false // read by columns, which reports the damage
	}
	first := firstLine(head)
	env := envelopeOfHead(first, head)
	if env == NoEnvelope || !env.wrapsLines() {
		return false
	}
	return !((env == EnvShipper || env == EnvJournald || env == EnvCLS) && p.ownFields(first))
}

// errTableStopped ends the writing of a table's lines that the reader
// no longer reads.
var errTableStopped = errors.New("table's lines no longer read")

// readTableLines reads fs, a table of an envelope's lines, as the JSON
// lines rows writes: its format, source and envelope told from them as
// a JSON-lines file's, each row a line (a bad row's line number its
// row's).
func (p *pipeline) readTableLines(fs *fileState, what string, rows tableRows) error {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		var err error
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("damaged %s data: %v", what, v)
			}
			pw.CloseWithError(err)
			done <- err
		}()
		err = rows(func(line []byte) bool {
			if _, werr := pw.Write(line); werr != nil {
				return false
			}
			_, werr := pw.Write(newline)
			return werr == nil
		})
	}()
	err := func() error {
		// Closed however reading ends (a panic the decoder's recover
		// catches too), so that the writer ends.
		defer pr.CloseWithError(errTableStopped)
		return p.readStream(fs, input{r: pr, raw: pr, size: -1, within: true, table: true})
	}()
	if werr := <-done; werr != nil {
		return werr
	}
	return err
}

var newline = []byte{'\n'}

// pqLineColumn is a top-level scalar column of a Parquet file written
// as a JSON member: its key (`"name":`) and leaf column.
type pqLineColumn struct {
	key []byte
	ci  int
	t   parquet.Type
}

// parquetRows returns the rows of pf, the size-byte file src, as tableRows of
// its top-level scalar columns (a struct's, a list's or a map's are
// left out). A row group the footer shows damaged ends the rows with
// the error.
func parquetRows(src io.ReaderAt, size int64, pf *parquet.File) tableRows {
	ps := pf.Schema()
	var cols []pqLineColumn
	pos := make(map[int]int)
	var specs []pqSpec // every leaf, checked as readParquet checks them
	for _, path := range ps.Columns() {
		if leaf, ok := ps.Lookup(path...); ok {
			specs = append(specs, pqSpec{name: path[0], chunk: leaf.ColumnIndex})
		}
	}
	for _, f := range ps.Fields() {
		if !f.Leaf() || f.Repeated() {
			continue
		}
		leaf, ok := ps.Lookup(f.Name())
		if !ok {
			continue
		}
		pos[leaf.ColumnIndex] = len(cols)
		key := append(appendJSONString(nil, []byte(f.Name())), ':')
		cols = append(cols, pqLineColumn{key: key, ci: leaf.ColumnIndex, t: f.Type()})
	}
	meta := pf.Metadata()
	return func(emit func([]byte) bool) error {
		var line, hdr []byte
		buf := make([]parquet.Row, 64)
		for g, rg := range pf.RowGroups() {
			if err := checkRowGroup(size, meta, g, rg, specs); err != nil {
				return err
			}
			// parquet-go trusts the sizes its pages claim: each chunk's
			// are checked before it reads them, as readParquet's are.
			for _, sp := range specs {
				if err := checkParquetChunk(src, size, meta.RowGroups[g].Columns, sp.chunk, &hdr); err != nil {
					return fmt.Errorf("damaged parquet file: column %q: %w", sp.name, err)
				}
			}
			rs := rg.Rows()
			for {
				n, err := rs.ReadRows(buf)
				for _, row := range buf[:n] {
					line = append(line[:0], '{')
					for _, v := range row {
						i, ok := pos[v.Column()]
						if !ok {
							continue
						}
						if len(line) > 1 {
							line = append(line, ',')
						}
						line = append(line, cols[i].key...)
						line = appendParquetValue(line, v, cols[i].t)
					}
					if !emit(append(line, '}')) {
						rs.Close()
						return nil
					}
				}
				if err == io.EOF {
					break
				}
				if err != nil {
					rs.Close()
					return fmt.Errorf("damaged parquet file: row group %d: %w", g, err)
				}
			}
			rs.Close()
		}
		return nil
	}
}

// appendParquetValue appends v, a value of type t, as JSON: a time as
// its text (an instant in UTC with its zone, a wall-clock time without
// one, as DuckDB writes a TIMESTAMP: wallLayout), a DECIMAL as its
// number, text as a string, a JSON column's value as it is, and null
// for what has no JSON form (NaN, a time out of range, a fixed-length
// DECIMAL).
// A TIMESTAMP's isAdjustedToUTC tells an instant from a local time
// (apache/parquet-format LogicalTypes.md, "Timestamp"); DuckDB writes
// its TIMESTAMP so, its TIMESTAMPTZ adjusted
// (https://duckdb.org/docs/stable/sql/data_types/timestamp): the text
// is the one the JSON line DuckDB read held, which the envelope's own
// reading of its time then reads (Better Stack's dt, UTC without a zone).
func appendParquetValue(dst []byte, v parquet.Value, t parquet.Type) []byte {
	if v.IsNull() {
		return append(dst, "null"...)
	}
	div, dec := decimalOf(t)
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.AppendBool(dst, v.Boolean())
	case parquet.Int32:
		if lt := t.LogicalType(); lt != nil && isLogical[*format.DateType](lt) {
			return appendInstant(dst, int64(v.Int32())*86400e9, "2006-01-02")
		}
		if dec {
			return appendFloatJSON(dst, float64(v.Int32())/div)
		}
		return strconv.AppendInt(dst, int64(v.Int32()), 10)
	case parquet.Int64:
		if per, utc := timestampUnit(t); per != 0 {
			x := v.Int64()
			if x > math.MaxInt64/per || x < math.MinInt64/per {
				return append(dst, "null"...)
			}
			if utc {
				return appendInstant(dst, x*per, time.RFC3339Nano)
			}
			return appendInstant(dst, x*per, wallLayout)
		}
		if dec {
			return appendFloatJSON(dst, float64(v.Int64())/div)
		}
		return strconv.AppendInt(dst, v.Int64(), 10)
	case parquet.Int96:
		ns := int96Instants(nil, []deprecated.Int96{v.Int96()})[0]
		if ns == math.MaxInt64 {
			return append(dst, "null"...)
		}
		return appendInstant(dst, ns, time.RFC3339Nano)
	case parquet.Float:
		return appendFloatJSON(dst, float64(v.Float()))
	case parquet.Double:
		return appendFloatJSON(dst, v.Double())
	case parquet.ByteArray:
		b := v.ByteArray()
		if lt := t.LogicalType(); lt != nil && isLogical[*format.JsonType](lt) && json.Valid(b) {
			return append(dst, b...)
		}
		return appendJSONString(dst, b)
	case parquet.FixedLenByteArray:
		if lt := t.LogicalType(); lt != nil && isLogical[*format.UUIDType](lt) {
			text, _ := uuidTexts(v.ByteArray(), 16)
			return appendJSONString(dst, text)
		}
	}
	return append(dst, "null"...)
}

// wallLayout writes a time without a zone (a TIMESTAMP not adjusted to
// UTC) as RFC 3339 does but for the zone: what an envelope's time is
// told by (stampEnd: Loki's timestamp), read as a JSON line's time
// without a zone is.
const wallLayout = "2006-01-02T15:04:05.999999999"

// appendInstant appends the time ns Unix nanoseconds, in UTC, in
// layout.
func appendInstant(dst []byte, ns int64, layout string) []byte {
	dst = append(dst, '"')
	dst = time.Unix(0, ns).UTC().AppendFormat(dst, layout)
	return append(dst, '"')
}

// appendFloatJSON appends x as a JSON number, null when it has none.
func appendFloatJSON(dst []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(dst, "null"...)
	}
	return strconv.AppendFloat(dst, x, 'g', -1, 64)
}

// arrowTable returns the names of an Arrow IPC file's or stream's
// top-level columns and its rows as tableRows of its scalar ones,
// read as the stream the file holds (past its magic) up to the first
// damaged message; ok false when its schema does not read.
func arrowTable(src io.ReaderAt, size int64) (names []string, rows tableRows, ok bool) {
	start := int64(0)
	head := make([]byte, len(arrowMagic))
	if n, _ := src.ReadAt(head, 0); n == len(head) && bytes.Equal(head, arrowMagic) {
		start = 8 // the magic, padded
	}
	// The reader trusts the lengths it reads (arrow_check.go): the
	// messages are checked first, and only the sound ones read.
	_, sound, _ := scanArrowMessages(src, start, size)
	rd, err := ipc.NewReader(io.NewSectionReader(src, start, sound-start), ipc.WithAllocator(&boundedAllocator{limit: 16*size + 16<<20}))
	if err != nil {
		return nil, nil, false
	}
	fields := rd.Schema().Fields()
	rd.Release()
	keys := make([][]byte, len(fields))
	for i, f := range fields {
		names = append(names, f.Name)
		keys[i] = append(appendJSONString(nil, []byte(f.Name)), ':')
	}
	rows = func(emit func([]byte) bool) error {
		rd, err := ipc.NewReader(io.NewSectionReader(src, start, sound-start), ipc.WithAllocator(&boundedAllocator{limit: 16*size + 16<<20}))
		if err != nil {
			return fmt.Errorf("damaged arrow data: %w", err)
		}
		defer rd.Release()
		var line []byte
		for rd.Next() {
			rec := rd.Record()
			for r := range int(rec.NumRows()) {
				line = append(line[:0], '{')
				for c := range min(int(rec.NumCols()), len(keys)) {
					at := len(line)
					if len(line) > 1 {
						line = append(line, ',')
					}
					line = append(line, keys[c]...)
					var ok bool
					if line, ok = appendArrowValue(line, rec.Column(c), r); !ok {
						line = line[:at] // a type without a JSON value: left out
					}
				}
				if !emit(append(line, '}')) {
					return nil
				}
			}
		}
		if err := rd.Err(); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("damaged arrow data: %w", err)
		}
		return nil
	}
	return names, rows, true
}

// appendArrowValue appends the value of row i of a, a scalar column, as
// JSON, as appendParquetValue does a Parquet column's (a timestamp with
// a zone an instant, without one a wall-clock time); ok false for a
// column of another type (a struct, a list, a map). A timestamp with a
// timezone is an instant, one without a local time (apache/arrow
// format/Schema.fbs, "Timestamp").
func appendArrowValue(dst []byte, a arrow.Array, i int) ([]byte, bool) {
	if d, isDict := a.(*array.Dictionary); isDict {
		if a.IsNull(i) {
			return append(dst, "null"...), true
		}
		return appendArrowValue(dst, d.Dictionary(), d.GetValueIndex(i))
	}
	null := a.IsNull(i)
	if null {
		switch a.(type) {
		case *array.String, *array.LargeString, *array.StringView, *array.Binary, *array.LargeBinary, *array.BinaryView, *array.Boolean,
			*array.Int8, *array.Int16, *array.Int32, *array.Int64, *array.Uint8, *array.Uint16, *array.Uint32, *array.Uint64,
			*array.Float32, *array.Float64, *array.Timestamp, *array.Date32, *array.Date64:
			return append(dst, "null"...), true
		}
		return dst, false
	}
	switch a := a.(type) {
	case *array.String:
		return appendJSONString(dst, []byte(a.Value(i))), true
	case *array.LargeString:
		return appendJSONString(dst, []byte(a.Value(i))), true
	case *array.StringView: // polars' strings
		return appendJSONString(dst, []byte(a.Value(i))), true
	case *array.Binary:
		return appendJSONString(dst, a.Value(i)), true
	case *array.BinaryView:
		return appendJSONString(dst, a.Value(i)), true
	case *array.LargeBinary:
		return appendJSONString(dst, a.Value(i)), true
	case *array.Boolean:
		return strconv.AppendBool(dst, a.Value(i)), true
	case *array.Int8:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10), true
	case *array.Int16:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10), true
	case *array.Int32:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10), true
	case *array.Int64:
		return strconv.AppendInt(dst, a.Value(i), 10), true
	case *array.Uint8:
		return strconv.AppendUint(dst, uint64(a.Value(i)), 10), true
	case *array.Uint16:
		return strconv.AppendUint(dst, uint64(a.Value(i)), 10), true
	case *array.Uint32:
		return strconv.AppendUint(dst, uint64(a.Value(i)), 10), true
	case *array.Uint64:
		return strconv.AppendUint(dst, a.Value(i), 10), true
	case *array.Float32:
		return appendFloatJSON(dst, float64(a.Value(i))), true
	case *array.Float64:
		return appendFloatJSON(dst, a.Value(i)), true
	case *array.Timestamp:
		t := a.DataType().(*arrow.TimestampType)
		per, x := int64(t.Unit.Multiplier()), int64(a.Value(i))
		if x > math.MaxInt64/per || x < math.MinInt64/per {
			return append(dst, "null"...), true
		}
		if t.TimeZone != "" {
			return appendInstant(dst, x*per, time.RFC3339Nano), true
		}
		return appendInstant(dst, x*per, wallLayout), true
	case *array.Date32:
		return appendInstant(dst, int64(a.Value(i))*86400e9, "2006-01-02"), true
	case *array.Date64:
		return appendInstant(dst, int64(a.Value(i))*1e6, "2006-01-02"), true
	}
	return dst, false
}
