package ingest

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
)

// An OpenTelemetry trace export in OTLP/JSON (the protobuf JSON mapping
// of ExportTraceServiceRequest, as the Collector's file exporter writes
// it, one {"resourceSpans":[…]} a line, or a document of that shape):
//
//	{"resourceSpans":[{"resource":{"attributes":[…]},
//	  "scopeSpans":[{"scope":{…},"spans":[{"traceId":…,"spanId":…,
//	  "name":…,"kind":3,"startTimeUnixNano":"…","endTimeUnixNano":"…",
//	  "attributes":[{"key":"gen_ai.request.model","value":{"stringValue":"…"}}],
//	  "status":{"code":2},"events":[…]}]}]}]}
//
// The document reader (jsondoc.go) hands on each span as an element,
// with the resource read before it; the otelParser reads a span into a
// record: its times, its kind, and its attributes and its resource's,
// each looked up by its key ("gen_ai.usage.input_tokens") in the otel
// source's names (sources.go), so that --map takes them as it takes a
// JSON log's names.

// resourceSpans reads the array of an OTLP trace export whose '[' is at
// d.pos: each ResourceSpans' resource, then the spans of its scopes. The
// resource is read when it comes before its scopeSpans, as protobuf's
// JSON mappings write the fields, in their numbers' order.
func (d *docReader) resourceSpans() error {
	return d.elems(func() error {
		if d.buf[d.pos] != '{' {
			return d.notObject()
		}
		d.res, d.resGen = d.res[:0], d.resGen+1
		return d.members(func(c byte) error {
			switch {
			case c == '{' && string(d.key) == "resource":
				return d.resource()
			case c == '[' && (string(d.key) == "scopeSpans" || string(d.key) == "instrumentationLibrarySpans"):
				// instrumentationLibrarySpans before OTLP 0.15
				// (opentelemetry-proto v0.15.0's trace.proto), as
				// Tempo 1.x answers.
				return d.elems(func() error {
					if d.buf[d.pos] != '{' {
						return d.notObject()
					}
					return d.members(func(c byte) error {
						if c == '[' && string(d.key) == "spans" {
							return d.elems(func() error { return d.element(false) })
						}
						return d.value()
					})
				})
			}
			return d.value()
		})
	})
}

// resource keeps the text of the resource object at d.pos for the spans
// after it.
func (d *docReader) resource() error {
	line := d.line
	d.elem, d.keep, d.over, d.elemLine = d.elem[:0], true, false, line
	err := d.nested(0)
	d.keep, d.elemLine = false, 0
	if err != nil {
		return err
	}
	if d.over {
		d.res = d.res[:0]
		d.emit(&docElem{line: line, bad: fmt.Sprintf("resource longer than %d bytes: its spans or log records are read without it", MaxLine)})
		return nil
	}
	d.res = append(d.res[:0], d.elem...)
	return nil
}

// notObject passes over the value at d.pos, which is not an object, and
// counts it as a bad element.
func (d *docReader) notObject() error {
	line := d.line
	if err := d.value(); err != nil {
		return err
	}
	d.emit(&docElem{line: line, bad: errNotObject.Error()})
	return nil
}

// elems reads the array whose '[' is at d.pos, calling each with d.pos
// at an element.
func (d *docReader) elems(each func() error) error {
	d.pos++
	return d.arrayOf(each)
}

// members reads the object whose '{' is at d.pos, calling each with the
// member's key in d.key, d.pos at its value and c its first byte.
func (d *docReader) members(each func(c byte) error) error {
	d.pos++
	c, ok := d.ws()
	if !ok {
		return d.truncated()
	}
	if c == '}' {
		d.pos++
		return nil
	}
	for {
		if c != '"' {
			return d.syntax("want a key")
		}
		d.key = d.key[:0]
		if err := d.str(true); err != nil {
			return err
		}
		if c, ok = d.ws(); !ok {
			return d.truncated()
		} else if c != ':' {
			return d.syntax("want ':'")
		}
		d.pos++
		if c, ok = d.ws(); !ok {
			return d.truncated()
		}
		if err := each(c); err != nil {
			return err
		}
		if c, ok = d.ws(); !ok {
			return d.truncated()
		}
		d.pos++
		switch c {
		case ',':
			if c, ok = d.ws(); !ok {
				return d.truncated()
			}
		case '}':
			return nil
		default:
			d.pos--
			return d.syntax("want ',' or '}'")
		}
	}
}

