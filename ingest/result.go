package ingest

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"sync/atomic"
	"unicode/utf8"
)

// FileStats describes one input after the run.
type FileStats struct {
	Path   string
	Format Format
	// Source is the program that wrote the file (SPEC §3 "Sources"), as
	// detected or forced; "" when no known source matched.
	Source string
	// Envelope wraps the file's lines, which are read as the lines
	// within (NoEnvelope for none).
	Envelope Envelope
	// Seen lists the field names the file's first record carried, in
	// their own spelling (at most MaxSeen), so a report that could read
	// nothing can say what was there.
	Seen []string
	// Magnitudes holds, of each top-level number of the file's first
	// JSON records whose name reads as a duration's (time, duration,
	// latency, elapsed, took) while no name gives request_time or none
	// the time, what its values were like: so that a report that could
	// read no request time can say in which unit to --map it, and one
	// that read no time which name holds epoch instants.
	Magnitudes map[string]Magnitude
	// Refused lists the names of the file's first records that are
	// request_time's generic names whose values are not in its unit:
	// each left unread, or read in the unit its values are written in.
	Refused []Refused
	// Instants lists the names of the file's first records that read as
	// a duration's (time, elapsed…) whose first values are dates and
	// times written as text (Python logging's asctime, "2026-12-05
	// 10:00:00,323"): instants, whatever their name, which no --map
	// reads as a request's duration.
	Instants []string
	// Clocks lists the names of the file's first records that give the
	// time by SPEC §3's names whose first values are a time of day alone
	// (Fiber's logger's "10:00:06"): no day, so the records are read
	// without a time, which is unknown.
	Clocks []string
	// MicroD is what the first values of an Apache LogFormat's %D were
	// like, as written (µs, as Apache's manual says), when the file was
	// read with one (--log-format) that reads it as request_time in µs:
	// several servers that take Apache's syntax write it in ms, which a
	// report tells by a median no HTTP request lasts. N is 0 otherwise.
	MicroD Magnitude
	// Zone, when set, is the zone the file's times written without one
	// were read in ("UTC+08:00"), not --tz's: the epoch each record
	// carries beside them (SLS's __time__) told it.
	Zone     string
	Records  int64
	BadLines int64
	// PassedOver counts the records read that the file's source marks as
	// no request (Langfuse's spans and events): neither records nor bad
	// lines.
	PassedOver int64
	// WithoutRequestTime are the records read (Records) that carry no
	// request_time.
	WithoutRequestTime int64
	// TimeNumbers are the bad lines (BadLines) whose time was a plain
	// number no epoch reads as one of the years read (0.42): a duration
	// where the time is looked for, which --map can give its field.
	TimeNumbers int64
	// PastFormat: most of the first lines of a text log go on past the
	// end of the known format it was read with (nginx's combined, with
	// fields a configuration appended), which are not read.
	PastFormat bool
	// UnreadValues counts, per field, the records read whose value of the
	// field was there but could not be read ("n/a" for a ttft, 200.5 for
	// a status, a duration past its bounds): the record is kept without
	// it (SPEC §3: only time and request_time make a line bad). Nil when
	// there are none.
	UnreadValues map[Field]int64
	// BadLinesOutside are the bad lines (of BadLines) a window
	// (Options.Window) places outside it: a bad line has no time of its
	// own, and is the time's of the records about it in its file, the
	// one before it (the one after, before a block's first). So the
	// hourly runs of a cron over one growing file, each of its own
	// hour, count each bad line once between them.
	BadLinesOutside int64
	// Unopened: the file could not be found or opened (a missing path, a
	// glob that matched nothing, no permission): nothing of it was seen,
	// so no flag for its format would help (Reason says why).
	Unopened bool
	// Incomplete is set when the file could not be read to its end
	// (truncated compression, damaged Parquet/Arrow); Reason says why.
	Incomplete bool
	Reason     string
}

// Problem is one sampled bad line.
type Problem struct {
	File   string
	Line   int64 // line, or row for columnar files, from 1
	Reason string
	// unit, while the run goes, is 1 + the unit of a mapped file the
	// line is in, Line then its line within the unit, from 1; with
	// lead, 1 + the unit before which the reader passed over the line,
	// Line then its place among the lines passed over there. A unit's
	// first line is known once the units before it are counted
	// (resolveMapped).
	unit int
	lead bool
}

