package ingest

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"
)

// batchRows is how many rows of a columnar file one unit of work holds.
const batchRows = 1024

// colBatch is the arena of a batch of rows: their text values, and the
// numbers a text field takes, are copied into it. It is only appended to,
// so earlier copies stay valid when it grows.
type colBatch struct {
	arena []byte
}

// maxRows is the most rows a row group or record batch of a size-byte
// input may claim: a real log takes well over a byte per row, so a larger
// count is damage, not data to loop over.
func maxRows(size int64) int64 { return 1<<20 + 64*size }

// rowSink receives a columnar decoder's batches: startCells gives the
// next batch to fill with n rows, and sendCells passes it on.
type rowSink struct {
	p     *pipeline
	fs    *fileState
	row   int64      // rows sent so far
	cells *cellBatch // the batch being filled
	// each, when set, takes each batch instead of the workers: a worker
	// decoding a row group adds its rows itself (parquetGroup).
	each func(*cellBatch)
}

// drop returns an unfinished batch to the pool.
func (s *rowSink) drop() {
	if s.cells != nil {
		cellPool.Put(s.cells)
		s.cells = nil
	}
}

// setNumber reads a numeric column value into every field bs names, with
// the same rules as Set: a negative, NaN or infinite request_time is an
// error (a bad row); text fields get the number's decimal form.
func (r *Record) setNumber(bs Bindings, v float64, b *colBatch, loc *time.Location) error {
	for _, bd := range bs {
		f := bd.Field
		if bd.MinusOne && v == -1 || !r.claim(f, bd.Prio) && !bd.Stamp() { // -1: the source's "no value"
			continue
		}
		info := &fields[f]
		switch info.kind {
		case KindFloat:
			x, flaw := duration(info, v, bd.Unit)
			if flaw == fine && bd.Part() {
				x, flaw = r.addPart(f, x)
			}
			if flaw != fine {
				if f == FRequestTime {
					return badValue(f, strconv.AppendFloat(nil, v, 'g', -1, 64), flaw)
				}
				r.unreadableNumber(f, v)
				continue
			}
			r.put(f, bd.Prio, x)
		case KindInt:
			if isInt(v) {
				r.put(f, bd.Prio, v+0) // +0 turns -0 into 0
			} else {
				r.unreadableNumber(f, v)
			}
		case KindBool:
			if v == 0 || v == 1 {
				r.put(f, bd.Prio, v)
			} else {
				r.unreadableNumber(f, v)
			}
		default:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				if f == FTime {
					return badValue(f, strconv.AppendFloat(nil, v, 'g', -1, 64), notFinite)
				}
				r.unreadableNumber(f, v)
				continue
			}
			n := len(b.arena)
			b.arena = strconv.AppendFloat(b.arena, v, 'f', -1, 64)
			if err := r.set1(bd, b.arena[n:len(b.arena):len(b.arena)], loc); err != nil {
				return err
			}
		}
	}
	return nil
}

// setPlainNumber sets v into b's one duration or integer field (of
// kind) as setDecimal does, a duration checked and scaled by its unit's
// factors (unitFactors: seconds per unit of v, and the factor to the
// field's unit); false for a duration it refuses, which the caller's
// general setter then reports or leaves unset. The shape reader's loop
// writes the same steps out for its plain numbers.
func (r *Record) setPlainNumber(b Binding, kind Kind, inS, scale, v float64) bool {
	if !r.claim(b.Field, b.Prio) {
		return true
	}
	if kind == KindInt {
		if isInt(v) {
			r.put(b.Field, b.Prio, v+0) // +0 turns -0 into 0
		} else {
			r.unreadableNumber(b.Field, v)
		}
		return true
	}
	if !(v >= 0 && v*inS <= MaxDurationS) { // duration's checks (NaN fails them too)
		r.unreadableNumber(b.Field, v)
		return false
	}
	r.put(b.Field, b.Prio, v*scale+0) // +0 turns -0 into 0
	return true
}