// Span kinds (opentelemetry-proto trace.proto, Span.SpanKind).
const (
	spanServer = 2
	spanClient = 3
)

// spanKinds are the names of the SpanKind values, by number; OTLP/JSON
// writes the numbers, and protobuf's JSON mapping reads the names too.
var spanKinds = [...]string{"SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
	"SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"}

// What a span is, to the records: the kind of a record that is a request
// to the otel source (source.requests), and of one passed over.
var (
	kindCall = []byte("call")
	kindSpan = []byte("span")
)

// spanFacts are what a span's attributes say of what it is.
type spanFacts struct {
	kind int
	// An LLM call: by gen_ai.operation.name (inference or embeddings:
	// call; an agent's or a tool's: other), by OpenLLMetry's
	// llm.request.type or OpenInference's openinference.span.kind; or,
	// before the conventions named operations (semantic conventions
	// 1.26), a gen_ai.system with a gen_ai.request.model.
	op                  int8 // 0 not said, 1 a call, -1 another operation
	typed               bool // llm.request.type or openinference.span.kind says a call
	system, model, http bool
	// httpTag: an HTTP tag of OpenTracing's or Zipkin's other than the
	// method (a path, a URL, a status), which their servers' spans may
	// carry without one (Zipkin v1's binaryAnnotations).
	httpTag bool
	failed  bool // the span's status is ERROR
}

func (f *spanFacts) call() bool {
	return f.op > 0 || f.op == 0 && (f.typed || f.system && f.model)
}

// server reports whether the span is an HTTP server's: kind SERVER, and
// an HTTP method (http.request.method, or http.method before semantic
// conventions 1.23).
func (f *spanFacts) server() bool { return f.kind == spanServer && f.http }

// otelParser reads an OTLP span into a record. res is the resource of
// the span Parse reads next.
type otelParser struct {
	jsonParser // str and its scratch buffer; the schema
	res        []byte
	calls      bool      // the file's records are LLM calls, else HTTP server spans
	plain      bool      // an attribute's value is written as it is (Jaeger's), not as an AnyValue
	keys       *[]string // when set, the attributes' keys are added to it
	facts      spanFacts
}

func newOTelParser(c *parserConfig) *otelParser {
	return &otelParser{jsonParser: jsonParser{schema: c.schema, loc: c.loc}, calls: c.otelCalls}
}

var (
	errNoStart  = errors.New("span without startTimeUnixNano")
	errNoEnd    = errors.New("span without endTimeUnixNano")
	errEndFirst = errors.New("span ends before it starts (endTimeUnixNano < startTimeUnixNano)")
)

// Parse reads one span, and the attributes of p.res, into r.
func (p *otelParser) Parse(span []byte, r *Record) error {
	p.newLine()
	p.facts = spanFacts{}
	if len(p.res) > 0 {
		// The span's own attributes come after, and win.
		var facts spanFacts
		if err := p.resource(p.res, r, &facts); err != nil {
			return fmt.Errorf("the span's resource: %s", err.Error())
		}
	}
	s := scanner{b: span}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return errNotObject
	}
	var start, end []byte
	err := p.members(&s, func(key []byte) error {
		switch string(key) {
		case "startTimeUnixNano":
			return p.fixed64(&s, &start)
		case "endTimeUnixNano":
			return p.fixed64(&s, &end)
		case "kind":
			return p.kind(&s)
		case "attributes":
			return p.attributes(&s, r, &p.facts)
		case "status":
			return p.status(&s)
		}
		return p.skipValue(&s)
	})
	if err != nil {
		return err
	}
	s.ws()
	if s.i != len(s.b) {
		return s.fail("text after the object")
	}
	if start == nil {
		return errNoStart
	}
	if end == nil {
		return errNoEnd
	}
	startNS, ok := nanos(start)
	if !ok {
		return badValue(FTime, start, unreadable)
	}
	if flaw := checkTime(startNS); flaw != fine {
		return badValue(FTime, start, flaw)
	}
	endNS, ok := nanos(end)
	if !ok {
		return fmt.Errorf("cannot read endTimeUnixNano %q", end)
	}
	if endNS < startNS {
		return errEndFirst
	}
	if err := putSpanTimes(r, startNS, float64(endNS-startNS)/1e9, true); err != nil {
		return err
	}
	// An LLM call's span carries no HTTP status of its own: one that
	// ended in an error (status code 2) says so, its error.type naming
	// the status or not.
	return finishSpan(r, p.calls && p.facts.call() || !p.calls && p.facts.server(), p.calls, p.facts.failed, "span status ERROR")
}

