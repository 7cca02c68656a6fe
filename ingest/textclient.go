package ingest

import "time"

// A text format that has a variable of the client's ($remote_user, %u)
// and the address ($remote_addr) gave each line its own: the user when
// the line names one, else the address. One file never mixes two sources
// of client (SPEC §3): the file's is the one the most of its first lines
// give (the user on a tie), as a JSON file's is the name the most of its
// first records carry, and a line without it has none.

// textClient is where a text file's records take their client from.
type textClient uint8

const (
	clientAsLine textClient = iota // the format has no choice to make
	clientUser                     // the format's client variable; none without it
	clientAddr                     // the address, whatever else the line names
)

// textClientOf chooses the client of a file of format f from its first
// lines in head (at most clientLookahead of those f reads).
func textClientOf(f *logFormat, head []byte) textClient {
	if f == nil || !f.binds(FClient) || !f.binds(FRemoteAddr) {
		return clientAsLine
	}
	p := &nginxParser{f: f, loc: time.UTC}
	read, named := 0, 0
	var r Record
	for _, l := range headLines(head, 4*clientLookahead) {
		r.Reset()
		r.noAddrClient = true // the client of the line's own, not derived
		if _, err := p.parse(l, &r); err != nil {
			continue
		}
		read++
		if r.Has(FClient) {
			named++
		}
		if read == clientLookahead {
			break
		}
	}
	switch {
	case read == 0:
		return clientAsLine
	case named > 0 && 2*named >= read:
		return clientUser
	}
	return clientAddr
}

// binds reports whether a variable of f is read into field.
func (f *logFormat) binds(field Field) bool {
	for _, v := range f.vars {
		for _, b := range v.bind {
			if b.Field == field {
				return true
			}
		}
	}
	return false
}

// clientFrom makes r's client the file's (textClient): its address's, or
// none but the line's own.
func (r *Record) clientFrom(c textClient) {
	switch {
	case c == clientAddr:
		if a := hostOnly(r.Text(FRemoteAddr)); len(a) > 0 {
			r.putText(FClient, prioDerived, a)
		} else {
			r.set &^= 1 << FClient
		}
	case c == clientUser && r.Has(FClient) && r.prio[FClient] == prioDerived:
		r.set &^= 1 << FClient // derived from the address by Finish
	}
}