// unitFactors are a duration field's factors for values in unit (none:
// the field's): the seconds per unit, and the factor to the field's
// unit, 1 in it (and for any other kind).
func unitFactors(info *fieldInfo, unit Unit) (inS, scale float64) {
	if unit == UnitNone {
		unit = info.unit
	}
	inS, scale = seconds[unit], 1
	if info.kind == KindFloat && unit != info.unit {
		scale = seconds[unit] / seconds[info.unit]
	}
	return inS, scale
}

// setInstant reads a timestamp column value, v units of per nanoseconds:
// straight into the time field; any other field bound to the column gets
// it as epoch seconds.
func (r *Record) setInstant(bs Bindings, v, per int64, b *colBatch, loc *time.Location, wall *wallZone) error {
	ns := v * per
	if per != 0 && (v > math.MaxInt64/per || v < math.MinInt64/per) {
		ns = math.MaxInt64 // overflows: outside every readable time
	} else if wall != nil && checkTime(ns) == fine {
		ns = wall.instant(ns, loc)
	}
	for _, bd := range bs {
		if bd.Field == FTime {
			if r.claim(FTime, bd.Prio) || bd.Stamp() {
				if flaw := checkTime(ns); flaw != fine {
					return badValue(FTime, strconv.AppendInt(nil, v, 10), flaw)
				}
				if bd.Stamp() {
					r.putStamp(bd, ns)
					continue
				}
				r.TimeNS = ns
				r.set |= 1 << FTime
				r.prio[FTime] = bd.Prio
			}
			continue
		}
		if err := r.setNumber(Bindings{bd}, float64(ns)/1e9, b, loc); err != nil {
			return err
		}
	}
	return nil
}

// setBool reads a boolean column value.
func (r *Record) setBool(bs Bindings, v bool, loc *time.Location) error {
	s := falseText
	if v {
		s = trueText
	}
	return r.Set(bs, s, loc)
}

var trueText, falseText = []byte("true"), []byte("false")

// readColumnar decodes a Parquet or Arrow input into batches of records.
// A plain file is read in place through its io.ReaderAt; stdin and
// compressed input are read into memory first. An error means the file
// was damaged; the rows before the damage have been sent.
//
// nuls is how many NUL bytes the stream began with, which br has skipped
// (skipNULs): a stream of them alone is no empty file but a damaged one.
func (p *pipeline) readColumnar(fs *fileState, br *bufio.Reader, content io.Reader, raw io.Reader, nuls int64) error {
	var src io.ReaderAt
	var size int64
	var readErr error
	f, isFile := raw.(*os.File)
	var st os.FileInfo
	if isFile && isPlain(content) {
		var err error
		if st, err = f.Stat(); err != nil {
			return fmt.Errorf("cannot stat %q: %w", fs.path, err)
		}
	}
	if st != nil && st.Mode().IsRegular() {
		src, size = f, st.Size()
	} else { // stdin, a pipe, compressed content: a temporary file, not memory of its size
		var done func()
		src, size, done, readErr = spool(br)
		defer done()
	}
	if size == 0 && readErr == nil {
		if nuls > 0 {
			return fmt.Errorf("damaged %s file: NUL bytes only (%d)", fs.format, nuls)
		}
		return nil // an empty file, as a text one of no bytes: no failure
	}
	s := &rowSink{p: p, fs: fs}
	var err error
	switch fs.format {
	case Parquet:
		err = decodeSafely("parquet", s, func() error { return readParquet(src, size, s) })
	default:
		err = decodeSafely("arrow", s, func() error { return readArrow(src, size, s) })
	}
	if readErr != nil {
		return readError(readErr)
	}
	return err
}

// isPlain reports whether decompress passed the content through as is.
func isPlain(r io.Reader) bool {
	_, ok := r.(*bufio.Reader)
	return ok
}

// decodeSafely runs a decoder, turning a panic on malformed data into an
// error.
func decodeSafely(what string, s *rowSink, decode func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			s.drop()
			err = fmt.Errorf("damaged %s data: %v", what, v)
		}
	}()
	err = decode()
	s.drop()
	return err
}

// inArena marks the cell of a text value in the batch's arena: its
// offset above bit 31 and its length below; without it, a text cell is
// an index in its column's dictionary.
const inArena = 1 << 63

