// Package ingest turns access logs in any supported format into canonical
// records (SPEC §3): one streaming, parallel pipeline, one parser per
// format, and a shared normaliser that knows every field alias and unit.
package ingest

import (
	"math"
	"strconv"
)

// Field names a canonical field of SPEC §3.
type Field uint8

// The canonical fields. The order is the order of Fields.
const (
	FTime Field = iota
	FClient
	FRemoteAddr
	FClientRegion
	FRegion
	FModel
	FStream
	FStatus
	FMethod
	FURI
	FRequestTime
	FUpstreamResponseTime
	FUpstreamConnectTime
	FUpstreamHeaderTime
	FTTFT
	FSSLHandshakeTime
	FTCPInfoRTT
	FConnection
	FConnectionRequests
	FRetryAfter
	FPromptTokens
	FCompletionTokens
	FUpstreamStatus
	FUpstreamAddr
	// FEndTime and FFirstTokenTime are instants some sources log instead
	// of durations (LiteLLM's endTime, completionStartTime): with FTime
	// they give request_time and ttft (Record.Finish).
	FEndTime
	FFirstTokenTime
	// Client-side phases, when an SDK logs them (SPEC §3), in ms.
	FDNSTime
	FTCPConnectTime
	FTLSTime
	FTTFB
	FHost    // the Host header or virtual server name
	FRequest // "POST /v1/x HTTP/1.1", split into FMethod and FURI
	// FKind is what a record is, to a source that logs more than
	// requests (Langfuse's observation type: GENERATION, SPAN, EVENT…).
	// Only a source's names feed it, and a record of a kind that is no
	// request to its source is passed over (source.requests); it is no
	// canonical field of SPEC §3, and --map does not take it.
	FKind
	// NumFields is the number of canonical fields.
	NumFields
)

// Kind says how a field's value is read.
type Kind uint8

// Field kinds.
const (
	KindTime Kind = iota
	KindText
	KindFloat // a number in the field's canonical unit
	KindInt
	KindBool
	KindRequest
)

type fieldInfo struct {
	name string
	kind Kind
	unit Unit // canonical unit of a KindFloat or KindTime field
	list bool // an nginx upstream list: the sum of the numbers present
}

var fields = [NumFields]fieldInfo{
	FTime:                 {"time", KindTime, UnitSecond, false},
	FClient:               {"client", KindText, 0, false},
	FRemoteAddr:           {"remote_addr", KindText, 0, false},
	FClientRegion:         {"client_region", KindText, 0, false},
	FRegion:               {"region", KindText, 0, false},
	FModel:                {"model", KindText, 0, false},
	FStream:               {"stream", KindBool, 0, false},
	FStatus:               {"status", KindInt, 0, false},
	FMethod:               {"method", KindText, 0, false},
	FURI:                  {"uri", KindText, 0, false},
	FRequestTime:          {"request_time", KindFloat, UnitSecond, false},
	FUpstreamResponseTime: {"upstream_response_time", KindFloat, UnitSecond, true},
	FUpstreamConnectTime:  {"upstream_connect_time", KindFloat, UnitSecond, true},
	FUpstreamHeaderTime:   {"upstream_header_time", KindFloat, UnitSecond, true},
	FTTFT:                 {"ttft", KindFloat, UnitMilli, false},
	FSSLHandshakeTime:     {"ssl_handshake_time", KindFloat, UnitSecond, false},
	FTCPInfoRTT:           {"tcpinfo_rtt", KindFloat, UnitMicro, false},
	FConnection:           {"connection", KindInt, 0, false},
	FConnectionRequests:   {"connection_requests", KindInt, 0, false},
	FRetryAfter:           {"retry_after", KindFloat, UnitSecond, false},
	FPromptTokens:         {"prompt_tokens", KindInt, 0, false},
	FCompletionTokens:     {"completion_tokens", KindInt, 0, false},
	FUpstreamStatus:       {"upstream_status", KindInt, 0, true},
	FUpstreamAddr:         {"upstream_addr", KindText, 0, false},
	FEndTime:              {"end_time", KindTime, UnitSecond, false},
	FFirstTokenTime:       {"first_token_time", KindTime, UnitSecond, false},
	FDNSTime:              {"dns_time", KindFloat, UnitMilli, false},
	FTCPConnectTime:       {"tcp_connect_time", KindFloat, UnitMilli, false},
	FTLSTime:              {"tls_time", KindFloat, UnitMilli, false},
	FTTFB:                 {"ttfb", KindFloat, UnitMilli, false},
	FHost:                 {"host", KindText, 0, false},
	FRequest:              {"request", KindRequest, 0, false},
	FKind:                 {"kind", KindText, 0, false},
}

