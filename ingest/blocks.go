package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
)

// blockSize is how many bytes the reader asks for at a time; a unit of
// work is one such read, less the partial line at its end, plus the
// partial line the read before left over.
const blockSize = 1 << 20

// errLongLine is the reason for a line over MaxLine bytes.
var errLongLine = fmt.Sprintf("line longer than %d bytes", MaxLine)

// errNULLine is the reason for a line of NUL bytes alone: zeros where
// a line was written (a block a crash left unwritten), a line lost.
const errNULLine = "NUL bytes only: a hole in the file where a line was"

// blocks is the free list of the buffers that text files are read into.
// A buffer holds the partial line carried from the block before and one
// read: it starts with room for a short carry and is replaced by a larger
// one, MaxLine's worth at most, when a longer line is carried. The number
// in use is bounded by the work channel: the reader holds two, each worker
// one, the channel the rest.
type blocks struct {
	free chan *[]byte
	size int // bytes per read
}

// carryRoom is the carry a new buffer has room for.
const carryRoom = 64 << 10

func newBlocks(n, size int) *blocks {
	if size <= 0 {
		size = blockSize
	}
	return &blocks{free: make(chan *[]byte, n), size: size}
}

// get returns an empty buffer with room for carry bytes and one read.
func (b *blocks) get(carry int) *[]byte {
	var buf *[]byte
	select {
	case buf = <-b.free:
	default:
	}
	if buf == nil || cap(*buf) < carry+b.size {
		s := make([]byte, 0, max(carry, min(carryRoom, MaxLine))+b.size)
		buf = &s
	}
	return buf
}

func (b *blocks) put(buf *[]byte) {
	select {
	case b.free <- buf:
	default:
	}
}

// blockSource reads what the format detection left buffered, then the
// stream itself, so that the blocks are read into without a copy.
type blockSource struct {
	br *bufio.Reader
	r  io.Reader
}

func (s *blockSource) Read(p []byte) (int, error) {
	if s.br.Buffered() > 0 || len(p) >= s.br.Size() {
		return s.br.Read(p)
	}
	return s.r.Read(p)
}

