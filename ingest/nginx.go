package ingest

// nginx text: a parser compiled from the log_format that wrote the log.
// The format becomes the literal before the first variable and a list of
// (variable, following literal); a line is matched by walking that list,
// each value ending where its following literal next occurs, except for
// the spaces inside upstream lists ("0.100, 0.004") and $time_local.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"
)

// namedLogFormats are the log_format strings --log-format accepts by name.
var namedLogFormats = map[string]string{
	// nginx's predefined format.
	"combined": `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`,
	// The format of nginx's default nginx.conf.
	"main": `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for"`,
	// The Kubernetes ingress-nginx controller's default.
	"upstreaminfo": `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time [$proxy_upstream_name] [$proxy_alternative_upstream_name] $upstream_addr $upstream_response_length $upstream_response_time $upstream_status $req_id`,
	// The TokenHub gateway's format (SPEC's sample logs).
	"tokenhub": `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time urt="$upstream_response_time" uct="$upstream_connect_time" cr=$connection_requests conn=$connection ssl=$ssl_handshake_time rtt=$tcpinfo_rtt region=$region client_region=$client_region model=$model stream=$stream ttft=$first_token_ms ra=$retry_after`,
}

// guessFormats are the named formats tried, in order, on a file read as
// nginx text without --log-format.
var guessFormats = []string{"upstreaminfo", "tokenhub", "main", "combined"}

// listVars are the nginx variables whose value is a list of one item per
// upstream tried: "a, b" between upstreams of a group, "a : b" between
// groups after an internal redirect.
var listVars = map[string]bool{
	"upstream_addr":            true,
	"upstream_status":          true,
	"upstream_response_time":   true,
	"upstream_connect_time":    true,
	"upstream_header_time":     true,
	"upstream_response_length": true,
	"upstream_bytes_received":  true,
	"upstream_bytes_sent":      true,
	"upstream_cache_status":    true,
}

// nginxVar is one variable of a compiled log_format and the literal text
// that follows it.
type nginxVar struct {
	name string
	bind Bindings
	// next is the literal up to the next variable; empty for a variable
	// that ends the format (its value runs to the end of the line).
	next []byte
	list bool // the value may hold ", " and " : " separators
	// timeLocal: the value is "29/Nov/2026:10:00:00 +0800", with a space.
	timeLocal bool
}

// logFormat is a compiled nginx log_format: the literal before the first
// variable, then each variable with the literal after it.
type logFormat struct {
	prefix []byte
	vars   []nginxVar
}

// CompileLogFormat checks an nginx log_format string, or the name of a
// known one (combined, main, upstreaminfo, tokenhub), as --log-format
// takes it.
func CompileLogFormat(s string) error {
	_, err := compileLogFormat(s, nil)
	return err
}

// LogFormatNames returns the names --log-format accepts, sorted.
func LogFormatNames() []string {
	names := make([]string, 0, len(namedLogFormats))
	for k := range namedLogFormats {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// compileLogFormat turns a log_format (or a known format's name) into
// segments; with a nil schema the variables are left unbound.
func compileLogFormat(s string, schema *Schema) (*logFormat, error) {
	if named, ok := namedLogFormats[strings.ToLower(strings.TrimSpace(s))]; ok {
		s = named
	}
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("the log format is empty")
	}
	if !strings.Contains(s, "$") {
		return nil, fmt.Errorf("%q has no $variable and is not a known format name (want %s)",
			s, strings.Join(LogFormatNames(), ", "))
	}
	f := &logFormat{}
	var lit []byte
	for i := 0; i < len(s); {
		c := s[i]
		if c != '$' {
			lit = append(lit, c)
			i++
			continue
		}
		col := i + 1
		var name string
		if i+1 < len(s) && s[i+1] == '{' {
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return nil, fmt.Errorf("${ at column %d is not closed by }", col)
			}
			name = s[i+2 : i+2+end]
			if !validVarName(name) {
				return nil, fmt.Errorf("bad variable name %q at column %d", name, col)
			}
			i += 3 + end
		} else {
			j := i + 1
			for j < len(s) && isVarChar(s[j]) {
				j++
			}
			name = s[i+1 : j]
			if name == "" {
				return nil, fmt.Errorf("$ at column %d is not followed by a variable name", col)
			}
			i = j
		}
		if n := len(f.vars); n > 0 {
			if len(lit) == 0 {
				return nil, fmt.Errorf("$%s and $%s are not separated by any text, so their values cannot be told apart",
					f.vars[n-1].name, name)
			}
			f.vars[n-1].next = lit
		} else {
			f.prefix = lit
		}
		lit = nil
		lower := strings.ToLower(name)
		v := nginxVar{name: name, list: listVars[lower], timeLocal: lower == "time_local"}
		if schema != nil {
			v.bind = schema.LookupString(name)
			for _, b := range v.bind {
				if fields[b.Field].list {
					v.list = true
				}
			}
		}
		f.vars = append(f.vars, v)
	}
	f.vars[len(f.vars)-1].next = lit
	return f, nil
}

func isVarChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func validVarName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isVarChar(s[i]) {
			return false
		}
	}
	return true
}

// nginxParser reads lines written by one log_format. It keeps a scratch
// buffer for values with \xHH escapes; nothing else is allocated per line.
type nginxParser struct {
	f       *logFormat
	loc     *time.Location
	scratch []byte
}

