package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// Set reads val into every field bs names. A value that is absent ("-",
// empty) leaves the fields unset. It returns an error only for a value
// that makes the line bad (SPEC §3): an unreadable time or request_time,
// including one outside the bounds of bounds.go; other unreadable values
// are left absent, and noted (Record.unread).
func (r *Record) Set(bs Bindings, val []byte, loc *time.Location) error {
	if isAbsent(val) {
		return nil
	}
	for _, b := range bs {
		if k := fields[b.Field].kind; (k == KindFloat || k == KindInt || k == KindTime) && (noNumber(val) || b.MinusOne && string(val) == "-1") {
			continue
		}
		if !r.claim(b.Field, b.Prio) && !b.Stamp() { // a stamp claims no field (putStamp)
			continue
		}
		if err := r.set1(b, val, loc); err != nil {
			return err
		}
	}
	return nil
}

// setDecimal is Set for a value that scanNumber read as v: numeric
// fields take v, the others read the bytes as Set does.
func (r *Record) setDecimal(bs Bindings, val []byte, v float64, loc *time.Location) error {
	for _, b := range bs {
		f := b.Field
		if b.MinusOne && v == -1 || !r.claim(f, b.Prio) && !b.Stamp() { // -1: the source's "no value"
			continue
		}
		// An nginx list of this one number reads as the number: its sum
		// (none when negative, which duration refuses alike) and its last.
		switch info := &fields[f]; info.kind {
		case KindFloat:
			x, flaw := duration(info, v, b.Unit)
			if flaw == fine && b.Part() {
				x, flaw = r.addPart(f, x)
			}
			if flaw != fine {
				if f == FRequestTime {
					return badValue(f, val, flaw)
				}
				r.unreadable(f, val)
				continue
			}
			r.put(f, b.Prio, x)
			continue
		case KindInt:
			if isInt(v) {
				r.put(f, b.Prio, v+0) // +0 turns -0 into 0
			} else {
				r.unreadable(f, val)
			}
			continue
		}
		if err := r.set1(b, val, loc); err != nil {
			return err
		}
	}
	return nil
}

// addPart returns x, a phase of duration field f read by a part's
// binding (Binding.Part), plus the phases of f the record holds already:
// the field is their sum. tooLong when the sum is over MaxDurationS.
func (r *Record) addPart(f Field, x float64) (float64, flaw) {
	if r.set&(1<<f) == 0 || r.prio[f] != prioPart {
		return x, fine
	}
	x += r.num[f]
	if x*seconds[fields[f].unit] > MaxDurationS {
		return 0, tooLong
	}
	return x, fine
}

// isAbsent reports whether val is no value: empty, "-", or SQL's NULL as
// mysql -B and PostgreSQL's COPY write it (\N).
func isAbsent(val []byte) bool {
	switch len(val) {
	case 0:
		return true
	case 1:
		return val[0] == '-'
	case 2:
		return val[0] == '\\' && val[1] == 'N'
	case 4:
		// SQL's NULL as mysql -B and DuckDB's NULLSTR write it, and
		// JSON's as a text export of it does.
		return string(val) == "NULL" || string(val) == "null"
	}
	return false
}

// noNumber reports whether val is what R's write.csv puts where a value
// is missing, NA: absent to a number or a time, as null is (SPEC §3),
// not unreadable; a text field keeps it (a region may be NA, North
// America).
// NaN stays unreadable: SPEC §3 makes a request_time of NaN a bad line.
func noNumber(val []byte) bool { return len(val) == 2 && val[0] == 'N' && val[1] == 'A' }

