package ingest

import (
	"strconv"
)

// Triton Inference Server's trace file (--trace-config triton,file=…,
// level TIMESTAMPS; triton-inference-server/server
// docs/user_guide/trace.md, "JSON Trace Output") is a JSON array of
// objects of three kinds, each naming its trace by "id":
//
//	{"id":1,"model_name":"simple","model_version":1,"request_id":"…","parent_id":0}
//	{"id":1,"timestamps":[{"name":"HTTP_RECV_START","ns":2356425054587444}]}
//	{"id":1,"activity":"TENSOR_QUEUE_INPUT","tensor":{…}}
//
// src/tracer.cc (TraceActivity, CaptureTimestamp, TraceFile::SaveTraces)
// writes them compact and with no line between them, the whole file one
// line, its closing "]" only when the server stops; a trace's objects
// are written together when the trace ends, but those of an ensemble's
// composing models (their header's parent_id the ensemble's id) are
// traces of their own beside it, and nothing in the format promises an
// order, so the objects are paired by id (tritonPairer). The header
// comes when the request reaches the core (REQUEST_START), after the
// frontend's HTTP_RECV_* or GRPC_WAITREAD_*.
//
// The ns are the steady clock's (tracer.cc adds time_offset_ to them to
// make OpenTelemetry's wall times): a trace has no wall time, and its
// record none ("no timestamps"). The request's time is the frontend's,
// as qa/common/trace_summary.py's "HTTP infer request": HTTP_RECV_START
// to HTTP_SEND_END; for gRPC GRPC_WAITREAD_END to GRPC_SEND_END, since
// the wait/read span counts the wait for the client to send a request
// at all ("not a useful measure", trace.md); without a frontend's
// timestamps (the in-process C API), REQUEST_START to REQUEST_END.

// tritonKeys are the members of Triton's trace objects.
var tritonKeys = []string{"id", "model_name", "model_version", "request_id", "parent_id", "timestamps", "activity", "tensor"}

// Bits of tritonKeys' members found.
const (
	tritonID = 1 << iota
	tritonModel
	tritonVersion
	tritonRequestID
	tritonParent
	tritonStamps
	tritonActivity
	tritonTensor
)

// tritonStampKeys are the members of a timestamp.
var tritonStampKeys = []string{"name", "ns"}

// maxTritonPending is how many traces the pairer keeps open: past it,
// the trace opened first is closed as it stands. Triton writes a
// trace's objects together, so only a file that scatters one's beyond
// that many others loses it.
const maxTritonPending = 1 << 14

// The names of the synthesised record (tritonTrace.record): the
// "triton" source reads them.
const (
	tritonTraceName = "triton_trace"
	tritonNsName    = "triton_request_ns"
)

// tritonObject reports whether elem is one of Triton's trace objects:
// an "id" number beside a header's model_name and model_version, or
// timestamps, and no member Triton does not write (an export whose
// records carry an id and a model_name is no trace).
func tritonObject(elem []byte) bool {
	var d topReader
	var vals [8][]byte
	found, _, err := d.top(elem, tritonKeys, vals[:])
	if err != nil || d.others != 0 || found&tritonID == 0 || !tritonInt(d.lits[0]) {
		return false
	}
	return found&(tritonModel|tritonVersion) == tritonModel|tritonVersion || found&tritonStamps != 0
}

