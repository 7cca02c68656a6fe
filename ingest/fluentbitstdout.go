package ingest

import (
	"bytes"
	"errors"
)

// Fluent Bit's stdout output in its default format, msgpack, prints
// each record as msgpack-c's msgpack_object_print writes it, behind a
// count and the tag (fluent/fluent-bit plugins/out_stdout/stdout.c,
// cb_stdout_flush):
//
//	[0] TAG: [[1796349601.125000000, {}], {"log"=>"LINE"}]   since v2.1: [[TIME, METADATA], BODY]
//	[0] TAG: [1796349601.125000000, {"log"=>"LINE"}]         before:     [TIME, BODY]
//
// TIME is "%"PRId64".%09lu", epoch seconds and nanoseconds. The body
// is a map, printed as msgpack_object_print prints a value
// (lib/msgpack-c/src/objectc.c): a map {K=>V, K=>V}, an array [V, V],
// a string between quotes with nothing in it escaped, a float as "%f",
// an integer, nil, true, false. A string's quotes, commas and line
// breaks are printed as they are: where one ends is told from what
// follows its closing quote (stringEnd), and a record whose value holds
// a line break (Docker's log keeps its line's "\n") goes on over the
// next lines, with which it is read, as a CSV row whose quoted field
// holds one is (errPrintedCut, openQuote).
//
// Its file output's ltsv format prints a record's members so too, each
// label and value as msgpack_object_print prints them, after the time
// ("%f", epoch seconds), tab-separated (plugins/out_file/file.c,
// ltsv_output; delimiter "\t" and label_delimiter ":" by default):
//
//	"time":1796349601.125000	"log":"LINE"
//	"time":1796349601.125000	"remote_addr":"10.0.1.3"	"status":"200"	…

// maxPrintedDepth bounds how deeply printed maps and arrays nest.
const maxPrintedDepth = 32

var (
	errNotStdout = errors.New(`not a line of Fluent Bit's stdout output ("[N] TAG: [[TIME, {…}], {…}]" or "[N] TAG: [TIME, {…}]"): the rest of a record whose value holds a line break, or some other line`)
	// errPrintedCut is the reason for a record a line break in one of
	// its values cut, when the lines after it do not end it.
	errPrintedCut = errors.New(`Fluent Bit's stdout record does not end on its line, nor on the lines after it (a value with a line break in it is printed as it is, as Docker's "log" with its "\n")`)
	errPrinted    = errors.New(`Fluent Bit's stdout record cannot be read: not a value as msgpack prints one`)
	errNotLTSV    = errors.New(`not a line of Fluent Bit's file output in its ltsv format ("time":TIME, then "LABEL":VALUE, tab-separated, with its default delimiters)`)
)

// ltsvTime is how a line of Fluent Bit's file output in its ltsv
// format begins.
const ltsvTime = `"time":`

// fluentBitLTSVLine reports whether line is one of Fluent Bit's file
// output in its ltsv format: its time, then a tab and a label, or
// nothing.
func fluentBitLTSVLine(line []byte) bool {
	if !bytes.HasPrefix(line, []byte(ltsvTime)) {
		return false
	}
	rest := line[len(ltsvTime):]
	i := bytes.IndexByte(rest, '\t')
	if i < 0 {
		return epochSeconds(rest)
	}
	return epochSeconds(rest[:i]) && bytes.HasPrefix(rest[i+1:], []byte(`"`))
}

// ltsvRecord returns the members of a line of Fluent Bit's file output
// in its ltsv format but its time, written as a JSON object into d's
// buffer, and the time.
func (d *topReader) ltsvRecord(line []byte) (rec, stamp []byte, err error) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !fluentBitLTSVLine(line) {
		return nil, nil, errNotLTSV
	}
	if err := printedJoin(line, fluentBitLTSVLine); err != nil {
		return nil, nil, err
	}
	rest := line[len(ltsvTime):]
	i := bytes.IndexByte(rest, '\t')
	if i < 0 {
		i = len(rest)
	}
	p := &d.printed
	p.s, p.i, p.out = rest[i:], 0, append(p.out[:0], '{')
	p.open[0], p.depth = 'L', 1
	for p.i < len(p.s) {
		if p.s[p.i] != '\t' {
			return nil, nil, errPrinted
		}
		if p.i++; len(p.out) > 1 {
			p.out = append(p.out, ',')
		}
		if err := p.key(`":`); err != nil {
			return nil, nil, err
		}
		if err := p.value(); err != nil {
			return nil, nil, err
		}
	}
	return append(p.out, '}'), rest[:i], nil
}