// putSpanTimes sets a span's start, startNS, as its record's time, and,
// when timed, its duration, secs, as its request time: a duration past
// MaxDurationS makes the span bad. (OTLP's spans and Jaeger's and
// Zipkin's: spanParser.)
func putSpanTimes(r *Record, startNS int64, secs float64, timed bool) error {
	if timed && secs > MaxDurationS {
		return badValue(FRequestTime, strconv.AppendFloat(nil, secs, 'g', -1, 64), tooLong)
	}
	if r.claim(FTime, prioSource) {
		r.TimeNS = startNS
		r.set |= 1 << FTime
		r.prio[FTime] = prioSource
	}
	return putSpanDuration(r, secs, timed)
}

// putSpanDuration sets, when timed, a span's duration, secs, as its
// record's request time: a duration past MaxDurationS makes the span
// bad. (A Jaeger or Zipkin span of no start: spanParser.)
func putSpanDuration(r *Record, secs float64, timed bool) error {
	if timed && secs > MaxDurationS {
		return badValue(FRequestTime, strconv.AppendFloat(nil, secs, 'g', -1, 64), tooLong)
	}
	if timed && r.claim(FRequestTime, prioSource) {
		r.put(FRequestTime, prioSource, secs)
	}
	return nil
}

// finishSpan marks a span's record a request (call) or another span,
// and, when derive and the record has no status, gives it its span's
// outcome: one that ended in an error is unreadable (why), another is a
// success, 200; then finishes the record.
func finishSpan(r *Record, call, derive, failed bool, why string) error {
	kind := kindSpan
	if call {
		kind = kindCall
	}
	if derive && (r.set|r.unread)&(1<<FStatus) == 0 {
		if failed {
			r.unreadable(FStatus, []byte(why))
		} else {
			r.put(FStatus, prioDerived, 200)
		}
	}
	r.putText(FKind, prioSource, kind)
	return r.Finish()
}

// resource reads the attributes of a resource object.
func (p *otelParser) resource(res []byte, r *Record, facts *spanFacts) error {
	s := scanner{b: res}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return errNotObject
	}
	return p.members(&s, func(key []byte) error {
		if string(key) == "attributes" {
			return p.attributes(&s, r, facts)
		}
		return p.skipValue(&s)
	})
}

// members reads the object at s.i, calling each with a member's key
// (valid until the next string read) and s.i at its value.
func (p *otelParser) members(s *scanner, each func(key []byte) error) error {
	s.i++ // '{'
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.fail("want a key")
		}
		key, err := p.str(s)
		if err != nil {
			return err
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.fail("want ':'")
		}
		s.i++
		s.ws()
		if s.i >= len(s.b) {
			return s.fail("truncated")
		}
		if err := each(key); err != nil {
			return err
		}
		if end, err := s.next('}'); end || err != nil {
			return err
		}
	}
}

// items reads the elements of the array whose '[' is at s.i, calling
// each with s at the start of each (past its white space, within the
// array), and returns at the array's end.
func (s *scanner) items(each func() error) error {
	s.i++ // '['
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return nil
	}
	for {
		s.ws()
		if s.i >= len(s.b) {
			return s.fail("truncated")
		}
		if err := each(); err != nil {
			return err
		}
		if end, err := s.next(']'); end || err != nil {
			return err
		}
	}
}

// next reads what follows a member of an object (close '}') or an
// element of an array (close ']'): a comma, another to come, or close,
// the end (true).
func (s *scanner) next(close byte) (bool, error) {
	s.ws()
	if s.i >= len(s.b) {
		return false, s.fail("truncated")
	}
	switch s.b[s.i] {
	case ',':
		s.i++
		return false, nil
	case close:
		s.i++
		return true, nil
	}
	return false, s.fail("want ',' or '" + string(close) + "'")
}

// skipValue passes over the value at s.i.
func (p *otelParser) skipValue(s *scanner) error {
	switch s.b[s.i] {
	case '"':
		return skipString(s)
	case '{', '[':
		return s.skip()
	}
	_, err := p.literal(s)
	return err
}

