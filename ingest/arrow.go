package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

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

// arrowColumn is one Arrow column the schema binds.
type arrowColumn struct {
	index int
	name  string
	bs    Bindings
}

// arrowColumns binds the columns of sch, after choosing the file's
// source from their names.
func (s *rowSink) arrowColumns(sch *arrow.Schema) []arrowColumn {
	var names []string
	for _, f := range sch.Fields() {
		names = append(names, f.Name)
	}
	s.p.applySource(s.fs, names)
	sc := s.fs.cfg.schema
	var cols []arrowColumn
	for i, f := range sch.Fields() {
		if bs := sc.LookupString(f.Name); len(bs) > 0 {
			cols = append(cols, arrowColumn{index: i, name: f.Name, bs: bs})
		}
	}
	return cols
}

// sendArrowRecord sends one record batch's rows in batches.
func sendArrowRecord(rec arrow.Record, cols []arrowColumn, s *rowSink, size int64) error {
	if n := rec.NumRows(); n < 0 || n > maxRows(size) {
		return fmt.Errorf("a record batch claims %d rows", n)
	}
	rows := int(rec.NumRows())
	loc := s.fs.cfg.loc
	for off := 0; off < rows; {
		n := min(batchRows, rows-off)
		b := s.start(n)
		for _, c := range cols {
			if c.index >= int(rec.NumCols()) {
				s.drop()
				return fmt.Errorf("record batch lacks column %q", c.name)
			}
			col := rec.Column(c.index)
			if col.Len() < rows {
				s.drop()
				return fmt.Errorf("column %q has %d values for %d rows", c.name, col.Len(), rows)
			}
			fillArrow(col, c.bs, b, off, n, loc)
		}
		s.send(n)
		off += n
	}
	return nil
}

// arrowValues is an Arrow array of numbers.
type arrowValues[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64] interface {
	IsNull(i int) bool
	Value(i int) T
}

func fillNumbers[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64](a arrowValues[T], bs Bindings, b *colBatch, off, n int, loc *time.Location) {
	for k := range n {
		if b.bad[k] != "" || a.IsNull(off+k) {
			continue
		}
		if err := b.recs[k].setNumber(bs, float64(a.Value(off+k)), b, loc); err != nil {
			b.bad[k] = err.Error()
		}
	}
}

// fillArrow reads rows [off, off+n) of one column into the batch. Columns
// of types no canonical field takes are ignored.
func fillArrow(col arrow.Array, bs Bindings, b *colBatch, off, n int, loc *time.Location) {
	switch a := col.(type) {
	case *array.Timestamp:
		per := int64(a.DataType().(*arrow.TimestampType).Unit.Multiplier())
		for k := range n {
			if b.bad[k] != "" || a.IsNull(off+k) {
				continue
			}
			if err := b.recs[k].setInstant(bs, int64(a.Value(off+k)), per, b, loc); err != nil {
				b.bad[k] = err.Error()
			}
		}
	case *array.Int8:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Int16:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Int32:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Int64:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Uint8:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Uint16:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Uint32:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Uint64:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Float32:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Float64:
		fillNumbers(a, bs, b, off, n, loc)
	case *array.Boolean:
		for k := range n {
			if b.bad[k] != "" || a.IsNull(off+k) {
				continue
			}
			if err := b.recs[k].setBool(bs, a.Value(off+k), loc); err != nil {
				b.bad[k] = err.Error()
			}
		}
	case *array.String:
		fillText(a, func(i int) []byte { return b.textString(a.Value(i)) }, bs, b, off, n, loc)
	case *array.LargeString:
		fillText(a, func(i int) []byte { return b.textString(a.Value(i)) }, bs, b, off, n, loc)
	case *array.Binary:
		fillText(a, func(i int) []byte { return b.text(a.Value(i)) }, bs, b, off, n, loc)
	case *array.LargeBinary:
		fillText(a, func(i int) []byte { return b.text(a.Value(i)) }, bs, b, off, n, loc)
	case *array.Dictionary:
		var get func(i int) []byte
		switch d := a.Dictionary().(type) {
		case *array.String:
			get = func(i int) []byte { return b.textString(d.Value(a.GetValueIndex(i))) }
		case *array.LargeString:
			get = func(i int) []byte { return b.textString(d.Value(a.GetValueIndex(i))) }
		case *array.Binary:
			get = func(i int) []byte { return b.text(d.Value(a.GetValueIndex(i))) }
		default:
			return
		}
		fillText(a, get, bs, b, off, n, loc)
	}
}

func fillText(a arrow.Array, get func(i int) []byte, bs Bindings, b *colBatch, off, n int, loc *time.Location) {
	for k := range n {
		if b.bad[k] != "" || a.IsNull(off+k) {
			continue
		}
		if err := b.recs[k].Set(bs, get(off+k), loc); err != nil {
			b.bad[k] = err.Error()
		}
	}
}

// textString copies s into the batch's arena.
func (b *colBatch) textString(s string) []byte {
	n := len(b.arena)
	b.arena = append(b.arena, s...)
	return b.arena[n:len(b.arena):len(b.arena)]
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