func (r *Record) set1(b Binding, val []byte, loc *time.Location) error {
	f := b.Field
	info := &fields[f]
	switch info.kind {
	case KindText, KindRequest:
		r.putText(f, b.Prio, val)
	case KindInt:
		var v float64
		var ok bool
		if info.list {
			v, ok = lastListNumber(val)
		} else {
			v, ok = parseNumber(val)
		}
		if ok && isInt(v) {
			r.put(f, b.Prio, v+0) // +0 turns -0 into 0
		} else if code, known := errorStatus[string(val)]; known && f == FStatus {
			r.put(f, b.Prio, code)
		} else if code, known := statusOfText(val); known && b.Outcome {
			r.put(f, b.Prio, code)
		} else {
			r.unreadable(f, val)
		}
	case KindBool:
		if v, ok := parseBool(val); ok {
			r.put(f, b.Prio, v)
		} else if noFlag(val) {
			r.noCall = true
		} else {
			r.unreadable(f, val)
		}
	case KindFloat:
		if f == FSSLHandshakeTime {
			val = clbHandshake(val) // CLB's "1:0.052:…", as CLS exports it too
		}
		var v float64
		var ok bool
		unit := b.Unit
		switch n := len(val); {
		case info.list:
			v, ok = sumList(val)
		case n > 1 && (endsInUnit(val) || isISODuration(val)):
			// No number ends or begins so: not parsed as one first, whose
			// refusal would allocate.
		default:
			v, ok = parseNumber(val)
		}
		flaw := unreadable
		if !ok {
			// A duration that names its unit ("6.210452s", Google Cloud's
			// httpRequest.latency; "250ms", Go's; "PT1M2.5S", ISO 8601's):
			// the unit it names.
			v, flaw = unitDuration(val)
			ok, unit = flaw == fine, UnitSecond
		}
		if ok {
			v, flaw = duration(info, v, unit)
		}
		if flaw == fine && b.Part() {
			v, flaw = r.addPart(f, v)
		}
		if flaw != fine {
			if f == FRequestTime {
				return badValue(f, val, flaw)
			}
			r.unreadable(f, val)
			return nil
		}
		r.put(f, b.Prio, v)
	case KindTime:
		var ns int64
		var ok bool
		if b.UUIDv7 {
			if ns, ok = uuidV7Time(val); !ok {
				// An id of another kind holds no time: the record has
				// none from it, and the value is noted.
				r.unreadable(f, val)
				return nil
			}
		} else if ns, ok = parseTime(val, b.Unit, loc); !ok {
			return badValue(f, val, unreadable)
		}
		if flaw := checkTime(ns); flaw != fine {
			return badValue(f, val, flaw)
		}
		if b.Stamp() {
			r.putStamp(b, ns)
			return nil
		}
		switch f {
		case FEndTime:
			r.endNS = ns
		case FFirstTokenTime:
			r.firstNS = ns
		default:
			r.TimeNS = ns
		}
		r.set |= 1 << f
		r.prio[f] = b.Prio
	}
	return nil
}

// unitDuration reads a duration written with its unit, as Go's
// time.ParseDuration reads it ("6.210452s", "1m2.5s", "250ms", "80µs"),
// or in ISO 8601's form ("PT0.162S", "PT1M2.5S", "P1DT2H": isoDuration),
// in seconds; unreadable for anything else, a number without a unit
// included, and unfixedSpan for ISO 8601's years and months. A negative
// one is returned as it is, for duration to refuse.
func unitDuration(val []byte) (float64, flaw) {
	// Spaces before it are no part of it: Sanic writes its access
	// record's duration with one (sanic/http/http1.py, log_response:
	// f" {1000 * (perf_counter() - self.perft0):.1f}ms", " 508.4ms"),
	// for its text formatters to put after the bytes.
	for len(val) > 0 && val[0] == ' ' {
		val = val[1:]
	}
	if n := len(val); n < 2 || n > 40 {
		return 0, unreadable
	}
	if secs, fl, iso := isoDuration(val); iso {
		return secs, fl
	}
	if !endsInUnit(val) {
		return 0, unreadable
	}
	// One space between the number and its unit: tower-http's TraceLayer
	// writes its latency so, "778 ms", "4175731 μs", "0.5 s", "12 ns"
	// (tower-rs/tower-http tower-http/src/trace/on_response.rs,
	// format_args!("{} ms", latency.as_millis()); on_failure.rs alike),
	// in the text log and as a JSON string. Read without the space.
	var joined [40]byte
	if sp := unitSpace(val); sp > 0 {
		n := copy(joined[:], val[:sp])
		n += copy(joined[n:], val[sp+1:])
		val = joined[:n]
	}
	if d, ok := oneUnitDuration(val); ok {
		return d.Seconds(), fine
	}
	d, err := time.ParseDuration(string(val))
	if err != nil {
		return 0, unreadable
	}
	return d.Seconds(), fine
}