// literal returns the number, true, false or null at s.i.
func (p *otelParser) literal(s *scanner) ([]byte, error) {
	start := s.i
	for s.i < len(s.b) && !valueEnd[s.b[s.i]] && s.b[s.i] != ']' {
		s.i++
	}
	tok := s.b[start:s.i]
	if err := checkLiteral(tok); err != nil {
		s.i = start
		return nil, s.fail(err.Error())
	}
	return tok, nil
}

// fixed64 reads a 64-bit integer's text: a string, as the protobuf JSON
// mapping writes it, or a number, which it reads too.
func (p *otelParser) fixed64(s *scanner, v *[]byte) error {
	if s.b[s.i] == '"' {
		b, err := p.str(s)
		*v = b
		return err
	}
	tok, err := p.literal(s)
	if string(tok) != "null" {
		*v = tok
	}
	return err
}

// nanos reads a count of nanoseconds since the Unix epoch: decimal
// digits, at most what an int64 holds.
func nanos(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, n >= 0
}

// status reads a span's status, {"code":2,"message":"…"}: whether it
// ended in an error (STATUS_CODE_ERROR, 2).
func (p *otelParser) status(s *scanner) error {
	if s.b[s.i] != '{' {
		return p.skipValue(s)
	}
	return p.members(s, func(key []byte) error {
		if string(key) != "code" {
			return p.skipValue(s)
		}
		if s.b[s.i] == '"' {
			name, err := p.str(s)
			p.facts.failed = string(name) == "STATUS_CODE_ERROR"
			return err
		}
		tok, err := p.literal(s)
		p.facts.failed = string(tok) == "2"
		return err
	})
}

// kind reads a span's kind: its number, or its name.
func (p *otelParser) kind(s *scanner) error {
	if s.b[s.i] == '"' {
		name, err := p.str(s)
		if err != nil {
			return err
		}
		for i, k := range spanKinds {
			if string(name) == k {
				p.facts.kind = i
			}
		}
		return nil
	}
	tok, err := p.literal(s)
	if err == nil && len(tok) == 1 && tok[0] >= '0' && tok[0] <= '5' {
		p.facts.kind = int(tok[0] - '0')
	}
	return err
}

// attributes reads an array of KeyValue, {"key":…,"value":{…}}, into r:
// each key's value into the fields the schema binds it to.
func (p *otelParser) attributes(s *scanner, r *Record, facts *spanFacts) error {
	if s.b[s.i] != '[' {
		return s.fail("attributes: want an array")
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return nil
	}
	for {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '{' {
			return s.fail(`attributes: want {"key":…,"value":…}`)
		}
		if err := p.attribute(s, r, facts); err != nil {
			return err
		}
		if end, err := s.next(']'); end || err != nil {
			return err
		}
	}
}

// The AnyValue members an attribute's value is read from.
const (
	anyNone = iota
	anyString
	anyInt
	anyDouble
	anyBool
	anyOther // an array, a key-value list or bytes: not read
)

// attribute reads one KeyValue at s.i: OTLP's, whose value is an
// AnyValue object ({"key":…,"value":{"stringValue":…}}), or, when
// p.plain, Jaeger's and Zipkin v1's, whose value is written as it is ({"key":…,
// "type":"int64","value":200}: jaegertracing/jaeger model/json/model.go,
// KeyValue; zipkin-api thrift/zipkinCore.thrift, BinaryAnnotation).
func (p *otelParser) attribute(s *scanner, r *Record, facts *spanFacts) error {
	var key, val []byte
	typ, hasKey := anyNone, false
	at := s.i
	err := p.members(s, func(k []byte) error {
		switch string(k) {
		case "key":
			if s.b[s.i] != '"' {
				return s.fail("attribute: its key is not a string")
			}
			var err error
			key, err = p.str(s)
			hasKey = true
			return err
		case "value":
			var err error
			switch {
			case s.b[s.i] == '{':
			case p.plain:
				typ, val, err = p.plainValue(s)
				return err
			default:
				return s.fail("attribute: its value is not an object")
			}
			return p.members(s, func(k []byte) error {
				var err error
				switch string(k) {
				case "stringValue":
					if s.b[s.i] != '"' {
						return s.fail("attribute: stringValue is not a string")
					}
					typ = anyString
					val, err = p.str(s)
				case "intValue":
					typ = anyInt
					err = p.fixed64(s, &val)
				case "doubleValue":
					typ = anyDouble
					err = p.fixed64(s, &val)
				case "boolValue":
					typ = anyBool
					val, err = p.literal(s)
				default:
					typ = anyOther
					err = p.skipValue(s)
				}
				return err
			})
		}
		return p.skipValue(s)
	})
	if err != nil {
		return err
	}
	if !hasKey {
		s.i = at
		return s.fail(`attribute without a "key"`)
	}
	return p.setAttribute(r, facts, key, val, typ)
}

