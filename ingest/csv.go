package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"time"
)

// csvParser reads the rows of a CSV or TSV file with a header row (CLS
// CSV exports). The header is read once into one binding per column;
// each row is then split without allocating: a field that starts with a
// double quote is quoted ("a,b", "" for a quote), any other field runs to
// the next separator and holds no quote (RFC 4180); a file quoted with
// single quotes instead is read so with those (singleQuotes). A quoted
// field with a line break arrives as two lines; both are bad lines. An empty field is absent. A row whose field count
// differs from the header's is a bad line.
//
// A column that no name binds but that is the parent of dotted names
// ("usage_details" of "usage_details.input") holds a JSON object, as
// exporters write an object in a CSV cell ({"input":500,"output":120}):
// its members are read by their paths, as in a JSON line.
type csvParser struct {
	holding // scratch: unescaped text the records point into
	sep     byte
	quote   byte // a double quote, or a single one (singleQuotes)
	loc     *time.Location
	binds   []Bindings // by column
	puts    []putter   // by column
	cols    []*putter  // by column, nil for one nothing binds
	ops     []uint8    // by column, how Parse sets it: csvSkip, csvText…
	vals    [][]byte   // the current row's fields, reused
	clock   clocks
	// names are the columns' names, for those read as JSON objects
	// (csvJSON); json reads those objects, nil when there are none.
	names [][]byte
	json  *jsonParser
	comma []byte // decimalComma's value
	// header is the header row, which a file joined from several (cat
	// a.csv b.csv, or their .gz) holds again where each began.
	header []byte
}

// errHeaderAgain is the reason a row that is the header again is passed
// over: no request, and no bad line either.
var errHeaderAgain = fmt.Errorf("%w: the header row again (files joined one after another)", errPassOver)

// singleQuotes: Tencent Cloud CLS's shipping to COS as CSV encloses a
// field that holds the separator in the quote its configuration names,
// a double quote or a single one: CsvInfo.EscapeChar, "Escape character
// used to enclose any field delimiter in field content. You can enter
// only a single quotation mark, double quotation mark, or an empty
// string." (TencentCloud/tencentcloud-sdk-go-intl-en, and in Chinese
// TencentCloud/tencentcloud-sdk-go, tencentcloud/cls/v20201016/models.go),
// beside its Delimiter (space, tab, comma, semicolon or vertical bar)
// and PrintKey (the keys on the first line), the console's Separator,
// Escape Character and Key in First Line
// (https://www.tencentcloud.com/document/product/614/31584).
// A file whose first rows read whole only with the single quote is read
// with it (rowsQuote). What CLS does with that quote within the field is
// not documented, so both ways are read: a doubled one is one quote, and
// one that neither the separator nor the line's end follows is text
// ('it's, here' is "it's, here"). A quote that does not begin a
// field is text, as in TSV (an unquoted "O'Reilly"): CLS encloses only
// a field that holds the separator.

// tsvQuotes: in TSV a quote that does not begin a field is text, as
// databases write it: mysql -B and PostgreSQL's COPY quote no field, and
// a JSON column's text holds quotes (new-api's other, LiteLLM's
// metadata). A field that begins with one is quoted, as in CSV.

// spacedFields: in a CSV file, and one cut by ';' or '|', the spaces
// around a field are padding, not its text, as Python's csv module reads
// with skipinitialspace: a header "time, status, request_time" and rows
// "2026-12-05 10:00:00, 200, 0.5", written by hand or by a tool that
// aligns its columns (psql's output, whose rule under the header and
// count of rows after them are passed over: psqlDecoration), are read as
// their values, and a field whose padding is followed by a quote is
// quoted. A TSV file's fields are read as they are, and so are those of
// a file cut by single spaces (spaceSep), where a space is the
// separator and none is padding.

// spaceSep: CLS's shipping to COS as CSV offers a space among its
// separators (CsvInfo.Delimiter, the console's Separator: space, tab,
// comma, semicolon or vertical bar;
// https://www.tencentcloud.com/document/product/614/31584). Each space
// ends a field, so two in a row hold an empty field between them, which
// is absent: what CLS writes for a field a log does not have is the
// user's (CsvInfo.NonExistingField, "Content used to populate
// non-existing fields", TencentCloud/tencentcloud-sdk-go,
// tencentcloud/cls/v20201016/models.go), "-" or nothing at all. A field
// that holds a space is enclosed in the file's quote (singleQuotes): a
// request line "POST /v1/chat/completions HTTP/1.1", a user agent.

