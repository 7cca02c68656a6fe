package ingest

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// valueKind is how a columnar decoder reads one column's values.
type valueKind uint8

const (
	vkBool valueKind = iota + 1
	vkInt32
	vkInt64
	vkFloat
	vkDouble
	vkBytes
	vkInstant // int64 timestamp; nsPer gives its unit
)

// pqSpec is one Parquet column the schema binds, and how its cells are
// read; an Arrow column's (arrowSpec) uses the fields but chunk and
// maxDef.
type pqSpec struct {
	name  string
	chunk int // leaf column index
	bs    Bindings
	kind  valueKind
	nsPer int64 // vkInstant: nanoseconds per stored unit
	// local marks a vkInstant column of wall-clock times, without a
	// zone: read in --tz (wallZone). int96 marks a Parquet INT96 one,
	// date a Parquet DATE (days in an int32).
	local, int96, date bool
	// uuid marks a Parquet UUID column, read as its text.
	uuid bool
	// json marks a Parquet JSON column (jsonScalars): DuckDB's COPY of
	// JSON lines whose values of a key differ in type writes the key so.
	json bool
	// perUnit is what an Arrow duration's stored unit (a Parquet
	// INTERVAL's second) is in the unit its column's name is read in.
	perUnit float64
	maxDef  byte
	div     float64 // a DECIMAL column's 10^scale (decimalOf), 0 for none
	flba    bool    // a DECIMAL in fixed-length byte arrays, read as doubles
	// interval marks an INTERVAL column (months, days and milliseconds),
	// read as a duration: seconds times perUnit.
	interval bool
	text     bool // every field bs names is a text field
	// num is the field of a column bound to one duration or integer
	// field, flag set for one bound to one boolean field: their values
	// are set without Record.setNumber's and Set's walks (cellBatch.set).
	num  *fieldInfo
	flag bool
	// inS and scale are num's as a duration's: seconds per unit of the
	// column's values, and the factor to the field's unit (1 in it).
	inS, scale float64
	// mapKey is set for the value of one key of a MAP column (chunk
	// its values, maxDef a value's level): nil for any other column.
	mapKey *pqMapKey
	// object is the name of a text column that nothing binds but that
	// is the parent of dotted names, its values JSON objects read by
	// their members' paths (textObject); nil for any other column.
	object []byte
}

// plainOf sets num, inS, scale and flag of a column bound by bs.
func (sp *pqSpec) plainOf(bs Bindings) {
	if sp.num, sp.flag = plainField(bs); sp.num != nil {
		sp.inS, sp.scale = unitFactors(sp.num, bs[0].Unit)
	}
}

// readParquet decodes a Parquet file: only the columns the schema binds,
// read page by page, a batch of rows at a time. Rows of a batch that hits
// damage in a row group's pages are dropped, the batches before it have
// been sent, and the next row groups are read; a row group whose column
// chunk or page header is damaged gives no row, checked before any of
// its pages is decoded, and the next are read; damage in the footer, or
// a row group's count of rows, ends the file there. The error is the
// earliest row group's.
func readParquet(src io.ReaderAt, size int64, s *rowSink) error {
	if err := checkParquetFooter(src, size); err != nil {
		return fmt.Errorf("damaged parquet file: %w", err)
	}
	pf, err := parquet.OpenFile(src, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(pqReadBuffer))
	if err != nil {
		return fmt.Errorf("damaged parquet file: %w", err)
	}
	names, paths := parquetNames(pf.Schema(), pf.Metadata())
	if s.p.linesTable(names, paths) {
		if rows := parquetRows(src, size, pf); s.p.tableEnvelope(rows) {
			// A log platform's export of its lines (tablelines.go).
			return s.p.readTableLines(s.fs, "parquet", rows)
		}
	}
	// After the check above: a line's JSON in a table of lines is the
	// envelope's (tablelines.go), not a column of objects.
	paths = append(paths, parquetObjectPaths(src, size, pf)...)
	s.p.applySource(s.fs, names, paths, nil)
	// A client column the statistics did not show absent, which the
	// first rows do not fill either, names no client (unfilledColumn).
	for range maxUnfilledClients {
		c := s.fs.cfg.schema.client
		if c == "" || c == noClient || !unfilledColumn(src, size, pf, c) {
			break
		}
		names, paths = slices.DeleteFunc(names, func(n string) bool { return n == c }),
			slices.DeleteFunc(paths, func(n string) bool { return n == c })
		s.p.applySource(s.fs, names, paths, nil)
	}
	// An alias's numbers not in its unit (Go's slog's ns under
	// "duration", converted to Parquet): as a JSON line's or a CSV's.
	s.fs.tableValueChecks(names, func(n string) [][]byte { return parquetNumbers(src, size, pf, n) })
	specs := parquetSpecs(pf.Schema(), pf.Metadata(), s.fs.cfg.schema)
	unread := s.fs.cfg.schema.unread()
	var rd pqReader // the reader's, reused
	meta := pf.Metadata()
	groups := pf.RowGroups()
	f := &pqFile{specs: specs, src: src, size: size, meta: meta}
	// The file stays open until its row groups are read, even when the
	// reader panics on a damaged footer.
	defer f.wg.Wait()
	parallel := s.p.opts.Workers > 1 && len(groups) >= 2*s.p.opts.Workers
	var run groupRun
	defer run.end()
	for g, rg := range groups {
		counted := countedColumns(specs, meta, g, rg.NumRows(), unread)
		if err := checkRowGroup(size, meta, g, rg, specs); err != nil {
			return f.wait(g, err)
		}
		grp := &pqGroup{file: f, index: g, rg: rg, first: s.row, counted: counted}
		s.row += rg.NumRows()
		f.wg.Add(1)
		if parallel {
			run.add(s, grp, len(groups)-g)
			continue
		}
		// The reader decodes, a batch of cells at a time for the workers.
		rs := &rowSink{p: s.p, fs: s.fs, row: grp.first}
		f.done(g, decodeSafely("parquet", rs, func() error { return grp.read(rs, &rd) }))
	}
	return f.wait(len(groups), nil)
}

// checkRowGroup checks what the footer says of row group g of a
// size-byte file before it is given to be read: its rows and columns.
// Its column chunks and their page headers are checked where they are
// read (pqGroup.pages).
func checkRowGroup(size int64, meta *format.FileMetaData, g int, rg parquet.RowGroup, specs []pqSpec) error {
	if n := rg.NumRows(); n < 0 || n > maxRows(size) {
		return fmt.Errorf("damaged parquet file: a row group claims %d rows", n)
	}
	if g >= len(meta.RowGroups) {
		return errors.New("damaged parquet file: row groups missing from the footer")
	}
	chunks := rg.ColumnChunks()
	for i := range specs {
		if specs[i].chunk >= len(chunks) || specs[i].mapKey != nil && specs[i].mapKey.keys.chunk >= len(chunks) {
			return fmt.Errorf("damaged parquet file: row group lacks column %q", specs[i].name)
		}
	}
	return nil
}

