package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
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
	if names, rows, ok := arrowTable(src, size); ok && s.p.linesTable(names, nil) && s.p.tableEnvelope(rows) {
		// A log platform's export of its lines (tablelines.go).
		return s.p.readTableLines(s.fs, "arrow", rows)
	}
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
		var first arrow.Record
		if fr.NumRecords() > 0 {
			rec, err := fr.RecordAt(0)
			if err != nil {
				return fmt.Errorf("damaged arrow file: record batch 0: %w", err)
			}
			defer rec.Release()
			first = rec
		}
		cols := s.arrowColumns(fr.Schema(), first)
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
	more := rd.Next() // the first batch, which names the source too
	var first arrow.Record
	if more {
		first = rd.Record()
	}
	cols := s.arrowColumns(rd.Schema(), first)
	for ; more; more = rd.Next() {
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
// takes: a top-level column, or one within structs (path: the index of
// each struct's field on the way down from the top-level column index).
type arrowColumn struct {
	index int
	path  []int
	name  string
	spec  *pqSpec
	// key is set for the value of one key of a MAP column (arrow_map.go),
	// lower case: the column at index and path is the map.
	key string
}

// maxStructDepth bounds how deep the structs a column is read within are
// nested.
const maxStructDepth = 8

// arrowColumns binds the columns of sch, after choosing the file's
// source from their names: a top-level column by its name, one within
// structs (a JSON log's nested object, as a Parquet file's) by its
// dotted path, present in a row when it and each struct above it are;
// and the value of one key of a MAP column by the map's path and the key
// (request_metadata.model_name, appendArrowMapKeys). A column within a
// list, and a map's keys and values otherwise, are not read. A text column that holds
// nothing but nulls, "" and "-" in the first record batch (first, nil
// when there is none) names no source or client, as a JSON record
// without it would not (a user_id always "").
func (s *rowSink) arrowColumns(sch *arrow.Schema, first arrow.Record) []arrowColumn {
	var names, paths []string
	var leaves, maps []arrowColumn
	types := map[string]arrow.DataType{}
	var walk func(c arrowColumn, t arrow.DataType, depth int)
	walk = func(c arrowColumn, t arrow.DataType, depth int) {
		if st, ok := t.(*arrow.StructType); ok {
			if depth < maxStructDepth {
				for j, f := range st.Fields() {
					walk(arrowColumn{index: c.index, path: append(slices.Clip(c.path), j), name: c.name + "." + f.Name}, f.Type, depth+1)
				}
			}
			return
		}
		types[c.name] = t
		leaves = append(leaves, c)
		if _, ok := t.(*arrow.MapType); ok {
			maps = append(maps, c)
		}
		if emptyText(first, c) {
			return
		}
		if len(c.path) > 0 {
			paths = append(paths, c.name)
		} else {
			names = append(names, c.name)
		}
	}
	for i, f := range sch.Fields() {
		if _, ok := f.Type.(*arrow.StructType); ok {
			names = append(names, f.Name)
		}
		walk(arrowColumn{index: i, name: f.Name}, f.Type, 0)
	}
	for _, c := range leaves {
		if len(c.path) == 0 && arrowText(types[c.name]) {
			// As a Parquet file's (parquetObjectPaths).
			paths = appendObjectPaths(paths, c.name, arrowValues(first, leaves, c.name))
		}
	}
	s.p.applySource(s.fs, names, paths, nil)
	// As a Parquet file's or a JSON line's: a duration alias not in its
	// unit (slog's ns under "duration"), the magnitudes a report's --map
	// hint is told from, a TTFT in seconds.
	s.fs.tableValueChecks(names, func(n string) [][]byte { return arrowValues(first, leaves, n) })
	sc := s.fs.cfg.schema
	var cols []arrowColumn
	for _, c := range leaves {
		if bs := sc.LookupString(c.name); len(bs) > 0 {
			if sp := arrowSpec(c.name, types[c.name], bs); sp != nil {
				c.spec = sp
				cols = append(cols, c)
			}
		} else if sc.bindsBelow(c.name) && arrowText(types[c.name]) {
			// A string column of JSON objects (textObject), as a
			// Parquet file's.
			c.spec = &pqSpec{name: c.name, kind: vkBytes, text: true, object: []byte(c.name)}
			cols = append(cols, c)
		}
	}
	for _, c := range maps {
		if sc.bindsBelow(c.name) {
			cols = appendArrowMapKeys(cols, sc, c, types[c.name].(*arrow.MapType))
		}
	}
	return cols
}

// arrowValues returns the texts of the first values, at most
// maxUnitValues, of the top-level column name of leaves in record batch
// rec (nil: none): its numbers as a JSON line writes them, its strings
// as they are. A column of another type (a timestamp, a duration with
// its unit) gives none: its unit is its type's.
func arrowValues(rec arrow.Record, leaves []arrowColumn, name string) [][]byte {
	i := slices.IndexFunc(leaves, func(c arrowColumn) bool { return c.name == name && len(c.path) == 0 })
	if rec == nil || i < 0 || leaves[i].index >= int(rec.NumCols()) {
		return nil
	}
	a := rec.Column(leaves[i].index)
	var text func(i int) []byte
	switch a := a.(type) {
	case *array.Int64:
		text = func(i int) []byte { return strconv.AppendInt(nil, a.Value(i), 10) }
	case *array.Int32:
		text = func(i int) []byte { return strconv.AppendInt(nil, int64(a.Value(i)), 10) }
	case *array.Uint64:
		text = func(i int) []byte { return strconv.AppendUint(nil, a.Value(i), 10) }
	case *array.Uint32:
		text = func(i int) []byte { return strconv.AppendUint(nil, uint64(a.Value(i)), 10) }
	case *array.Float64:
		text = func(i int) []byte { return strconv.AppendFloat(nil, a.Value(i), 'g', -1, 64) }
	case *array.Float32:
		text = func(i int) []byte { return strconv.AppendFloat(nil, float64(a.Value(i)), 'g', -1, 32) }
	case *array.String:
		text = func(i int) []byte { return []byte(a.Value(i)) }
	case *array.LargeString:
		text = func(i int) []byte { return []byte(a.Value(i)) }
	default:
		return nil
	}
	var out [][]byte
	for j := 0; j < a.Len() && len(out) < maxUnitValues; j++ {
		if !a.IsNull(j) {
			out = append(out, text(j))
		}
	}
	return out
}

// emptyText reports whether column c of record rec is text holding
// nothing but nulls, "" and "-" (in it or a struct above it); false
// without a record, or for another type.
func emptyText(rec arrow.Record, c arrowColumn) bool {
	if rec == nil || c.index >= int(rec.NumCols()) || rec.NumRows() == 0 {
		return false
	}
	a := rec.Column(c.index)
	var structs []arrow.Array
	for _, j := range c.path {
		st, ok := a.(*array.Struct)
		if !ok || j >= st.NumField() {
			return false
		}
		structs = append(structs, st)
		a = st.Field(j)
	}
	var text func(i int) string
	switch a := a.(type) {
	case *array.String:
		text = a.Value
	case *array.LargeString:
		text = a.Value
	default:
		return false
	}
	n := min(a.Len(), int(rec.NumRows()))
rows:
	for i := range n {
		if a.IsNull(i) {
			continue
		}
		for _, st := range structs {
			if st.IsNull(i) {
				continue rows
			}
		}
		if v := text(i); len(v) > 2 || !isAbsent([]byte(v)) {
			return false
		}
	}
	return true
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
	case arrow.DATE32, arrow.DATE64:
		// A day, without a zone: its midnight in --tz.
		sp.kind, sp.nsPer, sp.local = vkInstant, int64(24*time.Hour), true
		if t.ID() == arrow.DATE64 {
			sp.nsPer = int64(time.Millisecond)
		}
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128:
		sp.kind = vkDouble
	case arrow.DURATION:
		// In its own unit: the cells hold the value in the unit the
		// column's name is read in.
		unit, info := bs[0].Unit, &fields[bs[0].Field]
		if unit == UnitNone {
			unit = info.unit
		}
		sp.kind, sp.perUnit = vkDouble, float64(t.(*arrow.DurationType).Unit.Multiplier())/1e9/seconds[unit]
	case arrow.INTERVAL_MONTH_DAY_NANO, arrow.INTERVAL_DAY_TIME:
		// DuckDB's end − start (month_day_nano), as a Parquet INTERVAL:
		// seconds, a month 30 days, in the unit the name is read in.
		unit := bs[0].Unit
		if unit == UnitNone {
			unit = fields[bs[0].Field].unit
		}
		sp.kind, sp.perUnit = vkDouble, 1/seconds[unit]
	case arrow.BOOL:
		sp.kind = vkBool
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.STRING_VIEW, arrow.BINARY_VIEW:
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

// arrowText reports whether t is a type arrowSpec reads as text.
func arrowText(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.STRING_VIEW, arrow.BINARY_VIEW:
		return true
	case arrow.DICTIONARY:
		switch t.(*arrow.DictionaryType).ValueType.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY:
			return true
		}
	}
	return false
}

