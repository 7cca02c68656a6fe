package ingest

import "fmt"

// prepare fills in how each variable of f is found and set: the finder
// of its following literal, its setter, and whether it may be read as a
// number in the pass that finds its end. The numbers fused so are those
// whose literal starts with a byte no number holds, so that the first
// byte after the digits is the first place the literal can be; a list
// followed by a space is left to match, which skips the spaces inside
// the list.
func (f *logFormat) prepare() {
	f.names = uniqueNames(f.vars)
	binds := make([]Bindings, len(f.vars))
	for k := range f.vars {
		binds[k] = f.vars[k].bind
	}
	puts := newPutters(binds)
	for k := range f.vars {
		v := &f.vars[k]
		v.find = newLitFinder(v.next)
		if len(v.next) == 0 {
			v.find = newLitFinder(space)
		}
		v.put = puts[k]
		prev := f.prefix
		if k > 0 {
			prev = f.vars[k-1].next
		}
		v.skipSep = v.lead != 0 && len(v.next) > 0 && v.next[0] == ' ' && (len(prev) == 0 || prev[len(prev)-1] == ' ')
		v.fuse = fuseKind(v)
	}
}

// How a variable's value may be read in the pass that finds its end.
const (
	fuseNone   = iota
	fuseNumber // a number (scanNumber)
	fuseClock  // $time_local (nginxClock)
	// fuseSlot and fuseOptional are HAProxy's timers kept for the end of
	// the line and its items that may not be written (haproxy_format.go).
	fuseSlot
	fuseOptional
	// fusePadded: a number after the spaces that right-align it
	// (nginxVar.pad).
	fusePadded
)

func fuseKind(v *nginxVar) uint8 {
	switch {
	case v.slot != slotNone:
		return fuseSlot
	case v.lead != 0:
		return fuseOptional
	case v.pad && v.put.numeric() && len(v.next) > 0 && !inNumber(v.next[0]):
		return fusePadded
	}
	if len(v.next) == 0 || v.joined || v.how != howPlain {
		return fuseNone
	}
	c := v.next[0]
	switch {
	case v.timeLocal:
		// The literal cannot start inside "29/Nov/2026:10:00:00 +0800";
		// a space is found past the zone by match too.
		if v.put.kind == putTime && (c == ' ' || !isVarChar(c) && !inNumber(c) && c != '/' && c != ':') {
			return fuseClock
		}
	case v.put.numeric() && !inNumber(c) && !(v.list && c == ' '):
		return fuseNumber
	}
	return fuseNone
}

func inNumber(c byte) bool { return c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-' }

// fused reads the value of a fused variable at line[i:] when it has the
// form fused for and is followed by the variable's literal, and returns
// the index after the literal; ok false leaves the value to match.
func (p *nginxParser) fused(v *nginxVar, line []byte, i int, r *Record) (next int, ok bool, err error) {
	switch v.fuse {
	case fuseSlot:
		next, err := p.slotted(v, line, i, r)
		return next, true, err
	case fuseOptional:
		return p.optional(v, line, i, r)
	case fuseClock:
		end := i + 26
		if end > len(line) || !v.find.at(line, end) {
			return 0, false, nil
		}
		ns, ok := p.clock.nginx.parse(line[i:end])
		if !ok {
			return 0, false, nil
		}
		if checkTime(ns) != fine {
			return 0, true, r.Set(v.put.bind, line[i:end], p.loc) // its error
		}
		r.SetTime(ns)
		return end + len(v.next), true, nil
	case fusePadded:
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	end, num, ok := scanNumber(line, i)
	if !ok || !v.find.at(line, end) {
		return 0, false, nil
	}
	if v.seconds && !nginxSeconds(line[i:end]) {
		return 0, true, v.notSeconds(i)
	}
	if v.code && !httpCode(line[i:end]) { // a number: no dash
		return 0, true, v.notCode(i)
	}
	if v.put.setPlain(r, num) { // setNumber's first step, not a call per number
		return end + len(v.next), true, nil
	}
	return end + len(v.next), true, v.put.setNumberText(r, num, line[i:end], p.loc)
}

// httpCode reports whether b is three digits.
func httpCode(b []byte) bool {
	return len(b) == 3 && b[0]-'0' <= 9 && b[1]-'0' <= 9 && b[2]-'0' <= 9
}

// isCode reports whether b is a value v's code check lets through:
// three digits, or "-" where v may have no status.
func (v *nginxVar) isCode(b []byte) bool {
	return httpCode(b) || v.codeOrDash && len(b) == 1 && b[0] == '-'
}

// notCode is the error of a value at column i+1 that is no HTTP status.
func (v *nginxVar) notCode(i int) error {
	return fmt.Errorf("$%s at column %d is not an HTTP status (\"200\")", v.name, i+1)
}

// notSeconds is the error of a value at column i+1 that nginx did not
// write as a time.
func (v *nginxVar) notSeconds(i int) error {
	return fmt.Errorf("$%s at column %d is not a time in seconds (\"0.123\")", v.name, i+1)
}
