package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"time"
	"unicode/utf8"
)

// jsonParser reads one JSON object per line: typed JSON lines and CLS
// exports where every value is a string, "__TAG__.x" keys, nested objects
// and JSON held in a string (Higress "ai_log"). It is a single-pass
// scanner that allocates nothing per line once warm: decoded strings go to
// a scratch buffer that the next line reuses.
type jsonParser struct {
	holding // scratch: unescaped text the records point into
	schema  *Schema
	loc     *time.Location
	paths   [][]byte   // dotted paths of nested objects, one per depth
	inner   [4]scanner // scanners of JSON held in strings, one per depth
	// The last line's keys and their bindings: JSON lines from one
	// source repeat their keys in the same order, so most look-ups are a
	// byte comparison.
	cache []cachedKey
	// clock reads the request time's common forms, remembering the day.
	clock clocks
	// shape is that of the last line read the general way, when it has
	// one (jsonshape.go); hits and misses count the lines read by it and
	// those tried that were not of it, learns the shapes learnt.
	shape                lineShape
	hits, misses, learns int
}

func newJSONParser(s *Schema, loc *time.Location) *jsonParser {
	return &jsonParser{schema: s, loc: loc}
}

var errNotObject = errors.New("not a JSON object")

// Kong writes each request to its own proxy access log too, in
// kong_log_format (combined, then kong_request_id: "…"), into the same
// stream as a file-log plugin's record of it when both go to a pod's
// stdout: that line is passed over in a file of Kong's records.
var (
	kongRequestID    = []byte(` kong_request_id: "`)
	errKongProxyLine = fmt.Errorf("%w: Kong's proxy access line (kong_log_format), the request its file-log record gives", errPassOver)
)

type jsonError struct {
	col int
	msg string
}

func (e *jsonError) Error() string { return fmt.Sprintf("invalid JSON at column %d: %s", e.col, e.msg) }

// Parse reads line into r: by the shape of the lines before when it is
// of it, else the general way, learning its shape.
func (p *jsonParser) Parse(line []byte, r *Record) error {
	if len(p.shape.keys) > 0 && (p.misses < shapeTries || p.misses <= p.hits) {
		if p.parseShaped(line, r) {
			p.hits++
			return r.Finish()
		}
		r.set, r.unread = 0, 0 // read again from the start
		p.misses++
	}
	if err := p.parse(line, r); err != nil {
		return p.parseBare(line, r, err)
	}
	// Learning costs a pass over the line: a log whose lines keep
	// changing shape, or have none, is read the general way.
	if p.learns < shapeTries || p.learns <= p.hits/8 {
		p.learns++
		p.learnShape(line)
	}
	return nil
}

// shapeTries is how many shapes the parser learns, and how many lines
// not of its shape it tries, before it needs most lines to be of them.
const shapeTries = 64

// parse reads line into r the general way.
func (p *jsonParser) parse(line []byte, r *Record) error {
	p.newLine()
	return p.parseFrom(line, r)
}

// parseFrom is parse but for the scratch buffer, kept as it is.
func (p *jsonParser) parseFrom(line []byte, r *Record) error {
	s := scanner{b: line}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		if ownLogLine(line) {
			// The server's own line beside its JSON access log
			// (Envoy's, Istio's pilot-agent's in a pod's log).
			return errOwnLine
		}
		if bytes.Contains(line, kongRequestID) && p.schema.Source() == "kong" {
			return errKongProxyLine
		}
		return errNotObject
	}
	var err error
	if err = p.object(&s, r, nil, 0); err != nil {
		return err
	}
	s.ws()
	if s.i != len(s.b) {
		return s.fail("text after the object")
	}
	return r.Finish()
}