// printedJoin refuses a record cut by a line break that was joined with
// the lines after it (openQuote) when one of them begins a record
// itself (begins tells): the record's end never came, and it is a bad
// line alone.
func printedJoin(line []byte, begins func([]byte) bool) error {
	for next := line; ; {
		i := bytes.IndexByte(next, '\n')
		if i < 0 {
			return nil
		}
		next = next[i+1:]
		l := next
		if j := bytes.IndexByte(l, '\n'); j >= 0 {
			l = l[:j]
		}
		if begins(bytes.TrimSuffix(l, []byte("\r"))) {
			return errPrinted
		}
	}
}

// stdoutHead returns what follows the "[N] TAG: [" of a line of Fluent
// Bit's stdout output; ok false when line does not begin so.
func stdoutHead(line []byte) (rest []byte, ok bool) {
	if len(line) < 4 || line[0] != '[' {
		return nil, false
	}
	i := 1
	for i < len(line) && isDigit(line[i]) {
		i++
	}
	if i == 1 || !bytes.HasPrefix(line[i:], []byte("] ")) {
		return nil, false
	}
	tag := line[i+2:]
	j := bytes.Index(tag, []byte(": ["))
	if j <= 0 || bytes.IndexAny(tag[:j], " \t\"{[") >= 0 {
		return nil, false
	}
	return tag[j+len(": ["):], true
}

// stdoutTime returns the epoch seconds that begin b ("1796349601" or
// "1796349601.125000000") and what follows their ", ".
func stdoutTime(b []byte) (stamp, rest []byte, ok bool) {
	i := bytes.Index(b, []byte(", "))
	if i <= 0 {
		return nil, nil, false
	}
	t := b[:i]
	if dot := bytes.IndexByte(t, '.'); dot >= 0 {
		if !epochSeconds(t) {
			return nil, nil, false
		}
	} else if !allDigits(t) {
		return nil, nil, false
	}
	return t, b[i+2:], true
}

// fluentBitStdoutLine reports whether line is one of Fluent Bit's
// stdout output that begins a record: its count, tag and time.
func fluentBitStdoutLine(line []byte) bool {
	rest, ok := stdoutHead(line)
	if !ok {
		return false
	}
	if len(rest) > 0 && rest[0] == '[' {
		rest = rest[1:]
	}
	_, rest, ok = stdoutTime(rest)
	return ok && len(rest) > 0 && (rest[0] == '{' || rest[0] == '[')
}

// stdoutRecord returns the body of a line of Fluent Bit's stdout output
// written as a JSON object into d's buffer, and its time.
func (d *topReader) stdoutRecord(line []byte) (rec, stamp []byte, err error) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	rest, ok := stdoutHead(line)
	if !ok {
		return nil, nil, errNotStdout
	}
	if err := printedJoin(line, fluentBitStdoutLine); err != nil {
		return nil, nil, err
	}
	p := &d.printed
	p.s, p.i, p.out = rest, 0, p.out[:0]
	p.open[0], p.depth = '[', 1 // the array of the time and the body
	if len(rest) > 0 && rest[0] == '[' {
		// Since v2.1: [[TIME, METADATA], BODY]. The metadata is read
		// (its strings are told from what follows them) and left out.
		if stamp, p.s, ok = stdoutTime(rest[1:]); !ok {
			return nil, nil, errNotStdout
		}
		p.open[1], p.depth = '[', 2
		if err := p.value(); err != nil {
			return nil, nil, err
		}
		if !bytes.HasPrefix(p.s[p.i:], []byte("], ")) {
			return nil, nil, p.fail()
		}
		p.i += len("], ")
		p.depth, p.out = 1, p.out[:0]
	} else if stamp, p.s, ok = stdoutTime(rest); !ok {
		return nil, nil, errNotStdout
	}
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		return nil, nil, errPrinted
	}
	if err := p.value(); err != nil {
		return nil, nil, err
	}
	if p.i >= len(p.s) {
		return nil, nil, errPrintedCut
	}
	if p.i != len(p.s)-1 || p.s[p.i] != ']' {
		return nil, nil, errPrinted
	}
	return p.out, stamp, nil
}

// printedReader reads a value as msgpack_object_print prints it and
// writes it as JSON to out. open holds the maps ('{') and arrays ('[')
// the position is within, the outermost first.
type printedReader struct {
	s     []byte
	i     int
	out   []byte
	open  [maxPrintedDepth]byte
	depth int
}

// fail is the reason the value at p.i cannot be read: a record cut by
// a line break in a value when the line ends before it does.
func (p *printedReader) fail() error {
	if p.i >= len(p.s) {
		return errPrintedCut
	}
	return errPrinted
}