// plainValue reads a value written as it is, not as an AnyValue: a
// string, a number, true or false (null, an object or an array are
// none read).
func (p *otelParser) plainValue(s *scanner) (typ int, val []byte, err error) {
	switch s.b[s.i] {
	case '"':
		val, err = p.str(s)
		return anyString, val, err
	case '{', '[':
		return anyOther, nil, p.skipValue(s)
	}
	val, err = p.literal(s)
	switch {
	case err != nil, string(val) == "null":
		return anyNone, nil, err
	case string(val) == "true" || string(val) == "false":
		return anyBool, val, nil
	case integer(val):
		return anyInt, val, nil
	}
	return anyDouble, val, nil
}

// setAttribute checks an attribute's value, notes what it says of its
// span and reads it into the fields the schema binds its key to.
func (p *otelParser) setAttribute(r *Record, facts *spanFacts, key, val []byte, typ int) error {
	switch typ {
	case anyInt:
		if !integer(val) {
			return fmt.Errorf("attribute %q: intValue %q is not an integer", key, val)
		}
	case anyDouble:
		switch string(val) {
		case "NaN", "Infinity", "-Infinity":
			// The protobuf JSON mapping's non-finite numbers: a value,
			// but no field's.
			typ = anyOther
		default:
			if _, ok := parseNumber(val); !ok {
				return fmt.Errorf("attribute %q: doubleValue %q is not a number", key, val)
			}
		}
	case anyBool:
		if string(val) != "true" && string(val) != "false" {
			return fmt.Errorf("attribute %q: boolValue %q is not true or false", key, val)
		}
	}
	if p.keys != nil && typ != anyNone && typ != anyOther {
		*p.keys = append(*p.keys, string(key))
	}
	p.learn(facts, key, val)
	if typ == anyNone || typ == anyOther {
		return nil
	}
	if bind := p.schema.Lookup(key); len(bind) > 0 {
		return r.Set(bind, val, p.loc)
	}
	return nil
}

// integer reports whether b is a decimal integer, a sign allowed.
func integer(b []byte) bool {
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		b = b[1:]
	}
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// learn notes what an attribute says of what its span is.
func (p *otelParser) learn(f *spanFacts, key, val []byte) {
	switch string(key) {
	case "gen_ai.operation.name":
		switch string(val) {
		case "chat", "text_completion", "generate_content", "embeddings":
			f.op = 1
		default: // invoke_agent, create_agent, execute_tool, …
			f.op = -1
		}
	case "llm.request.type": // OpenLLMetry
		switch string(val) {
		case "chat", "completion", "embedding":
			f.typed = true
		}
	case "openinference.span.kind": // OpenInference
		switch string(val) {
		case "LLM", "EMBEDDING":
			f.typed = true
		}
	case "gen_ai.system", "gen_ai.provider.name":
		f.system = true
	case "gen_ai.request.model":
		f.model = true
	case "http.request.method", "http.method":
		f.http = true
	case "http.path", "http.url", "http.status_code", "http.response.status_code":
		f.httpTag = true
	case "span.kind":
		// Jaeger's tag of the span's kind (OpenTracing's semantic
		// conventions; Jaeger's translation of an OTLP span's kind), when
		// the span has no kind of its own.
		if f.kind == 0 {
			f.kind = tagKind(val)
		}
	case "error":
		// OpenTracing's error tag (a bool, in Jaeger's spans), Zipkin's
		// (the error's message: zipkin-api thrift/zipkinCore.thrift,
		// ERROR).
		f.failed = f.failed || string(val) != "false"
	case "otel.status_code":
		// An OTLP span's status as Jaeger's translation tags it.
		f.failed = f.failed || string(val) == "ERROR"
	}
}

// tagKind returns the SpanKind a span's kind tag names: "server",
// "client", "producer", "consumer", "internal" (OpenTracing), or Zipkin's
// kind, "SERVER", "CLIENT", …; 0 for any other.
func tagKind(name []byte) int {
	for i, k := range spanKinds[1:] {
		if strings.EqualFold(string(name), strings.TrimPrefix(k, "SPAN_KIND_")) {
			return i + 1
		}
	}
	return 0
}