// object reads the object at s.i; prefix is the dotted path of a nested
// object ("ai_log"), nil at the top.
func (p *jsonParser) object(s *scanner, r *Record, prefix []byte, depth int) error {
	s.i++ // '{'
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.fail("want a key")
		}
		var key []byte
		bind, known := p.sameKey(s, n, prefix)
		if !known {
			var err error
			if key, err = p.str(s); err != nil {
				return err
			}
		}
		if s.i+1 < len(s.b) && s.b[s.i] == ':' && s.b[s.i+1] > ' ' {
			s.i++ // compact: `"key":value`
		} else {
			s.ws()
			if s.i >= len(s.b) || s.b[s.i] != ':' {
				return s.fail("want ':'")
			}
			s.i++
			s.ws()
			if s.i >= len(s.b) {
				return s.fail("truncated")
			}
		}
		switch {
		case known:
			key = p.cache[n].key
		case prefix == nil:
			bind = p.lookupTop(n, key)
		default:
			bind = p.lookupNested(depth, prefix, key)
		}
		switch c := s.b[s.i]; {
		case c == '"':
			val, err := p.str(s)
			if err != nil {
				return err
			}
			if len(bind) > 0 {
				if err := p.setString(r, bind, val); err != nil {
					return err
				}
			} else if len(val) > 0 && val[0] == '{' && depth < len(p.inner) && p.isPrefix(prefix, key) {
				// JSON inside a string, such as Higress's ai_log. The
				// scanner lives in the parser so that it is not allocated.
				inner := &p.inner[depth]
				*inner = scanner{b: val}
				if err := p.object(inner, r, p.joinPath(depth, prefix, key), depth+1); err != nil {
					return err
				}
			}
		case c == '{':
			if p.isPrefix(prefix, key) {
				if err := p.object(s, r, p.joinPath(depth, prefix, key), depth+1); err != nil {
					return err
				}
			} else if err := s.skip(); err != nil {
				return err
			}
		case c == '[':
			if p.isPrefix(prefix, key) {
				if err := p.array(s, r, p.joinPath(depth, prefix, key), depth+1); err != nil {
					return err
				}
			} else if err := s.skip(); err != nil {
				return err
			}
		default:
			if err := p.literal(s, r, bind); err != nil {
				return err
			}
		}
		s.ws()
		if s.i >= len(s.b) {
			return s.fail("truncated")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return s.fail("want ',' or '}'")
		}
	}
}

// array reads the array at s.i whose path, a parent of dotted names, is
// path: each object in it is read as the object at path would be (a
// stream's chunks, whose last carries the call's metrics: Amazon
// Bedrock's invocation log), its other values passed over.
func (p *jsonParser) array(s *scanner, r *Record, path []byte, depth int) error {
	return s.items(func() error {
		switch s.b[s.i] {
		case '{':
			return p.object(s, r, path, depth)
		case '[':
			return s.skip()
		case '"':
			return skipString(s)
		}
		from := s.i
		for s.i < len(s.b) && isLiteral(s.b[s.i]) {
			s.i++
		}
		if s.i == from {
			return s.fail("want a value")
		}
		return nil
	})
}

// setString reads a string value into the fields of bind as Record.Set
// does. A key that binds one field is set without Set's walk when the
// field is text, and a request time is read by the clock first.
func (p *jsonParser) setString(r *Record, bind Bindings, val []byte) error {
	if len(bind) == 1 && !isAbsent(val) {
		b := bind[0]
		switch k := fields[b.Field].kind; {
		case k == KindText || k == KindRequest:
			if r.claim(b.Field, b.Prio) {
				r.putText(b.Field, b.Prio, val)
			}
			return nil
		case k == KindFloat || k == KindInt:
			// A number in a string, as CLS exports write every value.
			if end, v, ok := scanNumber(val, 0); ok && end == len(val) {
				return r.setDecimal(bind, val, v, p.loc)
			}
		case b.Field == FTime && !b.UUIDv7:
			if !r.claim(FTime, b.Prio) && !b.Stamp() { // a stamp claims no field (putStamp)
				return nil
			}
			ns, ok := p.clock.read(val, p.loc)
			if !ok && val[0]-'0' <= 9 && isEpoch(val) {
				// Epoch digits (a CLS export's __TIMESTAMP__), which
				// no form of the clock's is, as parseTime reads them.
				ns, ok = parseEpoch(val, b.Unit)
			}
			if ok && checkTime(ns) == fine {
				if b.Stamp() {
					r.putStamp(b, ns)
					return nil
				}
				r.TimeNS, r.set, r.prio[FTime] = ns, r.set|1<<FTime, b.Prio
				return nil
			}
		}
	}
	return r.Set(bind, val, p.loc)
}