// tritonInt reports whether lit is a number without sign, fraction or
// exponent, as Triton writes ids and ns.
func tritonInt(lit []byte) bool {
	if len(lit) == 0 || len(lit) > 20 {
		return false
	}
	for _, c := range lit {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// tritonTrace is what the pairer has read of one trace.
type tritonTrace struct {
	id    uint64
	line  int64 // its first object's
	model []byte
	// header: its header was read; child: a composing model's (its
	// parent_id not 0), no request of a client's.
	header, child bool
	// The timestamps read, 0 for none: the frontend's start and end
	// (HTTP's or gRPC's), the core's.
	protoStart, protoEnd int64
	reqStart, reqEnd     int64
	seen                 bool // a frontend's timestamp was read
}

// tritonPairer gathers the objects of each trace by id and closes a
// trace when it has to make room for another, or at the file's end.
type tritonPairer struct {
	d       topReader
	open    map[uint64]int32 // id → index in traces
	traces  []tritonTrace    // a ring, oldest at head
	head, n int
	out     []byte // the last record made
}

// newTritonPairer returns a pairer that keeps at most n traces open.
func newTritonPairer(n int) *tritonPairer {
	return &tritonPairer{open: make(map[uint64]int32), traces: make([]tritonTrace, n)}
}

// add reads one object of the file (line, its first line). A trace it
// had to close to make room is handed to done; bad is the object's
// problem when it is no trace object.
func (t *tritonPairer) add(elem []byte, line int64, done func(*tritonTrace)) (bad string) {
	var vals [8][]byte
	found, strs, err := t.d.top(elem, tritonKeys, vals[:])
	switch {
	case err != nil:
		return "not a Triton trace object: " + err.Error()
	case found&tritonID == 0 || !tritonInt(t.d.lits[0]):
		return `not a Triton trace object: no "id" number`
	}
	id, err := strconv.ParseUint(string(t.d.lits[0]), 10, 64)
	if err != nil {
		return `not a Triton trace object: its "id" is out of range`
	}
	tr := t.trace(id, line, done)
	if found&tritonModel != 0 {
		tr.header = true
		if strs&tritonModel != 0 {
			tr.model = append(tr.model[:0], vals[1]...)
		}
		if p := t.d.lits[4]; found&tritonParent != 0 && len(p) > 0 && string(p) != "0" {
			tr.child = true
		}
	}
	if found&tritonStamps != 0 {
		return t.stamps(tr, t.d.arrs[5])
	}
	return ""
}

// trace returns id's open trace, opening it (and closing the oldest
// when there is no room) when it is not.
func (t *tritonPairer) trace(id uint64, line int64, done func(*tritonTrace)) *tritonTrace {
	if i, ok := t.open[id]; ok {
		return &t.traces[i]
	}
	if t.n == len(t.traces) {
		old := &t.traces[t.head]
		delete(t.open, old.id)
		done(old)
		t.head = (t.head + 1) % len(t.traces)
		t.n--
	}
	i := (t.head + t.n) % len(t.traces)
	t.n++
	t.open[id] = int32(i)
	tr := &t.traces[i]
	*tr = tritonTrace{id: id, line: line, model: tr.model[:0]}
	return tr
}

// stamps reads a timestamps array into tr.
func (t *tritonPairer) stamps(tr *tritonTrace, arr []byte) (bad string) {
	s := scanner{b: arr}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return `not a Triton trace object: "timestamps" is no array`
	}
	s.i++
	for {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] == ']' {
			return ""
		}
		from := s.i
		if s.b[s.i] != '{' {
			return "not a Triton timestamp: want {\"name\":…,\"ns\":…}"
		}
		if err := s.skip(); err != nil {
			return "not a Triton timestamp: " + err.Error()
		}
		var vals [2][]byte
		found, strs, err := t.d.top(s.b[from:s.i], tritonStampKeys, vals[:])
		if err != nil || found != 3 || strs != 1 || !tritonInt(t.d.lits[1]) {
			return "not a Triton timestamp: want {\"name\":…,\"ns\":…}"
		}
		ns, err := strconv.ParseInt(string(t.d.lits[1]), 10, 64)
		if err != nil || ns == 0 {
			return "not a Triton timestamp: its ns is out of range"
		}
		tr.stamp(vals[0], ns)
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
		}
	}
}

// stamp keeps the timestamp name at ns when it is one the request's time
// is read from; a name repeated (a streamed request's several sends)
// widens the span.
func (tr *tritonTrace) stamp(name []byte, ns int64) {
	first := func(v *int64) {
		if *v == 0 || ns < *v {
			*v = ns
		}
	}
	last := func(v *int64) {
		if ns > *v {
			*v = ns
		}
	}
	switch string(name) {
	case "HTTP_RECV_START", "GRPC_WAITREAD_END":
		tr.seen = true
		first(&tr.protoStart)
	case "HTTP_SEND_END", "GRPC_SEND_END":
		tr.seen = true
		last(&tr.protoEnd)
	case "HTTP_RECV_END", "HTTP_SEND_START", "GRPC_WAITREAD_START", "GRPC_SEND_START":
		tr.seen = true
	case "REQUEST_START":
		first(&tr.reqStart)
	case "REQUEST_END":
		last(&tr.reqEnd)
	}
}

// drain closes every open trace, oldest first.
func (t *tritonPairer) drain(done func(*tritonTrace)) {
	for ; t.n > 0; t.n-- {
		tr := &t.traces[t.head]
		delete(t.open, tr.id)
		done(tr)
		t.head = (t.head + 1) % len(t.traces)
	}
}

// record returns the record of a closed trace, valid until the next
// call: its model and the request's time in ns. passed: a composing
// model's trace, no request; bad: why the trace has no request's time.
func (t *tritonPairer) record(tr *tritonTrace) (rec []byte, passed bool, bad string) {
	if tr.child {
		return nil, true, ""
	}
	var start, end int64
	switch {
	case tr.protoStart != 0 && tr.protoEnd != 0:
		start, end = tr.protoStart, tr.protoEnd
	case tr.seen:
		return nil, false, "Triton trace " + strconv.FormatUint(tr.id, 10) + " never completes: its frontend's start or end (HTTP_RECV_START and HTTP_SEND_END, or GRPC_WAITREAD_END and GRPC_SEND_END) is missing"
	case tr.reqStart != 0 && tr.reqEnd != 0:
		start, end = tr.reqStart, tr.reqEnd
	case tr.header || tr.reqStart != 0 || tr.reqEnd != 0:
		return nil, false, "Triton trace " + strconv.FormatUint(tr.id, 10) + " never completes: REQUEST_START or REQUEST_END is missing"
	default:
		// Tensors alone (level TENSORS), or timestamps of no request's.
		return nil, true, ""
	}
	if end < start {
		return nil, false, "Triton trace " + strconv.FormatUint(tr.id, 10) + " ends before it starts"
	}
	b := append(t.out[:0], `{"`+tritonTraceName+`":`...)
	b = strconv.AppendUint(b, tr.id, 10)
	if tr.header {
		b = append(b, `,"model_name":`...)
		b = appendJSONString(b, tr.model)
	}
	b = append(b, `,"`+tritonNsName+`":`...)
	b = strconv.AppendInt(b, end-start, 10)
	t.out = append(b, '}')
	return t.out, false, ""
}
