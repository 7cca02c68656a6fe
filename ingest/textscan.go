package ingest

// Byte scanning for the text parsers (nginx, CSV): the separators of a
// line are found eight bytes at a time, which beats a call to
// bytes.IndexByte on the short values access logs are made of.

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// zeroBytes marks the bytes of x that are zero with their high bit. Only
// the lowest mark is exact (a borrow may mark a byte above a zero), which
// is the one the scanners use.
func zeroBytes(x uint64) uint64 { return (x - swarLo) &^ x & swarHi }

// exactZeroBytes marks the bytes of x that are zero with their high
// bit, every mark exact.
func exactZeroBytes(x uint64) uint64 {
	const low7 = swarLo * 0x7f
	return ^((x&low7 + low7) | x | low7)
}

// indexEither returns the first index at or after j of a or b in s, or
// len(s).
func indexEither(s []byte, j int, a, b byte) int {
	aa, bb := swarLo*uint64(a), swarLo*uint64(b)
	for ; j+8 <= len(s); j += 8 {
		w := binary.LittleEndian.Uint64(s[j:])
		if m := zeroBytes(w^aa) | zeroBytes(w^bb); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
	}
	for ; j < len(s); j++ {
		if c := s[j]; c == a || c == b {
			return j
		}
	}
	return j
}

// URIPath returns the path of a request URI: without its query or
// fragment, and, for an absolute URL ("https://host/v1/x", as Google
// Cloud's httpRequest.requestUrl gives it), without its scheme and host.
func URIPath(u []byte) []byte {
	if len(u) > 0 && u[0] != '/' {
		u = withoutOrigin(u)
	}
	return u[:indexEither(u, 0, '?', '#')]
}

// rootPath is the path of a URL that names none.
var rootPath = []byte("/")

// withoutOrigin returns an absolute URL from the path on ("/" when it
// has none); other text as it is.
func withoutOrigin(u []byte) []byte {
	i := bytes.Index(u, []byte("://"))
	if i <= 0 || i > 16 {
		return u
	}
	for _, c := range u[:i] { // the scheme: letters, digits, + - .
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return u
		}
	}
	rest := u[i+3:]
	if j := indexEither(rest, 0, '/', '?'); j < len(rest) && rest[j] == '/' {
		return rest[j:]
	}
	return rootPath
}

// litFinder finds one literal of a log format in a line.
type litFinder struct {
	lit   []byte
	first byte
	// word and mask: the first up to eight bytes of lit, little endian,
	// and the mask of those bytes, to compare them in one load.
	word, mask uint64
}

func newLitFinder(lit []byte) litFinder {
	l := litFinder{lit: lit}
	if len(lit) == 0 {
		return l
	}
	l.first = lit[0]
	for i := 0; i < len(lit) && i < 8; i++ {
		l.word |= uint64(lit[i]) << (8 * i)
		l.mask |= 0xff << (8 * i)
	}
	return l
}

// at reports whether the literal starts at line[k].
func (l *litFinder) at(line []byte, k int) bool {
	if len(l.lit) <= 8 && k+8 <= len(line) {
		return binary.LittleEndian.Uint64(line[k:])&l.mask == l.word
	}
	return len(line)-k >= len(l.lit) && string(line[k:k+len(l.lit)]) == string(l.lit)
}

// index returns the first index at or after from where the literal
// occurs in line, or -1. With esc, it also reports whether a backslash
// occurs in line[from:] before that index (before the end of the line
// when the literal is not found).
func (l *litFinder) index(line []byte, from int, esc bool) (int, bool) {
	if !esc {
		for j := from; j < len(line); j++ {
			k := bytes.IndexByte(line[j:], l.first)
			if k < 0 {
				break
			}
			if j += k; l.at(line, j) {
				return j, false
			}
		}
		return -1, false
	}
	if l.first == '\\' {
		k := bytes.Index(line[from:], l.lit)
		if k < 0 {
			return -1, bytes.IndexByte(line[from:], '\\') >= 0
		}
		return from + k, bytes.IndexByte(line[from:from+k], '\\') >= 0
	}
	slash := false
	cc, bb := swarLo*uint64(l.first), swarLo*uint64('\\')
	j := from
	for ; j+8 <= len(line); j += 8 {
		w := binary.LittleEndian.Uint64(line[j:])
		for m := exactZeroBytes(w^cc) | exactZeroBytes(w^bb); m != 0; m &= m - 1 {
			k := j + bits.TrailingZeros64(m)>>3
			if line[k] == '\\' {
				slash = true
			} else if l.at(line, k) {
				return k, slash
			}
		}
	}
	for ; j < len(line); j++ {
		if line[j] == '\\' {
			slash = true
		} else if line[j] == l.first && l.at(line, j) {
			return j, slash
		}
	}
	return -1, slash
}