// A file of many row groups is read by the workers, each decoding whole
// row groups and adding their rows itself: a reader decoding every
// column of every page for workers on other cores was one core's work
// they waited on (an eighth of their time at 2 workers), and each batch
// of cells it decoded reached a worker from another core's cache. A
// file of few row groups, which would keep few workers busy, is decoded
// by the reader as before. Either way a row group whose pages are
// damaged gives its rows before the damage, and the row groups after it
// are read: what a file gives does not depend on which goroutine decoded
// which row group, nor on the workers' order. Damage the reader finds in
// the footer ends the file there.

// The row groups go to the workers in runs of consecutive ones, each
// run to one worker (unit.groups), the first a (2 × workers)th of the
// file, each next a (2 × workers)th of the rest, the last ones single
// row groups: a worker reads a stretch of the log's time, where row
// groups one at a time went to the workers in turn and each met every
// minute of the log, and kept each minute's samples and buckets of the
// storm and burst rules; the single ones at the end keep the workers
// busy to the end.

// groupRun is the run of row groups the reader is giving a worker.
type groupRun struct {
	groups chan *pqGroup
	left   int // the row groups it has room for
}

// add gives row group grp, whose file has rest row groups from it on,
// to the current run, starting one when there is none.
func (r *groupRun) add(s *rowSink, grp *pqGroup, rest int) {
	if r.groups == nil {
		r.left = max(1, rest/(2*s.p.opts.Workers))
		r.groups = make(chan *pqGroup, r.left)
		s.p.work <- unit{file: s.fs, groups: r.groups}
	}
	r.groups <- grp
	if r.left--; r.left == 0 {
		r.end()
	}
}

// end ends the current run, if any.
func (r *groupRun) end() {
	if r.groups != nil {
		close(r.groups)
		r.groups = nil
	}
}

// pqFile is what the workers reading a file's row groups share: its
// columns, and the first error by row group.
type pqFile struct {
	specs []pqSpec
	src   io.ReaderAt
	size  int64
	meta  *format.FileMetaData
	wg    sync.WaitGroup
	mu    sync.Mutex
	err   error
	at    int // the row group of err
}

// pqGroup is one row group of a file, for a worker to read (unit.groups).
type pqGroup struct {
	file    *pqFile
	index   int
	rg      parquet.RowGroup
	first   int64  // the rows of the file before it
	counted []bool // of each of the file's columns, whether it is counted (countedColumns)
}

// done records the outcome of row group g: an error is the file's when
// no earlier row group has one.
func (f *pqFile) done(g int, err error) {
	if err != nil {
		f.mu.Lock()
		if f.err == nil || g < f.at {
			f.err, f.at = err, g
		}
		f.mu.Unlock()
	}
	f.wg.Done()
}

// wait waits for the row groups read so far and returns the file's
// error: the earliest row group's, err being row group g's (nil and the
// count of row groups when the reader found none).
func (f *pqFile) wait(g int, err error) error {
	f.wg.Wait()
	if f.err != nil && f.at < g {
		return f.err
	}
	return err
}

// parquetGroup decodes row group g of a file and adds its rows to the
// worker's sink, with the worker's columns (read).
func (p *pipeline) parquetGroup(file *fileState, g *pqGroup, f *feed, t *tally, rd *pqReader) {
	s := &rowSink{p: p, fs: file, row: g.first}
	s.each = func(b *cellBatch) { p.cellRows(&unit{file: file, cells: b}, f, t) }
	g.file.done(g.index, decodeSafely("parquet", s, func() error { return g.read(s, rd) }))
}

// pqReader is what a goroutine reading row groups keeps from one to the
// next, to reuse their buffers: the columns, the row group's column
// chunks read at once, and the page headers' window of the chunks read
// from the file.
type pqReader struct {
	cols   []pqColumn
	chunks []byte
	hdr    []byte
	// windows are the columns' read from the file (chunkWindow), the
	// first used of them the row group's.
	windows []*chunkWindow
	used    int
}

// maxGroupBytes bounds the bytes of a row group's column chunks a reader
// holds: a chunk within it is read in one read, its page headers are
// checked there (checkParquetChunk) and its pages decoded from there,
// where the check and parquet-go each read it from the file; the chunks
// past it (row groups of hundreds of megabytes) are read from the file
// as they are checked and decoded, through a chunkWindow. (A variable,
// so that a test can read chunks both ways.)
var maxGroupBytes = 4 << 20

// read checks and decodes the row group's rows into s with the
// columns and buffers of rd. The fields of the columns it counts are set
// present in every row.
func (g *pqGroup) read(s *rowSink, rd *pqReader) error {
	specs, chunks := g.file.specs, g.rg.ColumnChunks()
	if n := len(specs); len(rd.cols) < n {
		rd.cols = append(rd.cols, make([]pqColumn, n-len(rd.cols))...)
	}
	cols := rd.cols[:0]
	defer func() {
		for i := range cols {
			cols[i].close()
		}
	}()
	var every Bindings
	held := rd.chunks[:0]
	rd.used = 0
	for i := range specs {
		if g.counted != nil && g.counted[i] {
			every = append(every, specs[i].bs...)
			continue
		}
		pages, err := g.pages(specs[i].chunk, chunks, &held, rd)
		if err != nil {
			return fmt.Errorf("damaged parquet file: column %q: %w", specs[i].name, err)
		}
		ix := rd.cols[len(cols)].ix
		cols = append(cols, pqColumn{spec: &specs[i], pages: pages, ix: ix})
		if mk := specs[i].mapKey; mk != nil {
			// A map's keys, read beside its values (fillMap).
			keys, err := g.pages(mk.keys.chunk, chunks, &held, rd)
			if err != nil {
				return fmt.Errorf("damaged parquet file: column %q: %w", specs[i].name, err)
			}
			cols[len(cols)-1].keys = &pqMapKeys{pqColumn: pqColumn{spec: &mk.keys, pages: keys}, want: mk.key}
		}
	}
	rd.chunks = held[:0]
	return readRowGroup(g.rg.NumRows(), cols, every, s)
}