// errPsqlDecoration is the reason the lines a SQL client writes around
// a table's rows are passed over.
var errPsqlDecoration = fmt.Errorf("%w: a table's rule, or a SQL client's count of rows (psql, mysql -t, Markdown)", errPassOver)

// psqlDecoration reports whether line is one a SQL client writes around
// the rows of its aligned output ('|' between the columns): psql's rule
// under the header, of '-' and '+', and "(1 row)", "(3 rows)"; the
// rules of mysql -t, MariaDB and sqlite3's .mode table above and below
// the header and under the rows, "+----+----+" (tableRule), and mysql's
// "3 rows in set (0.00 sec)", "1 row in set, 1 warning (0.01 sec)",
// "Empty set (0.00 sec)"; a Markdown table's rule under its header
// (markdownRule).
func psqlDecoration(line []byte) bool {
	line = bytes.TrimRight(line, "\r")
	if len(line) >= 3 && len(bytes.Trim(line, "-+")) == 0 && line[0] == '-' || tableRule(line) || markdownRule(line) {
		return true
	}
	if bytes.HasPrefix(line, []byte("Empty set")) {
		return true
	}
	n, paren := bytes.CutPrefix(line, []byte("("))
	digits := 0
	for digits < len(n) && n[digits] >= '0' && n[digits] <= '9' {
		digits++
	}
	rest := n[digits:]
	if digits == 0 {
		return false
	}
	if paren {
		return bytes.Equal(rest, []byte(" row)")) || bytes.Equal(rest, []byte(" rows)"))
	}
	return bytes.HasPrefix(rest, []byte(" row in set")) || bytes.HasPrefix(rest, []byte(" rows in set"))
}

// tableRule reports whether line is a rule of an ASCII table as mysql
// -t, MariaDB and sqlite3's .mode table draw it: "+-----+----+", at
// least one column, spaces after it.
func tableRule(line []byte) bool {
	line = bytes.TrimRight(line, " \t\r")
	return len(line) >= 3 && line[0] == '+' && line[1] == '-' && line[len(line)-1] == '+' && len(bytes.Trim(line, "-+")) == 0
}

// markdownRule reports whether line is the rule under a Markdown
// table's header: "|---|:--:|", of bars, dashes, colons and spaces, at
// least one dash between two bars.
func markdownRule(line []byte) bool {
	line = bytes.TrimRight(line, " \t\r")
	if len(line) < 3 || line[0] != '|' || line[len(line)-1] != '|' || bytes.IndexByte(line, '-') < 0 {
		return false
	}
	for _, c := range line {
		if c != '|' && c != '-' && c != ':' && c != ' ' {
			return false
		}
	}
	return true
}

// tableRow returns the cells of an ASCII table's row as a '|'-separated
// line without the table's outer bars ("| a | b |" gives " a | b "); ok
// is false for a line not between bars.
func tableRow(line []byte) ([]byte, bool) {
	line = bytes.TrimRight(line, " \t\r")
	if len(line) < 2 || line[0] != '|' || line[len(line)-1] != '|' {
		return nil, false
	}
	return line[1 : len(line)-1], true
}

// utf8BOM is the byte-order mark some exporters put before the header.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// newCSVParser builds a parser for the header of one file; sep is ',' for
// CSV and '\t' for TSV. It cannot fail: a header it cannot split cleanly
// is split as far as it goes, and its rows then have the wrong field count.
func newCSVParser(c *parserConfig, sep byte) *csvParser {
	p := &csvParser{sep: sep, quote: c.csvQuote(), loc: c.loc}
	header := bytes.TrimPrefix(c.header, utf8BOM)
	if len(header) == 0 {
		return p
	}
	p.header = bytes.TrimRight(header, "\r\n")
	// On an error, names holds the columns read before the damage.
	names, _ := p.split(header)
	for _, name := range names {
		name, _ = headerName(bytes.TrimSpace(name))
		p.binds = append(p.binds, c.schema.Lookup(name))
		p.names = append(p.names, append([]byte(nil), name...))
	}
	p.puts = newPutters(p.binds)
	for i := range p.puts {
		var put *putter
		op := uint8(csvSkip)
		if len(p.binds[i]) == 0 && c.schema.IsPrefix(p.names[i]) {
			op = csvJSON
			if p.json == nil {
				p.json = newJSONParser(c.schema, c.loc)
			}
		}
		if len(p.binds[i]) > 0 {
			put = &p.puts[i]
			switch {
			case put.kind == putText:
				op = csvText
			case put.numeric():
				op = csvNum
			default:
				op = csvOther
			}
		}
		p.cols = append(p.cols, put)
		p.ops = append(p.ops, op)
	}
	p.vals = make([][]byte, 0, len(p.binds))
	p.scratch = nil
	return p
}

