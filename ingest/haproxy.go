package ingest

// HAProxy's HTTP log (option httplog): the default format of HAProxy 1.9
// and later, as its configuration manual (8.2.3) and its source
// (default_http_log_format) give it,
//
//	%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r
//
// for example
//
//	10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"
//
// A line may start with a syslog header ("Feb  6 12:14:14 localhost
// haproxy[14389]: ", or a bare priority "<134>"), which is skipped; the captured headers ({…}) are
// there only when captures are configured; fields after the request
// (the https format's TLS fields) are ignored. Before 1.9 the first and
// last timers were Tq and Tt, read the same way. The timers are
// milliseconds, -1 for a step the request never reached, and a "+"
// before one (option logasap) marks a time taken before the end: such
// timers are absent.

import (
	"bytes"
	"errors"
	"strconv"
	"time"
)

// The columns of an HAProxy HTTP log line, by the names of its manual.
const (
	hapClient = iota // client_ip:client_port
	hapDate          // accept_date, %tr
	hapFrontend
	hapServer // backend_name/server_name
	hapTR     // TR: the client's request received
	hapTw     // Tw: waiting in the queues
	hapTc     // Tc: the server's connection established
	hapTr     // Tr: the server's response headers received
	hapTa     // Ta: the whole request, the first byte to the last
	hapStatus
	hapBytes
	hapRequest
	hapUpstream // Ta − TR − Tw: the server's part, from its connection to the last byte
	hapColumns
)

// hapNames name the columns, for --map and the report's fields seen.
var hapNames = [hapColumns]string{
	"client_ip", "accept_date", "frontend_name", "server_name",
	"TR", "Tw", "Tc", "Tr", "Ta", "status_code", "bytes_read", "http_request",
	"upstream_response_time",
}

// hapOwn is how HAProxy's columns are read unless --map names them: the
// timers in milliseconds. upstream_response_time is nginx's sense (the
// connection to the upstream to its last byte), which HAProxy's timers
// give as Ta − TR − Tw.
var hapOwn = [hapColumns]Bindings{
	hapClient:   {{Field: FRemoteAddr, Prio: prioSource}},
	hapDate:     {{Field: FTime, Prio: prioSource}},
	hapServer:   {{Field: FUpstreamAddr, Prio: prioSource}},
	hapTc:       {{Field: FUpstreamConnectTime, Unit: UnitMilli, Prio: prioSource}},
	hapTr:       {{Field: FUpstreamHeaderTime, Unit: UnitMilli, Prio: prioSource}},
	hapTa:       {{Field: FRequestTime, Unit: UnitMilli, Prio: prioSource}},
	hapStatus:   {{Field: FStatus, Prio: prioSource}},
	hapRequest:  {{Field: FRequest, Prio: prioSource}},
	hapUpstream: {{Field: FUpstreamResponseTime, Unit: UnitMilli, Prio: prioSource}},
}

// haproxyParser reads HAProxy HTTP log lines. Values point into the
// line, or into num for the derived upstream time.
type haproxyParser struct {
	loc   *time.Location
	binds [hapColumns]Bindings
	vals  [hapColumns][]byte
	num   []byte
}

func newHAProxyParser(c *parserConfig) *haproxyParser {
	p := &haproxyParser{loc: c.loc}
	for i, name := range hapNames {
		// A column --map names is read as it says; the others as HAProxy
		// writes them, whatever other sources mean by the same names
		// (nginx's server_name is the virtual host). The timers are read
		// as the manual defines them: --map matches names whatever their
		// case, and TR and Tr are two timers.
		p.binds[i] = hapOwn[i]
		if bs := c.schema.LookupString(name); (i < hapTR || i > hapTa) && i != hapUpstream && mapped(bs) {
			p.binds[i] = bs
		}
	}
	return p
}