// pages checks the chunk of leaf column ci and returns its pages: from
// memory when it fits in what *held leaves of maxGroupBytes (read into
// it), else from the file.
func (g *pqGroup) pages(ci int, chunks []parquet.ColumnChunk, held *[]byte, rd *pqReader) (parquet.Pages, error) {
	f := g.file
	cc := f.meta.RowGroups[g.index].Columns
	start, end, err := chunkRange(cc, ci, f.size)
	if err != nil {
		return nil, err
	}
	fc, ok := chunks[ci].(*parquet.FileColumnChunk)
	if n := int(end - start); ok && len(*held)+n <= maxGroupBytes {
		if cap(*held)-len(*held) < n {
			// A new buffer: the chunks already in the old one stay
			// with their pages.
			*held = make([]byte, 0, max(2*cap(*held), len(*held)+n, 64<<10))
		}
		b := (*held)[len(*held) : len(*held)+n]
		if _, err := f.src.ReadAt(b, start); err != nil && err != io.EOF {
			return nil, err
		}
		*held = (*held)[:len(*held)+n]
		mem := &memChunk{b: b, at: start, src: f.src}
		if err := checkParquetChunk(mem, f.size, cc, ci, &rd.hdr); err != nil {
			return nil, err
		}
		return fc.PagesFrom(mem), nil
	}
	if err := checkParquetChunk(f.src, f.size, cc, ci, &rd.hdr); err != nil {
		return nil, err
	}
	if !ok {
		return chunks[ci].Pages(), nil
	}
	return fc.PagesFrom(rd.window(f.src, end)), nil
}

// window returns a chunkWindow on src for a chunk ending at byte end,
// one of rd's that the row group being read uses for no other column,
// kept from row group to row group.
func (rd *pqReader) window(src io.ReaderAt, end int64) *chunkWindow {
	if rd.used == len(rd.windows) {
		rd.windows = append(rd.windows, &chunkWindow{buf: make([]byte, checkWindow)})
	}
	w := rd.windows[rd.used]
	rd.used++
	w.src, w.end, w.at, w.n = src, end, 0, 0
	return w
}

// chunkWindow reads a column chunk from a file checkWindow bytes at a
// time, never past the chunk's end, for parquet-go, whose own buffer is
// small: a read inside the window is copied from it, a read of a window
// or more goes to the file.
type chunkWindow struct {
	src io.ReaderAt
	buf []byte
	end int64 // the chunk's end
	at  int64 // the file byte buf[0] holds
	n   int   // the bytes of buf read
}

func (w *chunkWindow) ReadAt(p []byte, off int64) (int, error) {
	if off >= w.at && off+int64(len(p)) <= w.at+int64(w.n) {
		return copy(p, w.buf[off-w.at:]), nil
	}
	if len(p) >= len(w.buf) {
		return w.src.ReadAt(p, off)
	}
	win := w.buf[:max(len(p), int(min(int64(len(w.buf)), w.end-off)))]
	n, err := w.src.ReadAt(win, off)
	w.at, w.n = off, n
	k := copy(p, w.buf[:n])
	if k < len(p) {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return k, err
	}
	return k, nil
}

// memChunk is a column chunk read into memory, bytes [at, at+len(b)) of
// a file: parquet-go reads its pages from it, and a read outside it
// (a chunk whose footer offsets disagree) from the file.
type memChunk struct {
	b   []byte
	at  int64
	src io.ReaderAt
}

func (m *memChunk) ReadAt(p []byte, off int64) (int, error) {
	if off < m.at || off-m.at+int64(len(p)) > int64(len(m.b)) {
		return m.src.ReadAt(p, off)
	}
	return copy(p, m.b[off-m.at:]), nil
}

// readRowGroup decodes rows rows of the columns cols into s, a batch at
// a time, every binding a field each row has without a value.
func readRowGroup(rows int64, cols []pqColumn, every Bindings, s *rowSink) error {
	specs := make([]*pqSpec, len(cols)) // the batches' own: never changed
	for i := range cols {
		specs[i] = cols[i].spec
	}
	for done := int64(0); done < rows; {
		n := int(min(batchRows, rows-done))
		b := s.startCells(n, specs)
		b.dictKeys, b.every = true, every
		for i := range cols {
			if err := cols[i].fill(b, i, n); err != nil {
				s.drop()
				return fmt.Errorf("damaged parquet file: column %q near row %d: %w", cols[i].spec.name, s.row+1, err)
			}
		}
		s.sendCells(n)
		done += int64(n)
	}
	return nil
}

// parquetNames returns the names of a file's top-level columns and the
// dotted paths of the columns within its structs, as a JSON line's
// (jsonKeys, jsonPaths) give its source and client: without those whose
// every value is absent (null, "" or "-"), as the footer's statistics
// show, which a JSON record would not carry (a user_id always "" is no
// source of client).
func parquetNames(ps *parquet.Schema, meta *format.FileMetaData) (names, paths []string) {
	for _, f := range ps.Fields() {
		if f.Leaf() {
			if leaf, ok := ps.Lookup(f.Name()); ok && absentColumn(meta, leaf.ColumnIndex) {
				continue
			}
		}
		names = append(names, f.Name())
	}
	for _, path := range ps.Columns() {
		leaf, ok := ps.Lookup(path...)
		if !ok || len(path) < 2 || leaf.MaxRepetitionLevel > 0 || absentColumn(meta, leaf.ColumnIndex) {
			continue
		}
		paths = append(paths, strings.Join(path, "."))
	}
	return names, paths
}

// maxUnfilledClients bounds the client columns of a file that
// readParquet reads the first rows of, one after the other.
const maxUnfilledClients = 4

// firstRows is how many rows of a column unfilledColumn reads: as many
// as a CSV file's first rows that tell whether a column is filled.
const firstRows = 65

// unfilledColumn reports whether column name (a top-level name or a
// dotted path) holds nothing but nulls, "" or "-" in the file's first
// rows, where the footer's statistics do not show it filled: a writer
// may leave statistics out (Polars' statistics=False, AWS DMS's
// EnableStatistics false) or a column's bounds (parquet-go's
// SkipPageBounds), and a column of "" then passed absentColumn. The
// first row group that has rows is read, its chunk checked first as
// every chunk read is; a column that cannot be read so counts as
// filled, as it did before.
func unfilledColumn(src io.ReaderAt, size int64, pf *parquet.File, name string) bool {
	leaf, ok := pqLeaf(pf.Schema(), name)
	if !ok {
		return false
	}
	ci := leaf.ColumnIndex
	for _, rg := range pf.Metadata().RowGroups {
		if ci < len(rg.Columns) {
			if _, filled := chunkStats(&rg.Columns[ci].MetaData); filled {
				return false
			}
		}
	}
	chunk, ok := firstChunk(src, size, pf, ci)
	return ok && !firstFilled(chunk.Pages(), firstRows)
}

