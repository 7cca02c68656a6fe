package ingest

// W3C extended log files (the W3C working draft WD-logfile): directives
// ("#Version: 1.0", "#Software: …", "#Date: …", "#Remark: …") and a
// "#Fields: date time c-ip cs-method …" directive that names the fields
// of the lines after it, each line one request. IIS writes its fields
// separated by spaces (a space inside a value as "+"), Amazon CloudFront
// by tabs (its values URL-encoded); "-" is a field without a value. A
// #Fields directive may come again further on (IIS writes its header
// again when it restarts) and names the fields of the lines after it.
//
// The programs differ in time-taken's unit: IIS (and the HTTP Server API
// beneath it) write milliseconds, CloudFront seconds to the millisecond,
// ASP.NET Core's W3CLogger milliseconds, and the draft says seconds. A
// file is CloudFront's when its fields hold an x-edge-* name, IIS's when
// its #Software names Internet Information Services, ASP.NET Core's when
// its header is the one W3CLogger writes (aspnetW3CHeader), IIS's when
// its fields hold a name only IIS writes (sc-substatus, sc-win32-status,
// s-sitename, s-computername), and else "w3c", read as the draft says.
// --source iis, aspnetcore-w3c, cloudfront or w3c chooses for a file the
// rule does not tell. date and time are read together, in UTC.

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// w3cFields are the names the W3C draft and IIS give a meaning, with
// time-taken in unit taken. date and time feed FTime together (Parse).
func w3cFields(taken Unit) []sourceField {
	return []sourceField{
		{"date", ignored, 0}, {"time", ignored, 0},
		{"time-taken", FRequestTime, taken},
		{"sc-status", FStatus, 0}, {"cs-method", FMethod, 0},
		{"cs-uri-stem", FURI, 0}, {"cs-uri", FURI, 0},
		{"c-ip", FRemoteAddr, 0}, {"cs-username", FClient, 0},
		{"cs-host", FHost, 0}, {"cs(Host)", FHost, 0},
	}
}

// cloudfrontFields are the names of CloudFront's standard log that feed
// a field: time-taken and time-to-first-byte in seconds; x-host-header
// is the Host the viewer asked for, cs(Host) the distribution's own
// domain.
var cloudfrontFields = []sourceField{
	{"date", ignored, 0}, {"time", ignored, 0},
	{"time-taken", FRequestTime, UnitSecond}, {"time-to-first-byte", FTTFB, UnitSecond},
	{"sc-status", FStatus, 0}, {"cs-method", FMethod, 0}, {"cs-uri-stem", FURI, 0},
	{"c-ip", FRemoteAddr, 0},
	{"x-host-header", FHost, 0}, {"cs(Host)", FHost, 0},
}

// iisOnly are field names IIS writes and no other program of the draft.
var iisOnly = []string{"sc-substatus", "sc-win32-status", "s-sitename", "s-computername"}

// w3cDirectives are the draft's directives, which start a W3C file.
var w3cDirectives = []string{"#Version:", "#Fields:", "#Software:", "#Date:", "#Start-Date:", "#End-Date:", "#Remark:"}

// looksW3C reports whether a file's first line is a W3C directive.
func looksW3C(line []byte) bool {
	if len(line) == 0 || line[0] != '#' {
		return false
	}
	for _, d := range w3cDirectives {
		if bytes.HasPrefix(line, []byte(d)) {
			return true
		}
	}
	return false
}

// w3cHeader returns the #Software directive's value and the names of the
// first #Fields directive among the lines of head.
func w3cHeader(head []byte) (software []byte, names [][]byte) {
	for rest := head; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		line = bytes.TrimRight(bytes.TrimPrefix(line, utf8BOM), "\r")
		if v, ok := bytes.CutPrefix(line, []byte("#Software:")); ok && software == nil {
			software = bytes.TrimSpace(v)
		}
		if v, ok := bytes.CutPrefix(line, []byte("#Fields:")); ok && names == nil {
			names = bytes.Fields(v)
			if names == nil {
				names = [][]byte{}
			}
		}
	}
	return software, names
}