// literal reads the value at s.i that is not a string, an object or an
// array into the fields of bind.
func (p *jsonParser) literal(s *scanner, r *Record, bind Bindings) error {
	start := s.i
	if c := s.b[s.i]; (c == '-' || c >= '0' && c <= '9') && !bytes.HasPrefix(s.b[s.i:], minusInfinity) {
		// A plain decimal is read as it is scanned: its value goes to
		// the fields without a second pass over its bytes.
		if end, v, ok := scanNumber(s.b, s.i); ok && (end == len(s.b) || valueEnd[s.b[end]]) {
			s.i = end
			if len(bind) > 0 {
				return r.setDecimal(bind, s.b[start:end], v, p.loc)
			}
			return nil
		}
		// A number: its bytes, then the end of the value.
		for s.i < len(s.b) && numberByte[s.b[s.i]] {
			s.i++
		}
		if s.i < len(s.b) && !valueEnd[s.b[s.i]] {
			s.i = start
			return s.fail("bad number")
		}
	} else {
		for s.i < len(s.b) && !valueEnd[s.b[s.i]] {
			s.i++
		}
	}
	tok := s.b[start:s.i]
	if err := checkLiteral(tok); err != nil {
		s.i = start
		return s.fail(err.Error())
	}
	if len(bind) > 0 && string(tok) != "null" {
		return r.Set(bind, tok, p.loc)
	}
	return nil
}

// numberByte holds the bytes a JSON number is written with, valueEnd those
// that end a value outside a string.
var numberByte, valueEnd = func() (num, end [256]bool) {
	for _, c := range []byte("0123456789-+.eE") {
		num[c] = true
	}
	for _, c := range []byte(",} \t\r\n") {
		end[c] = true
	}
	return num, end
}()

// minusInfinity is a non-finite number's literal that begins as a
// number's does.
var minusInfinity = []byte("-Infinity")

// checkLiteral checks a value that is not a string, an object or an
// array; a number's bytes are checked while it is scanned. NaN,
// Infinity and -Infinity are no JSON, but Python's json.dumps and
// DuckDB's COPY … (FORMAT json) write a non-finite float so: a value,
// which the field it is bound to cannot read (README's hostile values),
// not a line that is no JSON.
func checkLiteral(tok []byte) error {
	switch string(tok) {
	case "true", "false", "null", "NaN", "Infinity", "-Infinity":
		return nil
	}
	if len(tok) == 0 {
		return errors.New("want a value")
	}
	if c := tok[0]; c == '-' || c >= '0' && c <= '9' {
		return nil
	}
	return errors.New("want a value")
}

// cachedKey is the n-th key of the last line and its bindings. head,
// mask and tail hold the key's bytes and its closing quote as words, so
// that a key of up to fifteen bytes is compared in one or two loads:
// head the first eight (mask: those that are the quoted key's), tail the
// last eight when there are more.
type cachedKey struct {
	key              []byte
	bind             Bindings
	plain            bool // the key holds no backslash
	head, mask, tail uint64
}

func (c *cachedKey) set(key []byte, b Bindings) {
	c.key, c.bind = append(c.key[:0], key...), b
	c.plain = bytes.IndexByte(key, '\\') < 0
	var q [16]byte
	n := copy(q[:], key)
	if n < len(q) {
		q[n] = '"'
	}
	c.head, c.mask = binary.LittleEndian.Uint64(q[:8]), ^uint64(0)
	if l := len(key) + 1; l < 8 {
		c.mask = 1<<(8*l) - 1
	}
	c.tail = 0
	if l := len(key) + 1; l > 8 && l <= 16 {
		c.tail = binary.LittleEndian.Uint64(q[l-8 : l])
	}
}

// sameKey reads the top-level key at s.i when its bytes are those of the
// n-th key of the last line, and returns its bindings: one comparison in
// place of scanning the key and looking it up. A cached key holding a
// backslash is left to str, so a match is never an escaped quote.
func (p *jsonParser) sameKey(s *scanner, n int, prefix []byte) (Bindings, bool) {
	if prefix != nil || n >= len(p.cache) || !p.cache[n].plain {
		return nil, false
	}
	c := &p.cache[n]
	start, l := s.i+1, len(c.key)+1 // the key and its quote
	if l <= 16 && start+max(l, 8) <= len(s.b) {
		if (binary.LittleEndian.Uint64(s.b[start:])^c.head)&c.mask != 0 ||
			l > 8 && binary.LittleEndian.Uint64(s.b[start+l-8:]) != c.tail {
			return nil, false
		}
		s.i = start + l
		return c.bind, true
	}
	end := start + len(c.key)
	if end >= len(s.b) || s.b[end] != '"' || string(s.b[start:end]) != string(c.key) {
		return nil, false
	}
	s.i = end + 1
	return c.bind, true
}