// fill reads into p until it is full or the stream ends or fails.
func (s *blockSource) fill(p []byte) (int, error) {
	n, empty := 0, 0
	for n < len(p) {
		m, err := s.Read(p[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 {
			if empty++; empty > 100 {
				return n, io.ErrNoProgress
			}
		}
	}
	return n, nil
}

// csvHeader reads a CSV or TSV file's header row, its first line, and
// counts it in line. With Options.CSVHeader, that is the header, and the
// first line is read as a record unless it is that header.
func (p *pipeline) csvHeader(br *bufio.Reader, line *int64) ([]byte, error) {
	given := p.opts.CSVHeader
	if given == "" {
		h, err := br.ReadSlice('\n')
		if err != nil && err != io.EOF {
			return nil, readError(err)
		}
		*line++
		return bytes.TrimRight(h, "\r\n"), nil
	}
	b, err := br.Peek(len(given) + 3) // a BOM's three bytes before it
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, readError(err)
	}
	first := bytes.TrimPrefix(b, utf8BOM)
	if rest, ok := bytes.CutPrefix(first, []byte(given)); ok && (len(rest) == 0 || rest[0] == '\n' || rest[0] == '\r') {
		if _, err := br.ReadSlice('\n'); err != nil && err != io.EOF {
			return nil, readError(err)
		}
		*line++
	}
	return []byte(given), nil
}

// readLines sends the content to the workers in blocks of whole lines,
// which the workers cut. The partial line at the end of a block starts the
// next one; a line that grows past MaxLine there is counted bad and
// skipped to its end. A block's unit carries the number of its first line,
// so that bad lines are reported where they are.
//
// at, for a plain regular file (nil for any other input), says where in
// the file br is: such a file may be read in place instead (mapped.go),
// and mapped is then true.
func (p *pipeline) readLines(fs *fileState, br *bufio.Reader, r io.Reader, at func() (mapSource, bool)) (mapped bool, err error) {
	line := 1 + fs.ownHead
	if fs.format == CSV || fs.format == TSV {
		h, err := p.csvHeader(br, &line)
		if err != nil {
			return false, err
		}
		if fs.cfg.sep == '|' && p.opts.CSVHeader == "" && tableRule(h) {
			// An ASCII table's rule above its header.
			if h, err = p.csvHeader(br, &line); err != nil {
				return false, err
			}
		}
		if fs.cfg.envelope != NoEnvelope {
			var d topReader
			if w, err := unwrap(fs.cfg.envelope, h, &d); err == nil {
				h = w.inner
			}
		}
		fs.cfg.header = append([]byte(nil), h...)
		sep := fieldSep(fs.format, &fs.cfg)
		if fs.cfg.envelope == NoEnvelope {
			// Rows quoted with single quotes (singleQuotes), decided once for the
			// file from its first rows.
			next, _ := br.Peek(64 << 10)
			fs.cfg.quote = rowsQuote(fs.cfg.header, next, sep)
		}
		quote := fs.cfg.csvQuote()
		names := headerNames(fs.cfg.header, sep, quote)
		if next, _ := br.Peek(64 << 10); columnTypesRow(next, sep, len(names)) {
			// ClickHouse's TSVWithNamesAndTypes and
			// CSVWithNamesAndTypes: the columns' types under their
			// names, part of the header.
			if _, err := br.ReadSlice('\n'); err != nil && err != io.EOF {
				return false, readError(err)
			}
			line++
		}
		next, _ := br.Peek(64 << 10)
		if filled, paths := filledNames(names, next, sep, quote, clientLookahead+1); filled != nil {
			// As a JSON line's keys: the columns the first rows fill (an
			// ingress log's remote_user, always "-", names no client;
			// a top-up's empty token_name does, where calls fill it).
			p.applySource(fs, filled, paths, nil)
		} else {
			p.applySource(fs, names, nil, nil)
		}
		if utcTimes(fs.cfg.header, sep, fs.cfg.schema) {
			// Azure's portal's export: its times are UTC's, whatever
			// --tz says.
			fs.cfg.loc, fs.zone = time.UTC, "UTC"
		}
		cells := func(n string) [][]byte { return columnValues(next, names, sep, quote, n) }
		fs.tableValueChecks(names, cells)
		p.applyEpochZone(fs, names, func(a, b string) [][2][]byte { return columnPairs(next, names, sep, quote, a, b) })
	}
	var w3c *w3cTracker
	if fs.format == W3C {
		w3c = &w3cTracker{}
	}
	if at != nil {
		if ms, ok := at(); ok {
			if mapped, err := p.readMapped(fs, ms, line, w3c); mapped {
				return true, err
			}
		}
	}
	src := &blockSource{br: br, r: r}
	buf := p.blocks.get(0)
	data := (*buf)[:0]
	skipping := false // within a line over MaxLine, already counted
	for {
		// data holds no line end before old: it is a partial line.
		old := len(data)
		n, err := src.fill(data[old : old+p.blocks.size])
		data = data[:old+n]
		if skipping {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				data = data[:0]
				if err != nil {
					p.blocks.put(buf)
					return false, endError(err)
				}
				continue
			}
			data = data[:copy(data, data[i+1:])]
			skipping = false
			line++
			old = 0
		}
		if err != nil {
			if len(data) > 0 {
				p.work <- unit{file: fs, line: line, data: data, buf: buf, fields: w3c.next(data)}
			} else {
				p.blocks.put(buf)
			}
			return false, endError(err)
		}
		end := 0
		if i := bytes.LastIndexByte(data[old:], '\n'); i >= 0 {
			end = old + i + 1
		}
		end = holdParts(fs.cfg.envelope, data, end)
		tail := data[end:]
		if len(tail) > MaxLine {
			skipping = true
			tail = nil
		}
		if end == 0 && !skipping && cap(data)-len(data) >= p.blocks.size {
			continue // no whole line yet: read on into the same buffer
		}
		next := p.blocks.get(len(tail))
		*next = append((*next)[:0], tail...)
		first := line
		line += int64(bytes.Count(data[:end], []byte{'\n'}))
		if end > 0 {
			p.work <- unit{file: fs, line: first, data: data[:end], buf: buf, fields: w3c.next(data[:end])}
		} else {
			p.blocks.put(buf)
		}
		if skipping {
			p.reader.bad(fs, line, errLongLine)
		}
		buf, data = next, *next
	}
}

