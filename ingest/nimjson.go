package ingest

import (
	"bufio"
	"bytes"
)

// NVIDIA NIM for LLMs with NIM_JSONL_LOGGING=true writes every record of
// its logging, its own and its vLLM backend's, as one JSON object a line
// of one schema: {"level":"INFO","time":"2026-03-03 12:00:10",
// "file_name":"start_server.py","line_number":42,"message":"…"}
// (docs.nvidia.com/nim/large-language-models/latest/reference/
// logging-and-observability.html, "Enable JSON Lines Output"). uvicorn's
// access records pass through the same logging, so the access line is
// the record's message, the text its access logger is given before any
// formatter's prefix: `10.0.0.5:51234 - "POST /v1/chat/completions
// HTTP/1.1" 200` (encode/uvicorn uvicorn/protocols/http/h11_impl.py and
// httptools_impl.py, RequestResponseCycle.send: access_logger.info('%s -
// "%s %s HTTP/%s" %d', …)), as NIM's text form prints it after its
// prefix. Such a record is read as a log shipper's record of its message
// (EnvShipper), as python-json-logger's are (pyjson.go): the line by the
// text formats, its time "time", to the second and without a zone (--tz)
// when the line gives none. A record whose message is no access line
// (NIM's "Server starting on port 8000", vLLM's engine stats, uvicorn's
// start-up) is the program's own and passed over.

// nimJSONKeys are the members of NIM's JSON Lines record: all five tell
// it, the message and the time are read.
var nimJSONKeys = []string{"message", "time", "level", "file_name", "line_number"}

// nimJSON returns the message and time of a record of NIM's JSON Lines
// log: a message string beside level, time and file_name strings and a
// line_number; ok is false when line is none.
func (d *topReader) nimJSON(line []byte) (msg, stamp []byte, ok bool) {
	var vals [5][]byte
	found, strs, err := d.top(line, nimJSONKeys, vals[:])
	if err != nil || strs&(1|1<<1|1<<2|1<<3) != 1|1<<1|1<<2|1<<3 || found&(1<<4) == 0 || d.lits[4] == nil {
		return nil, nil, false
	}
	return vals[0], vals[1], true
}

// nimHeadLen is how much of a file of NIM's records is looked at for an
// access record: vLLM's start-up at the INFO level writes some hundreds
// of records before the first request.
const nimHeadLen = 512 << 10

// nimOwnFile reports whether a file whose first line is first is NIM's
// JSON Lines log with no access record in its first lines (br's, as
// peeked): at NIM's default level, WARNING, uvicorn's access records are
// not written, and such a file is NIM's own log, which holds no request
// (jsonOwnLog), not lines of a text format to tell. Once a file.
func nimOwnFile(first []byte, br *bufio.Reader) bool {
	if _, _, ok := new(topReader).nimJSON(first); !ok {
		return false
	}
	head, _ := br.Peek(nimHeadLen)
	return !nimAccessIn(head)
}

// nimAccessIn reports whether a line of head is NIM's record of
// uvicorn's access line.
func nimAccessIn(head []byte) bool {
	var d topReader
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte("\n"))
		head = rest
		d.p.scratch = d.p.scratch[:0]
		if msg, _, ok := d.nimJSON(line); ok && uvicornAccess().Match(msg) {
			return true
		}
	}
	return false
}
