package ingest

// logfmt (https://brandur.org/logfmt): one record per line, pairs
// key=value separated by spaces, a value with a space or a quote written
// in double quotes with Go's escapes ("a \"b\""). Go's loggers write it
// (logrus' and go-kit's text formats, log/slog's TextHandler), so do
// Heroku's router (at=info method=GET path="/" … service=12ms status=200)
// and gateways (agentgateway). Some put words before the pairs: a time, a
// level, a message ("2026-12-05T10:00:00Z INFO request gateway=… "); the
// first of them is the record's time when it reads as one and no key is
// the time.
//
// Ruby's Logger writes its own prefix before each message, and Rails up
// to 7.0 logs through it in production, so lograge's key=value lines
// arrive behind it: "I, [2025-03-10T10:00:20.158520 #7]  INFO -- :
// [req-id] method=POST … duration=1991.15" (rubyLoggerPrefix).

import (
	"bytes"
	"fmt"
	"time"
)

// logfmtPrefixMax is how many words a logfmt line may carry before its
// pairs: a time, a level and a message word (agentgateway's "2026-…Z
// INFO request", Heroku's drained "2026-…+00:00 heroku[router]:").
const logfmtPrefixMax = 3

// logfmtScan is a scanner of one logfmt line.
type logfmtScan struct {
	line []byte
	i    int
}

// next returns the next token: a pair's key and value (quoted: in its
// quotes, escapes and all), or a word (eq false). ok is false at the
// end of the line, and err for a quote no quote closes.
func (s *logfmtScan) next() (key, val []byte, eq, quoted, ok bool, err error) {
	line := s.line
	i := s.i
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i >= len(line) {
		s.i = i
		return nil, nil, false, false, false, nil
	}
	start := i
	if line[i] == '"' { // a quoted word (a message before the pairs)
		end, e := quotedEnd(line, i)
		s.i = end
		return line[start:end], nil, false, false, true, e
	}
	for i < len(line) && line[i] != '=' && line[i] != ' ' && line[i] != '\t' && line[i] != '"' {
		i++
	}
	if i >= len(line) || line[i] != '=' || i == start {
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		s.i = i
		return line[start:i], nil, false, false, true, nil
	}
	key = line[start:i]
	i++ // '='
	if i < len(line) && line[i] == '"' {
		end, e := quotedEnd(line, i)
		s.i = end
		return key, line[i:end], true, true, true, e
	}
	v := i
	for i < len(line) && line[i] != ' ' && line[i] != '\t' {
		i++
	}
	s.i = i
	return key, line[v:i], true, false, true, nil
}

// quotedEnd returns the index after the quote that closes the one at
// line[i], a backslash escaping the byte after it; the line's end and an
// error when none does.
func quotedEnd(line []byte, i int) (int, error) {
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return len(line), &logfmtError{col: i + 1, msg: "a quote no quote closes"}
}

// logfmtError is a line that is not logfmt.
type logfmtError struct {
	col int // 1-based
	msg string
}

func (e *logfmtError) Error() string { return fmt.Sprintf("column %d: %s", e.col, e.msg) }