// rowsQuote returns a single quote when a CSV or TSV file's fields are
// quoted with it (singleQuotes): of the whole lines of b, its first rows
// past its header, more are cut by sep into as many fields as the header
// with that quote than with a double one; 0 (a double quote) otherwise.
// Only a field that holds the separator tells the two apart.
func rowsQuote(header, b []byte, sep byte) byte {
	if bytes.IndexByte(b, '\'') < 0 {
		return 0
	}
	double, single := &csvParser{sep: sep, quote: '"'}, &csvParser{sep: sep, quote: '\''}
	nd, _ := double.split(header)
	ns, _ := single.split(header)
	wantDouble, wantSingle := len(nd), len(ns)
	score := 0
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break // none left, or a line the peek cut
		}
		l := bytes.TrimRight(b[:i], "\r")
		b = b[i+1:]
		d, errD := double.split(l)
		s, errS := single.split(l)
		okD, okS := errD == nil && len(d) == wantDouble, errS == nil && len(s) == wantSingle
		switch {
		case okS && !okD:
			score++
		case okD && !okS:
			score--
		}
	}
	if score > 0 {
		return '\''
	}
	return 0
}

// Parse reads one row into r. The row is cut and its values set in one
// pass, a number read as its end is found; a row that cannot be split
// or has the wrong number of fields is refused for that, whatever the
// values before the flaw.
//
// The separators are found eight bytes at a time by a sepScan, which
// keeps the word it read last for the fields that end in it; a quote in
// an unquoted field is found by knowing where the row's next quote is
// (q), looked for once per row and after each quoted field; a field
// begins with a quote when it begins there.
func (p *csvParser) Parse(line []byte, r *Record) error {
	if len(p.header) > 0 && len(line) >= len(p.header) && (line[0] == p.header[0] || line[0] == utf8BOM[0]) &&
		bytes.Equal(bytes.TrimPrefix(line, utf8BOM), p.header) {
		return errHeaderAgain
	}
	if p.sep == '|' && len(line) > 0 && (line[0] == '-' || line[0] == '(' || line[0] == '+' || line[0] == 'E' || line[0] == '|' || isDigit(line[0])) && psqlDecoration(line) {
		return errPsqlDecoration
	}
	p.newLine()
	var setErr error
	// Spaces around a field are padding but in TSV and where a space is
	// the separator (spacedFields, spaceSep): decided once per row.
	pad := p.sep != '\t' && p.sep != ' '
	sc := sepScan{rep: swarLo * uint64(p.sep), at: -8}
	q := bytes.IndexByte(line, p.quote)
	if q < 0 {
		q = len(line)
	}
	n := 0
	for i := 0; ; i++ {
		op := uint8(csvSkip)
		if n < len(p.ops) && setErr == nil {
			op = p.ops[n]
		}
		if pad {
			for i < len(line) && line[i] == ' ' { // padding (spacedFields)
				i++
			}
		}
		var j int
		switch {
		case i >= len(line) || line[i] == p.sep:
			j = i // an empty field: absent
		case q == i:
			val, k, err := p.quoted(line, i, pad)
			if err == nil {
				k, err = p.afterQuoted(line, k, pad)
			}
			if err != nil {
				return err
			}
			switch op {
			case csvSkip:
			case csvJSON:
				setErr = p.object(r, n, val)
			case csvNum:
				setErr = p.cols[n].set(r, p.decimalComma(val), p.loc, &p.clock)
			default:
				setErr = p.cols[n].set(r, val, p.loc, &p.clock)
			}
			j = k
			if q = bytes.IndexByte(line[k:], p.quote); q < 0 {
				q = len(line)
			} else {
				q += k
			}
		default:
			j = -1
			if op == csvNum {
				if end, v, ok := scanNumber(line, i); ok && (end == len(line) || line[end] == p.sep) {
					setErr = p.cols[n].setNumber(r, v, line[i:end], p.loc)
					j = end
				}
			}
			if j < 0 {
				// The next separator: in the word kept, or past it.
				if d := uint(i - sc.at); d < 8 && sc.m>>(8*d) != 0 {
					j = i + bits.TrailingZeros64(sc.m>>(8*d))>>3
				} else {
					j = sc.scan(line, i)
				}
				if q < j {
					if p.sep != '\t' && p.quote == '"' {
						return &csvError{col: q + 1, msg: "quote in an unquoted field"}
					}
					if q = bytes.IndexByte(line[j:], p.quote); q < 0 { // tsvQuotes, singleQuotes
						q = len(line)
					} else {
						q += j
					}
				}
				val := line[i:j]
				if pad {
					for len(val) > 0 && val[len(val)-1] == ' ' { // padding (spacedFields)
						val = val[:len(val)-1]
					}
				}
				switch op {
				case csvText:
					if !isAbsent(val) {
						r.SetText(p.cols[n].bind[0].Field, val)
					}
				case csvNum:
					setErr = p.cols[n].set(r, p.decimalComma(val), p.loc, &p.clock)
				case csvOther:
					setErr = p.cols[n].set(r, val, p.loc, &p.clock)
				case csvJSON:
					setErr = p.object(r, n, val)
				}
			}
		}
		n++
		if j >= len(line) {
			break
		}
		i = j // and past the separator; one at the end is one more empty field
	}
	if n != len(p.binds) {
		return fmt.Errorf("want %d fields, got %d", len(p.binds), n)
	}
	if setErr != nil {
		return setErr
	}
	return r.Finish()
}

