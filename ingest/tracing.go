package ingest

// The text log of Rust's tracing-subscriber (its default, "full"
// format), as Hugging Face's text-generation-inference (TGI) and
// text-embeddings-inference (TEI) routers write it to stdout:
//
//	2026-12-05T10:00:00.637000Z  INFO compat_generate{default_return_full_text=true}:generate_stream{parameters=GenerateParameters { best_of: None, … } total_time="2.731219246s" validation_time="1.210923ms" queue_time="1.799491ms" inference_time="2.728197212s" time_per_token="25.98283ms" seed="None"}: text_generation_router::server: router/src/server.rs:600: Success
//
// the time (UTC, RFC 3339), the level, the request's spans — each its
// name and, in braces, the fields recorded on it — then the event's
// target, its file and line, and its message. Each request's span gets
// its times when the request ends (TGI's and TEI's handlers record
// total_time, validation_time or tokenization_time, queue_time,
// inference_time), written as Rust's Debug writes a Duration
// ("2.731219246s", "815.012ms", "350µs"): request_time is total_time,
// the uri the name of the span that holds it, the route's handler
// (generate, generate_stream, chat_completions, embed, openai_embed). An
// error in a request's span without its times is a request that failed
// ("Model is overloaded"), without request_time, as the JSON log's is; a
// span whose fields are all still empty is written without braces
// ("ERROR embed:try_acquire_permit: text_embeddings_core::infer: …"),
// told from the event's target by the target that follows it (a path of
// "::"). The request's other events (its DEBUG input, a warning) are no
// requests: passed over, counted so, as are the lines of an event
// written over several after its first (no time begins them). The
// server's own events (start-up, "Connected", the launcher's
// shard-manager) are bad lines that say so.
// A span's field written in Debug form,
// `parameters=GenerateParameters { best_of: None, stop: [] }`, is
// skipped whole: its spaces, braces and quotes are the value's. Terminal
// colours (tracing writes them to a terminal) are read without them.
//
// SGLang's router, the SGLang Model Gateway (smg; sglang_router_rs
// before it), writes the same format by default, with file and line:
//
//	2025-09-05 10:00:02  INFO http_request{method=POST uri=/v1/chat/completions version=HTTP/1.1 module="smg" request_id="chatcmpl-…" status_code=200 latency=810}: smg::response: src/middleware.rs:262: finished processing request
//
// Its time is ChronoUtc's "%Y-%m-%d %H:%M:%S" ("%.3f" added when
// SGLANG_LOG_MS=1): UTC, without a zone or a "T"
// (sgl-model-gateway/src/observability/logging.rs, TIME_FORMAT), read so
// whatever --tz says. Each request runs in the span http_request of
// method, uri, version, request_id, then status_code and latency,
// recorded when it is answered, and logs "started processing request"
// then its answer: "finished processing request", "request failed with
// client error" or "… server error" (sgl-model-gateway/src/middleware.rs,
// RequestSpan, RequestLogger, ResponseLogger). The answer is the
// request: its status status_code, its request_time latency, µs as an
// integer (smg's latency.as_micros()), or Rust's Debug of a Duration,
// quoted ("810.637µs": sgl-router/src/middleware.rs's format!("{:?}")),
// its method and uri the span's. The span's other events, before the
// answer (an error in routing it, ERROR as it may be) or after (tower-
// http's "response failed"), are no requests: passed over.
//
// tower-http's TraceLayer, which most axum and tonic services log their
// requests with, writes three events in the span "request" of its
// DefaultMakeSpan, of method, uri and version (tower-rs/tower-http
// tower-http/src/trace/make_span.rs): "started processing request"
// (on_request.rs), "finished processing request" with latency and
// status (on_response.rs, DefaultOnResponse), and "response failed" with
// classification and latency (on_failure.rs); DEBUG by default, ERROR
// for the failure. tracing-subscriber's default (full) format writes the
// event's fields after its message:
//
//	2025-03-10T10:00:13.469482Z DEBUG request{method=POST uri=/v1/completions version=HTTP/1.1}: tower_http::trace::on_response: finished processing request latency=3280 ms status=200
//
// and its compact format the span's name alone, its fields after the
// event's (tokio-rs/tracing tracing-subscriber/src/fmt/format/mod.rs,
// Format<Compact>: "request: tower_http::trace::on_response: finished
// processing request latency=3280 ms status=200 method=POST uri=/v1/…
// version=HTTP/1.1"). The finished event is the request: request_time
// its latency, a number, a space and the unit LatencyUnit chooses ("3280
// ms" by default, "3280896 μs", "3280896123 ns", "3.280896 s"), status
// its status, method and uri the span's. Its other events, in the span
// or written without it (a span whose level the filter leaves out), are
// passed over.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The fields of a tracing line.
const (
	trTime = iota
	trLevel
	trSpan
	trTotal
	trValidation
	trQueue
	trInference
	trPerToken
	trStatus
	trLatency
	trMethod
	trURI
	trEventStatus
	trColumns
)