// unitSpace returns the index of the one space in val between a
// duration's number and its unit ("778 ms"), or 0 when there is none:
// digits and points before it, a unit's first letter after it.
func unitSpace(val []byte) int {
	sp := bytes.IndexByte(val, ' ')
	if sp <= 0 || sp+1 >= len(val) || bytes.IndexByte(val[sp+1:], ' ') >= 0 {
		return 0
	}
	for _, c := range val[:sp] {
		if c != '.' && (c < '0' || c > '9') {
			return 0
		}
	}
	switch val[sp+1] {
	case 'n', 'u', 'm', 's', 'h', 0xc2, 0xce: // µ is 0xc2 0xb5 (U+00B5), μ 0xce 0xbc (U+03BC)
		return sp
	}
	return 0
}

// endsInUnit reports whether b ends as a duration that names its unit
// does (s, ms, µs, ns, m, h): no number does.
func endsInUnit(b []byte) bool {
	n := len(b)
	return n > 0 && (b[n-1] == 's' || b[n-1] == 'm' || b[n-1] == 'h')
}

// oneUnitDuration reads the common shape of a duration, one number and
// its unit ("6.210452s", "980.5µs"), to the nanosecond time.ParseDuration
// gives, without allocating: a Gin log has one on every line. Any other
// shape (several units, a sign, more than 18 digits) is false, for the
// library to read.
func oneUnitDuration(b []byte) (time.Duration, bool) {
	i, v := 0, uint64(0)
	for i < len(b) && i < 18 && b[i] >= '0' && b[i] <= '9' {
		v = v*10 + uint64(b[i]-'0')
		i++
	}
	pre, post := i > 0, false
	f, scale := uint64(0), 1.0
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		for i < len(b) && i-j < 18 && b[i] >= '0' && b[i] <= '9' {
			f, scale = f*10+uint64(b[i]-'0'), scale*10
			i++
		}
		post = i > j
	}
	if !pre && !post || i < len(b) && b[i] >= '0' && b[i] <= '9' {
		return 0, false
	}
	var unit uint64
	switch string(b[i:]) {
	case "ns":
		unit = 1
	case "us", "µs", "μs": // U+00B5 and U+03BC, as the library takes both
		unit = 1e3
	case "ms":
		unit = 1e6
	case "s":
		unit = 1e9
	case "m":
		unit = 60e9
	case "h":
		unit = 3600e9
	default:
		return 0, false
	}
	if v > 1<<63/unit {
		return 0, false
	}
	// The library's steps: the whole part times the unit, plus the
	// fraction scaled in floating point.
	v *= unit
	if f > 0 {
		v += uint64(float64(f) * (float64(unit) / scale))
	}
	if v > 1<<63-1 {
		return 0, false
	}
	return time.Duration(v), true
}

// ValueError is a value that makes a line bad.
type ValueError struct {
	Field Field
	Value string // the start of the value, for the problem sample
	Why   string // what is wrong with a value that was read, or ""
}

func (e *ValueError) Error() string {
	if e.Why != "" {
		return fmt.Sprintf("%s: cannot read %q: %s", e.Field, e.Value, e.Why)
	}
	return fmt.Sprintf("%s: cannot read %q", e.Field, e.Value)
}