// cellBatch is a batch of rows of a columnar file as cells, a column's
// consecutive: the reader decodes the columns and copies their values
// out, and a worker sets them into its records a column at a time
// (setRows), a column's cells read in order as they were written.
// (Batches of records filled by the reader reached the workers from
// another core's cache, a kilobyte a record; a batch's cells take eight
// bytes a value.)
type cellBatch struct {
	first int64 // the file row of the first row, from 1
	n     int
	specs []*pqSpec
	// cells[i*n+j] is row j's value of column i (column gives a
	// column's): a float64's bits (a bool 0 or 1; int32, int64 and
	// float converted), an instant's stored units, or a text (inArena);
	// nulls likewise.
	cells []uint64
	nulls []bool
	// nullIn[i] is set when column i has a null: the loops of setRows
	// over a column without one look at no cell's flag.
	nullIn []bool
	dicts  [][][]byte // of each text column, the dictionary its indexes are in
	// dictKeys: the batch's text cells are indexes of its row group's
	// dictionaries, from which its records' DictKeys are made.
	dictKeys bool
	// every binds the fields each row has, without a value: a Parquet
	// row group's counted columns' (countedColumns).
	every Bindings
	cb    colBatch // its arena only: the text values, and numbers set as text
	errs  []error  // setRows's
	wall  wallZone // the zone period of its columns' wall-clock times
	// json reads its object columns' values (pqSpec.object): the
	// worker's while it sets the batch's rows (readyObjects), kept with
	// the batch in the pool.
	json *jsonParser
}

// wallOf returns the batch's wallZone when column sp holds wall-clock
// times (pqSpec.local), nil when it holds instants.
func (b *cellBatch) wallOf(sp *pqSpec) *wallZone {
	if !sp.local {
		return nil
	}
	return &b.wall
}

var cellPool = sync.Pool{New: func() any { return &cellBatch{cb: colBatch{arena: make([]byte, 0, 64<<10)}} }}

// startCells returns a batch for n (≤ batchRows) rows of the columns of
// specs, which it keeps.
func (s *rowSink) startCells(n int, specs []*pqSpec) *cellBatch {
	b := cellPool.Get().(*cellBatch)
	b.cb.arena = b.cb.arena[:0]
	b.first, b.n = s.row+1, n
	b.specs = specs
	if cells := n * len(specs); cap(b.cells) < cells {
		b.cells, b.nulls = make([]uint64, cells), make([]bool, cells)
	} else {
		b.cells, b.nulls = b.cells[:cells], b.nulls[:cells]
		clear(b.nulls) // a Parquet column marks its nulls only
	}
	b.nullIn = append(b.nullIn[:0], make([]bool, len(specs))...)
	b.dicts = append(b.dicts[:0], make([][][]byte, len(specs))...)
	b.dictKeys, b.every = false, nil
	s.cells = b
	return b
}

// sendCells hands the current batch's n rows to the workers.
func (s *rowSink) sendCells(n int) {
	b := s.cells
	s.cells = nil
	s.row += int64(n)
	if s.each != nil {
		s.each(b)
		return
	}
	s.p.work <- unit{file: s.fs, cells: b}
}

// column returns the cells and null flags of column i, a row's each.
func (b *cellBatch) column(i int) ([]uint64, []bool) {
	return b.cells[i*b.n : (i+1)*b.n], b.nulls[i*b.n : (i+1)*b.n]
}

// textCell copies a text value into the batch's arena and returns its
// cell.
func textCell[T string | []byte](b *cellBatch, v T) uint64 {
	off := len(b.cb.arena)
	b.cb.arena = append(b.cb.arena, v...)
	return inArena | uint64(off)<<31 | uint64(len(v))
}

// set sets row j of the batch into r, as the columns bind it; an error
// makes the row bad. The columns are set in order, and the first error
// is the row's.
func (b *cellBatch) set(r *Record, j int, loc *time.Location) error {
	for _, bd := range b.every {
		r.putPresent(bd)
	}
	for i := range b.specs {
		if c := i*b.n + j; !b.nulls[c] {
			if err := b.setCell(r, i, b.cells[c], loc); err != nil {
				return err
			}
		}
	}
	return nil
}

