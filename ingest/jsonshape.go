package ingest

import (
	"encoding/binary"
)

// A JSON-lines log written by one program has the same keys on every
// line, in the same order, with the same bytes between them: only the
// values change. The parser learns that shape from a line it has read
// (learnShape) and reads the next ones by it (parseShaped): per key, one
// comparison of the bytes from the previous value's end to this value's
// start ("," + the quoted key + ":" and any spaces), then the value, read
// by the functions the general reader uses. A line that is not of the
// shape at any point — another key, other spacing, an escape in a string,
// an object to walk — is read again the general way, so what a line
// gives never depends on the path that read it.

// lineShape is the shape of a line: its keys, and the bytes after its
// last value.
type lineShape struct {
	keys []shapeKey
	tail []byte
	// lits holds every key's lit and the tail, so that learning a
	// shape allocates nothing once warm.
	lits []byte
}

// shapeKey is one key of a shape. lit is the bytes from the end of the
// value before (the line's start for the first key) to the start of the
// key's value. A lit of up to 32 bytes is compared as four little-endian
// words under masks (w, m: the bytes past its end are masked out), with
// no branch on its length; a longer one, or one at the end of the line,
// as bytes.
type shapeKey struct {
	lit    []byte
	w, m   [4]uint64
	long   bool // lit is over 32 bytes
	wide   bool // lit is over 16 bytes: its last two words are compared too
	bind   Bindings
	nested bool // the key heads nested fields: an object under it is walked
	// num is the field of a key bound to one duration (KindFloat) or
	// integer (KindInt) field, whose plain decimals the loop sets as
	// setDecimal does, without its walk of the bindings; nil otherwise.
	num *fieldInfo
	// inS and scale are a duration's: seconds per unit of its values,
	// and the factor to its field's unit (1 in it), as putter's.
	inS, scale float64
	// text: the key is bound to one text field, whose strings the loop
	// sets as setString does.
	text bool
	// flag: the key is bound to one boolean field, whose true and false
	// the loop sets as Set reads them.
	flag bool
}

// shapeMaxKeys bounds the keys a shape holds.
const shapeMaxKeys = 256

// atBytes reports whether b holds the key's lit at pos, byte by byte:
// for a long lit or the line's end (parseShaped compares words).
func (k *shapeKey) atBytes(b []byte, pos int) bool {
	n := len(k.lit)
	return pos+n <= len(b) && string(b[pos:pos+n]) == string(k.lit)
}

// newShapeKey returns the key of lit.
func newShapeKey(lit []byte, bind Bindings, nested bool) shapeKey {
	k := shapeKey{lit: lit, bind: bind, nested: nested, long: len(lit) > 32, wide: len(lit) > 16}
	if len(bind) == 1 && !bind[0].general() { // -1 absent: the general setters read it
		switch info := &fields[bind[0].Field]; info.kind {
		case KindFloat, KindInt:
			k.num = info
			k.inS, k.scale = unitFactors(info, bind[0].Unit)
		case KindText, KindRequest:
			k.text = true
		case KindBool:
			k.flag = true
		}
	}
	var q, mask [32]byte
	copy(q[:], lit)
	for i := range min(len(lit), 32) {
		mask[i] = 0xff
	}
	for i := range 4 {
		k.w[i] = binary.LittleEndian.Uint64(q[8*i:])
		k.m[i] = binary.LittleEndian.Uint64(mask[8*i:])
	}
	return k
}

