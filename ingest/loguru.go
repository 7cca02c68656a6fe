package ingest

import (
	"bytes"
	"errors"
)

// loguru's sinks with serialize=True write each record as a JSON line of
// its text and its record, {"text": "…", "record": {"elapsed", "exception",
// "extra", "file", "function", "level", "line", "message", "module",
// "name", "process", "thread", "time": {"repr", "timestamp"}}}
// (Delgan/loguru loguru/_handler.py, Handler._serialize_record). A
// request logger's fields are in extra, "the dict of attributes bound by
// the user" (loguru/_logger.py, Logger.add's "The record dict": bind(),
// contextualize(), a call's keyword arguments), such as a FastAPI
// middleware's method, path, status_code and process_time or
// duration_ms: EnvLoguru reads extra as the record, its time
// time.timestamp (the record's datetime.timestamp(), epoch seconds) when
// extra has none. elapsed is "the time elapsed since the start of the
// program" (the same table), no request's, and is not read. A record whose extra is empty, or names no field
// loganalyze reads, is the program's own message (its start-up, an app's
// line): passed over.

// loguruKeys, loguruRecordKeys and loguruTimeKeys are the members of a
// serialized record, of its record and of its record's time that are read.
var (
	loguruKeys       = []string{"text", "record"}
	loguruRecordKeys = []string{"extra", "time"}
	loguruTimeKeys   = []string{"timestamp"}
)

var errNotLoguru = errors.New(`not loguru's serialized record: no "record" object with "extra" and "time" objects beside "text"`)

// loguru returns the extra object of a record loguru serialized, and its
// time's timestamp (nil when it has none); errOwnLine for a record whose
// extra is empty.
func (d *topReader) loguru(line []byte) (extra, stamp []byte, err error) {
	var vals [2][]byte
	_, strs, err := d.top(line, loguruKeys, vals[:])
	rec := d.objs[1]
	if err != nil || strs&1 == 0 || rec == nil || d.others != 0 {
		return nil, nil, errNotLoguru
	}
	if _, _, err := d.top(rec, loguruRecordKeys, vals[:]); err != nil || d.objs[0] == nil || d.objs[1] == nil {
		return nil, nil, errNotLoguru
	}
	extra, tm := d.objs[0], d.objs[1]
	if _, _, err := d.top(tm, loguruTimeKeys, vals[:1]); err == nil && d.lits[0] != nil {
		stamp = d.lits[0]
	}
	if in := bytes.TrimSpace(extra[1 : len(extra)-1]); len(in) == 0 {
		return nil, nil, errOwnLine // nothing bound: the program's own message
	}
	return extra, stamp, nil
}