// setCell sets the value x of column i into r.
func (b *cellBatch) setCell(r *Record, i int, x uint64, loc *time.Location) error {
	switch sp := b.specs[i]; sp.kind {
	case vkBool:
		if sp.flag {
			if b := sp.bs[0]; r.claim(b.Field, b.Prio) {
				v := 0.0 // as Set reads "false" and "true"
				if x != 0 {
					v = 1
				}
				r.put(b.Field, b.Prio, v)
			}
			return nil
		}
		return r.setBool(sp.bs, x != 0, loc)
	case vkInstant:
		return r.setInstant(sp.bs, int64(x), sp.nsPer, &b.cb, loc, b.wallOf(sp))
	case vkBytes:
		if sp.object != nil {
			return b.object(r, sp, b.text(i, x))
		}
		return r.setText(sp, b.text(i, x), loc)
	default:
		if v := math.Float64frombits(x); sp.num == nil || !r.setPlainNumber(sp.bs[0], sp.num.kind, sp.inS, sp.scale, v) {
			return r.setNumber(sp.bs, v, &b.cb, loc)
		}
		return nil
	}
}

// text is the text of the cell x of text column i: in the batch's arena,
// or its column's dictionary.
func (b *cellBatch) text(i int, x uint64) []byte { return b.textOf(b.dicts[i], x) }

// textOf is text for a column whose dictionary is dict, for a loop over
// the column's cells that looks its dictionary up once.
func (b *cellBatch) textOf(dict [][]byte, x uint64) []byte {
	if x&inArena != 0 {
		off, n := x&^inArena>>31, x&(1<<31-1)
		return b.cb.arena[off : off+n : off+n]
	}
	return dict[x]
}