func (p *jsonParser) lookupTop(n int, key []byte) Bindings {
	if n < len(p.cache) && string(p.cache[n].key) == string(key) {
		return p.cache[n].bind
	}
	b := p.schema.Lookup(key)
	if n < 256 {
		for len(p.cache) <= n {
			p.cache = append(p.cache, cachedKey{})
		}
		p.cache[n].set(key, b)
	}
	return b
}

// lookupNested finds a key of a nested object by its full dotted path,
// then by its own name, unless the source ignores the path.
func (p *jsonParser) lookupNested(depth int, prefix, key []byte) Bindings {
	if b, ignored := p.schema.lookupPath(p.joinPath(depth, prefix, key)); len(b) > 0 || ignored {
		return b
	}
	return p.schema.Lookup(key)
}

// joinPath returns "prefix.key" in a buffer kept for this nesting depth, so
// that walking nested objects allocates nothing once warm. The path of an
// object stays valid while its members are read: they use deeper buffers.
func (p *jsonParser) joinPath(depth int, prefix, key []byte) []byte {
	for len(p.paths) <= depth {
		p.paths = append(p.paths, nil)
	}
	b := p.paths[depth][:0]
	if len(prefix) > 0 {
		b = append(append(b, prefix...), '.')
	}
	b = append(b, key...)
	p.paths[depth] = b
	return b
}

func (p *jsonParser) isPrefix(prefix, key []byte) bool {
	if prefix == nil {
		return p.schema.IsPrefix(key)
	}
	var buf [64]byte
	if len(prefix)+1+len(key) > len(buf) {
		return false
	}
	path := append(append(append(buf[:0], prefix...), '.'), key...)
	return p.schema.IsPrefix(path)
}

// str reads the string at s.i and returns its text: a slice of the line
// when it has no escapes, else decoded into the scratch buffer.
func (p *jsonParser) str(s *scanner) ([]byte, error) {
	s.i++ // '"'
	start := s.i
	s.i = quoteOrEscape(s.b, s.i)
	if s.i >= len(s.b) {
		return nil, s.fail("unterminated string")
	}
	if s.b[s.i] == '\\' {
		return p.strEscaped(s, start)
	}
	v := s.b[start:s.i]
	s.i++
	return v, nil
}

// quoteOrEscape returns the index of the first '"' or '\\' in b from i,
// or len(b): eight bytes at a time, by the bit trick that finds a zero
// byte in a word (its lowest set bit is exact).
func quoteOrEscape(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		q, e := w^(ones*'"'), w^(ones*'\\')
		if m := ((q-ones)&^q | (e-ones)&^e) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' {
			return i
		}
	}
	return i
}

func (p *jsonParser) strEscaped(s *scanner, start int) ([]byte, error) {
	from := len(p.scratch)
	p.scratch = append(p.scratch, s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch c {
		case '"':
			s.i++
			return p.scratch[from:len(p.scratch):len(p.scratch)], nil
		case '\\':
			if s.i+1 >= len(s.b) {
				return nil, s.fail("unterminated string")
			}
			e := s.b[s.i+1]
			s.i += 2
			switch e {
			case '"', '\\', '/':
				p.scratch = append(p.scratch, e)
			case 'b':
				p.scratch = append(p.scratch, '\b')
			case 'f':
				p.scratch = append(p.scratch, '\f')
			case 'n':
				p.scratch = append(p.scratch, '\n')
			case 'r':
				p.scratch = append(p.scratch, '\r')
			case 't':
				p.scratch = append(p.scratch, '\t')
			case 'u':
				r, ok := s.hex4()
				if !ok {
					return nil, s.fail("bad \\u escape")
				}
				if r >= 0xD800 && r < 0xDC00 && s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
					save := s.i
					s.i += 2
					if r2, ok := s.hex4(); ok && r2 >= 0xDC00 && r2 < 0xE000 {
						r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
					} else {
						s.i = save
					}
				}
				p.scratch = utf8.AppendRune(p.scratch, rune(r))
			case 'x':
				// nginx's default escaping (a log_format without
				// escape=json): '"', '\\', control and non-ASCII
				// bytes as \xHH, each one byte.
				h, ok := s.hex2()
				if !ok {
					return nil, s.fail("bad \\x escape")
				}
				p.scratch = append(p.scratch, h)
			default:
				return nil, s.fail("bad escape")
			}
		default:
			p.scratch = append(p.scratch, c)
			s.i++
		}
	}
	return nil, s.fail("unterminated string")
}

