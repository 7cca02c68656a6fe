package ingest

import (
	"bytes"
	"errors"
)

// Mezmo's (LogDNA's) Export API v1 streams the lines a search matched
// "in JSONL format" (https://docs.mezmo.com/reference/about-the-export-api),
// a line each: {"_account":…,"_app":…,"_host":…,"_file":…,"_ts":<epoch
// ms>,"_line":"LINE","_logtype":…,"level":…,"_id":…}. Its own client
// reads them so (logdna/logdna-cli index.js and lib/utils.js: new
// Date(line._ts), line._host, line._app, line._line).

// mezmoKeys are the members of a line of Mezmo's export read: the line,
// its time, and those of which one marks it.
var mezmoKeys = []string{"_line", "_ts", "_host", "_app"}

var errNotMezmo = errors.New(`not a line of Mezmo's (LogDNA's) export: no "_line" string beside "_ts" (epoch ms) and "_host" or "_app"`)

// mezmoLine returns the line a line of Mezmo's export holds, decoded
// into d's scratch buffer, without its line end, and its time, _ts
// (epoch ms, a number or a string of digits).
func (d *topReader) mezmoLine(line []byte) (msg, stamp []byte, err error) {
	var vals [4][]byte
	found, strs, err := d.top(line, mezmoKeys, vals[:])
	if err != nil {
		return nil, nil, err
	}
	stamp = d.lits[1]
	if strs&2 != 0 {
		stamp = vals[1]
	}
	if strs&1 == 0 || found&(4|8) == 0 || len(stamp) == 0 || !allDigits(stamp) {
		return nil, nil, errNotMezmo
	}
	return bytes.TrimRight(vals[0], "\r\n"), stamp, nil
}
