package ingest

// Rails' default request log: the lines Action Controller and Rails'
// Rack logger write for each request, without lograge. A request is
//
//	Started POST "/v1/chat/completions" for 10.0.1.8 at 2025-03-10 10:00:04 +0000
//	Processing by Api::V1::ChatCompletionsController#create as JSON
//	  Parameters: {"model"=>"gpt-4o", …}
//	Completed 200 OK in 867ms (Views: 2.0ms | ActiveRecord: 0.4ms | Allocations: 9312)
//
// "Started %s \"%s\" for %s at %s", the method, the filtered path, the
// client's address and Time.now (railties lib/rails/rack/logger.rb,
// started_request_message), and "Completed #{status}
// #{Rack::Utils::HTTP_STATUS_CODES[status]} in #{event.duration.round}ms"
// with the views' and the database's times after it (actionpack
// lib/action_controller/log_subscriber.rb, process_action). Each
// Completed line is one request: its status and its duration, ms.
//
// In production Rails 7.1 tags each line with the request's id
// (config.log_tags = [:request_id]; activesupport
// lib/active_support/tagged_logging.rb writes "[tag] " for each tag),
// and before 7.1 it logs through Ruby's Logger::Formatter, whose prefix
// ("I, [2025-03-10T10:00:20.158520 #7]  INFO -- : ") carries the time
// (rubyLoggerPrefix). Tagged lines tell a request's lines apart: the
// Completed line takes the method, the path, the address and the time
// of the Started line with the same tags. Untagged lines of requests
// served at once by several threads interleave, so they are not paired:
// the Completed line alone is read, with its prefix's time if any.
// Every other line (Processing, Parameters, Rendered, an error's
// backtrace) is Rails' own: passed over.

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// The columns of a Rails request.
const (
	railsTime = iota
	railsStatus
	railsDuration
	railsMethod
	railsPath
	railsAddr
	railsColumns
)

// railsNames name the columns, for the report's fields seen.
var railsNames = [railsColumns]string{"time", "status", "duration", "method", "path", "remote_ip"}

// railsOwn is how the columns are read.
var railsOwn = [railsColumns]Bindings{
	railsTime:     {{Field: FTime, Prio: prioSource}},
	railsStatus:   {{Field: FStatus, Prio: prioSource}},
	railsDuration: {{Field: FRequestTime, Prio: prioSource}}, // "867ms": its text names its unit
	railsMethod:   {{Field: FMethod, Prio: prioSource}},
	railsPath:     {{Field: FURI, Prio: prioSource}},
	railsAddr:     {{Field: FRemoteAddr, Prio: prioSource}},
}

// startLinesMax bounds the start lines a parser keeps for their end
// lines.
const startLinesMax = 1024

var (
	errNotRails   = errors.New("not a Rails request line (want Completed status … in Nms)")
	errRailsOther = fmt.Errorf("%w: a line of Rails' own, not a request's Completed line", errPassOver)
)

// railsMessage returns line's message, without Ruby's Logger prefix
// and the tags before it, the tags' text and the prefix's time.
func railsMessage(line []byte) (msg, tags, stamp []byte) {
	msg = line
	if m, s, ok := rubyLoggerPrefix(line); ok {
		msg, stamp = m, s
	}
	rest := msg
	for len(rest) > 0 && rest[0] == '[' {
		end := bytes.Index(rest, []byte("] "))
		if end < 0 {
			break
		}
		rest = rest[end+2:]
	}
	return rest, msg[:len(msg)-len(rest)], stamp
}

// railsStarted cuts a Started message into its method, path, address
// and time; false when msg is none.
func railsStarted(msg []byte, vals *[railsColumns][]byte) bool {
	rest, ok := bytes.CutPrefix(msg, []byte("Started "))
	if !ok {
		return false
	}
	sp := bytes.IndexByte(rest, ' ')
	if sp < 0 || !isFiberMethod(rest[:sp]) || len(rest) < sp+2 || rest[sp+1] != '"' {
		return false
	}
	method := rest[:sp]
	rest = rest[sp+2:]
	// The path is written as it is, a quote and all: the last `" for `
	// ends it.
	q := bytes.LastIndex(rest, []byte(`" for `))
	if q < 0 {
		return false
	}
	path := rest[:q]
	rest = rest[q+len(`" for `):]
	at := bytes.Index(rest, []byte(" at "))
	if at <= 0 || len(path) == 0 {
		return false
	}
	vals[railsMethod], vals[railsPath], vals[railsAddr], vals[railsTime] = method, path, rest[:at], rest[at+len(" at "):]
	return true
}