// setRows sets rows j0 to j0+len(recs) of the batch into recs, as set
// sets each, a column at a time: the column's kind is looked at once,
// and the text and plain number columns, most of a log's, are set in
// loops of their own, without a call per cell. A row's first error is
// its own (errs[k], nil for a good row); the columns after it are not
// set into it, as set stops at it.
func (b *cellBatch) setRows(recs []Record, j0 int, s *Schema, loc *time.Location, parts []partConst) (errs []error) {
	b.errs = slices.Grow(b.errs[:0], len(recs))[:len(recs)]
	errs = b.errs
	clear(errs)
	for k := range recs {
		recs[k].reset(s)
		recs[k].parts = parts
	}
	// bound has bit f once a column before has bound field f: a record
	// was reset, so a column's field that none before binds is its to
	// take, without claim's look at the record.
	bound := uint64(0)
	for _, bd := range b.every {
		if bound&(1<<bd.Field) != 0 {
			for k := range recs {
				recs[k].putPresent(bd)
			}
			continue
		}
		for k := range recs { // the record's to take: without claim
			recs[k].present(bd)
		}
		bound |= 1 << bd.Field
	}
	bad := false // a row has an error: the loops check errs
	for i, sp := range b.specs {
		cells, nulls := b.column(i)
		cells, nulls = cells[j0:j0+len(recs)], nulls[j0:j0+len(recs)]
		some := nulls // the null flags the loops without checks look at: none when the column has no null
		if !b.nullIn[i] {
			some = nil
		}
		switch {
		case sp.kind == vkBytes && sp.text && len(sp.bs) == 1:
			bd, dict := sp.bs[0], b.dicts[i]
			taken := bound&(1<<bd.Field) != 0
			bound |= 1 << bd.Field
			if !taken && !bad {
				b.putTexts(recs, cells, some, dict, bd)
				continue
			}
			for k, x := range cells {
				if nulls[k] || bad && errs[k] != nil {
					continue
				}
				t := b.textOf(dict, x)
				if !isAbsent(t) && (!taken || recs[k].claim(bd.Field, bd.Prio)) {
					recs[k].putText(bd.Field, bd.Prio, t)
				}
			}
		case sp.num != nil && sp.kind >= vkInt32 && sp.kind <= vkDouble:
			// setPlainNumber's steps, in the loop.
			bd, integer, inS, scale := sp.bs[0], sp.num.kind == KindInt, sp.inS, sp.scale
			taken := bound&(1<<bd.Field) != 0
			bound |= 1 << bd.Field
			if !taken && !bad {
				if integer {
					putInts(recs, cells, some, bd)
				} else {
					bad = b.putDurations(recs, cells, some, sp, errs, loc)
				}
				continue
			}
			for k, x := range cells {
				if nulls[k] || bad && errs[k] != nil {
					continue
				}
				r, v := &recs[k], math.Float64frombits(x)
				switch {
				case taken && !r.claim(bd.Field, bd.Prio):
				case integer:
					if isInt(v) {
						r.put(bd.Field, bd.Prio, v+0) // +0 turns -0 into 0
					} else {
						r.unreadableNumber(bd.Field, v)
					}
				case v >= 0 && v*inS <= MaxDurationS: // duration's checks (NaN fails them too)
					r.put(bd.Field, bd.Prio, v*scale+0)
				default:
					if err := r.setNumber(sp.bs, v, &b.cb, loc); err != nil {
						errs[k], bad = err, true
					}
				}
			}
		case sp.kind == vkBytes && sp.num != nil:
			// A number written as text (nginx's upstream times): the
			// plain ones set as setText would set them, in the loop,
			// the rest by setCell.
			bd, dict, kind := sp.bs[0], b.dicts[i], sp.num.kind
			bound |= 1 << bd.Field
			for k, x := range cells {
				if nulls[k] || bad && errs[k] != nil {
					continue
				}
				t := b.textOf(dict, x)
				if end, v, ok := scanNumber(t, 0); ok && end == len(t) && recs[k].setPlainNumber(bd, kind, sp.inS, sp.scale, v) {
					continue
				}
				if err := b.setCell(&recs[k], i, x, loc); err != nil {
					errs[k], bad = err, true
				}
			}
		case sp.object != nil:
			// A member may bind any field (lookupNested falls back to
			// its own name): the columns after claim theirs.
			bound = ^uint64(0)
			dict := b.dicts[i]
			for k, x := range cells {
				if !nulls[k] && !(bad && errs[k] != nil) {
					if err := b.object(&recs[k], sp, b.textOf(dict, x)); err != nil {
						errs[k], bad = err, true
					}
				}
			}
		case sp.kind == vkInstant && len(sp.bs) == 1 && sp.bs[0].Field == FTime && !sp.bs[0].Stamp() && bound&(1<<FTime) == 0 && !bad:
			bound |= 1 << FTime
			bad = putInstants(recs, cells, some, sp, errs, b.wallOf(sp), loc)
		case sp.kind == vkBool && sp.flag && bound&(1<<sp.bs[0].Field) == 0 && !bad:
			bd := sp.bs[0]
			bound |= 1 << bd.Field
			for k, x := range cells { // setCell's, the record's to take
				if some != nil && some[k] {
					continue
				}
				v := 0.0 // as Set reads "false" and "true"
				if x != 0 {
					v = 1
				}
				recs[k].put(bd.Field, bd.Prio, v)
			}
		default:
			for _, bd := range sp.bs {
				if !bd.Stamp() { // a stamp sets no field (putStamp)
					bound |= 1 << bd.Field
				}
			}
			for k, x := range cells {
				if !nulls[k] && !(bad && errs[k] != nil) {
					if err := b.setCell(&recs[k], i, x, loc); err != nil {
						errs[k], bad = err, true
					}
				}
			}
		}
	}
	return errs
}

// readyObjects readies the batch's parser of its object columns
// (pqSpec.object), when it has one, for a file read with schema s in
// zone loc.
func (b *cellBatch) readyObjects(s *Schema, loc *time.Location) {
	for _, sp := range b.specs {
		if sp.object != nil {
			if b.json == nil || b.json.schema != s || b.json.loc != loc {
				b.json = newJSONParser(s, loc)
			}
			return
		}
	}
}

// object reads text, a value of object column sp, into r (textObject):
// the strings it decodes go to the batch's arena, which the records
// keep as they keep its texts.
func (b *cellBatch) object(r *Record, sp *pqSpec, text []byte) error {
	j := b.json
	j.scratch = b.cb.arena
	err := j.textObject(r, sp.object, text)
	b.cb.arena, j.scratch = j.scratch, nil
	return err
}

