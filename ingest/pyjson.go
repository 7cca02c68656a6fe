package ingest

import "bytes"

// python-json-logger's JsonFormatter writes each record of Python's
// logging as a JSON object of the LogRecord attributes its format names,
// "%(asctime)s %(levelname)s %(name)s %(message)s" as
// {"asctime":…,"levelname":…,"name":…,"message":…} (nhairs/
// python-json-logger src/pythonjsonlogger/core.py, BaseJsonFormatter:
// parse and add_fields; asctime is formatTime's), so a server that logs
// through it (uvicorn's and gunicorn's access loggers, given a
// JsonFormatter in their logging config) writes its access line in
// "message": uvicorn's `10.0.2.151:33801 - "POST /v1/chat/completions
// HTTP/1.1" 200`, gunicorn's access_log_format's line. Such a record is
// read as a log shipper's record of its message (EnvShipper), as Ray
// Serve's JSON records are (rayjson.go); its time asctime, Python's
// "%Y-%m-%d %H:%M:%S,mmm" in the machine's local time by default
// (Lib/logging/__init__.py, Formatter.default_time_format,
// default_msec_format, converter time.localtime), read in --tz, or the
// formatter's own "timestamp" (timestamp=True: UTC, ISO 8601), when the
// line within gives none. A record with request fields of its own (an
// extra={…} of a request logger) is read as it is.
//
// A record of another logger than an access one, whose message is not
// an access line (uvicorn.error's "Started server process [1]", an
// app's own message), is the program's own and passed over; the access
// loggers are named so by their servers: uvicorn's "uvicorn.access"
// (uvicorn/config.py, LOGGING_CONFIG), gunicorn's "gunicorn.access"
// (gunicorn/glogging.py, Logger.__init__).

// pythonJSONKeys are the members of python-json-logger's record that
// tell it and give its message, logger and time.
var pythonJSONKeys = []string{"message", "levelname", "asctime", "name", "timestamp"}

// pythonJSON returns the message and time of a record of
// python-json-logger: a message string beside levelname and asctime or
// name; own is true when the record names a logger that is no access
// logger (its message, not an access line, is the program's own). ok is
// false when line is none.
func (d *topReader) pythonJSON(line []byte) (msg, stamp []byte, own, ok bool) {
	var vals [5][]byte
	_, strs, err := d.top(line, pythonJSONKeys, vals[:])
	if err != nil || strs&1 == 0 || strs&2 == 0 || strs&(1<<2|1<<3) == 0 {
		return nil, nil, false, false
	}
	stamp = vals[2]
	if stamp == nil {
		stamp = vals[4]
	}
	own = strs&(1<<3) != 0 && !bytes.HasSuffix(vals[3], []byte(".access"))
	return vals[0], stamp, own, true
}
