package ingest

import (
	"bytes"
	"errors"
)

// nginx writes a JSON log_format's values as its template says, and a
// variable left unquoted there is written bare whatever it holds:
// "upstream_response_time":$upstream_response_time gives 0.512 for one
// upstream, but 0.003, 0.942 after a retry, 59.998 : 0.002 after an
// internal redirect, and - when no upstream answered (a 499, a 502 that
// never connected); with escape=json an unset variable is nothing at all
// ("key":,). Such lines are no JSON, and they are the failed and retried
// requests: reading them as bad lines would drop exactly the errors. A
// line the JSON reader refuses is read again with each bare value that is
// no JSON number or literal written as the string it is (quoteBare).

// quoteBare appends line to dst with each member's bare value that is
// not a JSON number, true, false or null quoted as a string: the text
// from after the ':' to the ',' before the next member's key, or to the
// '}' that ends its object. ok is false when line has no such value,
// when a value's end cannot be told, or when one is no value nginx
// writes (nginxValue): the line is bad as it was.
func quoteBare(dst, line []byte) (out []byte, ok bool) {
	inString, changed := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if inString {
			dst = append(dst, c)
			switch c {
			case '\\':
				if i+1 < len(line) {
					i++
					dst = append(dst, line[i])
				}
			case '"':
				inString = false
			}
			continue
		}
		dst = append(dst, c)
		switch c {
		case '"':
			inString = true
			continue
		case ':':
		default:
			continue
		}
		// A member's value.
		j := i + 1
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		if j < len(line) && (line[j] == '"' || line[j] == '{' || line[j] == '[') {
			continue
		}
		end := bareEnd(line, j)
		if end < 0 {
			return dst, false
		}
		v := bytes.TrimRight(line[j:end], " \t")
		if jsonLiteral(v) {
			continue // copied as it is
		}
		if !nginxValue(v) {
			return dst, false
		}
		dst = append(dst, line[i+1:j]...)
		dst = appendJSONString(dst, v)
		dst = append(dst, line[j+len(v):end]...)
		i, changed = end-1, true
	}
	return dst, changed && !inString
}

// bareEnd returns where the bare value at line[j:] ends: at the ',' after
// which, past blanks, a key's quote comes, or at the '}' after which only
// blanks, ',' or '}' come; -1 when neither does.
func bareEnd(line []byte, j int) int {
	for k := j; k < len(line); k++ {
		switch line[k] {
		case ',':
			n := k + 1
			for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
				n++
			}
			if n < len(line) && line[n] == '"' {
				return k
			}
		case '}':
			n := k + 1
			for n < len(line) && (line[n] == ' ' || line[n] == '\t' || line[n] == '\r') {
				n++
			}
			if n == len(line) || line[n] == ',' || line[n] == '}' {
				return k
			}
		case '"', '{', '[', '\n':
			return -1 // a bare value holds no structure
		}
	}
	return -1
}

// nginxValue reports whether v, a bare value no JSON reads, is one
// nginx writes for an unquoted variable: nothing (unset, with
// escape=json), or a list, cut by ", " or " : ", of numbers, "-" and
// addresses (10.1.0.5:8000, unix:/run/app.sock, a host name with a
// dot): what $upstream_* variables hold. Other text is no nginx value
// but a damaged line, left bad.
func nginxValue(v []byte) bool {
	if len(v) == 0 {
		return true
	}
	for _, list := range bytes.Split(v, []byte(" : ")) {
		for _, item := range bytes.Split(list, []byte(",")) {
			item = bytes.TrimSpace(item)
			if !bytes.Equal(item, []byte("-")) && !jsonLiteral(item) && !addressLike(item) {
				return false
			}
		}
	}
	return true
}

// addressLike reports whether s could be an upstream's address: letters,
// digits and . : / [ ] - _, with a '.' or a ':' among them.
func addressLike(s []byte) bool {
	sep := false
	for _, c := range s {
		switch {
		case c == '.' || c == ':':
			sep = true
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '/', c == '[', c == ']', c == '-', c == '_':
		default:
			return false
		}
	}
	return sep
}

// jsonLiteral reports whether v is a JSON number, true, false or null.
func jsonLiteral(v []byte) bool {
	switch string(v) {
	case "true", "false", "null":
		return true
	}
	// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
	i := 0
	digits := func() int {
		n := 0
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(v) && v[i] == '-' {
		i++
	}
	if i < len(v) && v[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(v) && v[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(v)
}

// appendJSONString appends v as a JSON string; a bare value of nginx's
// holds no quote (the template's own would have ended the line's
// structure), but a backslash or a control byte is escaped all the same.
func appendJSONString(dst, v []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, c := range v {
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// parseBare reads line again with its bare values quoted (quoteBare),
// after the JSON reader refused it with err; it returns err when the
// line has none, or is refused again.
func (p *jsonParser) parseBare(line []byte, r *Record, err error) error {
	var je *jsonError
	if !errors.As(err, &je) {
		return err
	}
	start := len(p.scratch)
	fixed, ok := quoteBare(p.scratch, line)
	if !ok {
		p.scratch = fixed[:start]
		return err
	}
	p.scratch = fixed
	r.set, r.unread = 0, 0
	if p.parseFrom(fixed[start:len(fixed):len(fixed)], r) != nil {
		r.set, r.unread = 0, 0
		return err
	}
	return nil
}