// String returns the canonical name of f.
func (f Field) String() string {
	if f < NumFields {
		return fields[f].name
	}
	return "field?"
}

// Kind returns how f's value is read.
func (f Field) Kind() Kind { return fields[f].kind }

// FieldByName returns the canonical field called name.
func FieldByName(name string) (Field, bool) {
	for i := range fields {
		if fields[i].name == name && Field(i) != FKind {
			return Field(i), true
		}
	}
	return 0, false
}

// Record is one request with its canonical fields. Text fields point into
// buffers owned by the reader and are valid only until the record is
// reset; a consumer that keeps one must copy it. The parsers keep every
// value within the bounds of bounds.go: numbers finite, durations in
// [0, MaxDurationS], integers within ±MaxInt, the time within
// [MinTimeNS, MaxTimeNS).
type Record struct {
	set  uint64             // bit f: field f is present
	prio [NumFields]uint8   // priority of the source that set the field
	num  [NumFields]float64 // KindFloat, KindInt, KindBool (1/0) values
	text [NumFields][]byte  // KindText values
	// TimeNS is the request time in Unix nanoseconds, when Has(FTime).
	TimeNS int64
	// File is the pipeline's number of the file the record was read
	// from, set as the record is handed over: the records of one file
	// share it, those of two files do not.
	File int32
	// endNS and firstNS hold FEndTime and FFirstTokenTime.
	endNS, firstNS int64
	// stampNS is the time a log service gave the record (CLS's
	// __TIMESTAMP__: Binding.Stamp), read beside the record's own and
	// chosen between them in Finish (takeStamp); stampPrio is its
	// binding's priority. set has stampSet when it is there.
	stampNS   int64
	stampPrio uint8
	// noAddrClient: the file's client has a name of its own, so a record
	// without it has no client rather than one from remote_addr.
	noAddrClient bool
	// noCall: the record says it is no call to a model (APISIX's
	// request_type traditional_http, which also writes 0 for its
	// llm_time_to_first_token and token counts): Finish drops a token
	// count of 0 (and a ttft of 0, as of any record).
	noCall bool
	// DictKey, when not 0, stands for the record's region, model,
	// client, client_region, uri, status and stream: another record of
	// the same worker with the same DictKey has the same (a Parquet
	// file's records whose texts come from its dictionaries: dictKeys).
	DictKey uint64
	// unread has bit f when a value of field f was there but could not
	// be read (not a number, a duration out of bounds, a fraction of an
	// integer): the field is absent, the line not bad (SPEC §3: only its
	// time and request_time make it so), and the file counts it
	// (FileStats.UnreadValues). unreadField and unreadText are the first
	// such value's, for a problem's sample.
	unread      uint64
	unreadField Field
	unreadText  []byte
	// parts are the fields the record takes from its file's directories
	// when it does not carry them (partition.go), set where it is reset
	// for its file.
	parts []partConst
}

// Clone returns a copy of r that owns its texts, valid once r is reset
// and its buffers read over: a record a sink keeps past the batch it
// came in. The copy has no DictKey, which stands for its worker's
// records of one file's dictionaries only.
func (r *Record) Clone() Record {
	c := *r
	n := len(r.unreadText)
	for f := range r.text {
		if r.set&(1<<f) != 0 {
			n += len(r.text[f])
		}
	}
	buf := make([]byte, 0, n)
	own := func(b []byte) []byte {
		if b == nil {
			return nil
		}
		start := len(buf)
		buf = append(buf, b...)
		return buf[start:len(buf):len(buf)]
	}
	for f := range c.text {
		c.text[f] = nil
		if r.set&(1<<f) != 0 {
			c.text[f] = own(r.text[f])
		}
	}
	c.unreadText = own(r.unreadText)
	c.DictKey = 0
	return c
}

// Reset clears r for the next line, keeping nothing.
func (r *Record) Reset() {
	r.set, r.DictKey, r.unread = 0, 0, 0
	r.noCall = false
}