// before orders problems as the lines of their file.
func (p Problem) before(o Problem) bool {
	if p.unit != o.unit {
		return p.unit < o.unit
	}
	if p.lead != o.lead {
		return p.lead
	}
	return p.Line < o.Line
}

// A problem of line 0 is of the run or the file as a whole: "file: reason".
func (p Problem) String() string {
	if p.Line == 0 {
		return p.File + ": " + p.Reason
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Reason)
}

// Result is what a run read.
type Result struct {
	Files    []FileStats
	Problems []Problem // the first MaxProblems bad lines of each file, in file order
	// ValueProblems are the first MaxProblems records of each file with
	// an unreadable value (FileStats.UnreadValues), in file order.
	ValueProblems []Problem
}

// Records returns the number of records read from all files.
func (r *Result) Records() (n int64) {
	for _, f := range r.Files {
		n += f.Records
	}
	return n
}

// BadLines returns the number of bad lines in all files.
func (r *Result) BadLines() (n int64) {
	for _, f := range r.Files {
		n += f.BadLines
	}
	return n
}

// BadLinesInWindow counts the bad lines placed in Options.Window: all
// of them without one (FileStats.BadLinesOutside).
func (r *Result) BadLinesInWindow() (n int64) {
	for _, f := range r.Files {
		n += f.BadLines - f.BadLinesOutside
	}
	return n
}

// Incomplete reports whether some file could not be read to its end.
func (r *Result) Incomplete() bool {
	for _, f := range r.Files {
		if f.Incomplete {
			return true
		}
	}
	return false
}

// counters are one worker's (or the reader's) tallies for one file.
type counters struct {
	records, bad, passed int64
	badOut               int64 // of bad, those placed outside Options.Window
	noRT                 int64 // records without a request_time
	timeNumbers          int64 // bad lines whose time was a plain number (timeNumber)
	problems             []Problem
	unread               []int64   // per field, records with an unreadable value of it; nil for none
	valueProblems        []Problem // samples of those records
	// units holds the lines of each unit of a mapped file the worker
	// read (by unit; 0 for the other workers').
	units []int64
}

type tally struct {
	max   int
	files []counters
	badN  *atomic.Int64 // the run's progress count of bad lines
	unit  int           // Problem.unit of the lines being read
}

// unitLines notes that unit seq of file i held n lines.
func (t *tally) unitLines(i, seq int, n int64) {
	c := t.get(i)
	for len(c.units) <= seq {
		c.units = append(c.units, 0)
	}
	c.units[seq] = n
}

// passedOver counts a line over MaxLine that the reader of a mapped
// file passed over before unit seq, the j-th since the unit before.
func (t *tally) passedOver(fs *fileState, seq int, j int64) {
	t.badProblem(fs, Problem{File: fs.path, Line: j, Reason: errLongLine, unit: seq + 1, lead: true})
}

// resolveMapped numbers the problems of a mapped file's units in the
// file, from every worker's counts of its units' lines, the lines its
// reader passed over before each unit (fs.mapSkips) and the line its
// first unit begins at (fs.mapFirst).
func resolveMapped(fs *fileState, tallies []*tally) {
	var counts []int64 // of each unit, its lines
	for _, t := range tallies {
		if fs.index < len(t.files) {
			for u, n := range t.files[fs.index].units {
				for len(counts) <= u {
					counts = append(counts, 0)
				}
				counts[u] += n // one worker read it; the others hold 0
			}
		}
	}
	skips := func(u int) int64 {
		if u < len(fs.mapSkips) {
			return fs.mapSkips[u]
		}
		return 0
	}
	// starts[u] is unit u's first line; the one past the last unit
	// follows the lines passed over at the file's end.
	n := max(len(counts), len(fs.mapSkips))
	starts := make([]int64, n+1)
	starts[0] = fs.mapFirst + skips(0)
	for u := range n {
		c := int64(0)
		if u < len(counts) {
			c = counts[u]
		}
		starts[u+1] = starts[u] + c + skips(u+1)
	}
	resolve := func(ps []Problem) {
		for i := range ps {
			p := &ps[i]
			if p.unit == 0 || p.unit > len(starts) {
				continue
			}
			u := p.unit - 1
			if p.lead {
				p.Line += starts[u] - skips(u) - 1
			} else {
				p.Line += starts[u] - 1
			}
			p.unit, p.lead = 0, false
		}
	}
	for _, t := range tallies {
		if fs.index < len(t.files) {
			resolve(t.files[fs.index].problems)
			resolve(t.files[fs.index].valueProblems)
		}
	}
}

