package ingest

import (
	"errors"
	"iter"
)

// Jaeger's and Zipkin's spans as JSON, a record each: a span a line
// (jq '.data[].spans[]' of Jaeger's answer, Zipkin's spans one a line),
// the hits of an Elasticsearch search of Jaeger's span index, a list of
// spans (Zipkin's UI download, its /api/v2/trace/{id}), or the documents
// that hold them (jsondoc.go: Jaeger's {"data":[{"traceID","spans":[…],
// "processes":{…}}]}, Zipkin's /api/v2/traces [[span,…],…]).
//
// Jaeger's span (jaegertracing/jaeger model/json/model.go, Span; its
// Elasticsearch model, internal/storage/elasticsearch/dbmodel, the same
// names): startTime, epoch µs; duration, µs; tags, a list of KeyValue
// ({"key":"http.status_code","type":"int64","value":200}), the span's
// kind among them ("span.kind": "server"); in Elasticsearch, the tags
// stored as fields (--es.tags-as-fields) in a "tag" map whose keys have
// their dots written "@" (the default of es.tags-as-fields.dot-replacement:
// "span@kind").
//
// Zipkin's v2 span (openzipkin/zipkin-api zipkin2-api.yaml, Span):
// timestamp, epoch µs; duration, µs; kind, SERVER, CLIENT, PRODUCER or
// CONSUMER (none: a local span); tags, a map of strings; remoteEndpoint,
// a server's caller. Its v1 span (zipkin-api zipkin-api.yaml, the thrift
// model zipkinCore.thrift): no kind, but core annotations, the server's
// receive (sr) and send (ss), the client's (cs, cr), each with its time,
// and binaryAnnotations, a list of {"key","value","endpoint"}.
//
// The tags are the OpenTelemetry attributes of the span when it was
// sent as OTLP, or OpenTracing's (http.status_code, http.method,
// http.url, error) or Zipkin's (http.path): each is looked up by its key
// in the source's names (sources.go), as an OTLP span's attributes are,
// by the same reader (otelParser.attribute). The records are the spans
// of LLM calls when one of the first spans is one, else the spans of
// HTTP servers (an HTTP method, path, URL or status among their tags):
// the requests; the
// rest (a gateway's call to its upstream, its own work) are passed over.

// spanParser reads a Jaeger or Zipkin span into a record.
type spanParser struct {
	otelParser
	// zipkin: the spans are Zipkin's, whose http.status_code tag is
	// written for a status outside 2xx only (zipkin-api
	// thrift/zipkinCore.thrift, HTTP_STATUS_CODE: "The HTTP status code,
	// when not in 2xx range"): a server's span without one, and without
	// an error, is a 200.
	zipkin bool
	// untimed: a span without its start is read without a time, not a
	// bad line (parserConfig.untimedSpans).
	untimed bool
	key     []byte // a tag map's key, its dots put back
}

func newSpanParser(c *parserConfig) *spanParser {
	p := &spanParser{otelParser: *newOTelParser(c), zipkin: c.schema.Source() == "zipkin", untimed: c.untimedSpans}
	p.plain = true
	return p
}

// spanSource reports whether a source's records are Jaeger's or Zipkin's
// spans, which spanParser reads.
func spanSource(name string) bool { return name == "jaeger" || name == "zipkin" }

var (
	errSpanNoStart = errors.New("span without its start (startTime, timestamp)")
	errSpanSends   = errors.New("span whose server sends its response before it receives the request (annotation ss before sr)")
)

// coreAnnotations are the times of a Zipkin v1 span's core annotations
// (µs, as the span writes them) and whether a client's were seen.
type coreAnnotations struct {
	sr, ss []byte
	client bool
}