// reset clears r for the next line of a file read with schema s.
func (r *Record) reset(s *Schema) {
	r.set, r.DictKey, r.unread = 0, 0, 0
	r.noAddrClient = s.client != "" && s.client != noClient
	r.noCall = false
}

// stampSet is the bit of Record.set that says the record holds a log
// service's time (stampNS): no field's bit, and cleared by Finish, so
// that no reader of the fields sees it.
const stampSet = 1 << 63

// The fields' bits stay below stampSet's.
var _ [63 - NumFields]struct{}

// putStamp holds ns, read by binding b (Binding.Stamp), as the record's
// log service time, for Finish to weigh against the record's own.
func (r *Record) putStamp(b Binding, ns int64) {
	r.stampNS, r.stampPrio = ns, b.Prio
	r.set |= stampSet
}

// takeStamp sets the time of a record that holds a log service's time
// (stampNS): a record with no time of its own takes it. Beside the
// record's own time, it is the time the service gave the log, which
// need not be the log's: Tencent CLS stamps a log with the time its
// agent, LogListener, collected it, unless the collection rule reads
// the time from a field of the log ("Configuring the Time Format",
// https://www.tencentcloud.com/document/product/614/32942), so that a
// lagging agent moves every request late, by seconds to minutes. The
// own time is kept, but for one written to the second with the stamp
// within that second: the same time (CLB's logs shipped to CLS, whose
// time_local 14:00:15 sits beside __TIMESTAMP__ 14:00:15.426), whose
// milliseconds the stamp gives (the 429 rule's retry gaps are measured
// in them). An own time written to the ms or finer is kept whatever
// the stamp: equal to it within the own's precision, it is the same
// time, no coarser. An own time written to the ms that falls on a whole
// second is taken as written to the second. A --map's time is kept.
func (r *Record) takeStamp() {
	r.set &^= stampSet
	own := r.TimeNS
	switch {
	case r.set&(1<<FTime) == 0:
		r.TimeNS, r.prio[FTime] = r.stampNS, r.stampPrio
		r.set |= 1 << FTime
	case r.prio[FTime] != prioMapped && own%1e9 == 0 && r.stampNS >= own && r.stampNS-own < 1e9:
		r.TimeNS = r.stampNS
	}
}

// unreadable notes that field f's value val was there but could not be
// read (Record.unread). A negative number is none: the programs that
// write one mean no value (Kong's -1 latencies of a request not proxied,
// HAProxy's -1 timers, new-api's frt -1000 of a call without a first
// response).
func (r *Record) unreadable(f Field, val []byte) {
	if v, ok := parseNumber(val); ok && v < 0 {
		return
	}
	if r.unread == 0 {
		r.unreadField, r.unreadText = f, append(r.unreadText[:0], val[:min(len(val), maxUnreadText)]...)
	}
	r.unread |= 1 << f
}

// unreadableNumber is unreadable for a number of a typed column.
func (r *Record) unreadableNumber(f Field, v float64) {
	if v < 0 {
		return
	}
	if r.unread == 0 {
		r.unreadField, r.unreadText = f, strconv.AppendFloat(r.unreadText[:0], v, 'g', -1, 64)
	}
	r.unread |= 1 << f
}

// maxUnreadText bounds the text of an unreadable value a sample quotes.
const maxUnreadText = 64

// unreadFields returns the fields whose values r could not read and
// holds none of: another name of the field may have given it one.
func (r *Record) unreadFields() uint64 { return r.unread &^ r.set }

// Fields returns the set of present fields, bit f for field f.
func (r *Record) Fields() uint64 { return r.set }

// Has reports whether field f is present.
func (r *Record) Has(f Field) bool { return r.set&(1<<f) != 0 }

// lacks is 1 when the record does not have field f, else 0: a count.
func (r *Record) lacks(f Field) int64 { return int64(^r.set >> f & 1) }

// Float returns a numeric field in its canonical unit and whether it is
// present.
func (r *Record) Float(f Field) (float64, bool) {
	if r.set&(1<<f) == 0 {
		return math.NaN(), false
	}
	return r.num[f], true
}

// Int returns an integer field and whether it is present.
func (r *Record) Int(f Field) (int64, bool) {
	if r.set&(1<<f) == 0 {
		return 0, false
	}
	return int64(r.num[f]), true
}