func badValue(f Field, val []byte, flaw flaw) error {
	const max = 40
	v := val
	if len(v) > max {
		v = v[:max]
		for len(v) > 0 && !utf8.Valid(v) {
			v = v[:len(v)-1]
		}
	}
	return &ValueError{Field: f, Value: string(v), Why: flaw.String()}
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNumber reads a decimal number without allocating for the common
// forms ("12", "-0.25", "4.683"); others go through strconv. NaN is not a
// number here.
func parseNumber(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	i := 0
	neg := false
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		i++
	}
	var mant uint64
	digits, frac := 0, 0
	dot := false
	start := i
	for ; i < len(b); i++ {
		c := b[i]
		if c >= '0' && c <= '9' {
			if digits < 18 {
				mant = mant*10 + uint64(c-'0')
				if mant != 0 {
					digits++
				}
				if dot {
					frac++
				}
			} else if !dot {
				return parseSlow(b)
			}
			continue
		}
		if c == '.' && !dot {
			dot = true
			continue
		}
		return parseSlow(b)
	}
	if i == start || (dot && i == start+1) {
		return 0, false
	}
	if frac >= len(pow10) || mant > 1<<53 {
		return parseSlow(b)
	}
	v := float64(mant) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

// parseSlow reads the rarer forms through strconv; a number too large
// for float64 ("1e400") is ±Inf, for the caller to refuse by name.
func parseSlow(b []byte) (float64, bool) {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !(errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0)) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// sumList reads an nginx upstream list ("0.100, 0.004", "0.100, -",
// "x, y : z") as the sum of the numbers present; false when none is.
func sumList(b []byte) (float64, bool) {
	sum, any := 0.0, false
	for len(b) > 0 {
		item, rest := nextListItem(b)
		b = rest
		if isAbsent(item) {
			continue
		}
		v, ok := parseNumber(item)
		if !ok || v < 0 {
			return 0, false
		}
		sum += v
		any = true
	}
	return sum, any
}

// lastListNumber returns the last number in an nginx list ("502, 200").
func lastListNumber(b []byte) (float64, bool) {
	last, any := 0.0, false
	for len(b) > 0 {
		item, rest := nextListItem(b)
		b = rest
		if v, ok := parseNumber(item); ok {
			last, any = v, true
		}
	}
	return last, any
}

// nextListItem cuts the first item of an nginx list, trimmed.
func nextListItem(b []byte) (item, rest []byte) {
	i := 0
	for i < len(b) && b[i] != ',' && b[i] != ':' {
		i++
	}
	item = b[:i]
	if i < len(b) {
		rest = b[i+1:]
	}
	for len(item) > 0 && item[0] == ' ' {
		item = item[1:]
	}
	for len(item) > 0 && item[len(item)-1] == ' ' {
		item = item[:len(item)-1]
	}
	return item, rest
}

// parseBool reads a boolean, and the words programs write for whether a
// call streamed: APISIX's request_type (ai_stream, ai_chat), Higress's
// response_type (stream, normal), Kong's request_mode (stream, oneshot).
// A number is 0 or 1 in any spelling (Portkey's stream_mode 1.0).
func parseBool(b []byte) (float64, bool) {
	switch string(b) {
	case "true", "True", "TRUE", "1", "stream", "ai_stream", "yes",
		"t", // PostgreSQL's text of a boolean (COPY, psql)
		// Amazon Bedrock's operations that stream the answer.
		"ConverseStream", "InvokeModelWithResponseStream", "InvokeModelWithBidirectionalStream":
		return 1, true
	case "false", "False", "FALSE", "0", "normal", "no", "ai_normal", "ai_chat", "oneshot",
		"f", "Converse", "InvokeModel":
		return 0, true
	}
	if v, ok := parseNumber(b); ok && (v == 0 || v == 1) {
		return v + 0, true // +0 turns -0 into 0
	}
	return 0, false
}

// errorStatus is the HTTP status with which Amazon Bedrock's runtime
// answers each of its exceptions (its API reference), which its
// invocation log writes as a failed call's errorCode: a status where
// the log has a word.
var errorStatus = map[string]float64{
	"ValidationException": 400, "ServiceQuotaExceededException": 400,
	"AccessDeniedException": 403, "ResourceNotFoundException": 404,
	"ModelTimeoutException": 408, "ModelErrorException": 424, "ModelStreamErrorException": 424,
	"ThrottlingException": 429, "ModelNotReadyException": 429,
	"InternalServerException": 500, "ServiceUnavailableException": 503,
}

// noFlag reports whether a boolean field's value says the flag does not
// apply: APISIX's request_type of a request to no model
// ("traditional_http"), absent rather than unreadable; the record is then
// no call (Record.noCall).
func noFlag(b []byte) bool { return string(b) == "traditional_http" }
