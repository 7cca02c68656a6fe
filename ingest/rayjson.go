package ingest

import (
	"bytes"

	"loganalyze/internal/lazyre"
)

// Ray Serve's logs with JSON encoding (LoggingConfig(encoding="JSON"),
// RAY_SERVE_LOG_ENCODING=JSON) write each record of Serve's logger as a
// JSON object: Python's asctime and levelname, the message, filename,
// lineno, Ray's context (job_id, worker_id, node_id, actor_id, and
// timestamp_ns, the record's time in ns since the epoch), Serve's
// component (component_name, component_id, component_type; a replica's
// deployment and replica) and the request's context (request_id, route,
// application) (ray-project/ray python/ray/_common/formatters.py,
// JSONFormatter; python/ray/serve/_private/logging_utils.py,
// ServeComponentFilter, ServeContextFilter). The message of an access
// line is the text the text format writes after its prefix, "POST
// /v1/chat/completions 200 409.9ms" (access_log_msg); Ray 2.9's
// ServeJSONFormatter wrote the file and line before it and no route,
// "proxy.py:1121 - POST 200 409.9ms" (its monitoring guide's example:
// "replica.py:373 - __CALL__ OK 0.6ms").
//
// Such a record is read as a log shipper's record of its message
// (EnvShipper), the message by the text formats rayServeMessageFormat
// and rayServe29MessageFormat, the time timestamp_ns, else asctime
// (--tz). route is the uri when the message gives none (2.9's: the
// ServeContextFilter sets it on each record of a request, the proxy's
// access record among them); application and request_id name no
// canonical field.
// A message that is no access line (the replica's "Started initializing
// replica.", a replica's handle call "__CALL__ OK 0.6ms") is Serve's
// own, passed over as the text format's own lines are.

// rayServeKeys are the members of Ray Serve's JSON record that tell it
// and give its message and time; the first two are component_name or
// deployment beside levelname and message.
var rayServeKeys = []string{"message", "timestamp_ns", "asctime", "levelname", "component_name", "deployment", "route"}

// rayServe returns the message, time and route (nil when none) of a
// record of Ray Serve's JSON log: a message string beside levelname and
// a component's or a deployment's name; false when line is none.
func (d *topReader) rayServe(line []byte) (msg, stamp, route []byte, ok bool) {
	var vals [7][]byte
	found, strs, err := d.top(line, rayServeKeys, vals[:])
	if err != nil || strs&1 == 0 || strs&(1<<3) == 0 || strs&(1<<4|1<<5) == 0 {
		return nil, nil, nil, false
	}
	switch {
	case found&(1<<1) != 0 && d.lits[1] != nil:
		stamp = d.lits[1]
	case strs&(1<<2) != 0:
		stamp = vals[2]
	}
	if strs&(1<<6) != 0 && len(vals[6]) > 0 {
		route = vals[6]
	}
	return vals[0], stamp, route, true
}

// rayServeClientMessageFormat, rayServeMessageFormat and
// rayServe29MessageFormat are Ray Serve's access messages, today's with
// the client's address and without, and 2.9's: the text format's
// (rayServeClientFormat, rayServeFormat, rayServe29Format) after its
// prefix.
const (
	rayServeClientMessageFormat = `$ray_client ` + rayServeMessageFormat
	rayServeMessageFormat       = `$request_method $uri $status ${ray_latency}ms`
	rayServe29MessageFormat     = `$ray_where - $request_method $status ${ray_latency}ms`
)

// rayClientMessage reports whether line begins as an access message with
// the client's address does, a word and then a method: without that,
// rayServeClientMessageFormat reads 2.9's message whole, its file and
// line taken for the client and its "-" for the method ("proxy.py:538 -
// GET 200 8.9ms"), one variable more than 2.9's format reads.
func rayClientMessage(line []byte) bool {
	_, rest, ok := bytes.Cut(line, []byte(" "))
	n := 0
	for n < len(rest) && rest[n] >= 'A' && rest[n] <= 'Z' {
		n++
	}
	return ok && n > 0 && n < len(rest) && rest[n] == ' '
}

// rayServeAccessMessage is the end of an access message, as
// rayServeAccess is of a text line's: a method, the route or none, a
// status and the latency (the client's address before them or not); a
// replica's handle call has OK or ERROR.
var rayServeAccessMessage = lazyre.New(`[A-Z]+ (?:\S+ )?\d{3} \d+\.\dms$`)