// decimalComma returns a number column's value of a ';'-separated file
// with its decimal comma as a point: Excel, where a decimal comma is the
// locale's (much of Europe), writes ';' between fields and "3,05" for
// 3.05. Any other value is returned as it is.
func (p *csvParser) decimalComma(val []byte) []byte {
	if p.sep != ';' {
		return p.grouped(val)
	}
	c := bytes.IndexByte(val, ',')
	if c <= 0 || c == len(val)-1 || bytes.IndexByte(val[c+1:], ',') >= 0 {
		return val
	}
	for k, b := range val {
		if k != c && (b < '0' || b > '9') && !(k == 0 && b == '-') {
			return val
		}
	}
	p.comma = append(append(append(p.comma[:0], val[:c]...), '.'), val[c+1:]...)
	return p.comma
}

// grouped returns a number column's value of a file not cut by ';'
// without the commas that group its thousands: "1,234,000,000", as
// Kibana's CSV export writes a number (its default format, 0,0.[000])
// and spreadsheets do when told to, quoted in a CSV file. Any other
// value is returned as it is ("0,5" and "1,23" are no grouped number).
func (p *csvParser) grouped(val []byte) []byte {
	c := bytes.IndexByte(val, ',')
	if c < 0 {
		return val
	}
	sign := 0
	if val[0] == '-' {
		sign = 1
	}
	if n := c - sign; n < 1 || n > 3 || !allDigits(val[sign:c]) {
		return val
	}
	out := append(p.comma[:0], val[:c]...)
	k := c
	for ; k < len(val) && val[k] == ','; k += 4 {
		if k+4 > len(val) || !allDigits(val[k+1:k+4]) {
			return val
		}
		out = append(out, val[k+1:k+4]...)
	}
	if k < len(val) {
		if val[k] != '.' || k+1 == len(val) || !allDigits(val[k+1:]) {
			return val
		}
		out = append(out, val[k:]...)
	}
	p.comma = out
	return out
}

// How Parse sets a column's values (csvParser.ops).
const (
	csvSkip  = iota // nothing binds the column
	csvText         // putText: the text itself
	csvNum          // a numeric putter: scanNumber, then setNumber
	csvOther        // putter.set
	csvJSON         // a JSON object, read by its members' paths (object)
)