// firstChunk returns column ci's chunk of the file's first row group that
// has rows, checked as every chunk read is; false when there is none, or
// it is damaged.
func firstChunk(src io.ReaderAt, size int64, pf *parquet.File, ci int) (parquet.ColumnChunk, bool) {
	meta := pf.Metadata()
	for g, rg := range pf.RowGroups() {
		if rg.NumRows() == 0 {
			continue
		}
		chunks := rg.ColumnChunks()
		if g >= len(meta.RowGroups) || ci >= len(chunks) {
			return nil, false
		}
		var hdr []byte
		if checkParquetChunk(src, size, meta.RowGroups[g].Columns, ci, &hdr) != nil {
			return nil, false
		}
		return chunks[ci], true
	}
	return nil, false
}

// pqLeaf is the leaf column of name, a column's name or its dotted path.
func pqLeaf(ps *parquet.Schema, name string) (parquet.LeafColumn, bool) {
	if leaf, ok := ps.Lookup(name); ok {
		return leaf, true
	}
	return ps.Lookup(strings.Split(name, ".")...)
}

// parquetObjectPaths returns the dotted paths of the values in the JSON
// objects the first rows of the file's top-level text columns hold, as
// cellPaths gives a CSV row's (Lunary's user, {"externalId":…}): they
// tell the file's source and client too. A column whose statistics
// show no value at or past "{" holds no object, and is not read.
func parquetObjectPaths(src io.ReaderAt, size int64, pf *parquet.File) []string {
	var paths []string
	ps, meta := pf.Schema(), pf.Metadata()
	for _, f := range ps.Fields() {
		if !f.Leaf() || f.Type().Kind() != parquet.ByteArray {
			continue
		}
		leaf, ok := ps.Lookup(f.Name())
		if !ok || leaf.MaxRepetitionLevel > 0 || !objectsIn(meta, leaf.ColumnIndex) {
			continue
		}
		chunk, ok := firstChunk(src, size, pf, leaf.ColumnIndex)
		if !ok {
			continue
		}
		paths = appendObjectPaths(paths, f.Name(), firstNumbers(chunk.Pages(), clientLookahead+1))
	}
	return paths
}

// objectsIn reports whether column ci may hold a text that begins with
// "{", as its statistics show: some row group's greatest value is at or
// past it, or does not say.
func objectsIn(meta *format.FileMetaData, ci int) bool {
	for _, rg := range meta.RowGroups {
		if ci < len(rg.Columns) {
			if st := &rg.Columns[ci].MetaData.Statistics; st.MaxValue == nil || bytes.Compare(st.MaxValue, []byte("{")) >= 0 {
				return true
			}
		}
	}
	return false
}