// w3cSource returns the source of a W3C file whose first bytes are
// head: forced, when it is one of the W3C sources, else by the rule of
// the comment above.
func w3cSource(head []byte, forced string) *source {
	switch forced {
	case "iis", "aspnetcore-w3c", "cloudfront", "w3c":
		return sourceByName(forced)
	}
	software, names := w3cHeader(head)
	for _, n := range names {
		if bytes.HasPrefix(n, []byte("x-edge-")) {
			return sourceByName("cloudfront")
		}
	}
	if bytes.Contains(software, []byte("Internet Information Services")) {
		return sourceByName("iis")
	}
	// Before IIS's field names: W3CLogger writes s-computername too
	// (its default fields), and a file that says it is ASP.NET Core's
	// is named for it.
	if aspnetW3CHeader(head) {
		return sourceByName("aspnetcore-w3c")
	}
	for _, n := range names {
		for _, iis := range iisOnly {
			if string(n) == iis {
				return sourceByName("iis")
			}
		}
	}
	return sourceByName("w3c")
}

// aspnetW3CHeader reports whether head begins with the header ASP.NET
// Core's W3CLogger (AddW3CLogging) writes at the top of each file:
// "#Version: 1.0", "#Start-Date: yyyy-MM-dd HH:mm:ss", then "#Fields:",
// and nothing else; its time-taken is the request's elapsed
// TotalMilliseconds (dotnet/aspnetcore
// src/Middleware/HttpLogging/src/W3CLoggerProcessor.cs, OnFirstWrite;
// W3CLoggingMiddleware.cs, _timeTakenIndex). IIS writes #Software and
// #Date instead of #Start-Date, CloudFront no #Start-Date, and the other
// writers of #Start-Date seen add a #Software; so the three lines in
// this order, whichever fields follow (LoggingFields may leave out
// ServerName, IIS's tell), are W3CLogger's.
func aspnetW3CHeader(head []byte) bool {
	want := []string{"#Version: 1.0", "#Start-Date: ", "#Fields:"}
	rest := bytes.TrimPrefix(head, utf8BOM)
	for i, w := range want {
		var line []byte
		var ok bool
		line, rest, ok = bytes.Cut(rest, []byte{'\n'})
		line = bytes.TrimRight(line, "\r")
		if !bytes.HasPrefix(line, []byte(w)) || i == 0 && len(line) != len(w) || !ok && i < len(want)-1 {
			return false
		}
	}
	return true
}

// applyW3C picks a W3C file's source and its schema, and notes the
// names of its first #Fields directive for the report.
func (p *pipeline) applyW3C(fs *fileState, head []byte) {
	src := w3cSource(head, p.opts.Source)
	fs.source = src.name
	fs.cfg.schema = fs.cfg.schema.derive(src, "")
	_, names := w3cHeader(head)
	for _, n := range names[:min(len(names), MaxSeen)] {
		fs.seen = append(fs.seen, string(n))
	}
}

// w3cTracker follows the #Fields directives of a file as the reader
// sends it: the one in force where each unit starts, which the workers,
// reading units in any order, cannot know.
type w3cTracker struct {
	cur []byte // the last #Fields line sent, its own copy; nil before one
}

// next returns the #Fields line in force at the start of data, the
// lines of one unit, and moves past them.
func (t *w3cTracker) next(data []byte) []byte {
	if t == nil {
		return nil // not a W3C file
	}
	at := t.cur
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("#Fields:"))
		if j < 0 {
			break
		}
		j += i
		end := bytes.IndexByte(data[j:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += j
		}
		if j == 0 || data[j-1] == '\n' || j == len(utf8BOM) && bytes.HasPrefix(data, utf8BOM) {
			// A new copy: units already sent keep theirs.
			t.cur = bytes.Clone(bytes.TrimRight(data[j:end], "\r"))
		}
		i = end
	}
	return at
}

// errDirective is what Parse returns for a directive line: no request,
// and no bad line either (pipeline.lines).
var errDirective = errors.New("a W3C directive")

var (
	errW3CNoFields = errors.New("no #Fields directive before the line: the names of its fields are not known")
	errW3CQuote    = errors.New("quoted field not closed by a quote before a separator")
	errW3CTime     = errors.New("unreadable time: date and time too long")
)

