package ingest

import (
	"bytes"
	"errors"
)

// An OpenTelemetry log export in OTLP/JSON: the protobuf JSON mapping of
// ExportLogsServiceRequest (open-telemetry/opentelemetry-proto,
// opentelemetry/proto/logs/v1/logs.proto and common/v1/common.proto),
// written as https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding
// says: names in lowerCamelCase, 64-bit integers as decimal strings,
// enums as numbers, bytes as hex (ids) or base64. The Collector's file
// exporter writes one export a line, each a batch of log records:
//
//	{"resourceLogs":[{"resource":{"attributes":[…]},
//	  "scopeLogs":[{"scope":{…},"logRecords":[{"timeUnixNano":"…",
//	  "observedTimeUnixNano":"…","severityText":"INFO",
//	  "body":{"stringValue":"LINE"},
//	  "attributes":[{"key":"log.file.name","value":{"stringValue":"access.log"}}]}]}]}]}
//
// The Collector's filelog receiver puts each line it reads in the body's
// stringValue, and its time there is observedTimeUnixNano (timeUnixNano
// only once an operator parsed one). Its json_parser and regex_parser put
// the fields they parse in attributes (parse_to's default), or, told
// so, in the body as a kvlistValue
// (open-telemetry/opentelemetry-collector-contrib
// pkg/stanza/docs/operators/json_parser.md).
//
// The document reader hands on each log record as an element; readDoc
// reads it (EnvOTelLogs) as the line in its body, of any format, told
// from the first records' lines; or, when the first record's attributes
// carry a request's fields (otelFields), as the JSON object of its
// attributes and its body's map. A body that is a map is read as the
// object of its members in either case.

// resourceLogs reads the array of an OTLP log export whose '[' is at
// d.pos, handing on each log record of its scopes, with the cloud.region
// of its resource when it has one. scopeLogs was
// instrumentationLibraryLogs before OTLP 0.15 (opentelemetry-proto
// v0.15.0's logs.proto), as older Collectors wrote it.
func (d *docReader) resourceLogs() error {
	return d.elems(func() error {
		if d.buf[d.pos] != '{' {
			return d.notObject()
		}
		d.logRegion, d.logResGen = d.logRegion[:0], d.logResGen+1
		return d.members(func(c byte) error {
			if c == '{' && string(d.key) == "resource" {
				// Read once for all its records, before them as
				// protobuf's JSON mapping writes the fields (resource
				// is ResourceLogs' field 1, scope_logs 2).
				if err := d.resource(); err != nil {
					return err
				}
				d.logRegion, d.res = resourceRegion(d.logRegion[:0], d.res), d.res[:0]
				return nil
			}
			if c != '[' || string(d.key) != "scopeLogs" && string(d.key) != "instrumentationLibraryLogs" {
				return d.value()
			}
			return d.elems(func() error {
				if d.buf[d.pos] != '{' {
					return d.notObject()
				}
				return d.members(func(c byte) error {
					if c != '[' || string(d.key) != "logRecords" {
						return d.value()
					}
					d.logs = true
					err := d.elems(func() error { return d.element(false) })
					d.logs = false
					return err
				})
			})
		})
	})
}

// resourceRegion appends to dst the cloud.region of res, a Resource
// object ({"attributes":[KeyValue…]}), when it is a string: of the
// resource's attributes the traces reader reads by the otel source's
// names (otelNames), the one that tells of where the records were
// written, which a log record's line seldom carries itself. The
// semantic conventions name it a resource attribute
// (https://opentelemetry.io/docs/specs/semconv/resource/cloud/).
func resourceRegion(dst, res []byte) []byte {
	s := scanner{b: res}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return dst
	}
	s.i++
	s.ws()
	var attrs []byte
	for s.i < len(s.b) && s.b[s.i] != '}' {
		name, val, ok := member(&s)
		if !ok {
			return dst
		}
		if string(name) == `"attributes"` {
			attrs = val
		}
		if end, err := s.next('}'); err != nil || end {
			break
		}
		s.ws()
	}
	if len(attrs) == 0 || attrs[0] != '[' {
		return dst
	}
	a := scanner{b: attrs, i: 1}
	a.ws()
	for a.i < len(a.b) && a.b[a.i] != ']' {
		kv, ok := a.rawValue()
		if !ok {
			return dst
		}
		if kind, val := keyValue(kv, `"cloud.region"`); kind == `"stringValue"` {
			var p jsonParser
			v := scanner{b: val}
			if str, err := p.str(&v); err == nil {
				return append(dst, str...)
			}
			return dst
		}
		if end, err := a.next(']'); err != nil || end {
			break
		}
		a.ws()
	}
	return dst
}

