package ingest

import (
	"bytes"
	"fmt"
	"time"
)

// csvParser reads the rows of a CSV or TSV file with a header row (CLS
// CSV exports). The header is read once into one binding per column;
// each row is then split without allocating: a field that starts with a
// double quote is quoted ("a,b", "" for a quote), any other field runs to
// the next separator and holds no quote (RFC 4180). A quoted field with a
// line break arrives as two lines; both are bad lines. An empty field is absent. A row whose field count
// differs from the header's is a bad line.
type csvParser struct {
	sep     byte
	loc     *time.Location
	binds   []Bindings // by column
	puts    []putter   // by column
	vals    [][]byte   // the current row's fields, reused
	scratch []byte     // unescaped quoted fields of the current row
}

// utf8BOM is the byte-order mark some exporters put before the header.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// newCSVParser builds a parser for the header of one file; sep is ',' for
// CSV and '\t' for TSV. It cannot fail: a header it cannot split cleanly
// is split as far as it goes, and its rows then have the wrong field count.
func newCSVParser(c *parserConfig, sep byte) *csvParser {
	p := &csvParser{sep: sep, loc: c.loc}
	header := bytes.TrimPrefix(c.header, utf8BOM)
	if len(header) == 0 {
		return p
	}
	// On an error, names holds the columns read before the damage.
	names, _ := p.split(header)
	for _, name := range names {
		p.binds = append(p.binds, c.schema.Lookup(bytes.TrimSpace(name)))
	}
	p.puts = newPutters(p.binds)
	p.vals = make([][]byte, 0, len(p.binds))
	p.scratch = nil
	return p
}

// Parse reads one row into r.
func (p *csvParser) Parse(line []byte, r *Record) error {
	vals, err := p.split(line)
	if err != nil {
		return err
	}
	if len(vals) != len(p.binds) {
		return fmt.Errorf("want %d fields, got %d", len(p.binds), len(vals))
	}
	for i, v := range vals {
		if len(p.binds[i]) == 0 {
			continue
		}
		if err := p.puts[i].set(r, v, p.loc, nil); err != nil {
			return err
		}
	}
	r.Finish()
	return nil
}

// csvError is a row that cannot be split.
type csvError struct {
	col int // from 1
	msg string
}

func (e *csvError) Error() string { return fmt.Sprintf("column %d: %s", e.col, e.msg) }

// split cuts line into fields, kept in p.vals until the next call. The
// unescaped text of quoted fields with "" goes to p.scratch. With an
// error, the fields read before it are returned too.
func (p *csvParser) split(line []byte) ([][]byte, error) {
	vals := p.vals[:0]
	p.scratch = p.scratch[:0]
	sep := p.sep
	i := 0
	for {
		var val []byte
		if i < len(line) && line[i] == '"' {
			start := i + 1
			j := start
			escaped := false
			for {
				k := bytes.IndexByte(line[j:], '"')
				if k < 0 {
					p.vals = vals
					return vals, &csvError{col: start, msg: "unterminated quoted field"}
				}
				j += k
				if j+1 < len(line) && line[j+1] == '"' {
					escaped = true
					j += 2
					continue
				}
				break
			}
			val = line[start:j]
			if escaped {
				val = p.unescape(val)
			}
			j++ // the closing quote
			if j < len(line) && line[j] != sep {
				p.vals = vals
				return vals, &csvError{col: j + 1, msg: "text after a quoted field"}
			}
			i = j
		} else {
			// A quote inside an unquoted field is an error, as in RFC 4180:
			// it is most often the rest of a quoted field that held a line
			// break, which the line reader has cut in two.
			j := indexEither(line, i, sep, '"')
			if j < len(line) && line[j] == '"' {
				p.vals = vals
				return vals, &csvError{col: j + 1, msg: "quote in an unquoted field"}
			}
			val = line[i:j]
			i = j
		}
		vals = append(vals, val)
		if i >= len(line) {
			break
		}
		i++ // the separator; a separator at the end is one more empty field
	}
	p.vals = vals
	return vals, nil
}

// unescape turns "" into " in a quoted field's text, in the scratch
// buffer. The result is not appended to again: a later field that grows
// the buffer leaves it intact.
func (p *csvParser) unescape(v []byte) []byte {
	from := len(p.scratch)
	for len(v) > 0 {
		k := bytes.IndexByte(v, '"')
		if k < 0 {
			p.scratch = append(p.scratch, v...)
			break
		}
		p.scratch = append(p.scratch, v[:k+1]...)
		v = v[k+2:] // skip the second quote of the pair
	}
	return p.scratch[from:len(p.scratch):len(p.scratch)]
}