var (
	errNotHAProxy  = errors.New("not an HAProxy HTTP log line (want client:port [dd/Mon/yyyy:hh:mm:ss.mmm] frontend backend/server TR/Tw/Tc/Tr/Ta status …)")
	errHAPFields   = errors.New("HAProxy line cut short: want frontend, backend/server, five timers, status, bytes, cookies, termination state, counters and queues")
	errHAPTimers   = errors.New("HAProxy timers not TR/Tw/Tc/Tr/Ta")
	errHAPRequest  = errors.New("HAProxy request not quoted")
	errHAPCaptures = errors.New("HAProxy captured headers not closed by }")
)

// haproxyStart returns where the client address of an HAProxy line
// starts and where its date does: the first " [" that opens a date
// (dd/Mon/yyyy:) after a word holding a colon or a dot (an address and
// port), a syslog priority before it ("<134>") skipped; -1 when there is
// none.
func haproxyStart(line []byte) (client, date int) {
	for from := 0; ; {
		i := bytes.Index(line[from:], []byte(" ["))
		if i < 0 {
			return -1, -1
		}
		i += from
		from = i + 2
		d := line[i+2:]
		if len(d) < 12 || d[2] != '/' || d[6] != '/' || d[11] != ':' {
			continue
		}
		c := bytes.LastIndexByte(line[:i], ' ') + 1
		// "log … format short" or "priority" puts the syslog priority
		// right before the message: "<134>10.0.1.2:33317".
		if j := bytes.IndexByte(line[c:i], '>'); j > 0 && line[c] == '<' {
			c += j + 1
		}
		w := line[c:i]
		if len(w) > 0 && (bytes.IndexByte(w, ':') >= 0 || bytes.IndexByte(w, '.') >= 0) {
			return c, i + 2
		}
	}
}

// looksHAProxy reports whether a line is an HAProxy HTTP log line.
func looksHAProxy(line []byte) bool {
	var p haproxyParser
	return p.split(line) == nil
}

// haproxyHead reports whether the first lines of head are an HAProxy
// HTTP log: one of them is. A syslog file's lines before the first
// request (the proxy's start) are not requests: they are bad lines. A
// line of nginx's formats is never one: it has no five timers between
// slashes after its date. Every whole line of head is looked at, not the
// first guessLines: a proxy of several backends logs a line of its own
// per proxy and server as it starts ("Proxy be_0 started.", "Server
// be_3/srv2 is UP"), dozens before its first request.
func haproxyHead(head []byte) bool {
	for _, l := range headLines(head, len(head)) {
		if looksHAProxy(l) {
			return true
		}
	}
	return false
}

// split cuts a line into p.vals.
func (p *haproxyParser) split(line []byte) error {
	p.vals = [hapColumns][]byte{}
	c, d := haproxyStart(line)
	if c < 0 {
		return errNotHAProxy
	}
	p.vals[hapClient] = hostOf(line[c : d-2])
	end := bytes.IndexByte(line[d:], ']')
	if end < 0 {
		return errNotHAProxy
	}
	p.vals[hapDate] = line[d : d+end]
	rest := line[d+end+1:]
	// frontend, backend/server, timers, status, bytes, CC, CS, tsc,
	// ac/fc/bc/sc/rc, sq/bq: ten words.
	var words [10][]byte
	for i := range words {
		if len(rest) == 0 || rest[0] != ' ' {
			return errHAPFields
		}
		rest = rest[1:]
		j := bytes.IndexByte(rest, ' ')
		if j < 0 {
			j = len(rest)
		}
		words[i], rest = rest[:j], rest[j:]
		if len(words[i]) == 0 {
			return errHAPFields
		}
	}
	p.vals[hapFrontend] = words[0]
	p.vals[hapServer] = words[1]
	if err := p.timers(words[2]); err != nil {
		return err
	}
	p.vals[hapStatus] = words[3]
	p.vals[hapBytes] = words[4]
	// The captured headers, when configured: {…}, which may hold spaces.
	for len(rest) > 1 && rest[0] == ' ' && rest[1] == '{' {
		j := bytes.IndexByte(rest[2:], '}')
		if j < 0 {
			return errHAPCaptures
		}
		rest = rest[j+3:]
	}
	if len(rest) < 3 || rest[0] != ' ' || rest[1] != '"' {
		return errHAPRequest
	}
	// The request ends at the last quote followed by a space or the end.
	req := rest[2:]
	q := -1
	for j := len(req) - 1; j >= 0; j-- {
		if req[j] == '"' && (j == len(req)-1 || req[j+1] == ' ') {
			q = j
			break
		}
	}
	if q < 0 {
		return errHAPRequest
	}
	p.vals[hapRequest] = req[:q]
	return nil
}