// tracingNames name the fields, for --map and the report's fields seen.
var tracingNames = [trColumns]string{"time", "level", "span", "total_time", "validation_time", "queue_time", "inference_time", "time_per_token",
	"status_code", "latency", "method", "uri", "status"}

// routerNames are the names the SGLang router's lines carry.
var routerNames = []string{"time", "level", "span", "status_code", "latency", "method", "uri"}

// towerNames are the names tower-http's answers carry.
var towerNames = []string{"time", "level", "span", "latency", "status", "method", "uri"}

// tracingOwn is how the fields are read unless --map names them.
var tracingOwn = [trColumns]Bindings{
	trTime:    {{Field: FTime, Prio: prioSource}},
	trSpan:    {{Field: FURI, Prio: prioSource + 1}},     // a span's uri field, when one has it, wins
	trTotal:   {{Field: FRequestTime, Prio: prioSource}}, // its text names its unit
	trStatus:  {{Field: FStatus, Prio: prioSource}},
	trLatency: {{Field: FRequestTime, Unit: UnitMicro, Prio: prioSource + 1}}, // smg's integer; a Debug Duration names its unit
	trMethod:  {{Field: FMethod, Prio: prioSource}},
	trURI:     {{Field: FURI, Prio: prioSource}},
	// tower-http's answer's status, an event's field.
	trEventStatus: {{Field: FStatus, Prio: prioSource}},
}

// routerAnswers end the SGLang router's event of a request's answer
// (ResponseLogger), after its target, file and line.
var routerAnswers = [][]byte{[]byte(": finished processing request"),
	[]byte(": request failed with client error"), []byte(": request failed with server error")}

// routerAnswer reports whether line is the SGLang router's event of a
// request's answer.
func routerAnswer(line []byte) bool {
	line = bytes.TrimRight(line, " \r")
	for _, a := range routerAnswers {
		if bytes.HasSuffix(line, a) {
			return true
		}
	}
	return false
}

// towerTarget and towerFinished are the target and the message of
// tower-http's DefaultOnResponse event (on_response.rs); towerEvents the
// start of its events' targets (on_request, on_response, on_failure).
var (
	towerTarget   = []byte("tower_http::trace::on_response: ")
	towerFinished = []byte("finished processing request")
	towerEvents   = []byte("tower_http::trace::")
)

// towerAnswer returns the fields of tower-http's DefaultOnResponse event
// (" latency=3280 ms status=200") when s, what follows the event's spans,
// is one: its target, the file and line when the subscriber writes them
// ("src/trace/on_response.rs:93: "), then its message.
func towerAnswer(s []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(s, towerTarget)
	if !ok {
		// The same event of a middleware of its own that follows
		// tower-http's: TensorZero's gateway logs its requests so at
		// debug level (tensorzero crates/tensorzero-core/src/
		// observability/request_logging.rs: "started processing
		// request", then "finished processing request" with latency
		// "{} ms" and status), under its own target. Its fields name
		// the latency, as SGLang's router's answer's do not.
		if rest, ok = rustTarget(s); !ok || !bytes.HasPrefix(rest, towerFinished) || !bytes.Contains(rest, []byte(" latency=")) {
			return nil, false
		}
	}
	if i := bytes.Index(rest, towerFinished); i > 0 && bytes.HasSuffix(rest[:i], []byte(": ")) && bytes.Count(rest[:i], []byte(" ")) == 1 {
		rest = rest[i:]
	}
	rest, ok = bytes.CutPrefix(rest, towerFinished)
	if !ok || len(rest) > 0 && rest[0] != ' ' {
		return nil, false
	}
	return rest, true
}