// Bool returns a boolean field and whether it is present.
func (r *Record) Bool(f Field) (value, ok bool) {
	if r.set&(1<<f) == 0 {
		return false, false
	}
	return r.num[f] != 0, true
}

// Text returns a text field, or nil when it is absent.
func (r *Record) Text(f Field) []byte {
	if r.set&(1<<f) == 0 {
		return nil
	}
	return r.text[f]
}

// SetFloat sets a numeric field in its canonical unit. The caller keeps
// v within the bounds the parsers keep.
func (r *Record) SetFloat(f Field, v float64) {
	r.num[f] = v
	r.set |= 1 << f
	r.prio[f] = 0
}

// SetText sets a text field; r keeps b, it does not copy it.
func (r *Record) SetText(f Field, b []byte) {
	r.text[f] = b
	r.set |= 1 << f
	r.prio[f] = 0
}

// SetTime sets the request time.
func (r *Record) SetTime(ns int64) {
	r.TimeNS = ns
	r.set |= 1 << FTime
	r.prio[FTime] = 0
}

// claim reports whether a source of priority p may set field f: a field
// already set by a source of better (lower) priority is kept.
func (r *Record) claim(f Field, p uint8) bool {
	if r.set&(1<<f) != 0 && r.prio[f] < p {
		return false
	}
	return true
}

func (r *Record) put(f Field, p uint8, v float64) {
	r.num[f] = v
	r.set |= 1 << f
	r.prio[f] = p
}

func (r *Record) putText(f Field, p uint8, b []byte) {
	r.text[f] = b
	r.set |= 1 << f
	r.prio[f] = p
}

// Finish derives the fields that come from others: client from
// remote_addr (without its port), method and uri from request,
// request_time and ttft from end and first-token instants, the time from
// a log service's beside the record's own (takeStamp). Parsers call
// it once a line is read, and the line is bad when it returns an error:
// a request_time of an end instant before the time, or more than
// MaxDurationS after it (a clock reset, the two instants swapped or
// damaged), as a request_time read so is. A first-token instant so is
// an unreadable ttft: the record is kept without it.
func (r *Record) Finish() error {
	if r.parts != nil {
		r.addParts()
	}
	if r.set&stampSet != 0 {
		r.takeStamp()
	}
	if r.noCall {
		for _, f := range [...]Field{FPromptTokens, FCompletionTokens} {
			if v, ok := r.Float(f); ok && v == 0 {
				r.set &^= 1 << f // the template's 0, not a value
			}
		}
	}
	// An upstream status of 0 is no upstream's answer (Cloudflare's
	// OriginResponseStatus for a response its edge served, a 429 of its
	// rate limiting): its time of 0 beside it is none either, not an
	// origin that answered at once.
	if st, ok := r.Int(FUpstreamStatus); ok && st == 0 {
		r.set &^= 1 << FUpstreamStatus
		if v, ok := r.Float(FUpstreamResponseTime); ok && v == 0 {
			r.set &^= 1 << FUpstreamResponseTime
		}
	}
	// A first token at 0 ms is none: what a template writes for a call
	// that had none (APISIX's llm_time_to_first_token, "0" until the
	// model answers, for a call that never reached it; its
	// traditional_http requests to no model).
	if v, ok := r.Float(FTTFT); ok && v == 0 {
		r.set &^= 1 << FTTFT
	}
	if !r.Has(FClient) && r.Has(FRemoteAddr) && !r.noAddrClient {
		if c := hostOnly(r.text[FRemoteAddr]); len(c) > 0 {
			r.putText(FClient, prioDerived, c)
		}
	}
	if r.Has(FRequest) && (!r.Has(FMethod) || !r.Has(FURI)) {
		method, uri := splitRequest(r.text[FRequest])
		if len(method) > 0 && !r.Has(FMethod) {
			r.putText(FMethod, prioDerived, method)
		}
		if len(uri) > 0 && !r.Has(FURI) {
			r.putText(FURI, prioDerived, uri)
		}
	}
	if r.Has(FTime) {
		if !r.Has(FRequestTime) && r.Has(FEndTime) {
			v, err := span(FRequestTime, FEndTime, r.TimeNS, r.endNS, 1e9)
			if err != nil {
				return err
			}
			r.put(FRequestTime, prioDerived, v)
		}
		if !r.Has(FTTFT) && r.Has(FFirstTokenTime) {
			v, err := span(FTTFT, FFirstTokenTime, r.TimeNS, r.firstNS, 1e6)
			if err == nil {
				r.put(FTTFT, prioDerived, v)
			} else {
				if r.unread == 0 {
					r.unreadField, r.unreadText = FTTFT, err.appendSpan(r.unreadText[:0])
				}
				r.unread |= 1 << FTTFT
			}
		}
	}
	return nil
}