// putTexts sets the texts of a column's cells into recs, row k's into
// recs[k], but where nulls (nil: none) flags a null, for a column whose
// field no column before binds, in rows without an error: setRows' loop
// without its other checks.
func (b *cellBatch) putTexts(recs []Record, cells []uint64, nulls []bool, dict [][]byte, bd Binding) {
	for k, x := range cells {
		if nulls != nil && nulls[k] {
			continue
		}
		if t := b.textOf(dict, x); !isAbsent(t) {
			recs[k].putText(bd.Field, bd.Prio, t)
		}
	}
}

// putInts is putTexts for a column of integers into an integer field.
func putInts(recs []Record, cells []uint64, nulls []bool, bd Binding) {
	for k, x := range cells {
		if nulls != nil && nulls[k] {
			continue
		}
		if v := math.Float64frombits(x); isInt(v) {
			recs[k].put(bd.Field, bd.Prio, v+0) // +0 turns -0 into 0
		} else {
			recs[k].unreadableNumber(bd.Field, v)
		}
	}
}

// putDurations is putTexts for a column of numbers into a duration
// field; a value the field refuses goes to setNumber, and the error it
// returns is its row's. It reports whether a row has one.
func (b *cellBatch) putDurations(recs []Record, cells []uint64, nulls []bool, sp *pqSpec, errs []error, loc *time.Location) (bad bool) {
	bd, inS, scale := sp.bs[0], sp.inS, sp.scale
	for k, x := range cells {
		if nulls != nil && nulls[k] {
			continue
		}
		if v := math.Float64frombits(x); v >= 0 && v*inS <= MaxDurationS { // duration's checks (NaN fails them too)
			recs[k].put(bd.Field, bd.Prio, v*scale+0)
		} else if err := recs[k].setNumber(sp.bs, v, &b.cb, loc); err != nil {
			errs[k], bad = err, true
		}
	}
	return bad
}

// putInstants is putTexts for a timestamp column bound to the time
// alone, as setInstant sets each; a time out of range is its row's
// error. It reports whether a row has one.
func putInstants(recs []Record, cells []uint64, nulls []bool, sp *pqSpec, errs []error, wall *wallZone, loc *time.Location) (bad bool) {
	per, prio := sp.nsPer, sp.bs[0].Prio
	for k, x := range cells {
		if nulls != nil && nulls[k] {
			continue
		}
		v := int64(x)
		ns := v * per
		if per != 0 && (v > math.MaxInt64/per || v < math.MinInt64/per) {
			ns = math.MaxInt64 // overflows: outside every readable time
		} else if wall != nil && checkTime(ns) == fine {
			ns = wall.instant(ns, loc)
		}
		if flaw := checkTime(ns); flaw != fine {
			errs[k], bad = badValue(FTime, strconv.AppendInt(nil, v, 10), flaw), true
			continue
		}
		r := &recs[k]
		r.TimeNS = ns
		r.set |= 1 << FTime
		r.prio[FTime] = prio
	}
	return bad
}