// timers reads "TR/Tw/Tc/Tr/Ta" into p.vals (the columns hapTR to
// hapTa, in that order), each -1 or "+…" absent.
func (p *haproxyParser) timers(w []byte) error {
	for col := hapTR; col <= hapTa; col++ {
		t, rest, found := bytes.Cut(w, []byte("/"))
		if len(t) == 0 || found != (col < hapTa) {
			return errHAPTimers // an empty timer, or not five of them
		}
		p.vals[col], w = hapTimer(t), rest
	}
	return nil
}

// hapTimer returns an HAProxy timer's text, nil when it is "-1" (a step
// the request never reached) or starts with "+" (option logasap: a time
// taken before the end).
func hapTimer(t []byte) []byte {
	if len(t) > 0 && t[0] == '+' || string(t) == "-1" {
		return nil
	}
	return t
}

// upstream derives Ta − TR − Tw into p.num (appendUpstream); nil when it
// cannot.
func (p *haproxyParser) upstream() []byte {
	var ok bool
	if p.num, ok = appendUpstream(p.num[:0], p.vals[hapTa], p.vals[hapTR], p.vals[hapTw]); !ok {
		return nil
	}
	return p.num
}

// appendUpstream appends the server's part of a request, Ta − TR − Tw
// (or Tt − Tq − Tw, the same), to dst when the three timers are whole
// numbers of milliseconds and it is not negative; ok false otherwise.
func appendUpstream(dst, ta, tr, tw []byte) (out []byte, ok bool) {
	a, ok1 := wholeMillis(ta)
	r, ok2 := wholeMillis(tr)
	w, ok3 := wholeMillis(tw)
	if !ok1 || !ok2 || !ok3 || r > a || w > a-r {
		return dst, false
	}
	return strconv.AppendInt(dst, a-r-w, 10), true
}

// wholeMillis reads a timer of digits only, below 10¹⁸.
func wholeMillis(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := int64(0)
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// noServer reports whether an HAProxy backend/server names no server:
// "backend/<NOSRV>", or "<NOSRV>" alone, where none was chosen. A log
// format's %b/%s reads it so too (howHAPServer).
func noServer(v []byte) bool { return bytes.HasSuffix(v, nosrv) }

var nosrv = []byte("<NOSRV>")

// Parse reads one line into r.
func (p *haproxyParser) Parse(line []byte, r *Record) error {
	if err := p.split(line); err != nil {
		if own := haproxyOwn(line); own != nil {
			return own
		}
		return err
	}
	if noServer(p.vals[hapServer]) {
		p.vals[hapServer] = nil
	}
	if v := p.vals[hapRequest]; len(v) > 0 && v[0] == '<' {
		p.vals[hapRequest] = nil // <BADREQ>, <BADREQ-…>: no request read
	}
	if string(p.vals[hapStatus]) == "-1" {
		p.vals[hapStatus] = nil
	}
	p.vals[hapUpstream] = p.upstream() // nil unless Ta, TR and Tw are numbers
	for i, v := range p.vals {
		if len(p.binds[i]) == 0 || v == nil {
			continue
		}
		if err := r.Set(p.binds[i], v, p.loc); err != nil {
			return err
		}
	}
	return r.Finish()
}