func (t *tally) get(i int) *counters {
	for len(t.files) <= i {
		t.files = append(t.files, counters{})
	}
	return &t.files[i]
}

// bad counts a bad line and keeps it if it is among the first t.max lines
// of its file seen so far.
func (t *tally) bad(fs *fileState, line int64, reason string) {
	t.badProblem(fs, Problem{File: fs.path, Line: line, Reason: reason, unit: t.unit})
}

// badProblem counts a bad line of fs and keeps p, its problem, as bad
// does.
func (t *tally) badProblem(fs *fileState, p Problem) {
	c := t.get(fs.index)
	c.bad++
	t.badN.Add(1)
	keepProblem(&c.problems, p, t.max)
}

// keepProblem keeps p in *ps if it is among the first max lines of its
// file seen so far.
func keepProblem(ps *[]Problem, p Problem, max int) {
	if len(*ps) < max {
		*ps = append(*ps, p)
		return
	}
	if worst := worstProblem(*ps); p.before((*ps)[worst]) {
		(*ps)[worst] = p
	}
}

// worstProblem returns the index of the latest of ps in its file.
func worstProblem(ps []Problem) int {
	worst := 0
	for i := range ps {
		if ps[worst].before(ps[i]) {
			worst = i
		}
	}
	return worst
}

// unreadValues counts the fields of record r, read from line, whose
// values it could not read (Record.unread), and keeps a sample as bad
// does.
func (t *tally) unreadValues(fs *fileState, line int64, r *Record) {
	u := r.unreadFields()
	if u == 0 {
		return
	}
	c := t.get(fs.index)
	if c.unread == nil {
		c.unread = make([]int64, NumFields)
	}
	for f := range NumFields {
		c.unread[f] += int64(u >> f & 1)
	}
	if len(c.valueProblems) >= t.max && !(Problem{Line: line, unit: t.unit}).before(c.valueProblems[worstProblem(c.valueProblems)]) {
		return // later than every sample: no reason is built
	}
	keepProblem(&c.valueProblems, Problem{File: fs.path, Line: line, Reason: unreadReason(r, u), unit: t.unit}, t.max)
}

// unreadReason says which of r's values u could not be read: the first
// one's text when it is among them.
func unreadReason(r *Record, u uint64) string {
	f := r.unreadField
	if u>>f&1 == 0 {
		f = Field(bits.TrailingZeros64(u))
		return fmt.Sprintf("%s: a value that cannot be read; the record is kept without it", fields[f].name)
	}
	v := r.unreadText
	for len(v) > 0 && !utf8.Valid(v) {
		v = v[:len(v)-1]
	}
	return fmt.Sprintf("%s: cannot read %q; the record is kept without it", fields[f].name, v)
}

// badErr is bad for a line whose reading failed with err, said as
// reason, counting a time that was a plain number apart (timeNumber).
func (t *tally) badErr(fs *fileState, line int64, err error, reason string) {
	if timeNumber(err) {
		t.get(fs.index).timeNumbers++
	}
	t.bad(fs, line, reason)
}

// timeNumber reports whether err is a time that was a plain number below
// 10⁸: in no unit an epoch of the years read (its seconds are 9.5×10⁸
// and more), so most likely a duration.
func timeNumber(err error) bool {
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Field != FTime {
		return false
	}
	v, perr := strconv.ParseFloat(ve.Value, 64)
	return perr == nil && v >= 0 && v < 1e8
}

// statusClientClosed is nginx's status of a request whose client closed
// the connection before the response.
const statusClientClosed = 499

// statusFix is how the records of a source's log take their status
// (fixStatus): zero, the status a status 0 stands for, as its program
// documents it (0 when it stands for none); none, the status of a record
// that has none (0: none).
//
// Envoy's (Istio's, Higress's, Emissary-ingress's, Kuma's) 0 is a response it never began: "this
// generally means that the (downstream) client disconnected", nginx's
// 499, as is CloudFront's 000, the viewer gone before the response.
// Azure Front Door's is its request to the origin timing out: a 504.
// Amazon Bedrock's invocation log writes an errorCode for a call that
// failed and nothing for one that did not: a 200; so do Braintrust's
// log its error and Opik's spans their error_info. PromptLayer's log
// without a status is a SUCCESS, its default.
type statusFix struct{ zero, none float64 }