// rustTarget returns what follows an event's target, a Rust module's
// path and ": " ("tensorzero_core::observability::request_logging: "),
// at the start of s; false when s starts otherwise.
func rustTarget(s []byte) ([]byte, bool) {
	i := bytes.Index(s, []byte(": "))
	if i <= 0 {
		return nil, false
	}
	for _, c := range s[:i] {
		if !(c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return nil, false
		}
	}
	return s[i+2:], true
}

var (
	errTracingOwn = errors.New("not a request: the server's own message, outside a request's span (want time level span{total_time=…}: target: message)")
	// errTracingMore passes over a line of an event written over
	// several (a DEBUG event's input, the launcher's pretty-printed
	// arguments, a table or a traceback), the lines after its first.
	errTracingMore = fmt.Errorf("%w: a line of an event written over several", errPassOver)
	// errTracingEvent passes over a request's own event (pipeline.go).
	errTracingEvent = fmt.Errorf("%w: an event within a request's span (its Success event, or an error, is the request)", errPassOver)
	errTracingLine  = errors.New("tracing line cut short: want time level span{fields}: target: message")
	errTracingTime  = errors.New("tracing request's total_time not a duration with its unit")
)

// tracingParser reads tracing lines. Values point into the line, or,
// for a line read without its colours, into the held buffer the records
// may point into until their batch is handed over.
type tracingParser struct {
	holding
	loc    *time.Location
	binds  [trColumns]Bindings
	mapped bool // --map names a field: its value is read as it says
	vals   [trColumns][]byte
	tower  bool // the line is tower-http's answer (towerAnswer)
	// towerOther: the line is another of tower-http's events, the
	// request's start or its failure: no request.
	towerOther bool
}

func newTracingParser(c *parserConfig) *tracingParser {
	p := &tracingParser{loc: c.loc}
	p.mapped = columnBindings(c.schema, tracingNames[:], tracingOwn[:], p.binds[:], trTotal)
	return p
}

// tracingHead reports whether a line of head is a tracing event within
// a span that holds a request's total_time, or the SGLang router's answer
// to one: TGI's start-up writes dozens of lines before its first request.
func tracingHead(head []byte) bool {
	var p tracingParser
	var plain []byte
	for rest := head; len(rest) > 0; {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			break // a line cut by the head's end
		}
		line := rest[:nl]
		if coloured(line) {
			plain = appendDecolored(plain[:0], line)
			line = plain
		}
		if p.split(line) == nil && (p.vals[trTotal] != nil || p.tower || p.vals[trLatency] != nil && routerAnswer(line)) {
			return true
		}
		rest = rest[nl+1:]
	}
	return false
}

// tracingSource names the program whose lines head holds: its events'
// target is the router's or the launcher's crate.
func tracingSource(head []byte) string {
	if coloured(head) {
		head = appendDecolored(nil, head) // its target and message apart
	}
	switch {
	case bytes.Contains(head, []byte("text_generation_router")), bytes.Contains(head, []byte("text_generation_launcher")):
		return "tgi"
	case bytes.Contains(head, []byte("text_embeddings_router")):
		return "tei"
	case bytes.Contains(head, []byte("smg::response")), bytes.Contains(head, []byte("sglang_router_rs::response")):
		return "smg" // the router's answers' target (middleware.rs)
	case bytes.Contains(head, towerTarget), bytes.Contains(head, []byte(": finished processing request latency=")):
		return "tower-http"
	}
	return "tracing"
}

// tracingSeen returns the names the lines of source carry.
func tracingSeen(source string) []string {
	switch source {
	case "smg":
		return routerNames
	case "tower-http":
		return towerNames
	}
	return tracingNames[:trStatus]
}

