package ingest

import (
	"bufio"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// utf16Of returns the UTF-16 encoding br's text is in, nil when it is
// not: a byte-order mark tells it (FF FE little endian, FE FF big
// endian), or, without one, a head whose every other byte is zero and
// the others not, as ASCII text in UTF-16 is (little endian when the
// zeros are second). The decoder drops the mark.
func utf16Of(br *bufio.Reader) encoding.Encoding {
	b, _ := br.Peek(64)
	switch {
	case len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	case len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	}
	if len(b) < 16 {
		return nil
	}
	b = b[:len(b)&^1]
	if zeroEvery(b, 1) {
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	}
	if zeroEvery(b, 0) {
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	}
	return nil
}

// zeroEvery reports whether b's bytes at odd (at = 1) or even (at = 0)
// places are all zero, and the others none.
func zeroEvery(b []byte, at int) bool {
	for i, c := range b {
		if (i%2 == at) != (c == 0) {
			return false
		}
	}
	return true
}