// keyValue returns the AnyValue of kv, a KeyValue object, as
// anyValueOf does, when its key's raw text is key; "" otherwise.
func keyValue(kv []byte, key string) (kind string, val []byte) {
	if len(kv) == 0 || kv[0] != '{' {
		return "", nil
	}
	k := scanner{b: kv, i: 1}
	k.ws()
	var name, v []byte
	for k.i < len(k.b) && k.b[k.i] != '}' {
		n, x, ok := member(&k)
		if !ok {
			return "", nil
		}
		switch string(n) {
		case `"key"`:
			name = x
		case `"value"`:
			v = x
		}
		if end, err := k.next('}'); err != nil || end {
			break
		}
		k.ws()
	}
	if string(name) != key || v == nil {
		return "", nil
	}
	return anyValueOf(v)
}

// otelLogKeys are the members of an OTLP log record read.
var otelLogKeys = []string{"body", "timeUnixNano", "observedTimeUnixNano", "attributes"}

// errNoLogBody is the reason for a log record whose body holds neither a
// line nor a map.
var errNoLogBody = errors.New(`an OTLP log record without a line or a map in its body (body.stringValue, body.kvlistValue)`)

// otelLog returns what an OTLP log record holds: the line in its body,
// decoded into d's scratch buffer, without its line end; or, when its
// body is a map, or maps is set and it has attributes, the JSON object of
// its attributes' and its body's members, in d.obj. ns is its time,
// timeUnixNano, else observedTimeUnixNano (0 for none: the protobuf
// field's zero, "unknown or missing"), 0 when it is outside the years
// read.
func (d *topReader) otelLog(rec []byte, maps bool) (msg []byte, ns int64, err error) {
	var vals [4][]byte
	if _, _, err := d.top(rec, otelLogKeys, vals[:]); err != nil {
		return nil, 0, err
	}
	ns = otelTime(vals[1], d.lits[1])
	if ns == 0 {
		ns = otelTime(vals[2], d.lits[2])
	}
	body, attrs := d.objs[0], d.arrs[3]
	kind, val := anyValueOf(body)
	if kind == `"stringValue"` && !(maps && attrs != nil) {
		s := scanner{b: val}
		line, err := d.p.str(&s)
		if err != nil {
			return nil, 0, err
		}
		return bytes.TrimRight(line, "\r\n"), ns, nil
	}
	if kind != `"kvlistValue"` && !(maps && attrs != nil) {
		return nil, 0, errNoLogBody
	}
	b, some, ok := append(d.obj[:0], '{'), false, true
	if maps && attrs != nil {
		b, some, ok = appendKeyValues(b, attrs, false, 0)
	}
	if ok && kind == `"kvlistValue"` {
		b, _, ok = appendKvlist(b, val, some, 0)
	}
	d.obj = append(b, '}')
	if !ok {
		return nil, 0, errors.New("an OTLP log record whose attributes or body map is no list of {\"key\":…,\"value\":{…}}")
	}
	return d.obj, ns, nil
}

// otelFields reports whether the attributes of an OTLP log record, rec,
// as a JSON object, carry a request's fields by the names of
// request: a parser of the Collector parsed its line into them.
func otelFields(rec []byte, request func(obj []byte) bool) bool {
	var d topReader
	var vals [4][]byte
	if _, _, err := d.top(rec, otelLogKeys, vals[:]); err != nil || d.arrs[3] == nil {
		return false
	}
	b, _, ok := appendKeyValues([]byte{'{'}, d.arrs[3], false, 0)
	return ok && request(append(b, '}'))
}

// otelTime reads a log record's time, a decimal string (or a number)
// of nanoseconds: 0 when it is none, zero, or outside the years read.
func otelTime(str, lit []byte) int64 {
	b := str
	if b == nil {
		b = lit
	}
	ns, ok := nanos(b)
	if !ok || checkTime(ns) != fine {
		return 0
	}
	return ns
}

// anyValueOf returns the member an AnyValue object holds: its key's raw
// text (`"stringValue"`) and its value's; "" when v is no object of one
// member.
func anyValueOf(v []byte) (kind string, val []byte) {
	s := scanner{b: v}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return "", nil
	}
	s.i++
	s.ws()
	key, val, ok := member(&s)
	if !ok {
		return "", nil
	}
	if end, err := s.next('}'); !end || err != nil {
		return "", nil
	}
	return string(key), val
}

// maxAnyDepth is how deeply maps and arrays of AnyValue may nest in a
// log record read.
const maxAnyDepth = 32