func newNginxParser(c *parserConfig) (*nginxParser, error) {
	if c.logFormat == "" {
		return nil, fmt.Errorf("nginx text needs --log-format: the first lines match none of the known formats (%s)",
			strings.Join(guessFormats, ", "))
	}
	f, err := compileLogFormat(c.logFormat, c.schema)
	if err != nil {
		return nil, err
	}
	return &nginxParser{f: f, loc: c.loc, scratch: make([]byte, 0, 1024)}, nil
}

// nginxError is a line that does not follow the log_format.
type nginxError struct {
	want string
	col  int  // 1-based byte column
	at   bool // the text must be exactly at col (else: somewhere after it)
	end  bool // the line ends before it
}

func (e *nginxError) Error() string {
	switch {
	case e.want == "":
		return fmt.Sprintf("text after the end of the log format at column %d", e.col)
	case e.end:
		return fmt.Sprintf("line ends at column %d, want %q", e.col, e.want)
	case e.at:
		return fmt.Sprintf("want %q at column %d", e.want, e.col)
	}
	return fmt.Sprintf("want %q after column %d", e.want, e.col)
}

// Parse reads line into r.
func (p *nginxParser) Parse(line []byte, r *Record) error {
	p.scratch = p.scratch[:0]
	f := p.f
	if !bytes.HasPrefix(line, f.prefix) {
		return mismatch(line, 0, f.prefix)
	}
	i := len(f.prefix)
	for k := range f.vars {
		v := &f.vars[k]
		end, next, err := v.match(line, i)
		if err != nil {
			return err
		}
		if len(v.bind) > 0 {
			val := line[i:end]
			if bytes.IndexByte(val, '\\') >= 0 {
				val = p.unescape(val)
			}
			if err := r.Set(v.bind, val, p.loc); err != nil {
				return err
			}
		}
		i = next
	}
	if i != len(line) {
		return &nginxError{col: i + 1}
	}
	r.Finish()
	return nil
}

// mismatch describes why lit is not at line[i:].
func mismatch(line []byte, i int, lit []byte) error {
	n := 0
	for n < len(lit) && i+n < len(line) && line[i+n] == lit[n] {
		n++
	}
	if i+n >= len(line) {
		return &nginxError{want: string(lit), col: len(line) + 1, end: true}
	}
	return &nginxError{want: string(lit), col: i + 1, at: true}
}

// match finds where v's value, starting at i, ends: the first place the
// following literal occurs, skipping the spaces inside a list value
// ("0.100, 0.004") and inside $time_local. It returns the end of the
// value and the index after the literal.
func (v *nginxVar) match(line []byte, i int) (end, next int, err error) {
	lit := v.next
	if len(lit) == 0 {
		return len(line), len(line), nil
	}
	from := i
	if v.timeLocal && lit[0] == ' ' && i+21 <= len(line) && line[i+2] == '/' && line[i+20] == ' ' {
		from = i + 21 // past the space before the zone
	}
	for {
		k := bytes.Index(line[from:], lit)
		if k < 0 {
			if from >= len(line) || endsWithPrefix(line[from:], lit) {
				return 0, 0, &nginxError{want: string(lit), col: len(line) + 1, end: true}
			}
			return 0, 0, &nginxError{want: string(lit), col: i + 1}
		}
		k += from
		if v.list && lit[0] == ' ' && k > i {
			// "a, b": the space after a comma joins two items; so does
			// " : " between groups.
			if line[k-1] == ',' {
				from = k + 1
				continue
			}
			if k+2 < len(line) && line[k+1] == ':' && line[k+2] == ' ' {
				from = k + 3
				continue
			}
		}
		return k, k + len(lit), nil
	}
}

// endsWithPrefix reports whether b ends with the start of lit: a line cut
// short inside the literal.
func endsWithPrefix(b, lit []byte) bool {
	for m := min(len(lit)-1, len(b)); m > 0; m-- {
		if bytes.HasSuffix(b, lit[:m]) {
			return true
		}
	}
	return false
}

// unescape decodes nginx's \xHH escapes into the scratch buffer.
func (p *nginxParser) unescape(val []byte) []byte {
	from := len(p.scratch)
	for j := 0; j < len(val); j++ {
		c := val[j]
		if c == '\\' && j+3 < len(val) && val[j+1] == 'x' {
			hi, ok1 := unhex(val[j+2])
			lo, ok2 := unhex(val[j+3])
			if ok1 && ok2 {
				p.scratch = append(p.scratch, hi<<4|lo)
				j += 3
				continue
			}
		}
		p.scratch = append(p.scratch, c)
	}
	return p.scratch[from:len(p.scratch):len(p.scratch)]
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// guessLogFormat returns the name of the known format that the most of
// the first lines of head follow, or "" when none fits any of them.
func guessLogFormat(head []byte, schema *Schema) string {
	best, bestN := "", 0
	var rec Record
	for _, name := range guessFormats {
		f, err := compileLogFormat(name, schema)
		if err != nil {
			continue
		}
		p := &nginxParser{f: f, loc: time.UTC}
		n := 0
		rest := head
		for lines := 0; lines < 20 && len(rest) > 0; {
			nl := bytes.IndexByte(rest, '\n')
			var l []byte
			if nl < 0 {
				// head may end inside a line: try it only when it is
				// all there is.
				if lines > 0 {
					break
				}
				l, rest = rest, nil
			} else {
				l, rest = rest[:nl], rest[nl+1:]
			}
			l = bytes.TrimRight(l, "\r")
			if blank(l) {
				continue
			}
			lines++
			rec.Reset()
			if p.Parse(l, &rec) == nil {
				n++
			}
		}
		if n > bestN {
			best, bestN = name, n
		}
	}
	return best
}