// split cuts a line, without colours, into p.vals: nil when the line is
// a tracing event within a span, errTracingOwn when it is one outside
// any.
func (p *tracingParser) split(line []byte) error {
	p.vals, p.tower, p.towerOther = [trColumns][]byte{}, false, false
	line = bytes.TrimRight(line, "\r")
	ts, rest, ok := cutSpaced(line)
	if ok && len(ts) == 10 && ts[4] == '-' && ts[7] == '-' && len(rest) > 1 && rest[0] == ' ' && rest[1] >= '0' && rest[1] <= '9' {
		// A date, a space, then the time of day: the SGLang router's
		// ChronoUtc "%Y-%m-%d %H:%M:%S", one token of the line.
		if clock, after, ok := cutSpaced(rest); ok {
			ts, rest = ts[:len(ts)+1+len(clock)], after
		}
	}
	if !ok || len(ts) < 19 || ts[0] < '0' || ts[0] > '9' || ts[4] != '-' || (ts[10] != 'T' && ts[10] != ' ') {
		if !startsDate(line) {
			return errTracingMore
		}
		return errTracingOwn
	}
	level, rest, ok := cutSpaced(rest)
	if !ok || !tracingLevel(level) {
		return errTracingOwn
	}
	p.vals[trTime], p.vals[trLevel] = ts, level
	rest = bytes.TrimLeft(rest, " \t")
	end := spansEnd(rest)
	if end < 0 {
		return errTracingLine
	}
	spans := rest[:end]
	if bytes.IndexByte(spans, '{') < 0 && !targetNext(rest[end+2:]) {
		// The event's target, no span: "text_generation_router::server:
		// router/src/server.rs:2266: Connected". tower-http's events
		// outside their span (its level filtered out) are requests'.
		if f, ok := towerAnswer(rest); ok {
			p.tower = true
			p.readFields(f, true)
			return nil
		}
		if bytes.HasPrefix(rest, towerEvents) {
			return errTracingEvent
		}
		return errTracingOwn
	}
	for len(spans) > 0 {
		n := 0
		for n < len(spans) && spans[n] != '{' && spans[n] != ':' {
			n++
		}
		name := spans[:n]
		if p.vals[trSpan] == nil {
			p.vals[trSpan] = name
		}
		spans = spans[n:]
		if len(spans) > 0 && spans[0] == '{' {
			close := fieldsEnd(spans)
			if close < 0 {
				return errTracingLine
			}
			if p.readFields(spans[1:close], false) {
				p.vals[trSpan] = name
			}
			spans = spans[close+1:]
		}
		if len(spans) > 0 && spans[0] == ':' {
			spans = spans[1:]
		}
	}
	if f, ok := towerAnswer(rest[end+2:]); ok {
		// The answer's own fields, then, in the compact format, its
		// span's.
		p.tower = true
		p.readFields(f, true)
	} else {
		p.towerOther = bytes.HasPrefix(rest[end+2:], towerEvents)
	}
	return nil
}

// readFields reads a span's fields (what its braces hold), or an event's
// (what follows its message), into p.vals, the request's times; true
// when they hold total_time.
func (p *tracingParser) readFields(f []byte, event bool) bool {
	total := false
	for len(f) > 0 {
		f = bytes.TrimLeft(f, " ")
		eq := 0
		for eq < len(f) && isIdent(f[eq]) {
			eq++
		}
		if eq == 0 || eq == len(f) || f[eq] != '=' {
			return total // not key=value: nothing more is read of it
		}
		key := f[:eq]
		f = f[eq+1:]
		var val []byte
		if len(f) > 0 && f[0] == '"' {
			j := 1
			for j < len(f) && f[j] != '"' {
				if f[j] == '\\' {
					j++
				}
				j++
			}
			val, f = f[1:min(j, len(f))], f[min(j+1, len(f)):]
		} else {
			n := debugValueEnd(f)
			val, f = f[:n], f[n:]
		}
		switch string(key) {
		case "total_time":
			p.vals[trTotal], total = val, true
		case "validation_time", "tokenization_time":
			p.vals[trValidation] = val
		case "queue_time":
			p.vals[trQueue] = val
		case "inference_time":
			p.vals[trInference] = val
		case "time_per_token":
			p.vals[trPerToken] = val
		case "status_code":
			p.vals[trStatus] = val
		case "latency":
			p.vals[trLatency] = val
		case "method":
			p.vals[trMethod] = val
		case "uri":
			p.vals[trURI] = val
		case "status":
			if event {
				p.vals[trEventStatus] = val // tower-http's answer's
			}
		}
	}
	return total
}