// parseShaped reads line by the parser's shape into r. It returns false
// when the line is not of the shape, or has anything the shape does not
// read (then r holds part of it, and the caller reads it again).
func (p *jsonParser) parseShaped(line []byte, r *Record) bool {
	s := scanner{b: line}
	keys := p.shape.keys
	for i := range keys {
		k := &keys[i]
		// The lit's four words under their masks, in the loop: a call
		// per key (past the inliner's budget) cost more than the test.
		if at := s.i; !k.long && at+32 <= len(line) {
			q := line[at : at+32 : at+32]
			d := (binary.LittleEndian.Uint64(q)^k.w[0])&k.m[0] |
				(binary.LittleEndian.Uint64(q[8:])^k.w[1])&k.m[1]
			if k.wide { // most keys are shorter: two words less
				d |= (binary.LittleEndian.Uint64(q[16:])^k.w[2])&k.m[2] |
					(binary.LittleEndian.Uint64(q[24:])^k.w[3])&k.m[3]
			}
			if d != 0 {
				return false
			}
		} else if !k.atBytes(line, at) {
			return false
		}
		s.i += len(k.lit)
		if s.i >= len(line) {
			return false
		}
		switch line[s.i] {
		case '"':
			start := s.i + 1
			end := quoteOrEscape(line, start)
			if end >= len(line) || line[end] == '\\' {
				return false
			}
			val := line[start:end]
			s.i = end + 1
			if k.text && !isAbsent(val) {
				if b := k.bind[0]; r.claim(b.Field, b.Prio) {
					r.putText(b.Field, b.Prio, val)
				}
			} else if len(k.bind) > 0 {
				if k.num != nil {
					// A number in a string ("0.018"), as setString
					// reads it; a request_time it refuses is left to
					// the general reader, which reports it.
					if end, v, ok := scanNumber(val, 0); ok && end == len(val) {
						if !r.setPlainNumber(k.bind[0], k.num.kind, k.inS, k.scale, v) && k.bind[0].Field == FRequestTime {
							return false
						}
						continue
					}
				}
				if p.setString(r, k.bind, val) != nil {
					return false
				}
			} else if k.nested && len(val) > 0 && val[0] == '{' {
				return false // JSON in a string: the general reader walks it
			}
		case '{':
			if k.nested || s.skip() != nil {
				return false
			}
		case '[':
			if k.nested || s.skip() != nil {
				return false // an array to walk: the general reader walks it
			}
		default:
			// A plain decimal, or null, as literal reads them.
			if c := line[s.i]; c == '-' || c-'0' <= 9 {
				if end, v, ok := scanNumber(line, s.i); ok && (end == len(line) || valueEnd[line[end]]) {
					start := s.i
					s.i = end
					if k.num != nil {
						// Record.setPlainNumber's steps, in the loop (a
						// call per number cost more than the setting),
						// with the key's unit factors: as setDecimal for one
						// binding of a duration or integer field; a
						// request_time it refuses is left to the general
						// reader, which reports it.
						if b := k.bind[0]; r.claim(b.Field, b.Prio) {
							if k.num.kind == KindInt {
								if isInt(v) {
									r.put(b.Field, b.Prio, v+0) // +0 turns -0 into 0
								} else {
									r.unreadable(b.Field, line[start:end])
								}
							} else if v >= 0 && v*k.inS <= MaxDurationS { // duration's checks (NaN fails them too)
								r.put(b.Field, b.Prio, v*k.scale+0) // +0 turns -0 into 0
							} else if b.Field == FRequestTime {
								return false
							} else {
								r.unreadable(b.Field, line[start:end])
							}
						}
					} else if len(k.bind) > 0 && r.setDecimal(k.bind, line[start:end], v, p.loc) != nil {
						return false
					}
					continue
				}
			} else if c == 'n' && s.i+4 <= len(line) && string(line[s.i:s.i+4]) == "null" &&
				(s.i+4 == len(line) || valueEnd[line[s.i+4]]) {
				s.i += 4
				continue
			} else if n := boolLiteral(line, s.i); n > 0 && k.flag {
				if b := k.bind[0]; r.claim(b.Field, b.Prio) {
					v := 0.0 // as Set reads "false"
					if n == len("true") {
						v = 1
					}
					r.put(b.Field, b.Prio, v)
				}
				s.i += n
				continue
			}
			if p.literal(&s, r, k.bind) != nil {
				return false
			}
		}
	}
	tail := p.shape.tail
	return len(line)-s.i == len(tail) && string(line[s.i:]) == string(tail)
}

