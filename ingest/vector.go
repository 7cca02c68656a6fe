package ingest

import (
	"errors"
	"fmt"
)

// Vector's native_json codec (encoding.codec = "native_json" on its file
// or console sink; https://vector.dev/highlights/2022-03-31-native-event-codecs)
// writes each event as serde writes Vector's Event enum, externally
// tagged (vectordotdev/vector lib/vector-core/src/event/mod.rs: enum
// Event { Log, Metric, Trace }, rename_all = "snake_case"):
//
//	{"log":{…the log event's fields…}}
//	{"metric":{"name":…,"namespace":…,"tags":{…},"timestamp":…,"kind":"absolute","gauge":{"value":…}}}
//	{"trace":{…the trace event's fields…}}
//
// A log event's object is its fields and nothing else (LogEvent
// serializes as its value, its metadata left out): a line a source read
// is {"file":…,"host":…,"message":"LINE","source_type":"file",
// "timestamp":…}, as Vector's json codec writes it bare (EnvShipper's),
// and a VRL remap that parsed the line leaves its fields there instead.
// A metric's object is its series and data flattened
// (lib/vector-core/src/event/metric/mod.rs: struct Metric, serde flatten):
// a name and a kind always.

// vectorKeys are the tags of Vector's events, and vectorMetricKeys the
// members of a metric every one has.
var (
	vectorKeys       = []string{"log", "metric", "trace"}
	vectorMetricKeys = []string{"name", "kind"}
)

var (
	errNotVector = errors.New(`not an event of Vector's native_json codec: {"log":{…}}, {"metric":{…}} or {"trace":{…}} alone`)
	// errVectorOther is a metric's or a trace's event: no request, and
	// no bad line.
	errVectorOther = fmt.Errorf("%w: a metric or trace event of Vector's native_json codec, no log", errPassOver)
)

// vectorEvent returns the object of a log event of Vector's native_json
// codec: the line is one member, "log", "metric" or "trace", whose value
// is an object, and no other. A metric's (a name and a kind in it) or a
// trace's event is errVectorOther.
func (d *topReader) vectorEvent(line []byte) ([]byte, error) {
	var vals [3][]byte
	found, _, err := d.top(line, vectorKeys, vals[:])
	if err != nil {
		return nil, err
	}
	log, metric, trace := d.objs[0], d.objs[1], d.objs[2]
	switch {
	case d.others != 0 || found&(found-1) != 0:
		return nil, errNotVector
	case log != nil:
		return log, nil
	case trace != nil:
		return nil, errVectorOther
	case metric != nil:
		var mv [2][]byte
		if _, strs, err := d.top(metric, vectorMetricKeys, mv[:]); err != nil || strs != 3 {
			return nil, errNotVector
		}
		return nil, errVectorOther
	}
	return nil, errNotVector
}

// vectorLine reports whether line is an event of Vector's native_json
// codec, a log's or another's.
func vectorLine(line []byte) bool {
	_, err := new(topReader).vectorEvent(line)
	return err == nil || err == errVectorOther
}