func statusFixOf(source string) statusFix {
	switch source {
	case "envoy", "istio", "higress", "emissary", "kuma", "gloo", "cloudfront":
		return statusFix{zero: statusClientClosed}
	case "azure-frontdoor":
		return statusFix{zero: 504}
	case "bedrock", "braintrust", "opik", "promptlayer":
		return statusFix{none: 200}
	}
	return statusFix{}
}

// tcpLines returns how a record of source's log is told to be a TCP
// connection rather than an HTTP request, or nil when its log holds
// none. Envoy's (Istio's, Higress's, Emissary-ingress's) access log writes a TCP proxy's
// connection as a line of its own, "- - -" where an HTTP request has its
// method, path and protocol, its status 0 and its duration the
// connection's life (an hour-long database connection); AWS's Classic
// Load Balancer's, a TCP listener's connection with "- - - " for the
// request and "-" for both statuses.
func tcpLines(source string) func(*Record) bool {
	switch source {
	case "envoy", "istio", "higress", "emissary", "kuma":
		return connection
	case "aws-elb":
		return elbConnection
	case "squid":
		return squidTunnel
	}
	return nil
}

// squidTunnel reports whether r, of Squid's access log, is no request it
// answered: a CONNECT, a tunnel whose time is the connection's life (the
// requests inside it, HTTPS, are not Squid's to see unless it bumps them,
// when it logs each), or a connection closed before any request ("-", with
// a URL such as "error:transaction-end-before-headers").
func squidTunnel(r *Record) bool {
	return r.set&(1<<FMethod) == 0 || string(r.text[FMethod]) == "CONNECT"
}

// connection reports whether r, of Envoy's log, is a TCP connection: it
// has neither a method nor a path, and status 0 (an HTTP request Envoy
// could not read, "- - HTTP/1.1" 400 DPE, has its status; a Higress line
// of its AI plugin's fields alone has none). It is passed over, no
// request.
func connection(r *Record) bool {
	return r.set&(1<<FMethod|1<<FURI) == 0 && r.set&(1<<FStatus) != 0 && r.num[FStatus] == 0
}

// elbConnection reports whether r, of the Classic Load Balancer's log, is
// a TCP listener's connection: no method, path or status.
func elbConnection(r *Record) bool {
	return r.set&(1<<FMethod|1<<FURI|1<<FStatus) == 0
}

// fixStatus gives r the status its source's log means (statusFix).
// A status that could not be read is left unread.
func fixStatus(r *Record, f statusFix) {
	if f.zero != 0 && r.set&(1<<FStatus) != 0 && r.num[FStatus] == 0 {
		r.num[FStatus] = f.zero
	}
	if f.none != 0 && (r.set|r.unread)&(1<<FStatus) == 0 {
		r.put(FStatus, prioDerived, f.none)
	}
}

// Refused is a generic name of request_time not read in Unit, the unit
// SPEC §3 reads it in, for its first values: their median in Unit is no
// request's (ReadIn UnitNone: the name is left unread), or they are
// written as nginx writes $request_time, seconds with three decimals
// (ReadIn UnitSecond: read so), or they are fractions whose median is
// under 10 (ReadIn UnitSecond, Fractions: a Python logger's seconds).
type Refused struct {
	Name   string
	Unit   Unit
	ReadIn Unit
	// Fractions: ReadIn is seconds because most first values were
	// fractions of median under 10, not for nginx's three decimals.
	Fractions bool
	Magnitude
	// Tail is the first values' 90th percentile: a log whose most
	// requests are health checks of µs has its requests' size there.
	Tail float64
	// Spans, when set, is the source (jaeger, zipkin) whose spans the
	// records are by their ids, trimmed of their start: Name is their
	// duration, which that source writes in µs, left unread whatever
	// its values, as no time tells the records spans (--source reads
	// them as that source's).
	Spans string
}

// Magnitude is what a field's first values were like: how many numbers,
// their median, and whether each was whole.
type Magnitude struct {
	N      int
	Median float64
	Whole  bool
}