// cellRows sets each row of a unit's batch into a record and adds the
// good ones to the sink; a bad row is counted and sampled at its row.
// Into a sink of batches, the rows are set a column at a time into the
// feed's records (setRows).
func (p *pipeline) cellRows(u *unit, f *feed, t *tally) {
	b, fs := u.cells, u.file
	c := t.get(fs.index)
	fix, tcp := statusFixOf(fs.source), tcpLines(fs.source)
	good, noRT := int64(0), int64(0)
	place := newBadPlacer(&p.opts.Window, c)
	f.use(nil) // the rows' text is in b, theirs until the flush below
	b.readyObjects(fs.cfg.schema, fs.cfg.loc)
	if f.batch == nil {
		parts := fs.partConsts()
		for j := range b.n {
			rec := f.record()
			rec.reset(fs.cfg.schema)
			rec.parts = parts
			if err := b.set(rec, j, fs.cfg.loc); err != nil {
				t.badErr(fs, b.first+int64(j), err, err.Error())
				continue
			}
			if err := rec.Finish(); err != nil {
				t.badErr(fs, b.first+int64(j), err, err.Error())
				continue
			}
			if !fs.cfg.schema.request(rec) || tcp != nil && tcp(rec) {
				c.passed++
				continue
			}
			fixStatus(rec, fix)
			place.record(c, rec)
			if rec.unread != 0 {
				t.unreadValues(fs, b.first+int64(j), rec)
			}
			f.add()
			good, noRT = good+1, noRT+rec.lacks(FRequestTime)
		}
	}
	keys := &f.keys
	keys.ok = false
	if f.batch != nil {
		keys.start(b)
	}
	for j := 0; f.batch != nil && j < b.n; {
		recs := f.recs[f.n:]
		recs = recs[:min(len(recs), b.n-j)]
		errs := b.setRows(recs, j, fs.cfg.schema, fs.cfg.loc, fs.partConsts())
		if keys.ok {
			keys.fill(b, j, len(recs))
		}
		n := 0
		for k := range recs {
			if errs[k] != nil {
				t.badErr(fs, b.first+int64(j+k), errs[k], errs[k].Error())
				continue
			}
			if err := recs[k].Finish(); err != nil {
				t.badErr(fs, b.first+int64(j+k), err, err.Error())
				continue
			}
			if !fs.cfg.schema.request(&recs[k]) || tcp != nil && tcp(&recs[k]) {
				c.passed++
				continue
			}
			fixStatus(&recs[k], fix)
			place.record(c, &recs[k])
			if recs[k].unread != 0 {
				t.unreadValues(fs, b.first+int64(j+k), &recs[k])
			}
			if keys.ok {
				recs[k].DictKey = keys.key(&recs[k], k)
			}
			if n != k {
				recs[n] = recs[k]
				recs[k].unreadText = nil // recs[n]'s now: setRows writes each slot's
			}
			n, noRT = n+1, noRT+recs[k].lacks(FRequestTime) // one line: the profile knows the calls by line
		}
		f.addRead(n)
		good += int64(n)
		j += len(recs)
	}
	place.end(c)
	f.flush() // before the batch's bytes go back to the pool
	c.records, c.noRT = c.records+good, c.noRT+noRT
	p.opts.Progress.Records.Add(good)
	cellPool.Put(b)
}

// dictKeyText are the text fields a record's DictKey stands for, with
// its status and stream: the dimensions the accumulator combines.
var dictKeyText = [...]Field{FRegion, FModel, FClient, FClientRegion, FURI}

// dictKeyBits are the bits of each text field's code in a DictKey: the
// status has 10 above them, the stream 2 above those.
var dictKeyBits = [len(dictKeyText)]uint{8, 10, 16, 8, 10}

// dictKeysOff turns DictKeys off (a test's, to compare).
var dictKeysOff bool

// dictKeys is how a worker's records of a columnar file get their
// DictKey: a code of each text field of dictKeyText (0 absent, or the
// id the worker gave its text, from 1, within dictKeyBits), the status
// (0 absent, or status + 1 below 1023) and the stream (0 absent, 1
// false, 2 true). The ids are a worker's, for the whole run, so that a
// combination's key is the same in every row group, whose dictionaries
// hold the same texts in other orders; a batch's dictionaries are
// translated to them (an entry looked up once per batch of 1,024 rows,
// not per row). A record has none (0) when a field holds a text not of
// its one column's dictionary (Finish derived it, or the cell is a
// text of its own), a text past its field's ids, or a status past 1022.
type dictKeys struct {
	ok  bool
	col [len(dictKeyText)]int // the one column of the field, −1 for none
	// ids are the worker's ids of each field's texts; parts, the
	// batch's dictionary of the field translated to them: what each
	// entry adds to a row's code and from (keyPart).
	ids   [len(dictKeyText)]map[string]uint32
	parts [len(dictKeyText)][]keyPart
	// code and from are, per row of fill's, the text fields' codes and
	// the fields coded (bit f), or dictKeyOff when one is not coded.
	code, from []uint64
}

// dictKeyOff marks a row of dictKeys.from that has no DictKey.
const dictKeyOff = 1 << 63

// textKeyFields are the fields of dictKeyText, bit f each.
var textKeyFields = func() (m uint64) {
	for _, f := range dictKeyText {
		m |= 1 << f
	}
	return m
}()