// appendObjectPaths appends to paths those of the JSON objects among
// vals, values of column name, under its name, each once.
func appendObjectPaths(paths []string, name string, vals [][]byte) []string {
	seen := make(map[string]bool)
	for _, v := range vals {
		if v = bytes.TrimSpace(v); len(v) == 0 || v[0] != '{' {
			continue
		}
		for _, k := range append(jsonKeys(v, maxNames), jsonPaths(v, maxNames)...) {
			if p := name + "." + k; !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// parquetNumbers returns, as text, the first values (maxUnitValues at
// most) of column name of the first row group that has rows, when its
// values are plain numbers (integers, floats, or text): a DECIMAL, a
// time, a date or an INTERVAL is read in its own scale and unit, and
// gives none. None either when it cannot be read.
func parquetNumbers(src io.ReaderAt, size int64, pf *parquet.File, name string) [][]byte {
	leaf, ok := pqLeaf(pf.Schema(), name)
	if !ok {
		return nil
	}
	t := leaf.Node.Type()
	if per := timeOfDayUnit(t); per > 0 {
		// A time of day (DuckDB's COPY of Fiber's "10:00:36"): its
		// values as the clock's text, which unreadClocks knows.
		chunk, ok := firstChunk(src, size, pf, leaf.ColumnIndex)
		if !ok {
			return nil
		}
		var out [][]byte
		for _, v := range firstNumbers(chunk.Pages(), maxUnitValues) {
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil || n < 0 || n > int64(24*time.Hour)/per {
				return nil
			}
			out = append(out, time.Unix(0, n*per).UTC().AppendFormat(nil, "15:04:05.999999999"))
		}
		return out
	}
	if lt := t.LogicalType(); lt != nil && !isLogical[*format.IntType](lt) && !isLogical[*format.StringType](lt) {
		return nil // a decimal, a date: its own scale and unit
	}
	if _, dec := decimalOf(t); dec || t.Kind() == parquet.FixedLenByteArray || t.Kind() == parquet.Int96 {
		return nil
	}
	if ns, _ := timestampUnit(t); ns != 0 {
		return nil
	}
	chunk, ok := firstChunk(src, size, pf, leaf.ColumnIndex)
	if !ok {
		return nil
	}
	return firstNumbers(chunk.Pages(), maxUnitValues)
}

// firstNumbers returns the texts of the first n values of pages that are
// not null.
func firstNumbers(pages parquet.Pages, n int) (out [][]byte) {
	defer pages.Close()
	buf := make([]parquet.Value, n)
	for len(out) < n {
		page, err := pages.ReadPage()
		if err != nil {
			return out
		}
		k, err := page.Values().ReadValues(buf[:n-len(out)])
		for _, v := range buf[:k] {
			switch v.Kind() {
			case parquet.Int32, parquet.Int64:
				out = append(out, strconv.AppendInt(nil, v.Int64(), 10))
			case parquet.Float:
				// A FLOAT's 32 bits: Double would read them as a
				// DOUBLE's, a number near 0 (5.8e-315 for 1500).
				out = append(out, strconv.AppendFloat(nil, float64(v.Float()), 'f', -1, 32))
			case parquet.Double:
				out = append(out, strconv.AppendFloat(nil, v.Double(), 'f', -1, 64))
			case parquet.ByteArray:
				out = append(out, bytes.Clone(v.ByteArray()))
			}
		}
		parquet.Release(page)
		if err != nil && err != io.EOF {
			return out
		}
	}
	return out
}

// chunkStats says what a column chunk's statistics show: every value
// absent (all null, or text whose bounds are both "" or "-": a log's ""
// and "-"), or some value filled (text bounds past "-", or, for a
// column of another type, fewer nulls than values); neither when they
// do not say. Text that sorts before "-" but is neither begins with a
// space or one of !"#$%&'()*+,: Sanic's durations (" 508.4ms") are
// such, so bounds below "-" say nothing.
func chunkStats(md *format.ColumnMetaData) (absent, filled bool) {
	st := &md.Statistics
	allNull := md.NumValues > 0 && st.NullCount == md.NumValues
	if md.Type == format.ByteArray || md.Type == format.FixedLenByteArray {
		pastDash := st.MaxValue != nil && bytes.Compare(st.MaxValue, []byte("-")) > 0
		return allNull || md.Type == format.ByteArray && absentText(st.MaxValue) && (st.MinValue == nil || absentText(st.MinValue)), pastDash
	}
	return allNull, md.NumValues > 0 && st.NullCount < md.NumValues && (st.MaxValue != nil || st.NullCount > 0)
}

// absentText reports whether a text bound is "" or "-" (not nil: a bound
// not written says nothing).
func absentText(b []byte) bool {
	return b != nil && (len(b) == 0 || len(b) == 1 && b[0] == '-')
}

// firstFilled reports whether one of the first n values of pages is
// other than null, "" and "-"; true when they cannot be read.
func firstFilled(pages parquet.Pages, n int) bool {
	defer pages.Close()
	buf := make([]parquet.Value, n)
	for n > 0 {
		page, err := pages.ReadPage()
		if err != nil {
			return err != io.EOF
		}
		filled, k, err := pageFilled(page.Values(), buf[:n])
		parquet.Release(page)
		if filled || err != nil {
			return true
		}
		n -= k
	}
	return false
}

// pageFilled reads up to len(buf) values of a page, to its end, and
// reports whether one is filled (firstFilled) and how many it read.
func pageFilled(vr parquet.ValueReader, buf []parquet.Value) (filled bool, read int, err error) {
	for read < len(buf) {
		k, err := vr.ReadValues(buf[:len(buf)-read])
		for _, v := range buf[:k] {
			if !v.IsNull() && (v.Kind() != parquet.ByteArray && v.Kind() != parquet.FixedLenByteArray ||
				len(v.ByteArray()) > 0 && string(v.ByteArray()) != "-") {
				return true, read, nil
			}
		}
		read += k
		if err == io.EOF {
			return false, read, nil
		}
		if err != nil {
			return false, read, err
		}
	}
	return false, read, nil
}

// absentColumn reports whether every row group's statistics show leaf
// column ci holding nothing but absent values (chunkStats); false when
// one does not say.
func absentColumn(meta *format.FileMetaData, ci int) bool {
	if len(meta.RowGroups) == 0 {
		return false
	}
	for _, rg := range meta.RowGroups {
		if ci >= len(rg.Columns) {
			return false
		}
		if absent, _ := chunkStats(&rg.Columns[ci].MetaData); !absent {
			return false
		}
	}
	return true
}

// parquetSpecs lists the leaf columns the schema binds, with how to read
// them: a top-level column by its name, one within structs (a JSON log's
// nested object, as DuckDB or Spark write it: request.uri) by its dotted
// path, present in a row when it and each struct above it are (its
// definition level is the most); and the value of one key of a MAP
// column by the map's path and the key (request_metadata.model_name,
// appendMapSpecs). A column within a list, which holds many values a
// row, a map's keys and values otherwise, and columns of other types
// are ignored.
func parquetSpecs(ps *parquet.Schema, meta *format.FileMetaData, sc *Schema) []pqSpec {
	var specs []pqSpec
	for _, path := range ps.Columns() {
		leaf, ok := ps.Lookup(path...)
		if !ok || leaf.MaxRepetitionLevel > 0 || leaf.MaxDefinitionLevel > math.MaxUint8 {
			continue
		}
		name := strings.Join(path, ".")
		bs := sc.LookupString(name)
		typ := leaf.Node.Type()
		var object []byte
		if len(bs) == 0 {
			// A string column of JSON objects (textObject): DuckDB's,
			// pandas' and Spark's conversion of JSON lines or CSV.
			if typ.Kind() != parquet.ByteArray || !sc.bindsBelow(name) {
				continue
			}
			object = []byte(name)
		}
		sp := pqSpec{name: name, chunk: leaf.ColumnIndex, bs: bs, maxDef: byte(leaf.MaxDefinitionLevel), text: textOnly(bs), object: object}
		sp.plainOf(bs)
		switch typ.Kind() {
		case parquet.Boolean:
			sp.kind = vkBool
		case parquet.Int32:
			sp.kind = vkInt32
			sp.div, _ = decimalOf(typ)
			if lt := typ.LogicalType(); lt != nil && isLogical[*format.DateType](lt) {
				// A day, without a zone: its midnight in --tz.
				sp.kind, sp.nsPer, sp.local, sp.date = vkInstant, int64(24*time.Hour), true, true
			}
		case parquet.Int64:
			sp.kind = vkInt64
			sp.div, _ = decimalOf(typ)
			if ns, utc := timestampUnit(typ); ns > 0 {
				sp.kind, sp.nsPer, sp.local = vkInstant, ns, !utc
			}
		case parquet.Int96:
			// Spark's, Hive's and Impala's timestamps.
			sp.kind, sp.nsPer, sp.int96 = vkInstant, 1, true
		case parquet.Float:
			sp.kind = vkFloat
		case parquet.Double:
			sp.kind = vkDouble
		case parquet.ByteArray:
			sp.kind = vkBytes
			if lt := typ.LogicalType(); lt != nil && isLogical[*format.JsonType](lt) {
				sp.json = true
			}
		case parquet.FixedLenByteArray:
			// A DECIMAL of more digits than an int64 holds (Spark's
			// decimal(38,6), DuckDB's DECIMAL(30,6)): its values read as
			// doubles (flbaDecimals).
			var decimal bool
			if sp.div, decimal = decimalOf(typ); !decimal {
				if lt := typ.LogicalType(); lt != nil && isLogical[*format.UUIDType](lt) && typ.Length() == 16 {
					sp.kind, sp.uuid = vkBytes, true // an id: a caller's, as text
					break
				}
				if ct := typ.ConvertedType(); ct != nil && *ct == deprecated.Interval && typ.Length() == 12 {
					// A duration (DuckDB's COPY of end − start): in its
					// own unit, given in the unit the column's name is
					// read in, as an Arrow duration.
					unit := bs[0].Unit
					if unit == UnitNone {
						unit = fields[bs[0].Field].unit
					}
					sp.kind, sp.interval, sp.perUnit = vkDouble, true, 1/seconds[unit]
					break
				}
				continue
			}
			sp.kind, sp.flba = vkDouble, true
		default:
			continue
		}
		specs = append(specs, sp)
	}
	return appendMapSpecs(specs, ps, meta, sc)
}

// plainField returns the field of bs when it binds one duration or
// integer field, and whether it binds one boolean field.
func plainField(bs Bindings) (num *fieldInfo, flag bool) {
	if len(bs) != 1 || bs[0].general() {
		return nil, false
	}
	switch info := &fields[bs[0].Field]; info.kind {
	case KindFloat, KindInt:
		return info, false
	case KindBool:
		return nil, true
	}
	return nil, false
}

// textOnly reports whether every field bs names takes its text as is.
func textOnly(bs Bindings) bool {
	for _, bd := range bs {
		if k := fields[bd.Field].kind; k != KindText && k != KindRequest {
			return false
		}
	}
	return true
}

// decimalOf reports whether t's logical type is DECIMAL, and what its
// stored integers are divided by to give its values: 10^scale (DuckDB
// writes DECIMAL(10,3) seconds as milliseconds in an int64), 0 for a
// scale of 0.
func decimalOf(t parquet.Type) (div float64, ok bool) {
	lt := t.LogicalType()
	if lt == nil {
		return 0, false
	}
	d, ok := lt.Value.(*format.DecimalType)
	if ok && d.Scale > 0 && d.Scale <= 38 {
		div = math.Pow10(int(d.Scale))
	}
	return div, ok
}

// intervalValues returns the INTERVAL values in data, 12 bytes each:
// months, days and milliseconds as little-endian uint32s (Parquet's
// LogicalTypes.md), in seconds times per. A month is 30 days, as DuckDB
// takes one for an interval's length in seconds.
func intervalValues(data []byte, per float64) []float64 {
	out := make([]float64, len(data)/12)
	for i := range out {
		b := data[i*12 : i*12+12]
		months, days, ms := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
		out[i] = (float64(months)*30*86400 + float64(days)*86400 + float64(ms)/1e3) * per
	}
	return out
}

// flbaDecimals reads the fixed-length big-endian two's complement
// integers of a DECIMAL's page as doubles, divided by div (its 10^scale,
// or 0 for a scale of 0); past 2⁵³ they round, as a double does.
func flbaDecimals(data []byte, size int, div float64) []float64 {
	if size <= 0 {
		return nil
	}
	out := make([]float64, len(data)/size)
	for i := range out {
		b := data[i*size : (i+1)*size]
		v := 0.0
		for _, c := range b {
			v = v*256 + float64(c)
		}
		if b[0]&0x80 != 0 {
			v -= math.Ldexp(1, 8*size)
		}
		if div != 0 {
			v /= div
		}
		out[i] = v
	}
	return out
}

// scaleCells divides the values of cells (float64 bits) by div, a
// DECIMAL column's 10^scale; nothing when div is 0.
func scaleCells(cells []uint64, div float64) {
	if div == 0 {
		return
	}
	for j, x := range cells {
		cells[j] = math.Float64bits(math.Float64frombits(x) / div)
	}
}

// timeOfDayUnit returns the nanoseconds per unit of a TIME column, a
// time of day without a date; 0 when the column is no such.
func timeOfDayUnit(t parquet.Type) int64 {
	if lt := t.LogicalType(); lt != nil {
		if tt, ok := lt.Value.(*format.TimeType); ok && tt.Unit.Value != nil {
			return int64(tt.Unit.Value.Duration())
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.TimeMillis:
			return int64(time.Millisecond)
		case deprecated.TimeMicros:
			return int64(time.Microsecond)
		}
	}
	return 0
}

// timestampUnit returns the nanoseconds per unit of an int64 timestamp
// column, 0 when the column is not a timestamp, and whether its values
// are instants (adjusted to UTC) rather than wall-clock times without a
// zone. The converted types TIMESTAMP_MILLIS and _MICROS are instants.
func timestampUnit(t parquet.Type) (ns int64, utc bool) {
	if lt := t.LogicalType(); lt != nil {
		if ts, ok := lt.Value.(*format.TimestampType); ok && ts.Unit.Value != nil {
			return int64(ts.Unit.Value.Duration()), ts.IsAdjustedToUTC
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.TimestampMillis:
			return int64(time.Millisecond), true
		case deprecated.TimestampMicros:
			return int64(time.Microsecond), true
		}
	}
	return 0, false
}

// pqValues are the decoded values of one page, or of a dictionary.
type pqValues struct {
	bits []byte // vkBool, one bit per value
	i32  []int32
	i64  []int64
	f32  []float32
	f64  []float64
	strs [][]byte // vkBytes of a dictionary, copied
	data []byte   // vkBytes of a page
	offs []uint32
	n    int
}

func (v *pqValues) load(sp *pqSpec, page parquet.Page) {
	d := page.Data()
	*v = pqValues{}
	if sp.flba {
		data, size := d.FixedLenByteArray()
		v.f64 = flbaDecimals(data, size, sp.div)
		v.n = len(v.f64)
		return
	}
	if sp.interval {
		data, _ := d.FixedLenByteArray()
		v.f64 = intervalValues(data, sp.perUnit)
		v.n = len(v.f64)
		return
	}
	if sp.uuid {
		data, size := d.FixedLenByteArray()
		v.data, v.offs = uuidTexts(data, size)
		v.n = max(len(v.offs)-1, 0)
		return
	}
	if sp.date {
		for _, x := range d.Int32() {
			v.i64 = append(v.i64, int64(x))
		}
		v.n = len(v.i64)
		return
	}
	switch sp.kind {
	case vkBool:
		v.bits = d.Boolean()
		v.n = len(v.bits) * 8
		if nv := int(page.NumValues() - page.NumNulls()); nv < v.n {
			v.n = nv
		}
	case vkInt32:
		v.i32 = d.Int32()
		v.n = len(v.i32)
	case vkInt64, vkInstant:
		if sp.int96 {
			v.i64 = int96Instants(nil, d.Int96())
		} else {
			v.i64 = d.Int64()
		}
		v.n = len(v.i64)
	case vkFloat:
		v.f32 = d.Float()
		v.n = len(v.f32)
	case vkDouble:
		v.f64 = d.Double()
		v.n = len(v.f64)
	case vkBytes:
		v.data, v.offs = d.ByteArray()
		v.n = max(len(v.offs)-1, 0)
		if sp.json {
			v.data, v.offs = jsonScalars(v.data, v.offs)
		}
	}
}

// jsonScalars returns the values of a JSON column, its byte arrays (data
// cut at offs) each a JSON text, as the texts a JSON line's values are
// read as: a string without its quotes and escapes ("\"0.101\"" is
// 0.101, as "request_time":"0.101" is read), null none (empty), a
// number, a boolean, an object or an array as written.
func jsonScalars(data []byte, offs []uint32) ([]byte, []uint32) {
	if len(offs) == 0 {
		return data, offs
	}
	out := make([]byte, 0, len(data))
	outOffs := make([]uint32, 1, len(offs))
	for i := 1; i < len(offs); i++ {
		v := bytes.TrimSpace(data[offs[i-1]:offs[i]])
		switch {
		case string(v) == "null":
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			if bytes.IndexByte(v, '\\') < 0 {
				out = append(out, v[1:len(v)-1]...)
			} else if s, ok := unquoteJSON(v); ok {
				out = append(out, s...)
			} else {
				out = append(out, v...)
			}
		default:
			out = append(out, v...)
		}
		outOffs = append(outOffs, uint32(len(out)))
	}
	return out, outOffs
}

// unquoteJSON returns the string JSON string literal v holds.
func unquoteJSON(v []byte) (string, bool) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

// isLogical reports whether logical type lt is a T.
func isLogical[T format.LogicalTypeValue](lt *format.LogicalType) bool {
	_, ok := lt.Value.(T)
	return ok
}

// uuidTexts returns the text of UUIDs (16 bytes each), as a page's byte
// arrays are: their bytes and the offsets between them.
func uuidTexts(data []byte, size int) ([]byte, []uint32) {
	if size != 16 {
		return nil, nil
	}
	n := len(data) / 16
	text := make([]byte, 0, 36*n)
	offs := make([]uint32, 0, n+1)
	offs = append(offs, 0)
	for i := range n {
		u := data[16*i : 16*i+16]
		text = hex.AppendEncode(text, u[0:4])
		text = append(text, '-')
		text = hex.AppendEncode(text, u[4:6])
		text = append(text, '-')
		text = hex.AppendEncode(text, u[6:8])
		text = append(text, '-')
		text = hex.AppendEncode(text, u[8:10])
		text = append(text, '-')
		text = hex.AppendEncode(text, u[10:16])
		offs = append(offs, uint32(len(text)))
	}
	return text, offs
}

// pqColumn reads one column chunk row by row across its pages.
type pqColumn struct {
	spec  *pqSpec
	keys  *pqMapKeys // a map's keys, for its values' column; nil for any other
	pages parquet.Pages
	page  parquet.Page
	rows  int    // rows in the page
	pos   int    // next row of the page
	vi    int    // next value (nulls take none)
	def   []byte // definition levels; nil for a required column
	vals  pqValues
	idx   []int32 // dictionary indexes, nil for a plain page
	ix    []int32 // a run's value indexes (indexes)
	dict  parquet.Dictionary
	dvals pqValues // the dictionary's values
}

var errShortColumn = errors.New("fewer values than rows")

func (c *pqColumn) close() {
	if c.keys != nil {
		c.keys.close()
		c.keys = nil
	}
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
}

func (c *pqColumn) nextPage() error {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	for {
		page, err := c.pages.ReadPage()
		if err != nil {
			if err == io.EOF {
				return errShortColumn
			}
			return err
		}
		c.page = page
		c.rows, c.pos, c.vi = int(page.NumValues()), 0, 0
		c.def = nil
		if c.spec.maxDef > 0 {
			c.def = page.DefinitionLevels()
			if len(c.def) < c.rows {
				return fmt.Errorf("page has %d definition levels for %d values", len(c.def), c.rows)
			}
		}
		c.idx = nil
		if dict := page.Dictionary(); dict != nil {
			if dict != c.dict {
				c.dict = dict
				c.loadDict(dict)
			}
			d := page.Data()
			c.idx = d.Int32()
		} else {
			c.vals.load(c.spec, page)
		}
		if c.rows > 0 {
			return nil
		}
		parquet.Release(page)
		c.page = nil
	}
}

// loadDict decodes a dictionary once per column chunk; its byte values are
// copied into memory of their own, which records may point into.
func (c *pqColumn) loadDict(dict parquet.Dictionary) {
	c.dvals.load(c.spec, dict.Page())
	if c.spec.kind == vkBytes {
		own := append([]byte(nil), c.dvals.data...)
		strs := make([][]byte, c.dvals.n)
		for i := range strs {
			a, b := c.dvals.offs[i], c.dvals.offs[i+1]
			strs[i] = own[a:b:b]
		}
		c.dvals.strs, c.dvals.data, c.dvals.offs = strs, nil, nil
	}
}

// fill copies the next n rows of the column into the batch's column col,
// one run of rows of a page at a time.
func (c *pqColumn) fill(b *cellBatch, col, n int) error {
	if c.keys != nil {
		return c.fillMap(b, col, n)
	}
	for k := 0; k < n; {
		if c.page == nil || c.pos >= c.rows {
			if err := c.nextPage(); err != nil {
				return err
			}
		}
		m := min(n-k, c.rows-c.pos)
		v, err := c.indexes(m)
		if err != nil {
			return err
		}
		if err := c.copyRun(b, col, k, v); err != nil {
			return err
		}
		k += m
	}
	return nil
}

// inOrder says whether a run's rows are the page's next values, or its
// next dictionary indexes, one each in order: a required column's plain
// page, or a required text column's dictionary page. indexes then only
// checks and passes them, and copyRun copies them straight.
func (c *pqColumn) inOrder() bool {
	return c.def == nil && (c.idx == nil || c.spec.kind == vkBytes)
}

// indexes reads the next m rows' places in the page into c.ix: the index
// of each row's value in the values it returns (the page's or the
// dictionary's), -1 for a null.
func (c *pqColumn) indexes(m int) (*pqValues, error) {
	if cap(c.ix) < m {
		c.ix = make([]int32, batchRows)
	}
	ix := c.ix[:m]
	c.ix = ix
	def, maxDef := c.def, c.spec.maxDef
	if def != nil {
		def = def[c.pos : c.pos+m]
	}
	c.pos += m
	v, vi := &c.vals, c.vi
	if c.idx != nil {
		v = &c.dvals
		if c.inOrder() {
			// Required text: the rows' dictionary indexes are
			// c.idx[vi:vi+m], which copyRun checks as it copies them.
			if vi+m > len(c.idx) {
				// The indexes there are, checked in order, so that
				// the first fault found is the first row's.
				if err := checkIndexes(c.idx[vi:], v.n); err != nil {
					return nil, err
				}
				return nil, errShortColumn
			}
			c.vi = vi + m
			return v, nil
		}
	} else if c.inOrder() { // required and plain: the rows' values are vi to vi+m (copyRun)
		if vi+m > v.n {
			return nil, errShortColumn
		}
		c.vi = vi + m
		return v, nil
	}
	for j := range ix {
		if def != nil && def[j] != maxDef {
			ix[j] = -1
			continue
		}
		ix[j] = int32(vi)
		vi++
	}
	if c.idx == nil {
		if vi > v.n {
			return nil, errShortColumn
		}
		c.vi = vi
		return v, nil
	}
	// Row by row, so the first fault found is the first row's.
	dict := c.idx[c.vi:min(vi, len(c.idx))]
	for j, i := range ix {
		if i < 0 {
			continue
		}
		if int(i)-c.vi >= len(dict) {
			return nil, errShortColumn
		}
		d := dict[int(i)-c.vi]
		if d < 0 || int(d) >= v.n {
			return nil, fmt.Errorf("dictionary index %d out of range", d)
		}
		ix[j] = d
	}
	c.vi = vi
	return v, nil
}

// copyRun copies the values of a run of rows, one per index in c.ix,
// into the batch's column col from row k on: out of the page, which is
// released once read. A required text column's dictionary indexes are
// checked as they are copied, in order: the error is the first bad
// one's.
func (c *pqColumn) copyRun(b *cellBatch, col, k int, v *pqValues) error {
	cells, nulls := b.column(col)
	cells, nulls = cells[k:k+len(c.ix)], nulls[k:k+len(c.ix)] // from the cell of row k
	if c.inOrder() {
		if c.idx == nil {
			c.copyValues(b, cells, v)
			return nil
		}
		b.dicts[col] = v.strs // a required text column's dictionary indexes
		for j, d := range c.idx[c.vi-len(cells) : c.vi] {
			if uint32(d) >= uint32(v.n) {
				return fmt.Errorf("dictionary index %d out of range", d)
			}
			cells[j] = uint64(d)
		}
		return nil
	}
	if c.def != nil { // the batch's nulls start false (startCells): a required column has none
		for j, i := range c.ix {
			if i < 0 {
				nulls[j], b.nullIn[col] = true, true
			}
		}
	}
	switch c.spec.kind {
	case vkBool:
		for j, i := range c.ix {
			if i >= 0 {
				cells[j] = uint64(v.bits[i>>3] >> (i & 7) & 1)
			}
		}
	case vkInt32:
		copyFloats(cells, c.ix, v.i32)
		scaleCells(cells[:len(c.ix)], c.spec.div)
	case vkInt64:
		copyFloats(cells, c.ix, v.i64)
		scaleCells(cells[:len(c.ix)], c.spec.div)
	case vkInstant:
		for j, i := range c.ix {
			if i >= 0 {
				cells[j] = uint64(v.i64[i])
			}
		}
	case vkFloat:
		copyFloats(cells, c.ix, v.f32)
	case vkDouble:
		copyFloats(cells, c.ix, v.f64)
	case vkBytes:
		if v.strs != nil { // a dictionary's copy, which outlives the page
			b.dicts[col] = v.strs
			for j, i := range c.ix {
				if i >= 0 {
					cells[j] = uint64(i)
				}
			}
			return nil
		}
		for j, i := range c.ix {
			if i >= 0 {
				cells[j] = textCell(b, v.data[v.offs[i]:v.offs[i+1]])
			}
		}
	}
	return nil
}

// checkIndexes returns the error of the first of idx out of a
// dictionary of n entries, nil when none is.
func checkIndexes(idx []int32, n int) error {
	for _, d := range idx {
		if uint32(d) >= uint32(n) {
			return fmt.Errorf("dictionary index %d out of range", d)
		}
	}
	return nil
}

// copyValues copies a run of a required column's plain page, whose rows
// are the values c.vi−len(c.ix) to c.vi in turn (indexes leaves c.ix
// unset), into cells.
func (c *pqColumn) copyValues(b *cellBatch, cells []uint64, v *pqValues) {
	m := len(c.ix)
	first := c.vi - m
	switch c.spec.kind {
	case vkBool:
		for j := range m {
			i := first + j
			cells[j] = uint64(v.bits[i>>3] >> (i & 7) & 1)
		}
	case vkInt32:
		copyFloatRun(cells, v.i32[first:first+m])
		scaleCells(cells[:m], c.spec.div)
	case vkInt64:
		copyFloatRun(cells, v.i64[first:first+m])
		scaleCells(cells[:m], c.spec.div)
	case vkInstant:
		for j, x := range v.i64[first : first+m] {
			cells[j] = uint64(x)
		}
	case vkFloat:
		copyFloatRun(cells, v.f32[first:first+m])
	case vkDouble:
		copyFloatRun(cells, v.f64[first:first+m])
	case vkBytes:
		for j := range m {
			cells[j] = textCell(b, v.data[v.offs[first+j]:v.offs[first+j+1]])
		}
	}
}

// copyFloatRun sets each cell to the float64 bits of the value of vals
// in its place.
func copyFloatRun[T int32 | int64 | float32 | float64](cells []uint64, vals []T) {
	cells = cells[:len(vals)]
	for j, x := range vals {
		cells[j] = math.Float64bits(float64(x))
	}
}

// copyFloats sets each cell, one per index of a value in ix (none for a
// null), to the value's float64 bits.
func copyFloats[T int32 | int64 | float32 | float64](cells []uint64, ix []int32, vals []T) {
	cells = cells[:len(ix)]
	for j, i := range ix {
		if i >= 0 {
			cells[j] = math.Float64bits(float64(vals[i]))
		}
	}
}

// setText sets a dictionary value: straight into the fields when the
// column feeds text fields only, as Set would, else through Set.
func (r *Record) setText(sp *pqSpec, s []byte, loc *time.Location) error {
	if !sp.text {
		// A number in a text column ("0.018", an upstream time as
		// nginx writes one) reads as Set reads it, without its walk.
		if end, v, ok := scanNumber(s, 0); ok && end == len(s) {
			return r.setDecimal(sp.bs, s, v, loc)
		}
		return r.Set(sp.bs, s, loc)
	}
	if isAbsent(s) {
		return nil
	}
	for _, bd := range sp.bs {
		if r.claim(bd.Field, bd.Prio) {
			r.putText(bd.Field, bd.Prio, s)
		}
	}
	return nil
}