// sendArrowRecord sends one record batch's rows in batches of cells.
func sendArrowRecord(rec arrow.Record, cols []arrowColumn, s *rowSink, size int64) error {
	if n := rec.NumRows(); n < 0 || n > maxRows(size) {
		return fmt.Errorf("a record batch claims %d rows", n)
	}
	rows := int(rec.NumRows())
	arrays := make([]arrow.Array, len(cols))
	structs := make([][]arrow.Array, len(cols)) // of each column, the structs above it
	specs := make([]*pqSpec, len(cols))         // the batches' own: never changed
	for i, c := range cols {
		if c.index >= int(rec.NumCols()) {
			return fmt.Errorf("record batch lacks column %q", c.name)
		}
		a := rec.Column(c.index)
		for _, j := range c.path {
			st, ok := a.(*array.Struct)
			if !ok || j >= st.NumField() || st.Len() < rows {
				return fmt.Errorf("record batch lacks column %q", c.name)
			}
			structs[i] = append(structs[i], st)
			a = st.Field(j)
		}
		arrays[i], specs[i] = a, c.spec
		if arrays[i].Len() < rows {
			return fmt.Errorf("column %q has %d values for %d rows", c.name, arrays[i].Len(), rows)
		}
		if c.key != "" {
			if err := checkArrowMap(a, rows); err != nil {
				return fmt.Errorf("column %q: %w", c.name, err)
			}
		}
	}
	for off := 0; off < rows; {
		n := min(batchRows, rows-off)
		b := s.startCells(n, specs)
		for i, a := range arrays {
			if cols[i].key != "" {
				fillArrowMap(a.(*array.Map), cols[i].key, b, i, off, n)
			} else {
				fillArrow(a, b, i, off, n)
			}
			for _, st := range structs[i] {
				nullUnder(st, b, i, off, n)
			}
		}
		s.sendCells(n)
		off += n
	}
	return nil
}

