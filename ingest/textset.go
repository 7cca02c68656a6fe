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
	putText
	putFloat     // a number (KindFloat)
	putFloatList // an nginx upstream list, summed
	putInt
	putIntList // an nginx upstream list, its last number
	putBool
	putTime // $time_local first, Record.Set for other forms
)

// putter sets the fields of one column.
type putter struct {
	bind Bindings
	kind uint8
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
	}
	return out
}

func putKind(bs Bindings, writers *[NumFields]int) uint8 {
	if len(bs) != 1 || writers[bs[0].Field] != 1 {
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
// reads $time_local, and may be nil.
func (p *putter) set(r *Record, val []byte, loc *time.Location, clock *nginxClock) error {
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
	case putInt, putIntList:
		if p.kind == putInt {
			v, ok = parseNumber(val)
		} else {
			v, ok = lastListNumber(val)
		}
		if ok && isInt(v) {
			r.SetFloat(b.Field, v+0) // +0 turns -0 into 0
		}
		return nil
	case putBool:
		if v, ok := parseBool(val); ok {
			r.SetFloat(b.Field, v)
		}
		return nil
	case putFloat, putFloatList:
		if p.kind == putFloat {
			v, ok = parseNumber(val)
		} else {
			v, ok = sumList(val)
		}
		if ok {
			if v, fl := duration(&fields[b.Field], v, b.Unit); fl == fine {
				r.SetFloat(b.Field, v)
				return nil
			}
		}
	case putTime:
		if clock != nil {
			if ns, ok := clock.parse(val); ok && checkTime(ns) == fine {
				r.SetTime(ns)
				return nil
			}
		}
	}
	return r.Set(p.bind, val, loc)
}
