package ingest

// Fiber's request log: the lines the Go web framework Fiber's logger
// middleware writes by default (gofiber/fiber middleware/logger). Its
// default output (default_logger.go, when Format is the default) is
//
//	10:00:06 | 404 |   71.821973ms |        10.0.1.4 | POST    | /v1/embeddings
//
// the time in the TimeFormat, then the status right-aligned in 3, the
// latency, Go's time.Duration as String() prints it ("71.821973ms",
// "1.2s", "850µs"), right-aligned in 13, the caller's IP right-aligned in
// 15, the method left-aligned in 7 and the path padded, then " | " and
// the handler's error when there was one; with colours, the status and
// the method between escapes. Fiber v2's default Format, and the one
// many apps still set, is the classic line
//
//	[10:00:06] 404 -   71.821973ms POST /v1/embeddings
//
// "[${time}] ${status} - ${latency} ${method} ${path}" (v2's config.go;
// v3's FormatDefault puts ${ip} before the status and ${error} after
// the path, format.go). The TimeFormat is "15:04:05" by default
// (config.go): a time of day alone, no date, so such a record has no
// time (unreadClocks says why); a TimeFormat with a date is read, in
// --tz when it has no zone.

import (
	"bytes"
	"errors"
	"time"
)

// The columns of a Fiber request line.
const (
	fiberTime = iota
	fiberStatus
	fiberLatency
	fiberIP
	fiberMethod
	fiberPath
	fiberColumns
)

// fiberNames name the columns, for the report's fields seen.
var fiberNames = [fiberColumns]string{"time", "status", "latency", "ip", "method", "path"}

// fiberOwn is how the columns are read.
var fiberOwn = [fiberColumns]Bindings{
	fiberTime:    {{Field: FTime, Prio: prioSource}},
	fiberStatus:  {{Field: FStatus, Prio: prioSource}},
	fiberLatency: {{Field: FRequestTime, Prio: prioSource}}, // its text names its unit
	fiberIP:      {{Field: FRemoteAddr, Prio: prioSource}},
	fiberMethod:  {{Field: FMethod, Prio: prioSource}},
	fiberPath:    {{Field: FURI, Prio: prioSource}},
}

var errNotFiber = errors.New("not a Fiber request line (want time | status | latency | ip | method | path, or [time] status - latency method path)")

// fiberSplit cuts a Fiber request line into vals, its colour escapes
// and padding trimmed; false when line is none.
func fiberSplit(line []byte, vals *[fiberColumns][]byte) bool {
	*vals = [fiberColumns][]byte{}
	line = bytes.TrimRight(line, " \r")
	if len(line) > 0 && line[0] == '[' {
		return fiberClassic(line, vals)
	}
	var f [5][]byte
	rest := line
	for i := range f {
		var ok bool
		if f[i], rest, ok = ginField(rest); !ok {
			return false
		}
	}
	// The path, then " | " and the error when there was one.
	path := rest
	if i := bytes.Index(path, []byte(" | ")); i >= 0 {
		path = path[:i]
	}
	path = trimANSI(path)
	m := trimANSI(f[4])
	if len(f[0]) == 0 || !isStatus(f[1]) || !fiberDuration(f[2]) || len(f[3]) == 0 ||
		bytes.IndexByte(f[3], ' ') >= 0 || !isFiberMethod(m) || !fiberPathOK(path) {
		return false
	}
	vals[fiberTime], vals[fiberStatus], vals[fiberLatency], vals[fiberIP], vals[fiberMethod], vals[fiberPath] = f[0], f[1], f[2], f[3], m, path
	return true
}

// fiberClassic cuts the classic line, "[time] [ip ]status - latency
// method path[ error]", into vals.
func fiberClassic(line []byte, vals *[fiberColumns][]byte) bool {
	end := bytes.IndexByte(line, ']')
	if end < 2 {
		return false
	}
	vals[fiberTime] = line[1:end]
	var w [7][]byte // the words after the time, colour escapes dropped
	n := 0
	for rest := line[end+1:]; n < len(w); n++ {
		t, ok := cutToken(rest)
		if !ok {
			break
		}
		w[n], rest = trimANSI(t.tok), t.after
		if len(w[n]) == 0 { // an escape alone
			n--
		}
	}
	i := 0
	if n > 0 && !isStatus(w[0]) {
		vals[fiberIP], i = w[0], 1
	}
	if n < i+5 || !isStatus(w[i]) || string(w[i+1]) != "-" || !fiberDuration(w[i+2]) ||
		!isFiberMethod(w[i+3]) || !fiberPathOK(w[i+4]) {
		return false
	}
	vals[fiberStatus], vals[fiberLatency], vals[fiberMethod], vals[fiberPath] = w[i], w[i+2], w[i+3], w[i+4]
	return true
}

// fiberDuration reports whether b is a duration with its unit as Go
// prints one.
func fiberDuration(b []byte) bool {
	_, fl := unitDuration(b)
	return fl == fine && endsInUnit(b)
}

// isFiberMethod reports whether b is an HTTP method: 3 to 7 capitals.
func isFiberMethod(b []byte) bool {
	for _, c := range b {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return len(b) >= 3 && len(b) <= 7
}

// fiberPathOK reports whether b is a request's path: "/…", or "*".
func fiberPathOK(b []byte) bool {
	return len(b) > 0 && (b[0] == '/' || string(b) == "*")
}

// fiberHead reports whether most of head's first lines, and at least
// two (or the one there is), are Fiber's request lines.
func fiberHead(head []byte) bool {
	var vals [fiberColumns][]byte
	lines := headLines(head, sniffLines)
	yes := 0
	for _, l := range lines {
		if fiberSplit(l, &vals) {
			yes++
		}
	}
	return yes > 0 && 2*yes > len(lines) && (yes >= 2 || len(lines) == 1)
}

// fiberClockHead reports whether the first of head's Fiber lines has a
// time of day alone (the default TimeFormat, "15:04:05").
func fiberClockHead(head []byte) bool {
	var vals [fiberColumns][]byte
	for _, l := range headLines(head, sniffLines) {
		if fiberSplit(l, &vals) {
			return clockOnly(vals[fiberTime])
		}
	}
	return false
}

// fiberParser reads Fiber's request lines.
type fiberParser struct {
	loc  *time.Location
	vals [fiberColumns][]byte
}

func newFiberParser(c *parserConfig) *fiberParser { return &fiberParser{loc: c.loc} }

// Parse reads one line into r: a time of day alone is no time.
func (p *fiberParser) Parse(line []byte, r *Record) error {
	if !fiberSplit(line, &p.vals) {
		return errNotFiber
	}
	if clockOnly(p.vals[fiberTime]) {
		p.vals[fiberTime] = nil
	}
	if err := setColumns(r, fiberOwn[:], p.vals[:], p.loc); err != nil {
		return err
	}
	return r.Finish()
}
