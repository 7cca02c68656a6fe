package ingest

import (
	"bytes"
	"errors"
)

// Better Stack's (Logtail's) logs as its query APIs answer.
//
// Its SQL API, ClickHouse's HTTP interface
// (https://betterstack.com/docs/logs/query-api/connect-remotely/), is
// documented with
//
//	SELECT dt, raw FROM remote(t123456_your_source_logs) … ORDER BY dt DESC LIMIT 100 FORMAT JSONEachRow
//
// which gives a JSON line a log, {"dt":"2026-12-04 03:01:37.685072",
// "raw":"{…}"}: dt its time, ClickHouse's text of a DateTime64 in UTC,
// without a zone; raw the log as Better Stack keeps it, a JSON object in
// a string, the line its source sent in message ({"dt":…,"message":
// "LINE",…}), or the fields a structured log sent. FORMAT JSON puts the
// same rows in {"meta":[…],"data":[…],"rows":…}.
//
// Its legacy Query API v1 (https://betterstack.com/docs/logs/query-api/,
// decommissioned in August 2024) answered {"data":[{"app":…,
// "source_id":…,"dt":"2022-07-19 12:28:14.000000","message":"LINE",
// "level":…,…}],"pagination":{…}}.

// betterStackKeys are the members of a row of Better Stack's read: the
// SQL API's raw and dt, the Query API's message and, of which it marks
// the row, source_id.
var betterStackKeys = []string{"raw", "dt", "message", "source_id"}

// betterStackMessage is the member of a log's raw object that holds its
// line.
var betterStackMessage = []string{"message"}

var errNotBetterStack = errors.New(`not a row of Better Stack's logs: no "raw" JSON object in a string beside "dt", nor a "message" string beside "dt" and "source_id"`)

// betterStack returns the line a row of Better Stack's logs holds,
// decoded into d's scratch buffer, without its line end, and its time,
// dt, as epoch ms in d's buffer (nil when it is no time): the SQL API's
// raw object's message, or the raw object itself when it has none (a
// structured log's fields); the Query API v1's message.
func (d *topReader) betterStack(line []byte) (msg, stamp []byte, err error) {
	var vals [4][]byte
	found, strs, err := d.top(line, betterStackKeys, vals[:])
	if err != nil {
		return nil, nil, err
	}
	switch {
	case strs&3 == 3:
		raw := bytes.TrimSpace(vals[0])
		if len(raw) < 2 || raw[0] != '{' {
			return nil, nil, errNotBetterStack
		}
		var m [1][]byte
		if _, strs, err := d.top(raw, betterStackMessage, m[:]); err == nil && strs&1 != 0 {
			msg = bytes.TrimRight(m[0], "\r\n")
		} else {
			msg = raw
		}
	case strs&6 == 6 && found&8 != 0:
		msg = bytes.TrimRight(vals[2], "\r\n")
	default:
		return nil, nil, errNotBetterStack
	}
	// dt is UTC, written without a zone: read so whatever --tz says.
	return msg, d.epochMs(vals[1]), nil
}