// start readies the keys of batch b's records: ok only when they come
// from dictionaries (b.dicts of a Parquet row group), each text field
// is bound by at most one column, a dictionary column read by setRows'
// text loop with a dictionary not larger than the batch.
func (k *dictKeys) start(b *cellBatch) {
	k.ok = false
	if !b.dictKeys || dictKeysOff {
		return
	}
	for s, f := range dictKeyText {
		k.col[s] = -1
		for i, sp := range b.specs {
			if sp.object != nil {
				return // its members may set any field (setRows)
			}
			for _, bd := range sp.bs {
				if bd.Field != f {
					continue
				}
				if k.col[s] >= 0 || sp.kind != vkBytes || !sp.text || len(sp.bs) != 1 || b.dicts[i] == nil || len(b.dicts[i]) > b.n {
					return
				}
				k.col[s] = i
			}
		}
	}
	shift := uint(0)
	for s, col := range k.col {
		if col >= 0 {
			k.parts[s] = k.translate(s, shift, b.dicts[col], k.parts[s][:0])
		}
		shift += dictKeyBits[s]
	}
	k.ok = true
}

// keyPart is what a dictionary entry of a text field adds to a row's
// code and from (dictKeys): its id at the field's place in the code and
// the field's bit; nothing for an absent text ("", "-"), which sets no
// field (setRows); dictKeyOff for a text past the field's ids.
type keyPart struct{ code, from uint64 }

// translate appends the parts of dict's texts in field slot s, whose
// code starts at bit shift, to out, giving new texts the next ids while
// there are.
func (k *dictKeys) translate(s int, shift uint, dict [][]byte, out []keyPart) []keyPart {
	ids := k.ids[s]
	if ids == nil {
		ids = make(map[string]uint32)
		k.ids[s] = ids
	}
	bit := uint64(1) << dictKeyText[s]
	for _, t := range dict {
		if isAbsent(t) {
			out = append(out, keyPart{})
			continue
		}
		id, ok := ids[string(t)]
		if !ok && len(ids) < 1<<dictKeyBits[s]-1 {
			id = uint32(len(ids) + 1)
			ids[string(t)] = id
		}
		if id == 0 {
			out = append(out, keyPart{from: dictKeyOff}) // past the field's ids
			continue
		}
		out = append(out, keyPart{code: uint64(id) << shift, from: bit})
	}
	return out
}

// fill codes the text fields of rows j0 to j0+n of batch b, as setRows
// set them from their columns (before Finish).
func (k *dictKeys) fill(b *cellBatch, j0, n int) {
	k.code = slices.Grow(k.code[:0], n)[:n]
	k.from = slices.Grow(k.from[:0], n)[:n]
	clear(k.code)
	clear(k.from)
	for s, col := range k.col {
		if col < 0 {
			continue
		}
		cells, nulls := b.column(col)
		cells, nulls = cells[j0:j0+n], nulls[j0:j0+n]
		if !b.nullIn[col] {
			nulls = nil
		}
		code, from := k.code[:len(cells)], k.from[:len(cells)]
		parts := k.parts[s]
		for r, x := range cells {
			switch {
			case nulls != nil && nulls[r]:
			case x >= uint64(len(parts)): // a text of its own (inArena), or past the dictionary
				from[r] |= dictKeyOff
			default:
				p := parts[x]
				code[r] |= p.code
				from[r] |= p.from
			}
		}
	}
}

// dictKeyRest is where a DictKey's status code starts, its stream's 10
// bits above: past the text fields' codes.
var dictKeyRest = func() (n uint) {
	for _, b := range dictKeyBits {
		n += b
	}
	return n
}()

// key returns the DictKey of record r, row i of fill's, once finished;
// 0 when it has none.
func (k *dictKeys) key(r *Record, i int) uint64 {
	if k.from[i] != r.Fields()&textKeyFields {
		return 0 // a field derived or set otherwise, or not coded
	}
	key := k.code[i]
	if v, ok := r.Int(FStatus); ok {
		if v < 0 || v >= 1023 {
			return 0
		}
		key |= uint64(v+1) << dictKeyRest
	}
	if v, ok := r.Bool(FStream); ok {
		c := uint64(1)
		if v {
			c = 2
		}
		key |= c << (dictKeyRest + 10)
	}
	return key
}
