package ingest

// scanner is a position in a JSON text, with the steps every JSON reader
// here shares: white space, errors that name their column, \u escapes and
// skipping a value nobody reads.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	// One comparison for the common case, a byte that is not a space.
	for s.i < len(s.b) && s.b[s.i] <= ' ' {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) fail(msg string) error {
	if s.i >= len(s.b) {
		msg = "truncated"
	}
	return &jsonError{col: s.i + 1, msg: msg}
}

func (s *scanner) hex4() (int, bool) {
	if s.i+4 > len(s.b) {
		return 0, false
	}
	v := 0
	for _, c := range s.b[s.i : s.i+4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return v, true
}

// hex2 reads the two hex digits of a \xHH escape.
func (s *scanner) hex2() (byte, bool) {
	if s.i+2 > len(s.b) {
		return 0, false
	}
	hi, ok1 := unhex(s.b[s.i])
	lo, ok2 := unhex(s.b[s.i+1])
	if !ok1 || !ok2 {
		return 0, false
	}
	s.i += 2
	return hi<<4 | lo, true
}

// skip passes over the object or array at s.i without recursion, so that
// deep nesting cannot exhaust the stack.
func (s *scanner) skip() error {
	depth := 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.i++
				return nil
			}
		case '"':
			s.i++
			for s.i < len(s.b) && s.b[s.i] != '"' {
				if s.b[s.i] == '\\' {
					s.i++
				}
				s.i++
			}
			if s.i >= len(s.b) {
				return s.fail("unterminated string")
			}
		}
		s.i++
	}
	return s.fail("truncated")
}
