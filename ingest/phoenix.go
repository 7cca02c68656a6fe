package ingest

// Phoenix's request log: the lines Plug.Logger (elixir-plug/plug
// lib/plug/logger.ex) and Phoenix's own endpoint logger (phoenix
// lib/phoenix/logger.ex) write for each request through Elixir's
// console logger, whose default format is "$time $metadata[$level]
// $message" (Logger.Formatter), with Phoenix's default metadata, the
// request id:
//
//	10:00:10.182 request_id=F17362f25244caf9c4da [info] POST /api/v1/chat
//	10:00:10.320 request_id=F17362f25244caf9c4da [info] Sent 200 in 137ms
//
// The first line is [conn.method, ?\s, conn.request_path] when the
// request comes in; the second, [connection_type(conn), ?\s, status,
// " in ", formatted_diff(diff)] before the response is sent: "Sent", or
// "Chunked" for a streamed one, the status and the time in ms when over
// 1000 µs, else in µs ("450µs"). Each Sent or Chunked line is a
// request: its status and its duration; it takes the method and the
// path of the line before it with the same request id (requests served
// at once interleave their lines), and is read without them when there
// is none. $time is a time of day alone ("10:00:10.182"): the records
// have no time (unreadClocks says why); a format with $date before it
// is read with the date, in --tz. Every other line with the logger's
// prefix (Phoenix's "Processing with …", "  Parameters: …") is the
// server's own: passed over.

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// The columns of a Phoenix request.
const (
	phxTime = iota
	phxStatus
	phxDuration
	phxMethod
	phxPath
	phxColumns
)

// phxNames name the columns, for the report's fields seen.
var phxNames = [phxColumns]string{"time", "status", "duration", "method", "path"}

// phxOwn is how the columns are read.
var phxOwn = [phxColumns]Bindings{
	phxTime:     {{Field: FTime, Prio: prioSource}},
	phxStatus:   {{Field: FStatus, Prio: prioSource}},
	phxDuration: {{Field: FRequestTime, Prio: prioSource}}, // "137ms", "450µs": its text names its unit
	phxMethod:   {{Field: FMethod, Prio: prioSource}},
	phxPath:     {{Field: FURI, Prio: prioSource}},
}

var (
	errNotPhoenix = errors.New("not a line of Elixir's console logger (want time metadata [level] message)")
	errPhxOther   = fmt.Errorf("%w: a line of the server's own, not a request's Sent line", errPassOver)
)

// phxLine is a line of Elixir's console logger, cut.
type phxLine struct {
	when []byte // the time of day, or the date and the time
	id   []byte // the request_id metadata's value
	msg  []byte
}

// phxSplit cuts line into its time, its request id and its message;
// false when line has not the console logger's prefix.
func phxSplit(line []byte, l *phxLine) bool {
	*l = phxLine{}
	line = trimANSI(line)
	rest := line
	if len(rest) > 11 && rest[4] == '-' && rest[7] == '-' && rest[10] == ' ' {
		rest = rest[11:] // $date before $time
	}
	sp := bytes.IndexByte(rest, ' ')
	if sp < 0 || !clockOnly(rest[:sp]) {
		return false
	}
	l.when = line[:len(line)-len(rest)+sp]
	rest = rest[sp+1:]
	// The metadata, "key=value " each, then "[level] ".
	for len(rest) > 0 && rest[0] != '[' {
		sp := bytes.IndexByte(rest, ' ')
		if sp < 0 {
			return false
		}
		k, v, ok := bytes.Cut(rest[:sp], []byte("="))
		if !ok || len(k) == 0 {
			return false
		}
		if string(k) == "request_id" {
			l.id = v
		}
		rest = rest[sp+1:]
	}
	end := bytes.IndexByte(rest, ']')
	if end < 2 {
		return false
	}
	for _, c := range rest[1:end] {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	rest = rest[end+1:]
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	l.msg = trimANSI(rest)
	return true
}

// phxSent cuts a Sent or Chunked message into its status and its
// duration; false when msg is none.
func phxSent(msg []byte, vals *[phxColumns][]byte) bool {
	rest, ok := bytes.CutPrefix(msg, []byte("Sent "))
	if !ok {
		if rest, ok = bytes.CutPrefix(msg, []byte("Chunked ")); !ok {
			return false
		}
	}
	if len(rest) < 3+len(" in ")+3 || !isStatus(rest[:3]) || string(rest[3:3+len(" in ")]) != " in " {
		return false
	}
	d := rest[3+len(" in "):]
	if !isDigit(d[0]) || !bytes.HasSuffix(d, []byte("ms")) && !bytes.HasSuffix(d, []byte("µs")) {
		return false
	}
	if _, fl := unitDuration(d); fl != fine {
		return false
	}
	vals[phxStatus], vals[phxDuration] = rest[:3], d
	return true
}

// phxRequest cuts a request's first message, "METHOD /path"; false
// when msg is none.
func phxRequest(msg []byte) (method, path []byte, ok bool) {
	method, path, ok = bytes.Cut(msg, []byte(" "))
	return method, path, ok && isFiberMethod(method) && len(path) > 0 && path[0] == '/' && bytes.IndexByte(path, ' ') < 0
}

// phoenixHead reports whether one of head's first lines is a Sent or
// Chunked line behind Elixir's console logger's prefix.
func phoenixHead(head []byte) bool {
	var l phxLine
	var vals [phxColumns][]byte
	for _, line := range headLines(head, sniffLines) {
		if phxSplit(line, &l) && phxSent(l.msg, &vals) {
			return true
		}
	}
	return false
}

// phoenixClockHead reports whether the first of head's logger lines
// has a time of day alone (the default format's $time).
func phoenixClockHead(head []byte) bool {
	var l phxLine
	for _, line := range headLines(head, sniffLines) {
		if phxSplit(line, &l) {
			return clockOnly(l.when)
		}
	}
	return false
}

// phoenixParser reads Phoenix's request log, a record for each Sent or
// Chunked line.
type phoenixParser struct {
	holding
	loc *time.Location
	// pending holds, by request id, the request lines whose Sent line
	// has not come yet.
	pending startLines
	l       phxLine
	vals    [phxColumns][]byte
}

func newPhoenixParser(c *parserConfig) *phoenixParser { return &phoenixParser{loc: c.loc} }

// Parse reads one line: a Sent or Chunked line into r, with the method
// and path of the line before it with its request id; a request line
// with a request id is kept; any other line of the logger is passed
// over.
func (p *phoenixParser) Parse(line []byte, r *Record) error {
	p.newLine()
	p.vals = [phxColumns][]byte{}
	if !phxSplit(line, &p.l) {
		return errNotPhoenix
	}
	if !phxSent(p.l.msg, &p.vals) {
		if _, _, ok := phxRequest(p.l.msg); ok && len(p.l.id) > 0 {
			p.pending.keep(p.l.id, nil, p.l.msg)
		}
		return errPhxOther
	}
	if len(p.l.id) > 0 {
		if _, msg, ok := p.pending.take(p.l.id, &p.holding); ok {
			p.vals[phxMethod], p.vals[phxPath], _ = phxRequest(msg)
		}
	}
	if !clockOnly(p.l.when) {
		p.vals[phxTime] = p.l.when
	}
	if err := setColumns(r, phxOwn[:], p.vals[:], p.loc); err != nil {
		return err
	}
	return r.Finish()
}