// boolLiteral returns the length of the true or false at line[i], ended
// as a value ends; 0 when there is none.
func boolLiteral(line []byte, i int) int {
	n := 0
	switch {
	case i+4 <= len(line) && string(line[i:i+4]) == "true":
		n = 4
	case i+5 <= len(line) && string(line[i:i+5]) == "false":
		n = 5
	default:
		return 0
	}
	if i+n < len(line) && !valueEnd[line[i+n]] {
		return 0
	}
	return n
}

// learnShape makes line, which the general reader read without an
// error, the parser's shape; it leaves the parser without one when the
// line has none it can read: no key, a key with an escape, too many
// keys, or a nested value it would walk.
func (p *jsonParser) learnShape(line []byte) {
	sh := &p.shape
	sh.keys, sh.tail, sh.lits = sh.keys[:0], nil, sh.lits[:0]
	var spans [shapeMaxKeys + 1][2]int // of each key, its lit: from, to
	n, ok := p.scanShape(line, &spans)
	if !ok {
		sh.keys = sh.keys[:0]
		return
	}
	for _, sp := range spans[:n] {
		sh.lits = append(sh.lits, line[sp[0]:sp[1]]...)
	}
	from := spans[n][0] // the end of the last value
	sh.lits = append(sh.lits, line[from:]...)
	at := 0
	for i := range sh.keys {
		k := &sh.keys[i]
		l := spans[i][1] - spans[i][0]
		*k = newShapeKey(sh.lits[at:at+l:at+l], k.bind, k.nested)
		at += l
	}
	sh.tail = sh.lits[at:]
}

// scanShape reads the keys of line into p.shape.keys (their bindings)
// and the span of each key's lit into spans; spans[n][0], after the n
// keys, is the end of the last value. It returns false for a line with
// no shape learnShape keeps.
func (p *jsonParser) scanShape(line []byte, spans *[shapeMaxKeys + 1][2]int) (int, bool) {
	sh := &p.shape
	s := scanner{b: line}
	s.ws()
	if s.i >= len(line) || line[s.i] != '{' {
		return 0, false
	}
	s.i++
	from := 0
	for n := 0; n < shapeMaxKeys; n++ {
		s.ws()
		if s.i >= len(line) || line[s.i] != '"' {
			return 0, false
		}
		start := s.i + 1
		end := quoteOrEscape(line, start)
		if end >= len(line) || line[end] == '\\' {
			return 0, false
		}
		key := line[start:end]
		s.i = end + 1
		s.ws()
		if s.i >= len(line) || line[s.i] != ':' {
			return 0, false
		}
		s.i++
		s.ws()
		if s.i >= len(line) {
			return 0, false
		}
		spans[n] = [2]int{from, s.i}
		k := shapeKey{bind: p.schema.Lookup(key), nested: p.schema.IsPrefix(key)}
		switch line[s.i] {
		case '"':
			if k.nested && s.i+1 < len(line) && line[s.i+1] == '{' || skipString(&s) != nil {
				return 0, false
			}
		case '{':
			if k.nested || s.skip() != nil {
				return 0, false
			}
		case '[':
			if k.nested || s.skip() != nil {
				return 0, false
			}
		default:
			for s.i < len(line) && !valueEnd[line[s.i]] {
				s.i++
			}
		}
		sh.keys = append(sh.keys, k)
		from = s.i
		s.ws()
		switch {
		case s.i < len(line) && line[s.i] == ',':
			s.i++
		case s.i < len(line) && line[s.i] == '}':
			// The line was read whole: what follows '}' is space.
			spans[n+1][0] = from
			return n + 1, true
		default:
			return 0, false
		}
	}
	return 0, false
}

// skipString passes over the string at s.i, escapes and all.
func skipString(s *scanner) error {
	s.i++
	for {
		s.i = quoteOrEscape(s.b, s.i)
		if s.i >= len(s.b) {
			return s.fail("unterminated string")
		}
		if s.b[s.i] == '"' {
			s.i++
			return nil
		}
		s.i += 2
	}
}