// debugValueEnd returns where a value written unquoted (a number, a
// Debug form: "Some(20)", "GenerateParameters { stop: [] }") ends in f:
// at a space outside brackets and quotes that a field's "key=" follows,
// or at f's end.
func debugValueEnd(f []byte) int {
	end := scanUnquoted(f, "{[(", "}])", func(i, depth int) bool {
		if f[i] != ' ' || depth > 0 {
			return false
		}
		k := i + 1
		for k < len(f) && isIdent(f[k]) {
			k++
		}
		return k > i+1 && k < len(f) && f[k] == '='
	})
	if end < 0 {
		return len(f)
	}
	return end
}

// fieldsEnd returns the index of the brace that closes the one s starts
// with, brackets and quotes within skipped; −1 when none does.
func fieldsEnd(s []byte) int {
	return scanUnquoted(s, "{", "}", func(i, depth int) bool { return s[i] == '}' && depth == 0 })
}

// spansEnd returns where the spans before an event's target end: the
// first ": " outside braces and quotes; −1 when there is none.
func spansEnd(s []byte) int {
	return scanUnquoted(s, "{", "}", func(i, depth int) bool {
		return s[i] == ':' && depth == 0 && i+1 < len(s) && s[i+1] == ' '
	})
}

// scanUnquoted returns the first index of s outside a quoted string
// ("…", a backslash escaping the byte after it) that at accepts, given
// the depth of the brackets opens and closes there (a closing bracket's
// depth is the one after it); −1 when at accepts none.
func scanUnquoted(s []byte, opens, closes string, at func(i, depth int) bool) int {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted:
			if c == '\\' {
				i++
			} else if c == '"' {
				quoted = false
			}
			continue
		case c == '"':
			quoted = true
			continue
		case strings.IndexByte(opens, c) >= 0:
			depth++
		case strings.IndexByte(closes, c) >= 0:
			depth--
		}
		if at(i, depth) {
			return i
		}
	}
	return -1
}

// targetNext reports whether s starts with an event's target, a module
// path ("text_embeddings_core::infer") then ": ": what follows spans
// written without fields.
func targetNext(s []byte) bool {
	i := bytes.Index(s, []byte(": "))
	if i <= 0 || !bytes.Contains(s[:i], []byte("::")) {
		return false
	}
	for _, c := range s[:i] {
		if !isIdent(c) && c != ':' {
			return false
		}
	}
	return true
}

// isIdent reports whether c may be in a field's name.
func isIdent(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// cutSpaced returns the token s starts with, after any spaces, and what
// follows it.
func cutSpaced(s []byte) (tok, rest []byte, ok bool) {
	s = bytes.TrimLeft(s, " \t")
	i := bytes.IndexAny(s, " \t")
	if i <= 0 {
		return nil, nil, false
	}
	return s[:i], s[i:], true
}

// tracingLevel reports whether t is one of tracing's levels.
func tracingLevel(t []byte) bool {
	switch string(t) {
	case "TRACE", "DEBUG", "INFO", "WARN", "ERROR":
		return true
	}
	return false
}

// Parse reads one line into r.
func (p *tracingParser) Parse(line []byte, r *Record) error {
	p.newLine()
	if coloured(line) {
		// Into the buffer the records may point into.
		start := len(p.scratch)
		p.scratch = appendDecolored(p.scratch, line)
		line = p.scratch[start:len(p.scratch):len(p.scratch)]
	}
	if err := p.split(line); err != nil {
		return err
	}
	if p.tower && p.vals[trTotal] == nil {
		return p.set(r)
	}
	if p.towerOther {
		// In the compact format its span's uri follows the event's
		// fields, none read: an ERROR there is no request of its own.
		return errTracingEvent
	}
	if p.vals[trTotal] == nil {
		switch {
		case p.vals[trLatency] != nil && routerAnswer(line):
			return p.set(r)
		case p.vals[trLatency] != nil, p.vals[trURI] != nil:
			// The SGLang router's span: of its events only the answer
			// is the request, an ERROR before it no request of its own.
			return errTracingEvent
		}
	}
	if p.vals[trTotal] == nil && string(p.vals[trLevel]) != "ERROR" {
		return errTracingEvent
	}
	if t := p.vals[trTotal]; t != nil && !p.mapped && !endsInUnit(t) {
		return errTracingTime
	}
	return p.set(r)
}

// set sets r's fields from the line's values.
func (p *tracingParser) set(r *Record) error {
	if err := setColumns(r, p.binds[:], p.vals[:], p.loc); err != nil {
		return err
	}
	return r.Finish()
}