// value reads the value at p.i.
func (p *printedReader) value() error {
	if p.i >= len(p.s) {
		return p.fail()
	}
	switch c := p.s[p.i]; c {
	case '{', '[':
		if p.depth == len(p.open) {
			return errPrinted
		}
		p.open[p.depth] = c
		p.depth++
		p.out = append(p.out, c)
		p.i++
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		if p.i < len(p.s) && p.s[p.i] == closer {
			p.i++
			p.depth--
			p.out = append(p.out, closer)
			return nil
		}
		for {
			if c == '{' {
				if err := p.key(`"=>`); err != nil {
					return err
				}
			}
			if err := p.value(); err != nil {
				return err
			}
			switch {
			case bytes.HasPrefix(p.s[p.i:], []byte(", ")):
				p.i += 2
				p.out = append(p.out, ',')
			case p.i < len(p.s) && p.s[p.i] == closer:
				p.i++
				p.depth--
				p.out = append(p.out, closer)
				return nil
			default:
				return p.fail()
			}
		}
	case '"':
		end := p.stringEnd(p.i + 1)
		if end < 0 {
			return errPrintedCut // no quote ends it: it goes on past the line
		}
		p.out = appendJSONString(p.out, p.s[p.i+1:end])
		p.i = end + 1
		return nil
	case '(':
		// An extension type, "(ext: N)" then its bytes quoted: kept as
		// the string it is printed as.
		j := bytes.IndexByte(p.s[p.i:], ')')
		if j < 0 || p.i+j+1 >= len(p.s) || p.s[p.i+j+1] != '"' {
			return errPrinted
		}
		from := p.i
		end := p.stringEnd(p.i + j + 2)
		if end < 0 {
			return errPrintedCut
		}
		p.out = appendJSONString(p.out, p.s[from:end+1])
		p.i = end + 1
		return nil
	}
	// A number or a literal: up to what follows a value (in an ltsv
	// line, a tab).
	from := p.i
	for p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != '}' && p.s[p.i] != ']' && p.s[p.i] != '\t' {
		p.i++
	}
	tok := p.s[from:p.i]
	switch {
	case string(tok) == "nil":
		p.out = append(p.out, "null"...)
	case string(tok) == "true", string(tok) == "false", jsonNumber(tok):
		p.out = append(p.out, tok...)
	case bytes.Contains(tok, []byte("nan")), bytes.Contains(tok, []byte("inf")):
		// A float "%f" prints as nan or inf, which JSON has no number
		// for: a string, which is then an unreadable value.
		p.out = appendJSONString(p.out, tok)
	default:
		return p.fail()
	}
	return nil
}

// key reads a map's key, a string up to its first end (`"=>`; an ltsv
// label's `":`), and the end.
func (p *printedReader) key(end string) error {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return p.fail()
	}
	j := bytes.Index(p.s[p.i+1:], []byte(end))
	if j < 0 {
		return p.fail()
	}
	p.out = appendJSONString(p.out, p.s[p.i+1:p.i+1+j])
	p.out = append(p.out, ':')
	p.i += 1 + j + len(end)
	return nil
}

// stringEnd returns the index of the quote that ends the string whose
// text begins at from, −1 when none does. Nothing in the string is
// escaped, so it ends at the first quote followed by what may follow a
// value where it stands: the closing of the maps and arrays it is
// within, as many as are closed there, then ", " and a map's next key
// ("K"=>) or an array's next value, or the line's end once the record's
// array is closed.
func (p *printedReader) stringEnd(from int) int {
	for i := from; i < len(p.s); i++ {
		j := bytes.IndexByte(p.s[i:], '"')
		if j < 0 {
			return -1
		}
		if i += j; p.followsValue(i + 1) {
			return i
		}
	}
	return -1
}

// followsValue reports whether what begins at k may follow a value
// within the maps and arrays open, and the ltsv line ('L') they are in.
func (p *printedReader) followsValue(k int) bool {
	for d := p.depth; d > 0; d-- {
		if p.open[d-1] == 'L' {
			// The next label, "LABEL":, or the line's end.
			if k < len(p.s) && p.s[k] == '\t' {
				next := p.s[k+1:]
				if len(next) == 0 || next[0] != '"' {
					return false
				}
				q := bytes.IndexByte(next[1:], '"')
				return q >= 0 && bytes.HasPrefix(next[1+q+1:], []byte(":"))
			}
			return k == len(p.s)
		}
		if bytes.HasPrefix(p.s[k:], []byte(", ")) {
			next := p.s[k+2:]
			if p.open[d-1] == '{' {
				if len(next) == 0 || next[0] != '"' {
					return false
				}
				q := bytes.IndexByte(next[1:], '"')
				return q >= 0 && bytes.HasPrefix(next[1+q+1:], []byte("=>"))
			}
			return len(next) > 0 && bytes.IndexByte([]byte(`"{[-0123456789ntf(`), next[0]) >= 0
		}
		closer := byte('}')
		if p.open[d-1] == '[' {
			closer = ']'
		}
		if k >= len(p.s) || p.s[k] != closer {
			return false
		}
		k++
	}
	return k == len(p.s)
}