// unquoteLogfmt appends the text of a quoted value (its quotes and
// all) to dst: Go's escapes \" \\ \n \t \r read, any other backslash
// kept as written.
func unquoteLogfmt(dst, q []byte) []byte {
	q = q[1:]
	if n := len(q); n > 0 && q[n-1] == '"' {
		q = q[:n-1]
	}
	for j := 0; j < len(q); j++ {
		c := q[j]
		if c == '\\' && j+1 < len(q) {
			j++
			switch q[j] {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			case '"', '\\':
				c = q[j]
			default:
				dst = append(dst, '\\')
				c = q[j]
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// looksLogfmt reports whether line is logfmt: at most logfmtPrefixMax
// words, then at least two pairs with keys of [A-Za-z0-9_.@/-], to
// the line's end (a word among the pairs is a key without a value).
func looksLogfmt(line []byte) bool {
	if msg, _, ok := rubyLoggerPrefix(line); ok {
		line = msg
	}
	s := logfmtScan{line: line}
	words, pairs := 0, 0
	for {
		key, _, eq, _, ok, err := s.next()
		if !ok || err != nil {
			return err == nil && pairs >= 2
		}
		if !eq {
			if pairs == 0 {
				if words++; words > logfmtPrefixMax || key[0] == '<' { // XML's or HTML's attributes
					return false
				}
			}
			continue
		}
		for _, c := range key {
			if !(isVarChar(c) || c == '.' || c == '-' || c == '@' || c == '/') {
				return false
			}
		}
		pairs++
	}
}

// logfmtHead reports whether most of head's first lines (at least two,
// or the one there is) are logfmt.
func logfmtHead(head []byte) bool {
	lines := headLines(head, sniffLines)
	yes := 0
	for _, l := range lines {
		if looksLogfmt(l) {
			yes++
		}
	}
	return yes > 0 && yes*2 > len(lines)
}

// logfmtFirst returns the first of head's lines that is logfmt, or nil:
// the line whose keys tell the file's source (`heroku logs` begins with
// an app's line as often as with the router's).
func logfmtFirst(head []byte) []byte {
	for _, l := range headLines(head, sniffLines) {
		if looksLogfmt(l) {
			return l
		}
	}
	return nil
}

// logfmtKeys returns the keys of line, at most max.
func logfmtKeys(line []byte, max int) []string {
	var out []string
	s := logfmtScan{line: line}
	for len(out) < max {
		key, _, eq, _, ok, _ := s.next()
		if !ok {
			break
		}
		if eq {
			out = append(out, string(key))
		}
	}
	return out
}

// logfmtTime is the binding of the word before a line's pairs that is
// its time: below every name's, so that a key of the time wins.
var logfmtTime = Bindings{{Field: FTime, Prio: prioDerived - 1}}

// logfmtParser reads logfmt lines. Values point into the line, or into
// a scratch buffer for quoted values with escapes; the keys of the last
// line are kept with their bindings, so that a file whose lines repeat
// their keys looks each up once.
type logfmtParser struct {
	holding
	keyBinds
	schema *Schema
	loc    *time.Location
	// heroku: the file is Heroku's log as `heroku logs` prints it, whose
	// lines of other processes than the router are passed over.
	heroku bool
	// agentgateway: the file is agentgateway's text log, whose lines of
	// another target than the request log's are passed over.
	agentgateway bool
}

func newLogfmtParser(c *parserConfig) *logfmtParser {
	src := ""
	if c.schema.source != nil {
		src = c.schema.source.name
	}
	return &logfmtParser{schema: c.schema, loc: c.loc, heroku: src == "heroku-router", agentgateway: src == "agentgateway"}
}

// errHerokuOther is a line of `heroku logs` that another process than
// the router wrote: an app's ("app[web.1]:") or the platform's
// ("heroku[web.1]: State changed from starting to up").
var errHerokuOther = fmt.Errorf("%w: a line of another process than Heroku's router (an app's, or the platform's)", errPassOver)

// herokuRouter is the process word of the router's lines in `heroku logs`.
var herokuRouter = []byte("heroku[router]:")

// agentgateway's text log writes every line as its date, its level and
// its target cut by tabs (crates/core/src/telemetry.rs: log() writes
// "{date}\t{level}\t{target}" then " {k}={v}" for each pair; the tracing
// lines, IstioFormat, "{date}\t{level}\t{target}\t{message}\t{k=v…}").
// The request log's target is "request" (crates/agentgateway/src/
// telemetry/log.rs); the gateway's own lines ("app", "proxy::gateway
// … started bind bind=…", warnings) are no requests.
const agwTargetWord = 3 // the target is the third word before the pairs

var agwRequestTarget = []byte("request")

// errAgentgatewayOwn is a line of agentgateway's own log, not its
// request log's.
var errAgentgatewayOwn = fmt.Errorf("%w: a line of agentgateway's own log, not of its request log", errPassOver)

// Parse reads one line into r: each pair's value into the fields its
// key binds, and the first word before the pairs into the time when it
// reads as one. A line with no pair, or a quote no quote closes, is an
// error; the values before it are set first, as the other parsers do.
func (p *logfmtParser) Parse(line []byte, r *Record) error {
	p.newLine()
	var first []byte // the first word before the pairs
	if msg, stamp, ok := rubyLoggerPrefix(line); ok {
		line, first = msg, stamp
	}
	s := logfmtScan{line: line}
	n, words := 0, 0 // pairs read, words before them
	for {
		key, val, eq, quoted, ok, err := s.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if !eq {
			if n > 0 {
				continue
			}
			words++
			if first == nil && len(key) > 0 && isDigit(key[0]) {
				first = key
			}
			if p.heroku && bytes.HasSuffix(key, []byte("]:")) && !bytes.Equal(key, herokuRouter) {
				return errHerokuOther
			}
			if p.agentgateway && words == agwTargetWord && !bytes.Equal(key, agwRequestTarget) {
				return errAgentgatewayOwn
			}
			continue
		}
		if n == 0 && p.agentgateway && words < agwTargetWord {
			return errAgentgatewayOwn
		}
		b := p.bindings(n, key)
		n++
		if len(b) == 0 {
			continue
		}
		if quoted {
			if bytes.IndexByte(val, '\\') < 0 {
				val = val[1 : len(val)-1]
			} else {
				from := len(p.scratch)
				p.scratch = unquoteLogfmt(p.scratch, val)
				val = p.scratch[from:len(p.scratch):len(p.scratch)]
			}
		}
		if err := r.Set(b, val, p.loc); err != nil {
			return err
		}
	}
	if n == 0 {
		return &logfmtError{col: 1, msg: "no key=value pair"}
	}
	if first != nil && !r.Has(FTime) && len(first) >= 10 && bytes.ContainsAny(first, "-/") {
		if _, ok := parseTime(first, UnitNone, p.loc); ok {
			if err := r.Set(logfmtTime, first, p.loc); err != nil {
				return err
			}
		}
	}
	return r.Finish()
}

// bindings returns the bindings of the n-th key of the line.
func (p *logfmtParser) bindings(n int, key []byte) Bindings {
	if b, ok := p.kept(n, key); ok {
		return b
	}
	b := p.schema.Lookup(key)
	p.keep(n, key, b)
	return b
}

// rubyLoggerPrefix returns the message of a line Ruby's Logger::Formatter
// wrote, and the time in its prefix; ok false when line has no such
// prefix. The formatter writes (ruby/logger lib/logger/formatter.rb)
//
//	Format = "%.1s, [%s #%d] %5s -- %s: %s\n"
//	DatetimeFormat = "%Y-%m-%dT%H:%M:%S.%6N"
//
// the severity's letter, the time (local, no zone: read in --tz, as
// other times without one), the process id, the severity padded to
// five, the program's name (empty by default) and the message. Older
// Rubies wrote "[%s#%d]" after a time format that ended in a space: the
// same bytes. A datetime_format of the user's own is any text before
// " #pid]".
func rubyLoggerPrefix(line []byte) (msg, stamp []byte, ok bool) {
	if len(line) < 8 || line[1] != ',' || line[2] != ' ' || line[3] != '[' || line[0] < 'A' || line[0] > 'Z' {
		return nil, nil, false
	}
	end := bytes.IndexByte(line, ']')
	if end < 0 {
		return nil, nil, false
	}
	in := line[4:end] // "TIME #PID"
	hash := bytes.LastIndexByte(in, '#')
	if hash < 1 || in[hash-1] != ' ' || hash+1 == len(in) {
		return nil, nil, false
	}
	for _, c := range in[hash+1:] {
		if !isDigit(c) {
			return nil, nil, false
		}
	}
	rest := bytes.TrimLeft(line[end+1:], " ")
	sev := bytes.IndexByte(rest, ' ') // the severity's word, then " -- "
	if sev <= 0 || !bytes.HasPrefix(rest[sev:], []byte(" -- ")) {
		return nil, nil, false
	}
	rest = rest[sev+len(" -- "):]
	colon := bytes.Index(rest, []byte(": "))
	if colon < 0 {
		if !bytes.HasSuffix(rest, []byte(":")) {
			return nil, nil, false
		}
		colon = len(rest) - 1 // an empty message
	}
	msg = rest[min(colon+2, len(rest)):]
	return msg, in[:hash-1], true
}
