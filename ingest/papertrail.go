package ingest

import (
	"bytes"
	"errors"
)

// Papertrail's logs as it keeps them and as its search API answers.
//
// Its permanent log archives
// (https://help.papertrailapp.com/kb/how-it-works/permanent-log-archives/)
// are a file a day or an hour, .tsv.gz, a message a line, no header, ten
// fields cut by tabs: id, generated_at, received_at, source_id,
// source_name, source_ip, facility_name, severity_name, program, message.
//
//	50342052	2011-02-10 00:19:36 -0800	2011-02-10 00:19:36 -0800	42424	mysystem	208.122.34.202	User	Info	testprogram	Lorem ipsum…
//
// Its search API (https://help.papertrailapp.com/kb/how-it-works/search-api/,
// /api/v1/events/search.json) answers {"events":[…],"min_id":…,
// "max_id":…}, each event {"id","generated_at","received_at" (ISO 8601),
// "display_received_at","source_name","source_id","source_ip",
// "facility","severity","program","message"}; its search alerts' webhooks
// post the same events.

var errNotPapertrail = errors.New("not a row of Papertrail's log archive: id, generated_at, received_at, source_id, source_name, source_ip, facility_name, severity_name, program, message cut by tabs")

// papertrailRow reads a line of Papertrail's log archive: its message,
// all after the ninth tab (a tab within it kept), and its generated_at,
// the time the sender gave it. ok false for any other line: its id and
// source_id digits, and its two times "2011-02-10 00:19:36 -0800", tell
// it from a TSV's header or rows.
func papertrailRow(line []byte) (msg, stamp []byte, ok bool) {
	var f [9][]byte
	rest := line
	for i := range f {
		var found bool
		if f[i], rest, found = bytes.Cut(rest, []byte{'\t'}); !found {
			return nil, nil, false
		}
	}
	if !allDigits(f[0]) || !allDigits(f[3]) || !papertrailTime(f[1]) || !papertrailTime(f[2]) {
		return nil, nil, false
	}
	return bytes.TrimRight(rest, "\r"), f[1], true
}

// papertrailTime reports whether b is a time as Papertrail's archive
// writes it: "2011-02-10 00:19:36 -0800".
func papertrailTime(b []byte) bool {
	const form = "dddd-dd-dd dd:dd:dd +dddd"
	if len(b) != len(form) {
		return false
	}
	for i := range len(form) {
		switch c := b[i]; form[i] {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case '+':
			if c != '+' && c != '-' {
				return false
			}
		default:
			if c != form[i] {
				return false
			}
		}
	}
	return true
}

// papertrail unwraps a line of EnvPapertrail: the message, its time
// generated_at when the line has none of its own.
func papertrail(line []byte) (wrappedLine, error) {
	msg, stamp, ok := papertrailRow(line)
	if !ok {
		return wrappedLine{}, errNotPapertrail
	}
	return wrappedLine{inner: msg, stamp: stamp}, nil
}

// papertrailKeys are the members of an event of Papertrail's search API
// read: its message, its times, and those of which two mark it.
var papertrailKeys = []string{"message", "generated_at", "received_at", "display_received_at", "source_name", "source_id", "source_ip"}

// papertrailEvent returns the message of an event of Papertrail's search
// API, decoded into d's scratch buffer, without its line end, and its
// time: generated_at (when the sender generated it) when it is RFC 3339,
// else received_at. false for any other element: a message string
// beside two of received_at, display_received_at, source_name,
// source_id, source_ip.
func (d *topReader) papertrailEvent(elem []byte) (msg, stamp []byte, ok bool) {
	var vals [7][]byte
	found, strs, err := d.top(elem, papertrailKeys, vals[:])
	marks := 0
	for i := 2; i < len(papertrailKeys); i++ {
		if found&(1<<i) != 0 {
			marks++
		}
	}
	if err != nil || strs&1 == 0 || marks < 2 {
		return nil, nil, false
	}
	for _, s := range vals[1:3] {
		if len(s) > 0 && stampEnd(s) == len(s) {
			stamp = s
			break
		}
	}
	return bytes.TrimRight(vals[0], "\r\n"), stamp, true
}
