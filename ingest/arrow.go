package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// arrowMagic starts (and ends) an Arrow IPC file; a stream has none.
var arrowMagic = []byte("ARROW1")

// readArrow decodes an Arrow IPC file or stream. Its messages are checked
// first (scanArrowMessages); a stream is read up to the first damaged
// message, and a file whose footer or messages are damaged is read as the
// stream it holds, up to the damage.
func readArrow(src io.ReaderAt, size int64, s *rowSink) error {
	mem := &boundedAllocator{limit: 16*size + 16<<20}
	head := make([]byte, len(arrowMagic))
	n, _ := src.ReadAt(head, 0)
	if n == len(head) && bytes.Equal(head, arrowMagic) {
		if err := checkArrowFooter(src, size); err != nil {
			// Read the stream the file holds, up to the damage.
			_, sound, _ := scanArrowMessages(src, 8, size)
			if serr := readArrowStream(io.NewSectionReader(src, 8, sound-8), size, s, mem); serr != nil {
				return fmt.Errorf("damaged arrow file: %w", serr)
			}
			return fmt.Errorf("damaged arrow file: %w", err)
		}
		fr, err := ipc.NewFileReader(io.NewSectionReader(src, 0, size), ipc.WithAllocator(mem))
		if err != nil {
			return fmt.Errorf("damaged arrow file: %w", err)
		}
		defer fr.Close()
		cols := s.arrowColumns(fr.Schema())
		for i := range fr.NumRecords() {
			rec, err := fr.RecordAt(i)
			if err != nil {
				return fmt.Errorf("damaged arrow file: record batch %d: %w", i, err)
			}
			err = sendArrowRecord(rec, cols, s, size)
			rec.Release()
			if err != nil {
				return fmt.Errorf("damaged arrow file: record batch %d: %w", i, err)
			}
		}
		return nil
	}
	_, sound, scanErr := scanArrowMessages(src, 0, size)
	if err := readArrowStream(io.NewSectionReader(src, 0, sound), size, s, mem); err != nil {
		return fmt.Errorf("damaged arrow stream: %w", err)
	}
	if scanErr != nil {
		return fmt.Errorf("damaged arrow stream: %w", scanErr)
	}
	return nil
}