// endError is nil at the end of the stream, else the read failure.
func endError(err error) error {
	if err == io.EOF {
		return nil
	}
	return readError(err)
}

// clickHouseTypes are the names of ClickHouse's data types
// (clickhouse.com/docs/sql-reference/data-types), as its
// ...WithNamesAndTypes formats write them under the columns' names,
// wrapped or not in Nullable(…), LowCardinality(…) and the like.
var clickHouseTypes = map[string]bool{
	"Int8": true, "Int16": true, "Int32": true, "Int64": true, "Int128": true, "Int256": true,
	"UInt8": true, "UInt16": true, "UInt32": true, "UInt64": true, "UInt128": true, "UInt256": true,
	"Float32": true, "Float64": true, "BFloat16": true, "Decimal": true, "Decimal32": true, "Decimal64": true,
	"Decimal128": true, "Decimal256": true, "Bool": true, "String": true, "FixedString": true, "UUID": true,
	"Date": true, "Date32": true, "DateTime": true, "DateTime32": true, "DateTime64": true, "Time": true, "Time64": true,
	"Enum": true, "Enum8": true, "Enum16": true, "LowCardinality": true, "Nullable": true, "Array": true,
	"Map": true, "Tuple": true, "Nested": true, "IPv4": true, "IPv6": true, "JSON": true, "Object": true,
	"Variant": true, "Dynamic": true, "Nothing": true, "Point": true, "Ring": true, "Polygon": true,
	"MultiPolygon": true, "LineString": true, "MultiLineString": true,
	"SimpleAggregateFunction": true, "AggregateFunction": true,
}

// columnTypesRow reports whether the first line of b, under a header of
// n columns cut by sep, is the row of their types ClickHouse writes
// there (TSVWithNamesAndTypes, CSVWithNamesAndTypes): n cells, each a
// type of clickHouseTypes, its arguments in parentheses ("DateTime64(3)",
// "Nullable(Float64)"), one at least with a digit or arguments (a row of
// words alone, "String,Date", may be a record's).
func columnTypesRow(b []byte, sep byte, n int) bool {
	i := bytes.IndexByte(b, '\n')
	if i < 0 || n == 0 {
		return false
	}
	row := bytes.TrimRight(b[:i], "\r")
	// A type's arguments may hold the separator (Decimal(9, 2),
	// Map(String, UInt64)): cut at it outside parentheses.
	cells, depth, from := 0, 0, 0
	for j := 0; j <= len(row); j++ {
		if j < len(row) {
			switch row[j] {
			case '(':
				depth++
				continue
			case ')':
				depth--
				continue
			}
			if row[j] != sep || depth > 0 {
				continue
			}
		}
		cell := bytes.Trim(bytes.TrimSpace(row[from:j]), `"`)
		name, _, _ := bytes.Cut(cell, []byte("("))
		if !clickHouseTypes[string(name)] || len(name) < len(cell) && cell[len(cell)-1] != ')' {
			return false
		}
		cells, from = cells+1, j+1
	}
	return cells == n && depth == 0 && bytes.ContainsAny(row, "0123456789(")
}