// w3cParser reads the lines of a W3C extended log. The columns are
// those of the #Fields directive in force: the unit's (use), then any
// the lines give.
type w3cParser struct {
	schema *Schema
	fields []byte   // the #Fields line of the columns; nil before one
	puts   []putter // by column
	date   int      // the date column, -1 when none
	time   int      // the time column, -1 when none
	when   putter   // FTime, from date and time
	ts     [64]byte // date, a space and time
	clock  clocks
}

func newW3CParser(c *parserConfig) *w3cParser {
	p := &w3cParser{schema: c.schema, date: -1, time: -1}
	p.when = newPutters([]Bindings{{{Field: FTime, Prio: prioSource}}})[0]
	return p
}

// use makes the columns those of the #Fields line given, nil for none,
// unless they are already.
func (p *w3cParser) use(fields []byte) {
	if fields == nil && p.fields == nil || fields != nil && p.fields != nil && bytes.Equal(fields, p.fields) {
		return
	}
	p.setFields(fields)
}

// setFields binds the columns the #Fields line names, through the
// file's schema (its source's names, --map, the generic names).
func (p *w3cParser) setFields(line []byte) {
	p.date, p.time = -1, -1
	p.puts = p.puts[:0]
	if line == nil {
		p.fields = nil
		return
	}
	p.fields = append(p.fields[:0:0], line...)
	names := bytes.Fields(bytes.TrimPrefix(line, []byte("#Fields:")))
	binds := make([]Bindings, len(names))
	for i, n := range names {
		switch string(n) {
		case "date":
			p.date = i
		case "time":
			p.time = i
		default:
			binds[i] = p.schema.Lookup(n)
		}
	}
	p.puts = newPutters(binds)
}

// Parse reads one line into r; a directive changes the columns of the
// lines after it (#Fields) or is passed over, as errDirective.
func (p *w3cParser) Parse(line []byte, r *Record) error {
	line = bytes.TrimPrefix(line, utf8BOM) // before the file's first directive
	if len(line) > 0 && line[0] == '#' {
		if bytes.HasPrefix(line, []byte("#Fields:")) {
			p.setFields(line)
		}
		return errDirective
	}
	if p.fields == nil {
		return errW3CNoFields
	}
	for len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t') {
		line = line[:len(line)-1]
	}
	// CloudFront's lines are tab-separated, IIS's space-separated.
	sep := byte(' ')
	if bytes.IndexByte(line, '\t') >= 0 {
		sep = '\t'
	}
	var date, clock []byte
	var setErr error
	n := 0
	for i := 0; ; n++ {
		var val []byte
		j := 0
		if i < len(line) && line[i] == '"' {
			// The draft's quoted string: to the quote before a
			// separator or the end.
			k := i + 1
			for {
				q := bytes.IndexByte(line[k:], '"')
				if q < 0 {
					return errW3CQuote
				}
				k += q + 1
				if k == len(line) || line[k] == sep {
					break
				}
			}
			val, j = line[i+1:k-1], k
		} else {
			j = bytes.IndexByte(line[i:], sep)
			if j < 0 {
				j = len(line)
			} else {
				j += i
			}
			val = line[i:j]
		}
		switch {
		case n >= len(p.puts):
		case n == p.date:
			date = val
		case n == p.time:
			clock = val
		case len(p.puts[n].bind) > 0 && setErr == nil:
			setErr = p.puts[n].set(r, val, time.UTC, &p.clock)
		}
		if j >= len(line) {
			break
		}
		i = j + 1
	}
	if n+1 != len(p.puts) {
		return fmt.Errorf("%d fields, want %d as the #Fields directive names them", n+1, len(p.puts))
	}
	if setErr != nil {
		return setErr
	}
	if !isAbsent(date) && !isAbsent(clock) {
		if len(date)+1+len(clock) > len(p.ts) {
			return errW3CTime
		}
		ts := append(append(append(p.ts[:0], date...), ' '), clock...)
		if err := p.when.set(r, ts, time.UTC, &p.clock); err != nil {
			return err
		}
	}
	return r.Finish()
}