func readArrowStream(r io.Reader, size int64, s *rowSink, mem memory.Allocator) error {
	rd, err := ipc.NewReader(r, ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	defer rd.Release()
	cols := s.arrowColumns(rd.Schema())
	for rd.Next() {
		if err := sendArrowRecord(rd.Record(), cols, s, size); err != nil {
			return err
		}
	}
	if err := rd.Err(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// arrowColumn is one Arrow column the schema binds, of a type a field
// takes.
type arrowColumn struct {
	index int
	name  string
	spec  *pqSpec
}

// arrowColumns binds the columns of sch, after choosing the file's
// source from their names.
func (s *rowSink) arrowColumns(sch *arrow.Schema) []arrowColumn {
	var names []string
	for _, f := range sch.Fields() {
		names = append(names, f.Name)
	}
	s.p.applySource(s.fs, names, nil, nil)
	sc := s.fs.cfg.schema
	var cols []arrowColumn
	for i, f := range sch.Fields() {
		if bs := sc.LookupString(f.Name); len(bs) > 0 {
			if sp := arrowSpec(f.Name, f.Type, bs); sp != nil {
				cols = append(cols, arrowColumn{index: i, name: f.Name, spec: sp})
			}
		}
	}
	return cols
}

// arrowSpec says how a column of type t is read into cells: numbers as
// float64s, timestamps in their unit, booleans, and text (strings,
// binaries and dictionaries of them); nil for the types no canonical
// field takes, which are ignored.
func arrowSpec(name string, t arrow.DataType, bs Bindings) *pqSpec {
	sp := &pqSpec{name: name, bs: bs, text: textOnly(bs)}
	sp.plainOf(bs)
	switch t.ID() {
	case arrow.TIMESTAMP:
		ts := t.(*arrow.TimestampType)
		// Without a zone, a wall-clock time (read in --tz); with one,
		// an instant.
		sp.kind, sp.nsPer, sp.local = vkInstant, int64(ts.Unit.Multiplier()), ts.TimeZone == ""
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.FLOAT32, arrow.FLOAT64:
		sp.kind = vkDouble
	case arrow.BOOL:
		sp.kind = vkBool
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		sp.kind = vkBytes
	case arrow.DICTIONARY:
		switch t.(*arrow.DictionaryType).ValueType.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY:
			sp.kind = vkBytes
		default:
			return nil
		}
	default:
		return nil
	}
	return sp
}

// sendArrowRecord sends one record batch's rows in batches of cells.
func sendArrowRecord(rec arrow.Record, cols []arrowColumn, s *rowSink, size int64) error {
	if n := rec.NumRows(); n < 0 || n > maxRows(size) {
		return fmt.Errorf("a record batch claims %d rows", n)
	}
	rows := int(rec.NumRows())
	arrays := make([]arrow.Array, len(cols))
	specs := make([]*pqSpec, len(cols)) // the batches' own: never changed
	for i, c := range cols {
		if c.index >= int(rec.NumCols()) {
			return fmt.Errorf("record batch lacks column %q", c.name)
		}
		arrays[i], specs[i] = rec.Column(c.index), c.spec
		if arrays[i].Len() < rows {
			return fmt.Errorf("column %q has %d values for %d rows", c.name, arrays[i].Len(), rows)
		}
	}
	for off := 0; off < rows; {
		n := min(batchRows, rows-off)
		b := s.startCells(n, specs)
		for i, a := range arrays {
			fillArrow(a, b, i, off, n)
		}
		s.sendCells(n)
		off += n
	}
	return nil
}

func fillNumbers[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64](vals []T, b *cellBatch, col, off, n int) {
	cells, nulls := b.column(col)
	for k, x := range vals[off : off+n] { // the array's values, from its offset
		if !nulls[k] {
			cells[k] = math.Float64bits(float64(x))
		}
	}
}

// fillArrow copies rows [off, off+n) of one array into the batch's
// column col, which arrowSpec made for the array's type.
func fillArrow(a arrow.Array, b *cellBatch, col, off, n int) {
	cells, nulls := b.column(col)
	if a.NullN() > 0 { // the batch's flags start false (startCells)
		b.nullIn[col] = true
		for k := range n {
			nulls[k] = a.IsNull(off + k)
		}
	}
	switch a := a.(type) {
	case *array.Timestamp:
		for k, x := range a.TimestampValues()[off : off+n] {
			cells[k] = uint64(x)
		}
	// Each array's values as a slice, not a call through an interface
	// per cell.
	case *array.Int8:
		fillNumbers(a.Int8Values(), b, col, off, n)
	case *array.Int16:
		fillNumbers(a.Int16Values(), b, col, off, n)
	case *array.Int32:
		fillNumbers(a.Int32Values(), b, col, off, n)
	case *array.Int64:
		fillNumbers(a.Int64Values(), b, col, off, n)
	case *array.Uint8:
		fillNumbers(a.Uint8Values(), b, col, off, n)
	case *array.Uint16:
		fillNumbers(a.Uint16Values(), b, col, off, n)
	case *array.Uint32:
		fillNumbers(a.Uint32Values(), b, col, off, n)
	case *array.Uint64:
		fillNumbers(a.Uint64Values(), b, col, off, n)
	case *array.Float32:
		fillNumbers(a.Float32Values(), b, col, off, n)
	case *array.Float64:
		fillNumbers(a.Float64Values(), b, col, off, n)
	case *array.Boolean:
		for k := range n {
			if a.Value(off + k) {
				cells[k] = 1
			} else {
				cells[k] = 0
			}
		}
	case *array.String:
		fillText(b, col, off, n, a.Value)
	case *array.LargeString:
		fillText(b, col, off, n, a.Value)
	case *array.Binary:
		fillText(b, col, off, n, a.Value)
	case *array.LargeBinary:
		fillText(b, col, off, n, a.Value)
	case *array.Dictionary:
		switch d := a.Dictionary().(type) {
		case *array.String:
			fillText(b, col, off, n, func(i int) string { return d.Value(a.GetValueIndex(i)) })
		case *array.LargeString:
			fillText(b, col, off, n, func(i int) string { return d.Value(a.GetValueIndex(i)) })
		case *array.Binary:
			fillText(b, col, off, n, func(i int) []byte { return d.Value(a.GetValueIndex(i)) })
		default:
			ignoreColumn(b, col, n)
		}
	default:
		ignoreColumn(b, col, n)
	}
}

// fillText copies the text of the column's rows that are not null into
// the batch's arena.
func fillText[T string | []byte](b *cellBatch, col, off, n int, get func(i int) T) {
	cells, nulls := b.column(col)
	for k := range n {
		if !nulls[k] {
			cells[k] = textCell(b, get(off+k))
		}
	}
}

// ignoreColumn makes the column's rows null: an array of another type
// than its schema's, which no field takes.
func ignoreColumn(b *cellBatch, col, n int) {
	_, nulls := b.column(col)
	b.nullIn[col] = true
	for k := range n {
		nulls[k] = true
	}
}

// boundedAllocator is Go memory that refuses a single allocation over
// limit, so that a crafted length in a damaged file fails instead of
// exhausting memory (the decoder's panic is recovered as an error).
type boundedAllocator struct {
	limit int64
	mem   memory.GoAllocator
}

var errArrowTooLarge = errors.New("arrow buffer larger than the input allows")

func (m *boundedAllocator) Allocate(size int) []byte {
	if size < 0 || int64(size) > m.limit {
		panic(errArrowTooLarge)
	}
	return m.mem.Allocate(size)
}

func (m *boundedAllocator) Reallocate(size int, b []byte) []byte {
	if size < 0 || int64(size) > m.limit {
		panic(errArrowTooLarge)
	}
	return m.mem.Reallocate(size, b)
}

func (m *boundedAllocator) Free(b []byte) { m.mem.Free(b) }