// jsonKeys returns the top-level keys of the JSON object that starts line
// whose value is present (not null, "", or "-"), at most max of them, in
// order. A line cut short (or damaged) gives the keys read before the
// damage.
func jsonKeys(line []byte, max int) []string {
	var keys []string
	jsonTop(line, func(key, raw []byte) bool {
		switch string(raw) {
		case "null", `""`, `"-"`:
		default:
			keys = append(keys, string(key))
		}
		return len(keys) < max
	})
	return keys
}

// jsonValue returns the raw text of the value of top-level key name in
// the JSON object that starts line (a string with its quotes), nil when
// it has none.
func jsonValue(line []byte, name string) []byte {
	var v []byte
	jsonTop(line, func(key, raw []byte) bool {
		if string(key) == name {
			v = raw
			return false
		}
		return true
	})
	return v
}

// jsonTop gives yield each top-level key of the JSON object that starts
// line, unescaped, with its value's raw
// text, trimmed, until yield returns false. A line cut short (or damaged)
// gives the keys read before the damage.
func jsonTop(line []byte, yield func(key, raw []byte) bool) {
	s := scanner{b: line}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return
	}
	s.i++
	var p jsonParser
	for {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return
		}
		k, err := p.str(&s)
		if err != nil {
			return
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return
		}
		s.i++
		s.ws()
		if s.i >= len(s.b) {
			return
		}
		start := s.i
		switch s.b[s.i] {
		case '"':
			// (An unescaped key stays: the parser appends past it.)
			if _, err := p.str(&s); err != nil {
				return
			}
		case '{', '[':
			if s.skip() != nil {
				return
			}
		default:
			for s.i < len(s.b) && s.b[s.i] != ',' && s.b[s.i] != '}' {
				s.i++
			}
		}
		if !yield(k, bytes.TrimSpace(s.b[start:s.i])) {
			return
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ',' {
			return
		}
		s.i++
	}
}

// maxNames bounds the names of a JSON file's first record that its
// source and client are chosen from (jsonKeys, jsonPaths): enough for
// any record a program writes, few enough to read in no time.
const maxNames = 1024

// jsonPaths returns the dotted paths ("consumer.username") of the values
// nested in the JSON object that starts line, in objects or in JSON held
// in a string, that are present (not null, "", or "-"), at most max of
// them, in order; arrays are not walked. The top-level keys are
// jsonKeys's. A line cut short gives the paths read before the damage.
func jsonPaths(line []byte, max int) []string {
	var p jsonParser
	s := scanner{b: line}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return nil
	}
	paths, _ := p.appendPaths(nil, &s, "", 0, max)
	return paths
}

// maxPathDepth is how deep jsonPaths walks nested objects.
const maxPathDepth = 8

// appendPaths appends the paths of the object at s.i, whose path is
// prefix ("" at the top) at depth, to out; false when the object is
// damaged.
func (p *jsonParser) appendPaths(out []string, s *scanner, prefix string, depth, max int) ([]string, bool) {
	s.i++ // '{'
	for len(out) < max {
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == '}' {
			s.i++
			return out, true
		}
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return out, false
		}
		k, err := p.str(s)
		if err != nil {
			return out, false
		}
		path := string(k)
		if prefix != "" {
			path = prefix + "." + path
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return out, false
		}
		s.i++
		s.ws()
		if s.i >= len(s.b) {
			return out, false
		}
		switch c := s.b[s.i]; {
		case c == '{' && depth < maxPathDepth:
			var ok bool
			if out, ok = p.appendPaths(out, s, path, depth+1, max); !ok {
				return out, false
			}
		case c == '{' || c == '[':
			if s.skip() != nil {
				return out, false
			}
		case c == '"':
			v, err := p.str(s)
			if err != nil {
				return out, false
			}
			if len(v) > 0 && v[0] == '{' && depth < maxPathDepth {
				// JSON held in a string (Higress's ai_log): its paths as
				// far as it reads, whatever follows.
				inner := scanner{b: v}
				out, _ = p.appendPaths(out, &inner, path, depth+1, max)
			} else if prefix != "" && !isAbsent(v) {
				out = append(out, path)
			}
		default:
			start := s.i
			for s.i < len(s.b) && !valueEnd[s.b[s.i]] {
				s.i++
			}
			if prefix != "" && string(s.b[start:s.i]) != "null" {
				out = append(out, path)
			}
		}
		s.ws()
		if s.i >= len(s.b) {
			return out, false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return out, true
		default:
			return out, false
		}
	}
	return out, true
}