// maxSpanNS is MaxDurationS in nanoseconds.
const maxSpanNS = MaxDurationS * 1e9

// span returns duration field f from the time, from, to the instant of
// field at, to (Unix ns), in units of per ns; an error when to is before
// from or more than MaxDurationS after it.
func span(f, at Field, from, to int64, per float64) (float64, *spanError) {
	if to < from {
		return 0, &spanError{Field: f, From: at, Seconds: -float64(uint64(from)-uint64(to)) / 1e9, Why: unreadable}
	}
	d := uint64(to) - uint64(from) // exact: to ≥ from
	if d > maxSpanNS {
		return 0, &spanError{Field: f, From: at, Seconds: float64(d) / 1e9, Why: tooLong}
	}
	return float64(d) / per, nil
}

// spanError is a duration field derived from two instants that cannot
// be read: the time and the instant of field From are Seconds apart
// (negative: From is the earlier).
type spanError struct {
	Field, From Field
	Seconds     float64
	Why         flaw
}

func (e *spanError) Error() string {
	b := append([]byte(fields[e.Field].name), ": "...)
	return string(e.appendSpan(b))
}

// appendSpan appends what is wrong with the two instants: "end_time is
// 3.2 s before time", or "end_time is 265894930.6 s after time, longer
// than 1e7 s".
func (e *spanError) appendSpan(b []byte) []byte {
	b = append(append(b, fields[e.From].name...), " is "...)
	b = strconv.AppendFloat(b, math.Abs(e.Seconds), 'f', -1, 64)
	if e.Seconds < 0 {
		return append(b, " s before time"...)
	}
	b = append(b, " s after time"...)
	if why := e.Why.String(); why != "" {
		b = append(append(b, ", "...), why...)
	}
	return b
}

// hostOnly returns the address of a client without its port: "1.2.3.4"
// for "1.2.3.4:5678", "::1" for "[::1]:80"; a bare IPv6 address stays
// whole. Of an X-Forwarded-For list ("10.0.0.2, 10.0.0.1") it keeps the
// first, the original caller.
func hostOnly(b []byte) []byte {
	if i := indexByte(b, ','); i >= 0 {
		b = b[:i]
	}
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[0] == '[' {
		if j := indexByte(b, ']'); j > 0 {
			return b[1:j]
		}
		return b
	}
	if i := indexByte(b, ':'); i >= 0 && lastIndexByte(b, ':') == i {
		return b[:i]
	}
	return b
}

// splitRequest splits "POST /v1/x HTTP/1.1" into method and URI. The
// version may be an ASGI http_version as Hypercorn writes it, without
// "HTTP/" ("POST /v1/x 1.1": hypercorn/logging.py, AccessLogAtoms' %(r)s,
// f"{method} {request['path']} {protocol}"): no part of the URI either.
func splitRequest(b []byte) (method, uri []byte) {
	i := indexByte(b, ' ')
	if i < 0 {
		return nil, nil
	}
	method, rest := b[:i], b[i+1:]
	if len(method) == 1 && method[0] == '-' {
		return nil, nil // no request: a TCP connection's "- - -"
	}
	for len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	if j := lastIndexByte(rest, ' '); j >= 0 {
		// HTTP's version first: an ordinary line never reaches the
		// ASGI check.
		if v := rest[j+1:]; hasPrefix(v, "HTTP/") || asgiVersion(v) {
			rest = rest[:j]
		}
	}
	return method, rest
}

// asgiVersion reports whether v is one of the ASGI spec's http_version
// values ("1.0", "1.1", "2"; "3" for HTTP/3, which Hypercorn serves).
func asgiVersion(v []byte) bool {
	switch string(v) {
	case "1.0", "1.1", "2", "3":
		return true
	}
	return false
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

func lastIndexByte(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}

func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}