// Parse reads one span into r.
func (p *spanParser) Parse(span []byte, r *Record) error {
	p.newLine()
	p.facts = spanFacts{}
	s := scanner{b: span}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return errNotObject
	}
	var start, dur []byte
	var core coreAnnotations
	err := p.members(&s, func(key []byte) error {
		switch string(key) {
		case "startTime", "timestamp":
			return p.fixed64(&s, &start)
		case "duration":
			return p.fixed64(&s, &dur)
		case "kind":
			if s.b[s.i] == '"' {
				name, err := p.str(&s)
				p.facts.kind = tagKind(name)
				return err
			}
		case "tags", "binaryAnnotations":
			return p.tags(&s, r, 0)
		case "tag":
			return p.tags(&s, r, '@')
		case "remoteEndpoint":
			if s.b[s.i] == '{' {
				return p.endpoint(&s, r)
			}
		case "annotations":
			if s.b[s.i] == '[' {
				return p.annotations(&s, &core)
			}
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
	var end []byte
	if p.facts.kind == 0 && core.sr != nil && core.ss != nil {
		// A Zipkin v1 span the server reported, alone or shared with its
		// client: the request's times are the server's.
		p.facts.kind, start, dur, end = spanServer, core.sr, nil, core.ss
	} else if p.facts.kind == 0 && core.client {
		p.facts.kind = spanClient
	}
	startUS := int64(0)
	if start != nil {
		var ok bool
		if startUS, ok = nanos(start); !ok || startUS > (1<<63-1)/1000 {
			return badValue(FTime, start, unreadable)
		}
		if flaw := checkTime(startUS * 1000); flaw != fine {
			return badValue(FTime, start, flaw)
		}
	} else if !p.untimed {
		return errSpanNoStart
	}
	secs, timed := 0.0, false
	switch {
	case end != nil:
		endUS, ok := nanos(end)
		if !ok {
			return badValue(FRequestTime, end, unreadable)
		}
		if endUS < startUS {
			return errSpanSends
		}
		secs, timed = float64(endUS-startUS)/1e6, true
	case dur != nil:
		// Zipkin leaves out the duration of a span it has not seen end.
		us, ok := parseNumber(dur)
		if !ok || us < 0 {
			return badValue(FRequestTime, dur, unreadable)
		}
		secs, timed = us/1e6, true
	}
	if start == nil {
		// A span of an export trimmed of its start: a request of no time.
		if err := putSpanDuration(r, secs, timed); err != nil {
			return err
		}
	} else if err := putSpanTimes(r, startUS*1000, secs, timed); err != nil {
		return err
	}
	// An LLM call's span carries no HTTP status of its own, nor does
	// Zipkin's of a 2xx: one that ended in an error says so, one that
	// did not is a success.
	call := p.calls && p.facts.call() || !p.calls && p.facts.kind == spanServer && (p.facts.http || p.facts.httpTag)
	return finishSpan(r, call, p.calls || p.zipkin, p.facts.failed, "span error")
}

// tags reads a span's tags at s.i: a list of KeyValue (Jaeger's tags,
// Zipkin v1's binaryAnnotations), or a map of them (Zipkin's tags, the
// tag map of Jaeger's Elasticsearch model, whose keys have their dots
// written dot).
func (p *spanParser) tags(s *scanner, r *Record, dot byte) error {
	switch s.b[s.i] {
	case '[':
		return p.attributes(s, r, &p.facts)
	case '{':
		return p.members(s, func(key []byte) error {
			if dot != 0 {
				p.key = p.key[:0]
				for _, c := range key {
					if c == dot {
						c = '.'
					}
					p.key = append(p.key, c)
				}
				key = p.key
			}
			typ, val, err := p.plainValue(s)
			if err != nil {
				return err
			}
			return p.setAttribute(r, &p.facts, key, val, typ)
		})
	}
	return p.skipValue(s)
}

// remoteAddrKeys name a Zipkin span's remote endpoint's address, for the
// source's names: the caller of a server's span.
var remoteAddrKeys = [...][]byte{[]byte("remoteEndpoint.ipv4"), []byte("remoteEndpoint.ipv6")}

// endpoint reads a Zipkin span's remoteEndpoint at s.i.
func (p *spanParser) endpoint(s *scanner, r *Record) error {
	return p.members(s, func(key []byte) error {
		i := -1
		switch string(key) {
		case "ipv4":
			i = 0
		case "ipv6":
			i = 1
		}
		if i < 0 || s.b[s.i] != '"' {
			return p.skipValue(s)
		}
		val, err := p.str(s)
		if err != nil {
			return err
		}
		return p.setAttribute(r, &p.facts, remoteAddrKeys[i], val, anyString)
	})
}

// annotations reads a Zipkin span's annotations at s.i, each
// {"timestamp":…,"value":…}: the times of v1's core annotations.
func (p *spanParser) annotations(s *scanner, core *coreAnnotations) error {
	return s.items(func() error {
		if s.b[s.i] != '{' {
			return p.skipValue(s)
		}
		var at, value []byte
		err := p.members(s, func(key []byte) error {
			switch string(key) {
			case "timestamp":
				return p.fixed64(s, &at)
			case "value":
				if s.b[s.i] == '"' {
					var err error
					value, err = p.str(s)
					return err
				}
			}
			return p.skipValue(s)
		})
		if err != nil {
			return err
		}
		switch string(value) {
		case "sr":
			core.sr = at
		case "ss":
			core.ss = at
		case "cs", "cr":
			core.client = true
		}
		return nil
	})
}

// applySpans picks the schema of a file of Jaeger's or Zipkin's spans,
// recs its first records, as applyOTel does an OTLP file's: its client
// told from the tags the first span and those after it carry, and its
// records the spans of LLM calls when one of its first spans is one,
// else its HTTP server spans.
func (p *pipeline) applySpans(fs *fileState, recs [][]byte) {
	if len(recs) == 0 {
		return
	}
	cfg := fs.cfg
	cfg.otelCalls = false
	sp := newSpanParser(&cfg)
	var first Record
	first.reset(sp.schema)
	if sp.Parse(recs[0], &first) == errSpanNoStart {
		// A span export trimmed of its start (jq -c '.data[].spans[] |
		// {traceID, spanID, duration, tags}'): its spans are requests
		// of no time, not each a bad line, as --source asked for them.
		fs.cfg.untimedSpans, sp.untimed = true, true
	}
	keysOf := func(rec []byte) []string {
		var keys []string
		sp.keys = &keys
		var r Record
		r.reset(sp.schema)
		_ = sp.Parse(rec, &r)
		sp.keys = nil
		return keys
	}
	later := func(yield func([]string, []string) bool) {
		for i := 1; i < len(recs) && i <= clientLookahead; i++ {
			if !yield(keysOf(recs[i]), nil) {
				return
			}
		}
	}
	sch, _, _ := p.opts.Schema.ForNames(keysOf(recs[0]), nil, fs.source, iter.Seq2[[]string, []string](later))
	fs.cfg.schema, sp.schema = sch, sch
	for i := 0; i < len(recs) && i < otelFirstSpans; i++ {
		var r Record
		r.reset(sch)
		if sp.Parse(recs[i], &r) == nil && sp.facts.call() {
			fs.cfg.otelCalls = true
			return
		}
	}
}

// elemRecords returns the elements of chunk, spans ending them.
func elemRecords(chunk []byte, spans []docSpan) [][]byte {
	recs := make([][]byte, 0, len(spans))
	start := 0
	for _, sp := range spans {
		recs = append(recs, chunk[start:sp.end])
		start = sp.end
	}
	return recs
}

// A span export trimmed to a few of its names (jq -c '.data[].spans[] |
// {traceID, spanID, startTime, duration, tags}' of Jaeger's answer, or
// '.[] | {traceId, id, name, timestamp, duration, tags}' of Zipkin's)
// carries too few of its source's signature for detectSource, and SPEC
// §3's generic "duration" would read its µs as ms: a span of 1.2 s a
// request of 20 minutes. Such a record still names the span it is, by
// its trace's id and its own, and starts at an epoch in µs, which no
// log of a program's own writes beside those names: Jaeger's span
// (jaegertracing/jaeger model/json/model.go: TraceID, SpanID, hex;
// StartTime uint64 µs, Duration uint64 µs) and Zipkin's v2 span
// (openzipkin/zipkin-api zipkin2-api.yaml: traceId 16 or 32 lower-hex,
// id 16 lower-hex; timestamp and duration int64 µs). An app's own log
// that carries its trace's id (OpenTelemetry's log bridges write
// traceId) with an id and a duration in ms writes its time as a text or
// an epoch in s or ms: not a span.

// trimmedSpan is what a trimmed span of one source carries: its
// trace's id, its own, and its start, an epoch in µs.
type trimmedSpan struct{ source, trace, span, start string }

var trimmedSpans = [...]trimmedSpan{
	{"jaeger", "traceID", "spanID", "startTime"},
	{"zipkin", "traceId", "id", "timestamp"},
}

// trimmedSpanSource returns the source (jaeger, zipkin) whose span the
// JSON object rec is by its ids and its start (trimmedSpans), or "".
func trimmedSpanSource(rec []byte) string {
	for _, t := range trimmedSpans {
		if hexID(jsonValue(rec, t.trace)) && hexID(jsonValue(rec, t.span)) && epochMicros(jsonValue(rec, t.start)) {
			return t.source
		}
	}
	return ""
}

// hexID reports whether raw is a JSON string of a trace's or span's id
// as Jaeger and Zipkin write it: 16 or 32 hex digits (a 64-bit id, or a
// 128-bit trace id).
func hexID(raw []byte) bool {
	if len(raw) != 16+2 && len(raw) != 32+2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if !isDigit(c) && (c|0x20 < 'a' || c|0x20 > 'f') {
			return false
		}
	}
	return true
}

// epochMicros reports whether raw is a JSON integer that is an instant
// of the years read (MinTimeNS to MaxTimeNS) in µs: 15 or 16 digits, in
// no other unit one of them (the years' ms have 12 or 13, their ns 18
// or 19).
func epochMicros(raw []byte) bool {
	if len(raw) < 15 || len(raw) > 16 {
		return false
	}
	us := int64(0)
	for _, c := range raw {
		if !isDigit(c) {
			return false
		}
		us = us*10 + int64(c-'0')
	}
	return us >= MinTimeNS/1000 && us < MaxTimeNS/1000
}

// applyTrimmedSpans makes a JSON file's source Jaeger's or Zipkin's when
// no source's names told one (nor --source forced one) but its first
// record, first, is a trimmed span of it (trimmedSpanSource): its spans
// are then read by spanParser, their durations in µs.
func (p *pipeline) applyTrimmedSpans(fs *fileState, first []byte, names, paths []string) {
	if p.opts.Source != "" || fs.cfg.schema.source != nil {
		return
	}
	src := trimmedSpanSource(first)
	if src == "" {
		return
	}
	sch, name, _ := p.opts.Schema.ForNames(names, paths, src, nil)
	fs.cfg.schema, fs.source = sch, name
}

// A span export trimmed of its start as well (jq -c '.data[].spans[] |
// {traceID, spanID, duration, tags}', Zipkin's {traceId, id, name,
// duration, tags}) has no epoch in µs to tell it a span's: SPEC §3's
// generic "duration" would read its µs (Jaeger's model/json/model.go
// Duration, zipkin-api's zipkin2-api.yaml duration, as above) as ms, a
// span of 1.2 s a request of 20 minutes, and judge them. Nor is it
// surely a span's: an app's own log may write its trace's and span's
// ids beside a duration in ms. Records that carry a span's ids and a
// whole duration (both write an integer) but no time are told neither:
// their duration is left unread, and the report names --source, which
// reads them as spans of no time.

// untimedSpanSource returns the source (jaeger, zipkin) whose span's ids
// the JSON object rec carries (trimmedSpans), when s, the file's schema,
// reads its "duration", a whole number, by SPEC §3's generic name and
// none of its names, nor paths, as the time; "" otherwise.
func untimedSpanSource(rec []byte, names, paths []string, s *Schema) string {
	src := ""
	for _, t := range trimmedSpans {
		if hexID(jsonValue(rec, t.trace)) && hexID(jsonValue(rec, t.span)) {
			src = t.source
			break
		}
	}
	if src == "" || !wholeNumber(jsonValue(rec, "duration")) {
		return ""
	}
	if _, _, ok := genericDuration(s.LookupString("duration")); !ok {
		return "" // --map reads it, or a source's name
	}
	for _, ns := range [][]string{names, paths} {
		for _, n := range ns {
			for _, b := range s.LookupString(n) {
				if b.Field == FTime {
					return ""
				}
			}
		}
	}
	return src
}

// wholeNumber reports whether raw is a JSON number of digits alone, as
// Jaeger and Zipkin write a duration (an integer of µs).
func wholeNumber(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	for _, c := range raw {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// refuseUntimedSpans leaves a JSON file's "duration" unread as
// request_time, a refused name (FileStats.Refused) whose Spans names
// the source, before refuseImplausible looks at it, when no source's names told the file's (nor --source,
// nor an envelope whose lines carry their time) but its first record,
// first, is a span trimmed of its start (untimedSpanSource); values
// gives a name's first texts.
func (p *pipeline) refuseUntimedSpans(fs *fileState, first []byte, names, paths []string, values func(name string) [][]byte) {
	if p.opts.Source != "" || fs.cfg.schema.source != nil || fs.cfg.envelope != NoEnvelope {
		return
	}
	src := untimedSpanSource(first, names, paths, fs.cfg.schema)
	if src == "" {
		return
	}
	unit, _, _ := genericDuration(fs.cfg.schema.LookupString("duration"))
	r := Refused{Name: "duration", Unit: unit, Spans: src}
	fs.cfg.schema = fs.cfg.schema.without([]Refused{r})
	r.Magnitude = magnitudesOf([]string{r.Name}, fs.cfg.schema, values)[r.Name]
	fs.refused = append(fs.refused, r)
}
