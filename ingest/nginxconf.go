package ingest

import (
	"errors"
	"strings"
)

// A log format copied from nginx.conf, as users find it there:
//
//	log_format main escape=json '$remote_addr - [$time_local] '
//	                            '"$request" $status $request_time';
//
// The directive, its name and its escape= parameter are no part of the
// format; its strings, single- or double-quoted or bare, are joined with
// nothing between them, as nginx joins them.

// confLogFormat returns the format a log_format directive copied from
// nginx.conf (or only its quoted strings) gives, and whether s is one: it
// begins with "log_format", or with a single quote, or with a double
// quote and ends with ';'. A format of double-quoted fields as nginx
// writes them ("$request" "$http_referer") is none of these.
func confLogFormat(s string) (string, bool, error) {
	if f, ok := apacheConfFormat(s); ok {
		return f, true, nil
	}
	t := strings.TrimSpace(s)
	directive := strings.HasPrefix(t, "log_format") && (len(t) == len("log_format") || isConfSpace(t[len("log_format")]))
	if !directive && !strings.HasPrefix(t, "'") && !(strings.HasPrefix(t, `"`) && strings.HasSuffix(t, ";")) {
		return s, false, nil
	}
	words, err := confWords(t)
	if err != nil {
		return "", true, err
	}
	if directive {
		words = words[1:] // log_format
		if len(words) == 0 {
			return "", true, errors.New("the log_format directive has no name")
		}
		words = words[1:] // its name
		if len(words) > 0 && strings.HasPrefix(words[0], "escape=") {
			words = words[1:]
		}
	}
	if len(words) == 0 {
		return "", true, errors.New("the log_format directive has no format")
	}
	return strings.Join(words, ""), true, nil
}

// confWords splits an nginx configuration directive into its words, as
// nginx reads them: quoted ones unescaped (\" \' \\ \t \r \n), comments
// (# to the end of the line) between them skipped, up to the ';' that
// ends it, after which only blanks and a comment may follow.
func confWords(s string) ([]string, error) {
	var words []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isConfSpace(c):
			i++
		case c == ';':
			rest := strings.TrimSpace(s[i+1:])
			if rest != "" && rest[0] != '#' {
				return nil, errors.New("text after the ';' that ends the log_format directive")
			}
			return words, nil
		case c == '#':
			// A comment, to the end of its line, as nginx reads one
			// between a directive's words.
			if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
				i += nl + 1
			} else {
				i = len(s)
			}
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
					switch s[j] {
					case 't':
						b.WriteByte('\t')
					case 'r':
						b.WriteByte('\r')
					case 'n':
						b.WriteByte('\n')
					case c, '\\':
						b.WriteByte(s[j])
					default:
						b.WriteByte('\\')
						b.WriteByte(s[j])
					}
					continue
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, errors.New("a quoted string of the log_format directive is not closed")
			}
			words = append(words, b.String())
			i = j + 1
		default:
			j := i
			for j < len(s) && !isConfSpace(s[j]) && s[j] != ';' {
				j++
			}
			words = append(words, s[i:j])
			i = j
		}
	}
	return words, nil
}

func isConfSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