// object reads the JSON object in column n's value into r by its
// members' paths under the column's name, as a JSON line's nested object
// is read (textObject). Decoded strings go to the parser's scratch
// buffer, which the records keep as they keep its unescaped fields.
func (p *csvParser) object(r *Record, n int, val []byte) error {
	if len(val) == 0 || val[0] != '{' {
		return nil
	}
	j := p.json
	j.scratch = p.scratch
	err := j.textObject(r, p.names[n], val)
	p.scratch, j.scratch = j.scratch, nil
	return err
}

// sepScan finds the separators of a line in order, eight bytes at a
// time, keeping the marks of the last word it read for the fields that
// end in it (Parse).
type sepScan struct {
	rep uint64 // the separator in every byte
	at  int    // where the word of m starts
	m   uint64 // the separators of line[at:at+8] (exactZeroBytes)
}

// scan returns the index of the first separator at or after from in
// line, or len(line), reading the words from from on. Parse looks in
// the word kept first.
func (s *sepScan) scan(line []byte, from int) int {
	j := from
	for ; j+8 <= len(line); j += 8 {
		if m := exactZeroBytes(binary.LittleEndian.Uint64(line[j:]) ^ s.rep); m != 0 {
			s.at, s.m = j, m
			return j + bits.TrailingZeros64(m)>>3
		}
	}
	sep := byte(s.rep)
	for ; j < len(line); j++ {
		if line[j] == sep {
			break
		}
	}
	return j
}

// csvError is a row that cannot be split.
type csvError struct {
	col int // from 1
	msg string
}

func (e *csvError) Error() string { return fmt.Sprintf("column %d: %s", e.col, e.msg) }

// msgUnterminated is a quoted field the line ends in: its closing quote
// may be on a line after (a field with a line break, RFC 4180 §2.6).
const msgUnterminated = "unterminated quoted field"

// openQuote reports whether err is a row's quoted field left open at the
// line's end, or a record of Fluent Bit's stdout output whose value the
// line ends in (errPrintedCut): either goes on in the next lines.
func openQuote(err error) bool {
	var e *csvError
	return errors.As(err, &e) && e.msg == msgUnterminated || err == errPrintedCut
}

// maxQuotedLines is how many lines after its first a row whose quoted
// field holds line breaks may take (joinQuoted).
const maxQuotedLines = 64

// joinQuoted reads a row whose quoted field line l leaves open, with the
// lines of data after it, data being what follows l's line end in the
// same buffer: l with as many of them as close the field, at most
// maxQuotedLines and MaxLine bytes, parsed by lp into rec. It returns the
// row, what follows it, how many lines it took after l, and why the row
// is bad when it is whole but the log line within it is not (a
// withinError: one bad line); 0 lines when none closes the field
// without another error (rec is then left as the last try made it, and
// l is a bad line as it was).
func joinQuoted(lp lineParser, l, data []byte, rec *Record, s *Schema) (row, rest []byte, n int, bad error) {
	end := cap(l) - cap(data) // data[0]'s place after l's start
	rest = data
	for n = 1; n <= maxQuotedLines && len(rest) > 0; n++ {
		next, after := len(rest), []byte(nil)
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			next, after = j, rest[j+1:]
		}
		if end+next > MaxLine {
			break
		}
		row = l[: end+next : end+next]
		if k := len(row); row[k-1] == '\r' {
			row = row[:k-1]
		}
		rec.reset(s)
		err := lp.Parse(row, rec)
		var within *withinError
		switch {
		case err == nil:
			return row, after, n, nil
		case errors.As(err, &within):
			return row, after, n, err
		case !openQuote(err):
			return nil, data, 0, nil
		}
		rest, end = after, end+next+1
	}
	return nil, data, 0, nil
}

// split cuts line into fields, kept in p.vals until the next call. The
// unescaped text of quoted fields with doubled quotes goes to p.scratch.
// With an error, the fields read before it are returned too. A parser
// made without a quote splits with a double quote.
func (p *csvParser) split(line []byte) ([][]byte, error) {
	if p.quote == 0 {
		p.quote = '"'
	}
	vals := p.vals[:0]
	p.scratch = p.scratch[:0]
	for i := 0; ; i++ {
		val, j, err := p.field(line, i)
		if err != nil {
			p.vals = vals
			return vals, err
		}
		vals = append(vals, val)
		if j >= len(line) {
			break
		}
		i = j // and past the separator; one at the end is one more empty field
	}
	p.vals = vals
	return vals, nil
}