// otelFirstSpans is how many of an OTLP file's first spans tell whether
// its records are LLM calls or HTTP server spans.
const otelFirstSpans = 1024

// applyOTel picks an OTLP trace file's schema and what its records are,
// from its first chunk (spans end its elements): the otel source's
// schema (or the --source given), its client told from the attributes
// the first span and those after it carry, as a JSON log's from its
// names; and its records are the spans of LLM calls when one of its
// first spans is one, else its HTTP server spans.
func (p *pipeline) applyOTel(fs *fileState, chunk []byte, spans []docSpan) {
	cfg := fs.cfg
	cfg.otelCalls = false
	op := newOTelParser(&cfg)
	keysOf := func(i int) []string {
		var keys []string
		op.keys = &keys
		op.res = chunk[spans[i].res:spans[i].resEnd]
		start := 0
		if i > 0 {
			start = spans[i-1].end
		}
		var r Record
		r.reset(op.schema)
		_ = op.Parse(chunk[max(start, spans[i].resEnd):spans[i].end], &r)
		op.keys = nil
		return keys
	}
	names := keysOf(0)
	later := func(yield func([]string, []string) bool) {
		for i := 1; i < len(spans) && i <= clientLookahead; i++ {
			if !yield(keysOf(i), nil) {
				return
			}
		}
	}
	if fs.seen == nil && len(names) > 0 {
		fs.seen = names[:min(len(names), MaxSeen):min(len(names), MaxSeen)]
	}
	forced := p.opts.Source
	if forced == "" {
		forced = "otel"
	}
	sch, name, loc := p.opts.Schema.ForNames(names, nil, forced, iter.Seq2[[]string, []string](later))
	fs.cfg.schema, fs.source = sch, name
	if loc != nil {
		fs.cfg.loc = loc
	}
	op.schema = sch
	start := 0
	for i := 0; i < len(spans) && i < otelFirstSpans; i++ {
		var r Record
		r.reset(sch)
		op.res = chunk[spans[i].res:spans[i].resEnd]
		err := op.Parse(chunk[max(start, spans[i].resEnd):spans[i].end], &r)
		start = spans[i].end
		if err == nil && op.facts.call() {
			fs.cfg.otelCalls = true
			return
		}
	}
}

// noFieldReason is the reason for a line or an element with no field
// loganalyze knows: for an OTLP export of another signal than traces
// and logs, that only those are read.
func noFieldReason(text []byte) string {
	for _, k := range topKeys(text, 1) {
		switch k {
		case "resourceMetrics", "resourceProfiles":
			return "an OTLP export of " + strings.ToLower(strings.TrimPrefix(k, "resource")) + " (" + k + "): of OTLP, only traces (resourceSpans) and logs (resourceLogs) are read"
		}
	}
	if orient := pandasOrient(text); orient != "" {
		return "a pandas DataFrame.to_json() document (orient='" + orient +
			"'), not records: write it with to_json(PATH, orient='records', lines=True)"
	}
	return errNoField
}

// pandasOrient returns the orient of pandas' DataFrame.to_json() that
// wrote the JSON object text, whose members are no records: "columns"
// (the default: {"col":{"0":v,"1":v},…}), "index" ({"0":{"col":v},…})
// or "split" ({"columns":[…],"index":[…],"data":[[…]]}); "" for any
// other text. Its orient "records" and "table" write records, and the
// document reader reads the others (jsoncolumns.go); a table that comes
// here is one it could not: split with columns of several levels, by
// column with cells that are objects, a line that JSON lines read.
func pandasOrient(text []byte) string {
	keys := topKeys(text, 4)
	if slices.Contains(keys, "columns") && slices.Contains(keys, "data") && !slices.Contains(keys, "schema") {
		return "split"
	}
	var p jsonParser
	s := scanner{b: text}
	// at reports whether the next byte past spaces is c, taking it when
	// it is not a string's quote (which p.str reads).
	at := func(c byte) bool {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != c {
			return false
		}
		if c != '"' {
			s.i++
		}
		return true
	}
	if !at('{') || !at('"') {
		return ""
	}
	k, err := p.str(&s)
	if err != nil || !at(':') || !at('{') {
		return ""
	}
	if indexKey(k) {
		return "index"
	}
	if !at('"') {
		return ""
	}
	if k, err := p.str(&s); err == nil && allDigits(k) {
		return "columns"
	}
	return ""
}