// nullUnder makes the column's rows null where struct st, above it, is
// null: a struct's null row holds whatever its fields hold there.
func nullUnder(st arrow.Array, b *cellBatch, col, off, n int) {
	if st.NullN() == 0 {
		return
	}
	_, nulls := b.column(col)
	for k := range n {
		if st.IsNull(off + k) {
			nulls[k], b.nullIn[col] = true, true
		}
	}
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
	case *array.Date32:
		for k, x := range a.Date32Values()[off : off+n] {
			cells[k] = uint64(int64(x))
		}
	case *array.Date64:
		for k, x := range a.Date64Values()[off : off+n] {
			cells[k] = uint64(int64(x))
		}
	case *array.MonthDayNanoInterval:
		per := b.specs[col].perUnit
		for k, x := range a.MonthDayNanoIntervalValues()[off : off+n] {
			if !nulls[k] {
				cells[k] = math.Float64bits((float64(x.Months)*30*86400 + float64(x.Days)*86400 + float64(x.Nanoseconds)/1e9) * per)
			}
		}
	case *array.DayTimeInterval:
		per := b.specs[col].perUnit
		for k, x := range a.DayTimeIntervalValues()[off : off+n] {
			if !nulls[k] {
				cells[k] = math.Float64bits((float64(x.Days)*86400 + float64(x.Milliseconds)/1e3) * per)
			}
		}
	case *array.Duration:
		per := b.specs[col].perUnit
		for k, x := range a.DurationValues()[off : off+n] {
			if !nulls[k] {
				cells[k] = math.Float64bits(float64(x) * per)
			}
		}
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		for k := range n {
			if !nulls[k] {
				cells[k] = math.Float64bits(a.Value(off + k).ToFloat64(scale))
			}
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
	case *array.StringView: // polars' strings
		fillText(b, col, off, n, a.Value)
	case *array.BinaryView:
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