// railsCompleted cuts a Completed message into its status and its
// duration ("867ms"); false when msg is none.
func railsCompleted(msg []byte, vals *[railsColumns][]byte) bool {
	rest, ok := bytes.CutPrefix(msg, []byte("Completed "))
	if !ok || len(rest) < 4 || rest[3] != ' ' || !isStatus(rest[:3]) {
		return false
	}
	status := rest[:3]
	// The status's phrase, none for a code Rack does not name.
	in := bytes.Index(rest[3:], []byte(" in "))
	if in < 0 {
		return false
	}
	d := rest[3+in+len(" in "):]
	if sp := bytes.IndexByte(d, ' '); sp >= 0 {
		d = d[:sp]
	}
	if len(d) < 3 || !bytes.HasSuffix(d, []byte("ms")) || !isDigit(d[0]) {
		return false
	}
	if _, fl := unitDuration(d); fl != fine {
		return false
	}
	vals[railsStatus], vals[railsDuration] = status, d
	return true
}

// railsHead reports whether one of head's first lines is a Started or
// a Completed line of Rails' request log.
func railsHead(head []byte) bool {
	var vals [railsColumns][]byte
	for _, l := range headLines(head, sniffLines) {
		msg, _, _ := railsMessage(l)
		if railsStarted(msg, &vals) || railsCompleted(msg, &vals) {
			return true
		}
	}
	return false
}

// railsParser reads Rails' request log, a record for each Completed
// line.
type railsParser struct {
	holding
	loc *time.Location
	// pending holds, by their tags, the Started lines whose Completed
	// line has not come yet: the Logger prefix's time and the message.
	pending startLines
	vals    [railsColumns][]byte
}

func newRailsParser(c *parserConfig) *railsParser {
	return &railsParser{loc: c.loc}
}

// Parse reads one line: a Completed line into r, with its Started
// line's values when their tags pair them; a tagged Started line is
// kept; any other line is passed over.
func (p *railsParser) Parse(line []byte, r *Record) error {
	p.newLine()
	p.vals = [railsColumns][]byte{}
	msg, tags, stamp := railsMessage(line)
	if bytes.HasPrefix(msg, []byte("Started ")) {
		if len(tags) > 0 && railsStarted(msg, &p.vals) {
			p.pending.keep(tags, stamp, msg)
		}
		return errRailsOther
	}
	if !bytes.HasPrefix(msg, []byte("Completed ")) {
		return errRailsOther
	}
	if !railsCompleted(msg, &p.vals) {
		return errNotRails
	}
	when := stamp
	if len(tags) > 0 {
		if stamp, msg, ok := p.pending.take(tags, &p.holding); ok {
			railsStarted(msg, &p.vals)
			when = p.vals[railsTime]
			if len(stamp) > 0 {
				when = stamp // the prefix's time has the second's fraction
			}
		}
	}
	p.vals[railsTime] = when
	if err := setColumns(r, railsOwn[:], p.vals[:], p.loc); err != nil {
		return err
	}
	return r.Finish()
}

// startLines holds, by a request's key (its tags, its id), the values
// of the line that logged its start until the line that logs its end:
// a bounded number, as a request whose end never comes (a crash, a
// block's end) takes a place until it is pushed out.
type startLines struct{ m map[string][]byte }

// keep holds a and b, joined by a line break, for key.
func (s *startLines) keep(key, a, b []byte) {
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	if _, ok := s.m[string(key)]; !ok && len(s.m) >= startLinesMax {
		for k := range s.m { // any one: the map has no order
			delete(s.m, k)
			break
		}
	}
	v := make([]byte, 0, len(a)+1+len(b))
	v = append(append(append(v, a...), '\n'), b...)
	s.m[string(key)] = v
}

// take returns and forgets what was kept for key, copied into h's
// buffer (a record points into it), cut at its line break.
func (s *startLines) take(key []byte, h *holding) (a, b []byte, ok bool) {
	v, ok := s.m[string(key)]
	if !ok {
		return nil, nil, false
	}
	delete(s.m, string(key))
	from := len(h.scratch)
	h.scratch = append(h.scratch, v...)
	v = h.scratch[from:len(h.scratch):len(h.scratch)]
	nl := bytes.IndexByte(v, '\n')
	return v[:nl], v[nl+1:], true
}