// field cuts the field that starts at line[i] and returns its value and
// the index of the separator after it (len(line) for the last field).
func (p *csvParser) field(line []byte, i int) (val []byte, end int, err error) {
	if i >= len(line) || line[i] != p.quote {
		// A quote inside an unquoted field is an error, as in RFC 4180:
		// it is most often the rest of a quoted field that held a line
		// break, which the line reader has cut in two. In TSV it is text
		// (tsvQuotes), and in a file quoted with single quotes
		// (singleQuotes).
		if p.sep == '\t' || p.quote != '"' {
			j := indexEither(line, i, p.sep, p.sep)
			return line[i:j], j, nil
		}
		j := indexEither(line, i, p.sep, '"')
		if j < len(line) && line[j] == '"' {
			return nil, 0, &csvError{col: j + 1, msg: "quote in an unquoted field"}
		}
		return line[i:j], j, nil
	}
	if val, end, err = p.quoted(line, i, false); err == nil {
		end, err = p.afterQuoted(line, end, false)
	}
	return val, end, err
}

// quoted cuts the quoted field that starts at line[i] and returns its
// value and the index past its closing quote (afterQuoted checks what
// follows). A file quoted with single quotes has its own rules
// (singleQuoted).
func (p *csvParser) quoted(line []byte, i int, padding bool) (val []byte, end int, err error) {
	if p.quote != '"' {
		return p.singleQuoted(line, i, padding)
	}
	start := i + 1
	j := start
	escaped := false
	for {
		k := bytes.IndexByte(line[j:], '"')
		if k < 0 {
			return nil, 0, &csvError{col: start, msg: msgUnterminated}
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
	return val, j + 1, nil // past the closing quote
}

// singleQuoted is quoted in a file quoted with single quotes: a quote
// that the separator or the line's end does not follow, past the
// padding when padding is set, is text (singleQuotes).
func (p *csvParser) singleQuoted(line []byte, i int, padding bool) (val []byte, end int, err error) {
	quote := p.quote
	start := i + 1
	j := start
	escaped := false
	for {
		k := bytes.IndexByte(line[j:], quote)
		if k < 0 {
			return nil, 0, &csvError{col: start, msg: msgUnterminated}
		}
		j += k
		if j+1 < len(line) && line[j+1] == quote {
			escaped = true
			j += 2
			continue
		}
		if !p.closes(line, j+1, padding) {
			j++
			continue
		}
		break
	}
	val = line[start:j]
	if escaped {
		val = p.unescape(val)
	}
	return val, j + 1, nil // past the closing quote
}

// closes reports whether a quote before line[j] closes its field: the
// separator or the line's end follows it, past the padding when padding
// is set (spacedFields).
func (p *csvParser) closes(line []byte, j int, padding bool) bool {
	for padding && j < len(line) && line[j] == ' ' && p.sep != ' ' {
		j++
	}
	return j >= len(line) || line[j] == p.sep
}

// afterQuoted returns the index of the separator after a quoted field
// whose closing quote ends at line[j-1]; with padding, past the spaces
// before it (spacedFields).
func (p *csvParser) afterQuoted(line []byte, j int, padding bool) (int, error) {
	for padding && j < len(line) && line[j] == ' ' {
		j++
	}
	if j < len(line) && line[j] != p.sep {
		return 0, &csvError{col: j + 1, msg: "text after a quoted field"}
	}
	return j, nil
}

// unescape turns a doubled quote into one in a quoted field's text, in
// the scratch buffer; a quote alone is text (singleQuotes). The result is
// not appended to again: a later field that grows the buffer leaves it
// intact.
func (p *csvParser) unescape(v []byte) []byte {
	from := len(p.scratch)
	for len(v) > 0 {
		k := bytes.IndexByte(v, p.quote)
		if k < 0 {
			p.scratch = append(p.scratch, v...)
			break
		}
		p.scratch = append(p.scratch, v[:k+1]...)
		if v = v[k+1:]; len(v) > 0 && v[0] == p.quote {
			v = v[1:] // the second quote of the pair
		}
	}
	return p.scratch[from:len(p.scratch):len(p.scratch)]
}
