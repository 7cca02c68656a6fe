package gen

import (
	"bufio"
	"io"
)

// The kinds of bad row the text-table writers (CSV, TSV, CLB) insert, in
// rotation: the wrong field count, binary garbage, a row whose time is
// unreadable, a row whose request_time is unreadable. The last two are
// built from a request.
const (
	badFieldCount = iota
	badGarbage
	badTime
	badRequestTime
	numBadKinds
)

const garbage = "\x00\x01\x02binary\xff\xfe garbage"

// rowFunc appends one request as a line; a non-empty timeText or rtText
// replaces the time or request_time, to make a bad row.
type rowFunc func(b []byte, r *Request, timeText, rtText string) []byte

// writeRows writes header, then one line per request, with a bad line
// after every o.BadEvery requests (broken is the wrong-field-count line of
// the format). It returns how many bad lines it inserted.
func writeRows(w io.Writer, reqs []Request, o WriteOptions, header, broken string, row rowFunc) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	b := []byte(header)
	bad := 0
	for i := range reqs {
		b = row(b, &reqs[i], "", "")
		if o.BadEvery > 0 && (i+1)%o.BadEvery == 0 {
			switch bad % numBadKinds {
			case badFieldCount:
				b = append(b, broken+"\n"...)
			case badGarbage:
				b = append(b, garbage+"\n"...)
			case badTime:
				b = row(b, &reqs[i], "not-a-time", "")
			case badRequestTime:
				b = row(b, &reqs[i], "", "abc")
			}
			bad++
		}
		if len(b) >= 1<<15 {
			if _, err := bw.Write(b); err != nil {
				return bad, err
			}
			b = b[:0]
		}
	}
	if _, err := bw.Write(b); err != nil {
		return bad, err
	}
	return bad, bw.Flush()
}
