package ingest

// nginx text: a parser compiled from the log_format that wrote the log.
// The format becomes the literal before the first variable and a list of
// (variable, following literal); a line is matched by walking that list,
// each value ending where its following literal next occurs, except for
// the spaces inside upstream lists ("0.100, 0.004") and $time_local.
// Envoy's format strings (%START_TIME%, %REQ(:METHOD)%), Apache's
// LogFormat and HAProxy's log-format compile to the same list, so their
// text logs are read the same way.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"
)

// listVars are the nginx variables whose value is a list of one item per
// upstream tried: "a, b" between upstreams of a group, "a : b" between
// groups after an internal redirect; and the X-Forwarded-For header as
// Apache's %{X-Forwarded-For}i and gunicorn's %({x-forwarded-for}i)s
// write it, one address per proxy ("203.0.113.9, 10.0.0.1").
var listVars = map[string]bool{
	"x_forwarded_for":          true,
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

// How a variable's text becomes the value the schema reads.
const (
	howPlain     = iota
	howHostPort  // "addr:port", "[v6]:port": the address
	howAddrSlot  // nginx's address slot, as real logs fill it (addrSlot)
	howFirstItem // an X-Forwarded-For list: its first address
	// howMilliUnlessPoint: a whole number is milliseconds, a number with
	// a point seconds (APISIX's $apisix_upstream_response_time: its
	// ai-proxy writes math.floor(seconds × 1000), its core copies
	// nginx's $upstream_response_time, "0.003"). Read as seconds.
	howMilliUnlessPoint
	// howHAPNumber: an HAProxy timer or status, absent when "-1" (a step
	// never reached) or "+…" (option logasap: taken before the end).
	howHAPNumber
	// howHAPRequest: an HAProxy request, method or uri, absent when
	// HAProxy read none ("<BADREQ>").
	howHAPRequest
	// howHAPServer: an HAProxy server, absent when none was chosen
	// ("backend/<NOSRV>", "<NOSRV>").
	howHAPServer
	// howStrftime: a time written with a strftime(3) format of the
	// writer's choosing (nginxVar.strftime: Envoy's
	// %START_TIME(FORMAT)%, Apache's %{FORMAT}t).
	howStrftime
	// howPyMsecs: a time Python's logging wrote, its milliseconds
	// after a comma or a point as a whole number (pyMsecs).
	howPyMsecs
	// howKoaTime: koa-logger's and Hono's logger's time, "835ms",
	// "1,042ms" or "12s" (koaTime): as ms.
	howKoaTime
)

// nginxVar is one variable of a compiled log_format and the literal text
// that follows it.
type nginxVar struct {
	name string
	bind Bindings
	// next is the literal up to the next variable; empty for a variable
	// that ends the format (its value runs to the end of the line), or
	// one that joins the next variable.
	next []byte
	list bool // the value may hold ", " and " : " separators
	// timeLocal: the value is "29/Nov/2026:10:00:00 +0800", with a space;
	// webDate: "Tue, 10 Oct 2000 13:55:36 GMT", with four.
	timeLocal, webDate bool
	how                uint8
	// joined: the next variable follows with no text between them
	// (APISIX's "$upstream_host$upstream_uri"); this one is read as empty
	// and the next one takes the text of both.
	joined bool
	// seconds: the value must be written as nginx writes times, "0.123"
	// (a list of them for upstream times); set on the trailing fields
	// the known formats are guessed with, so that another number in that
	// place is not taken for a time.
	seconds bool
	// code: the value must be three digits, an HTTP status: set where a
	// known format's status ends its line, which a longer value (a
	// status and its phrase, a line of another format) would fill.
	code bool
	// codeOrDash: code, or "-" (varSpec.codeOrDash).
	codeOrDash bool
	// slot: one of the HAProxy timers upstream_response_time is derived
	// from (slotTa …), kept for the end of the line. lead: HAProxy
	// writes nothing for this value at times (captures, a query), and
	// when it does write it, it starts with lead; skipSep: it has a
	// separator before and after it, of which HAProxy writes only the
	// first when the value is not written (haproxy_format.go).
	slot    uint8
	lead    byte
	skipSep bool
	// escQuote: a double quote inside the value is written \" (gunicorn),
	// so a following literal that starts with one is not found there.
	escQuote bool
	// strftime is the format of a howStrftime time; spaces, the spaces
	// a time written with it holds, which are no end of its value; or
	// requestWords, for a request line: its words, as many as it has.
	strftime string
	spaces   int
	// pad: the value is a number right-aligned in a column of spaces
	// (Squid's "%6tr"), which its writer puts before it and after the
	// preceding literal: read past (fusePadded).
	pad bool
	// find finds next (a space for the last variable of a lenient
	// format); put sets the value's fields; fuse: how the value may be
	// read in the pass that finds its end. Filled by prepare.
	find litFinder
	put  putter
	fuse uint8
}

// logFormat is a compiled nginx log_format: the literal before the first
// variable, then each variable with the literal after it.
type logFormat struct {
	name   string // the known format's name; "" for a format given as text
	source string // FileStats.Source of a file read with it
	prefix []byte
	vars   []nginxVar
	// lenient: text after the end of the format is ignored (known
	// formats, which real configurations extend with fields of their own).
	lenient bool
	// haproxy: an HAProxy log-format, whose lines may follow a syslog
	// header; derive: its timers give upstream_response_time.
	haproxy, derive bool
	// given: the user's (--log-format), whose lines a value that does
	// not read leaves its own, bad (pickLogFormat).
	given bool
	// fits: a known format's knownFormat.fits, which a line must pass
	// to be counted for it when a file's format is guessed; once the
	// format is the file's, a line that does not pass is read with it.
	fits func(line []byte) bool
	// names are its variables' names, each once (varNames).
	names []string
	// microD: an Apache LogFormat whose %D is read as request_time in
	// µs, which several servers write in ms (apacheunit.go).
	microD bool
}

// CompileLogFormat checks a log format as --log-format takes it: an nginx
// log_format string, a gunicorn access_log_format, an HAProxy
// log-format, an Envoy format string, an Apache LogFormat, or the name
// of a known format (LogFormatNames).
// Two variables with no text between them are refused when a value of
// theirs is read by the generic names (logFormat.build).
func CompileLogFormat(s string) error {
	schema, _ := NewSchema(nil)
	return CheckLogFormat(s, schema)
}

// CheckLogFormat is CompileLogFormat with the names schema binds, --map's
// among them.
func CheckLogFormat(s string, schema *Schema) error {
	_, err := compileLogFormat(s, schema)
	return err
}

// compileLogFormats is compileLogFormat, with each of the variants of a
// known format named (upstreaminfo-0.2x with $req_id and without).
func compileLogFormats(s string, schema *Schema) ([]*logFormat, error) {
	f, err := compileLogFormat(s, schema)
	if err != nil {
		return nil, err
	}
	out := []*logFormat{f}
	if f.source == "gunicorn" && f.name == "" {
		// The same behind Hypercorn's logger, which takes gunicorn's
		// atoms too.
		g, err := hypercornLogged(s, schema)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	if conf, _, err := confLogFormat(s); err == nil {
		name := strings.ToLower(strings.TrimSpace(conf))
		for _, k := range knownFormats[1:] {
			if k.name == name && k != knownFormatByName(name) {
				g, err := k.compile(schema)
				if err != nil {
					return nil, err
				}
				out = append(out, g)
			}
		}
	}
	return out, nil
}

// withoutLineEnd is format s without the end of line it may end with:
// Envoy's formats end in one, which Envoy writes only where the format
// says ("…\"%UPSTREAM_HOST%\"\n" in its documentation, Istio's and
// Contour's configuration), given as the two characters \n or as a line
// break. A line read has none: its end is the format's.
func withoutLineEnd(s string) string {
	for {
		t := strings.TrimRight(s, " \t\r\n")
		t = strings.TrimSuffix(t, `\n`)
		if t == s {
			return s
		}
		s = t
	}
}

// compileLogFormat turns a log format (or a known format's name) into
// segments; with a nil schema the variables are left unbound.
func compileLogFormat(s string, schema *Schema) (*logFormat, error) {
	s, _, err := confLogFormat(s)
	if err != nil {
		return nil, err
	}
	if k := knownFormatByName(strings.TrimSpace(s)); k != nil {
		return k.compile(schema)
	}
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("the log format is empty")
	}
	s = withoutLineEnd(s)
	var toks []formatToken
	switch {
	case strings.Contains(s, "$"):
		toks, err = nginxTokens(s)
	case hasGunicornAtom(s):
		if toks, err = gunicornTokens(s); err != nil {
			return nil, err
		}
		return gunicornFormat(toks, "gunicorn", schema)
	case hasHAProxyAlias(s):
		if toks, err = haproxyTokens(s); err != nil {
			return nil, err
		}
		f := &logFormat{source: "haproxy", haproxy: true}
		if err := f.build(toks, nil, false, schema); err != nil {
			return nil, err
		}
		f.derive = hapDerives(f.vars)
		return f, nil
	case hasEnvoyOperator(s):
		toks, err = envoyTokens(s)
	case hasApacheDirective(s):
		toks, err = apacheTokens(s)
	case hasMorganToken(s):
		if toks, err = morganTokens(s); err != nil {
			return nil, err
		}
		f := &logFormat{source: "morgan"}
		return f, f.build(toks, nil, false, schema)
	default:
		if _, aerr := apacheTokens(s); aerr != nil && strings.Contains(s, "%") {
			// An Apache LogFormat with a flaw says which.
			return nil, aerr
		}
		return nil, fmt.Errorf("%q has no $variable, gunicorn atom, HAProxy alias, Envoy operator, Apache directive or morgan token and is not a known format name (want %s)",
			s, strings.Join(LogFormatNames(), ", "))
	}
	if err != nil {
		return nil, err
	}
	f := &logFormat{source: "nginx"}
	switch {
	case len(toks) > 0 && hasApacheToken(toks):
		f.source = "apache"
	case !strings.Contains(s, "$"):
		f.source = "envoy"
	}
	return f, f.build(toks, nil, false, schema)
}

// formatToken is a literal (name == "") or a variable of a format string.
type formatToken struct {
	lit  string
	name string
	// lookup is the name the schema knows the variable by; envoy marks
	// the variable as one of Envoy's.
	lookup string
	envoy  bool
	apache bool // one of Apache's directives
	// logback: of a pattern of logback-access's, which takes Apache's
	// directives in a syntax of its own (apacheTokens) and writes %D in
	// ms.
	logback bool
	// own: an item read as spec says, not by a table of names
	// (HAProxy's items); zoned: a date with its zone after a space, as
	// nginx's $time_local.
	own   bool
	zoned bool
	web   bool // an HTTP date, "Tue, 10 Oct 2000 13:55:36 GMT" (morgan's :date)
	spec  varSpec
	col   int // 1-based column of the variable
}

// tokenList gathers a format string's tokens: the literal text read
// since the last item, then the next item.
type tokenList struct {
	toks []formatToken
	lit  []byte
}

// item adds an item after the literal text before it.
func (l *tokenList) item(t formatToken) {
	l.flush()
	l.toks = append(l.toks, t)
}

func (l *tokenList) flush() {
	if len(l.lit) > 0 {
		l.toks = append(l.toks, formatToken{lit: string(l.lit)})
		l.lit = l.lit[:0]
	}
}

// done returns the tokens, the literal text at the end last.
func (l *tokenList) done() []formatToken {
	l.flush()
	return l.toks
}

// percentItems walks a format string whose items start with '%'
// (Apache's LogFormat, gunicorn's access_log_format): "%%" is a percent
// sign, any other byte outside an item literal text. item reads the
// item whose '%' is at start, from i after it, adds it to l and returns
// the index after it.
func percentItems(s string, l *tokenList, item func(i, start int) (int, error)) error {
	for i := 0; i < len(s); {
		switch {
		case s[i] != '%':
			l.lit = append(l.lit, s[i])
			i++
		case i+1 < len(s) && s[i+1] == '%':
			l.lit = append(l.lit, '%')
			i += 2
		default:
			var err error
			if i, err = item(i+1, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// nginxTokens splits an nginx log_format into literals and $variables.
func nginxTokens(s string) ([]formatToken, error) {
	// A variable and the text before it each: sized once, not grown
	// (every text log's run compiles the known formats).
	toks := make([]formatToken, 0, 2*strings.Count(s, "$")+1)
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
		if len(lit) > 0 {
			toks = append(toks, formatToken{lit: string(lit)})
			lit = lit[:0]
		}
		toks = append(toks, formatToken{name: name, lookup: name, col: col})
	}
	if len(lit) > 0 {
		toks = append(toks, formatToken{lit: string(lit)})
	}
	return toks, nil
}

// build fills f from the tokens of its format string. spec gives
// variables bindings of their own (a known format's); join allows two
// variables without text between them. Without it, two such variables
// whose values are read by neither (APISIX's default
// "$upstream_scheme://$upstream_host$upstream_uri", given) are joined
// all the same: nothing is lost in not telling them apart.
func (f *logFormat) build(toks []formatToken, spec map[string]varSpec, join bool, schema *Schema) error {
	named := 0
	for _, t := range toks {
		if t.name != "" {
			named++
		}
	}
	f.vars = slices.Grow(f.vars, named)
	prevVar := false
	for _, t := range toks {
		if t.name == "" {
			if n := len(f.vars); n > 0 {
				f.vars[n-1].next = []byte(t.lit)
			} else {
				f.prefix = []byte(t.lit)
			}
			prevVar = false
			continue
		}
		v := newVar(t, spec, schema)
		f.microD = f.microD || microD(t, v.bind)
		if prevVar {
			prev := &f.vars[len(f.vars)-1]
			if !join && (prev.read() || v.read()) {
				return fmt.Errorf("$%s and $%s are not separated by any text, so their values cannot be told apart",
					prev.name, t.name)
			}
			prev.joined = true
		}
		f.vars = append(f.vars, v)
		prevVar = true
	}
	if len(f.vars) == 0 {
		return fmt.Errorf("the log format has no variable")
	}
	f.prepare()
	return nil
}

// read reports whether v's value is read: it binds a field, or is read
// in a way of its own.
func (v *nginxVar) read() bool { return len(v.bind) > 0 || v.how != 0 }

// newVar binds one variable: a --map of its name wins, then the format's
// own binding (spec, or Envoy's operators), then the schema's names.
func newVar(t formatToken, spec map[string]varSpec, schema *Schema) nginxVar {
	lower := strings.ToLower(t.lookup)
	v := nginxVar{name: t.name, list: listVars[lower], timeLocal: lower == "time_local" || t.zoned,
		webDate: t.web, slot: t.spec.slot, lead: t.spec.lead, pad: spec[t.name].pad}
	if schema == nil {
		return v
	}
	v.bind = schema.LookupString(t.lookup)
	for _, b := range v.bind {
		if b.Prio == prioMapped {
			return v.withLists()
		}
	}
	vs, ok := spec[t.name]
	switch {
	case ok:
	case t.envoy:
		vs, ok = envoyOperators[t.name]
	case t.apache:
		vs, ok = apacheDirectives[t.name]
		if ok && t.logback && t.name == "D" {
			// logback-access's %D is ms (ElapsedTimeConverter:
			// IAccessEvent.getElapsedTime, "in milliseconds").
			vs.unit = UnitMilli
		}
	case t.own:
		vs, ok = t.spec, t.spec != varSpec{}
	default:
		vs, ok = writerVars[t.name]
	}
	if !ok && (t.envoy || t.apache) {
		vs, ok = strftimeSpec(t.name, t.envoy)
	}
	if ok {
		v.how, v.seconds, v.code, v.codeOrDash = vs.how, vs.seconds, vs.code, vs.codeOrDash
		v.strftime, v.spaces = vs.strftime, vs.spaces
		switch {
		case vs.bound:
			v.bind = Bindings{{Field: vs.field, Unit: vs.unit, Prio: prioCanonical + vs.prio}}
		case vs.none:
			v.bind = nil
		}
	}
	if len(v.bind) == 1 && v.bind[0].Field == FRequest && v.spaces == 0 {
		v.spaces = requestWords // read so where no quote ends it
	}
	return v.withLists()
}

// withLists marks a variable bound to an upstream list field as a list.
func (v nginxVar) withLists() nginxVar {
	for _, b := range v.bind {
		if fields[b.Field].list {
			v.list = true
		}
	}
	return v
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
// buffer for values with \xHH escapes and the day and zone of the last
// $time_local; nothing is allocated per line.
type nginxParser struct {
	holding // scratch: unescaped text the records point into
	f       *logFormat
	loc     *time.Location
	clock   clocks
	slots   [numSlots][]byte // an HAProxy line's timers (nginxVar.slot)
	client  textClient       // the file's client (textclient.go)
	decolor bool             // its lines are read without terminal escapes
	// read is where the latest line parsed without error ended: past the
	// format's end, where text it does not describe begins.
	read int
}

func newNginxParser(c *parserConfig) (*nginxParser, error) {
	if c.nginx == nil {
		return nil, fmt.Errorf("text log in a format of its own: the first lines match none of the known formats (%s), so its log_format must be given",
			strings.Join(LogFormatNames(), ", "))
	}
	return &nginxParser{f: c.nginx, loc: c.loc, client: c.client, decolor: c.decolor, holding: holding{scratch: make([]byte, 0, 1024)}}, nil
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

// Parse reads line into r. Spaces and tabs after the line's end are
// none of its values: an editor or a pipe that pads lines leaves them.
func (p *nginxParser) Parse(line []byte, r *Record) error {
	for n := len(line); n > 0 && (line[n-1] == ' ' || line[n-1] == '\t'); n-- {
		line = line[:n-1]
	}
	_, err := p.parse(line, r)
	if err == nil && p.client != clientAsLine {
		r.clientFrom(p.client)
	}
	if err != nil && p.f.haproxy {
		if own := haproxyOwn(line); own != nil {
			return own
		}
	}
	if err != nil && p.decolor && coloured(line) {
		// A server's own line is told without its colours (LMDeploy's
		// level, "- \x1b[37mINFO\x1b[0m -"), as the access lines are
		// read.
		start := len(p.scratch)
		p.scratch = appendDecolored(p.scratch, line)
		line = p.scratch[start:len(p.scratch):len(p.scratch)]
	}
	if err != nil && ownLogLine(line) {
		return errOwnLine
	}
	return err
}

// errOwnLine is the reason a server's own line among its access log's
// (ownlog.go) is passed over: no request, and no bad line either.
var errOwnLine = fmt.Errorf("%w: a server's own log line (its start-up, a warning), no request", errPassOver)

// parse reads line into r and reports whether text after the end of a
// lenient format was ignored.
func (p *nginxParser) parse(line []byte, r *Record) (trailing bool, err error) {
	p.newLine()
	if p.decolor && coloured(line) {
		// Into the buffer the records may point into, before any value
		// unescaped there.
		start := len(p.scratch)
		p.scratch = appendDecolored(p.scratch, line)
		line = p.scratch[start:len(p.scratch):len(p.scratch)]
	}
	f := p.f
	start := 0
	var stamp []byte
	if f.haproxy {
		start, stamp = hapHeader(line)
		p.slots = [numSlots][]byte{}
	}
	if !bytes.HasPrefix(line[start:], f.prefix) {
		return false, mismatch(line, start, f.prefix)
	}
	i := start + len(f.prefix)
	// A line without a backslash has no value to unescape; one with
	// has its values scanned for it.
	slashes := bytes.IndexByte(line, '\\') >= 0
	for k := range f.vars {
		v := &f.vars[k]
		if v.fuse != fuseNone {
			if next, ok, err := p.fused(v, line, i, r); ok {
				if err != nil {
					return false, err
				}
				i = next
				continue
			}
		}
		bound := len(v.bind) > 0
		end, next, esc, err := v.match(line, i, f.lenient, bound && slashes)
		if err != nil {
			return false, err
		}
		if v.seconds && !nginxSeconds(line[i:end]) {
			return false, v.notSeconds(i)
		}
		if v.code && !v.isCode(line[i:end]) {
			return false, v.notCode(i)
		}
		if bound {
			val := line[i:end]
			if v.how != howPlain || esc {
				val = p.value(v, val, esc)
			}
			if err := v.put.set(r, val, p.loc, &p.clock); err != nil {
				return false, err
			}
		}
		i = next
	}
	if i != len(line) {
		if !f.lenient {
			return false, &nginxError{col: i + 1}
		}
		trailing = true
	}
	p.read = i
	if f.haproxy {
		if err := p.hapEnd(r, stamp); err != nil {
			return false, err
		}
	}
	if err := r.Finish(); err != nil {
		return false, err
	}
	return trailing, nil
}

// secondsListEnd returns where the list of times nginx writes that starts
// at line[i] ends: items of digits and points, or "-", joined by ", " or
// " : "; i when none starts there.
func secondsListEnd(line []byte, i int) int {
	end := i
	for {
		j := i
		for j < len(line) && (line[j] >= '0' && line[j] <= '9' || line[j] == '.' || line[j] == '-') {
			j++
		}
		if j == i {
			return end // a separator with no item after it is not the list's
		}
		end = j
		switch {
		case j+1 < len(line) && line[j] == ',' && line[j+1] == ' ':
			i = j + 2
		case j+2 < len(line) && line[j] == ' ' && line[j+1] == ':' && line[j+2] == ' ':
			i = j + 3
		default:
			return end
		}
	}
}

// value returns the text the schema reads for v.
func (p *nginxParser) value(v *nginxVar, val []byte, esc bool) []byte {
	if esc {
		from := len(p.scratch)
		p.scratch = appendUnescaped(p.scratch, val)
		val = p.scratch[from:len(p.scratch):len(p.scratch)]
	}
	switch v.how {
	case howHostPort:
		return hostOf(val)
	case howAddrSlot:
		return addrSlot(val)
	case howFirstItem:
		return firstItem(val)
	case howMilliUnlessPoint:
		return p.milliAsSeconds(val)
	case howHAPNumber:
		return hapTimer(val)
	case howHAPRequest:
		if len(val) > 0 && val[0] == '<' {
			return nil
		}
	case howHAPServer:
		if noServer(val) {
			return nil
		}
	case howStrftime:
		return p.strftimeValue(v, val)
	case howPyMsecs:
		return p.pyMsecs(val)
	case howKoaTime:
		return p.koaTime(val)
	}
	return val
}

// koaTime returns the ms of a time koa-logger or Hono's logger wrote,
// humanize-number's text of delta+"ms" or of the seconds rounded+"s"
// ("1,042ms", "12s"), as the text of a whole number; any other text as
// it is, a bad value.
func (p *nginxParser) koaTime(val []byte) []byte {
	digits, ms := bytes.CutSuffix(val, []byte("ms"))
	if !ms {
		var s bool
		if digits, s = bytes.CutSuffix(val, []byte("s")); !s {
			return val
		}
	}
	from := len(p.scratch)
	for k, c := range digits {
		switch {
		case c >= '0' && c <= '9':
			p.scratch = append(p.scratch, c)
		case c == ',' && k > 0 && (len(digits)-k-1)%4 == 3: // a thousands' comma
		default:
			p.scratch = p.scratch[:from]
			return val
		}
	}
	if len(p.scratch) == from {
		return val
	}
	if !ms {
		p.scratch = append(p.scratch, "000"...)
	}
	return p.scratch[from:len(p.scratch):len(p.scratch)]
}

// pyMsecs returns a time Python's logging wrote with its milliseconds
// as a whole number after it as the time readers read it: asctime's
// default, "%s,%03d" ("2025-12-05 10:00:05,302"), and NIM's
// ".%(msecs)d", which pads none ("2025-09-10 16:31:52.7" is 7 ms past
// the second, not 700: the lines of its documentation's log go
// "16:31:52.7", "16:31:52.239"), both as "2025-09-10 16:31:52.007". Any
// other text is returned as it is.
func (p *nginxParser) pyMsecs(val []byte) []byte {
	i := len(val) - 1
	for i >= 0 && isDigit(val[i]) {
		i--
	}
	n := len(val) - 1 - i
	if i < 0 || n == 0 || n > 3 || val[i] != '.' && val[i] != ',' {
		return val
	}
	from := len(p.scratch)
	p.scratch = append(append(p.scratch, val[:i]...), '.')
	p.scratch = append(append(p.scratch, "00"[:3-n]...), val[i+1:]...)
	return p.scratch[from:len(p.scratch):len(p.scratch)]
}

// milliAsSeconds returns a whole number of milliseconds as the text of
// the seconds it is, the point moved three digits left ("498" is
// "0.498"), so that the value stays the exact decimal written; any
// other text as it is.
func (p *nginxParser) milliAsSeconds(val []byte) []byte {
	if len(val) == 0 || len(val) > 18 {
		return val
	}
	for _, c := range val {
		if c < '0' || c > '9' {
			return val
		}
	}
	from := len(p.scratch)
	if n := len(val); n > 3 {
		p.scratch = append(append(append(p.scratch, val[:n-3]...), '.'), val[n-3:]...)
	} else {
		p.scratch = append(append(append(p.scratch, "0."...), "00"[:3-n]...), val...)
	}
	return p.scratch[from:len(p.scratch):len(p.scratch)]
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

var space = []byte{' '}

// match finds where v's value, starting at i, ends: the first place the
// following literal occurs, skipping the spaces inside a list value
// ("0.100, 0.004") and inside $time_local. It returns the end of the
// value and the index after the literal; with wantEsc, also whether the
// value holds a backslash (an escape to decode). The last variable of a
// lenient format ends at the first space: what follows is text the
// format does not describe.
func (v *nginxVar) match(line []byte, i int, lenient, wantEsc bool) (end, next int, esc bool, err error) {
	if v.joined {
		return i, i, false, nil
	}
	lit := v.next
	if len(lit) == 0 {
		if !lenient {
			return len(line), len(line), wantEsc && bytes.IndexByte(line[i:], '\\') >= 0, nil
		}
		if v.seconds {
			// nginx's times end where their list does ("0.100, 0.004",
			// "0.100, - : 0.002"), text the format does not describe
			// after them.
			end := secondsListEnd(line, i)
			if end < len(line) && line[end] != ' ' {
				return 0, 0, false, &nginxError{want: " ", col: end + 1}
			}
			return end, end, false, nil
		}
		lit = space
	}
	from := i
	if v.spaces != 0 && lit[0] == ' ' {
		if v.spaces > 0 {
			from = pastSpaces(line, i, v.spaces)
		} else {
			from = pastRequestWords(line, i)
		}
	}
	if v.timeLocal && lit[0] == ' ' && i+21 <= len(line) && line[i+2] == '/' && line[i+20] == ' ' {
		from = i + 21 // past the space before the zone
		esc = wantEsc && bytes.IndexByte(line[i:from], '\\') >= 0
	} else if v.webDate && i+29 <= len(line) && line[i+3] == ',' && line[i+25] == ' ' {
		from = i + 26 // past the space before the zone's name
		esc = wantEsc && bytes.IndexByte(line[i:from], '\\') >= 0
	}
	for {
		k, slash := v.find.index(line, from, wantEsc)
		esc = esc || slash
		if k < 0 {
			if len(v.next) == 0 {
				return len(line), len(line), esc, nil
			}
			if from >= len(line) || endsWithPrefix(line[from:], lit) {
				return 0, 0, false, &nginxError{want: string(lit), col: len(line) + 1, end: true}
			}
			return 0, 0, false, &nginxError{want: string(lit), col: i + 1}
		}
		if v.escQuote && lit[0] == '"' && k > i && line[k-1] == '\\' {
			from = k + 1
			continue
		}
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
		if len(v.next) == 0 {
			return k, k, esc, nil // the trailing text starts with the space
		}
		return k, k + len(lit), esc, nil
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

// appendUnescaped appends val to dst with nginx's \xHH escapes decoded.
func appendUnescaped(dst, val []byte) []byte {
	for j := 0; j < len(val); j++ {
		c := val[j]
		if c == '\\' && j+3 < len(val) && val[j+1] == 'x' {
			hi, ok1 := unhex(val[j+2])
			lo, ok2 := unhex(val[j+3])
			if ok1 && ok2 {
				dst = append(dst, hi<<4|lo)
				j += 3
				continue
			}
		}
		dst = append(dst, c)
	}
	return dst
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
