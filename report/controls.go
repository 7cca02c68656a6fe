package report

import "unicode/utf8"

// isControl reports whether c would act rather than show if log-derived
// text carried it into a report: a C0 or C1 control character (a
// terminal that prints the file runs ESC and BEL sequences), a line or
// paragraph separator, or a bidirectional formatting character, which
// reorders the text around it ("evil\u202egnp.exe" shows as
// "evilexe.png"). The Markdown, HTML and Prometheus reports show each
// as a space.
func isControl(c rune) bool {
	switch {
	case c < ' ', c >= 0x7f && c <= 0x9f:
		return true
	case c == '\u2028', c == '\u2029':
		return true
	case c == '\u200e', c == '\u200f', c == '\u061c': // LRM, RLM, ALM
		return true
	case c >= '\u202a' && c <= '\u202e', c >= '\u2066' && c <= '\u2069': // embeddings, overrides, isolates
		return true
	}
	return false
}

// replaceControls returns page with every control character of
// isControl but tab and line feed, which the page's own markup holds,
// replaced by a space. Bytes that are not valid UTF-8 are kept.
func replaceControls(page []byte) []byte {
	var out []byte
	done := 0
	for i := 0; i < len(page); {
		c, size := rune(page[i]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRune(page[i:])
		}
		if c != '\t' && c != '\n' && isControl(c) {
			if out == nil {
				out = make([]byte, 0, len(page))
			}
			out = append(out, page[done:i]...)
			out = append(out, ' ')
			done = i + size
		}
		i += size
	}
	if out == nil {
		return page
	}
	return append(out, page[done:]...)
}
