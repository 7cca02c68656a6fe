package ingest

import "time"

// How a text parser hands one column's value to the record. A column
// that alone feeds one field (the common case) is read by a setter
// chosen once per file, without Record.Set's walk of the bindings and
// switch on the field's kind; every other column, and every value the
// fast reading refuses, goes through Record.Set, which then decides
// exactly as before (the error of a bad value is its). The priorities
// of bindings matter only between columns that feed the same field, so
// a field with one column may be set with the exported setters.
const (
	putGeneric = iota // Record.Set
	// putFloat to putIntList are the numeric kinds (putter.numeric).
	putText
	putFloat     // a number (KindFloat)
	putFloatList // an nginx upstream list, summed
	putInt
	putIntList // an nginx upstream list, its last number
	putBool
	putTime // the clocks first, Record.Set for other forms
)

// putter sets the fields of one column.
type putter struct {
	bind Bindings
	kind uint8
	// Of a numeric column: its field; and of a duration, seconds per
	// unit the column is read in and the factor to the field's unit,
	// as duration computes them (setNumber).
	field      Field
	integer    bool // putInt or putIntList
	inS, scale float64
}

// newPutters returns the putters of columns with bindings binds.
func newPutters(binds []Bindings) []putter {
	var writers [NumFields]int
	for _, bs := range binds {
		for _, b := range bs {
			writers[b.Field]++
		}
	}
	out := make([]putter, len(binds))
	for i, bs := range binds {
		out[i] = putter{bind: bs, kind: putKind(bs, &writers)}
		if p := &out[i]; p.numeric() {
			b := bs[0]
			p.field, p.integer = b.Field, p.kind == putInt || p.kind == putIntList
			p.inS, p.scale = unitFactors(&fields[b.Field], b.Unit)
		}
	}
	return out
}

func putKind(bs Bindings, writers *[NumFields]int) uint8 {
	if len(bs) != 1 || writers[bs[0].Field] != 1 || bs[0].general() {
		return putGeneric
	}
	info := &fields[bs[0].Field]
	switch info.kind {
	case KindText, KindRequest:
		return putText
	case KindFloat:
		if info.list {
			return putFloatList
		}
		return putFloat
	case KindInt:
		if info.list {
			return putIntList
		}
		return putInt
	case KindBool:
		return putBool
	case KindTime:
		if bs[0].Field == FTime {
			return putTime
		}
	}
	return putGeneric
}

// set reads val into r as Record.Set(p.bind, val, loc) does; clock
// reads the common forms of times.
func (p *putter) set(r *Record, val []byte, loc *time.Location, clock *clocks) error {
	if isAbsent(val) {
		return nil
	}
	b := &p.bind[0]
	var v float64
	var ok bool
	switch p.kind {
	case putText:
		r.SetText(b.Field, val)
		return nil
	case putInt, putFloat:
		if end, v, ok := scanNumber(val, 0); ok && end == len(val) {
			return p.setNumber(r, v, val, loc)
		}
		if noNumber(val) {
			return nil
		}
		if v, ok = parseNumber(val); ok {
			return p.setNumber(r, v, val, loc)
		}
	case putIntList:
		if v, ok = lastListNumber(val); ok && isInt(v) {
			r.SetFloat(b.Field, v+0) // +0 turns -0 into 0
		} else {
			r.unreadable(b.Field, val)
		}
		return nil
	case putBool:
		if v, ok := parseBool(val); ok {
			r.SetFloat(b.Field, v)
		} else if noFlag(val) {
			r.noCall = true
		} else {
			r.unreadable(b.Field, val)
		}
		return nil
	case putFloatList:
		// Most lists are one number, often quoted ("0.019"): read as
		// the unquoted column's number is, without cutting a list.
		if end, v, ok := scanNumber(val, 0); ok && end == len(val) {
			return p.setNumber(r, v, val, loc)
		}
		if v, ok = sumList(val); ok {
			if v, fl := duration(&fields[b.Field], v, b.Unit); fl == fine {
				r.SetFloat(b.Field, v)
				return nil
			}
		}
	case putTime:
		if noNumber(val) {
			return nil // R's NA: no time, as null
		}
		if ns, ok := clock.read(val, loc); ok && checkTime(ns) == fine {
			r.SetTime(ns)
			return nil
		}
	}
	return r.Set(p.bind, val, loc)
}

// numeric reports whether the column is a number (or an upstream list,
// most often of one number), which its parser may read in the same pass
// that finds its end (scanNumber, setNumber).
func (p *putter) numeric() bool { return p.kind >= putFloat && p.kind <= putIntList }

// setNumber sets the number v, read from val by scanNumber, as set does;
// val is a list of that one number for the list kinds.
func (p *putter) setNumber(r *Record, v float64, val []byte, loc *time.Location) error {
	if p.setPlain(r, v) {
		return nil
	}
	return p.setNumberText(r, v, val, loc)
}

// setPlain sets the number v of a numeric column as setNumberText does,
// when it needs neither the value's text nor a check duration fails:
// small enough to be inlined where the parsers read a number, which
// most of a log's numbers take.
func (p *putter) setPlain(r *Record, v float64) bool {
	if p.integer {
		if !isInt(v) {
			return false // not an integer: setNumberText notes it
		}
	} else if !(v >= 0 && v*p.inS <= MaxDurationS) { // duration's checks (NaN fails them too)
		return false
	}
	r.SetFloat(p.field, v*p.scale+0) // +0 turns -0 into 0; an integer's scale is 1
	return true
}

// setNumberText is setNumber for every number.
func (p *putter) setNumberText(r *Record, v float64, val []byte, loc *time.Location) error {
	b := &p.bind[0]
	if p.kind == putFloatList {
		if v < 0 {
			return r.Set(p.bind, val, loc) // no number of the list is read
		}
		v += 0 // the sum of one number: -0 is 0
	}
	if p.kind == putInt || p.kind == putIntList {
		if isInt(v) {
			r.SetFloat(b.Field, v+0) // +0 turns -0 into 0
		} else {
			r.unreadable(b.Field, val)
		}
		return nil
	}
	if v, fl := duration(&fields[b.Field], v, b.Unit); fl == fine {
		r.SetFloat(b.Field, v)
		return nil
	}
	return r.Set(p.bind, val, loc)
}

// scanNumber reads the number that starts at s[i]: an optional sign,
// then at most 18 digits with at most one point among them, the form
// parseNumber reads without strconv. It returns the index of the first
// byte after the digits, and ok only when parseNumber would read
// s[i:end] as the same v; any other text is for parseNumber to read.
func scanNumber(s []byte, i int) (end int, v float64, ok bool) {
	j := i
	neg := false
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		neg = s[j] == '-'
		j++
	}
	start := j
	var mant uint64
	for ; j < len(s) && s[j]-'0' <= 9; j++ {
		mant = mant*10 + uint64(s[j]-'0')
	}
	n, frac := j-start, 0
	if j < len(s) && s[j] == '.' {
		j++
		f := j
		for ; j < len(s) && s[j]-'0' <= 9; j++ {
			mant = mant*10 + uint64(s[j]-'0')
		}
		frac = j - f
		n += frac
	}
	if n == 0 || n > 18 || mant > 1<<53 {
		return j, 0, false
	}
	v = float64(mant)
	if frac > 0 { // dividing by 1 would give v itself
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return j, v, true
}