// appendKeyValues appends to b the members "key":value of kvs, an array
// of KeyValue ({"key":"…","value":{…}}), a comma before each when some
// (b holds members already); a KeyValue without a value is left out.
// ok false when kvs is no such array.
func appendKeyValues(b, kvs []byte, some bool, depth int) (_ []byte, _ bool, ok bool) {
	s := scanner{b: kvs}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return b, some, false
	}
	s.i++
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		return b, some, true
	}
	for {
		kv, ok := s.rawValue()
		if !ok || kv[0] != '{' {
			return b, some, false
		}
		var key, val []byte
		k := scanner{b: kv, i: 1}
		k.ws()
		for k.i < len(k.b) && k.b[k.i] != '}' {
			name, v, ok := member(&k)
			if !ok {
				return b, some, false
			}
			switch string(name) {
			case `"key"`:
				key = v
			case `"value"`:
				val = v
			}
			if end, err := k.next('}'); err != nil {
				return b, some, false
			} else if end {
				break
			}
			k.ws()
		}
		if key == nil || key[0] != '"' {
			return b, some, false
		}
		if val != nil {
			if some {
				b = append(b, ',')
			}
			b = append(append(b, key...), ':')
			if b, ok = appendAnyValue(b, val, depth); !ok {
				return b, some, false
			}
			some = true
		}
		if end, err := s.next(']'); err != nil {
			return b, some, false
		} else if end {
			return b, some, true
		}
		s.ws()
	}
}

// appendKvlist appends the members of v, a KeyValueList
// ({"values":[KeyValue…]}), as appendKeyValues does.
func appendKvlist(b, v []byte, some bool, depth int) ([]byte, bool, bool) {
	vals, ok := valuesOf(v)
	if !ok {
		return b, some, false
	}
	if vals == nil {
		return b, some, true // an empty map: "values" left out
	}
	return appendKeyValues(b, vals, some, depth)
}

// valuesOf returns the "values" array of a KeyValueList or an
// ArrayValue object, nil when it has none; ok false when v is no object.
func valuesOf(v []byte) (vals []byte, ok bool) {
	s := scanner{b: v}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return nil, false
	}
	s.i++
	s.ws()
	for s.i < len(s.b) && s.b[s.i] != '}' {
		name, val, ok := member(&s)
		if !ok {
			return nil, false
		}
		if string(name) == `"values"` {
			if val[0] != '[' {
				return nil, false
			}
			vals = val
		}
		if end, err := s.next('}'); err != nil {
			return nil, false
		} else if end {
			return vals, true
		}
		s.ws()
	}
	return vals, s.i < len(s.b)
}

// appendAnyValue appends to b the JSON value of v, an AnyValue object:
// a string as it is, an int64 (a decimal string) and a double as their
// number, a map as an object, an array
// as an array, bytes as their base64 string, an empty value as null.
// What it appends is JSON when v is.
func appendAnyValue(b, v []byte, depth int) ([]byte, bool) {
	if depth >= maxAnyDepth {
		return b, false
	}
	s := scanner{b: v}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '{' {
		s.i++
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == '}' {
			return append(b, "null"...), true
		}
	}
	kind, val := anyValueOf(v)
	if val == nil {
		return b, false
	}
	switch kind {
	case `"stringValue"`, `"bytesValue"`:
		return append(b, val...), val[0] == '"'
	case `"intValue"`, `"doubleValue"`:
		// A number as its JSON number: the mapping writes an int64 as a
		// string, and a double as a number or, when it is NaN or an
		// infinity, as the string "NaN", "Infinity", kept as it is.
		if val[0] == '"' {
			if in := val[1 : len(val)-1]; jsonNumber(in) {
				val = in
			}
			return append(b, val...), true
		}
		return append(b, val...), jsonNumber(val)
	case `"boolValue"`:
		return append(b, val...), string(val) == "true" || string(val) == "false"
	case `"kvlistValue"`:
		b, _, ok := appendKvlist(append(b, '{'), val, false, depth+1)
		return append(b, '}'), ok
	case `"arrayValue"`:
		vals, ok := valuesOf(val)
		if !ok {
			return b, false
		}
		b = append(b, '[')
		if vals != nil {
			a := scanner{b: vals, i: 1}
			a.ws()
			for a.i < len(a.b) && a.b[a.i] != ']' {
				item, ok := a.rawValue()
				if !ok {
					return b, false
				}
				if b, ok = appendAnyValue(b, item, depth+1); !ok {
					return b, false
				}
				if end, err := a.next(']'); err != nil {
					return b, false
				} else if end {
					break
				}
				b = append(b, ',')
				a.ws()
			}
		}
		return append(b, ']'), true
	}
	return b, false
}

// jsonNumber reports whether b is a number as JSON writes it
// (RFC 8259 section 6): -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumber(b []byte) bool {
	i := 0
	digits := func() bool {
		from := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > from
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(b)
}
