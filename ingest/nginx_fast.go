package ingest

import (
	"fmt"
	"time"
)

// prepare fills in how each variable of f is found and set: the finder
// of its following literal, its setter, and whether it may be read as a
// number in the pass that finds its end. The numbers fused so are those
// whose literal starts with a byte no number holds, so that the first
// byte after the digits is the first place the literal can be; a list
// followed by a space is left to match, which skips the spaces inside
// the list.
func (f *logFormat) prepare() {
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
		v.fuse = len(v.next) > 0 && !v.joined && !v.timeLocal && v.how == howPlain &&
			v.put.numeric() && !inNumber(v.next[0]) && !(v.list && v.next[0] == ' ')
	}
}

func inNumber(c byte) bool { return c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-' }

// number reads the value of a fused variable at line[i:] when it is a
// number followed by the variable's literal, and returns the index after
// the literal; ok false leaves the value to match.
func (v *nginxVar) number(line []byte, i int, r *Record, loc *time.Location) (next int, ok bool, err error) {
	end, num, ok := scanNumber(line, i)
	if !ok || !v.find.at(line, end) {
		return 0, false, nil
	}
	if v.seconds && !nginxSeconds(line[i:end]) {
		return 0, true, v.notSeconds(i)
	}
	return end + len(v.next), true, v.put.setNumber(r, num, line[i:end], loc)
}

// notSeconds is the error of a value at column i+1 that nginx did not
// write as a time.
func (v *nginxVar) notSeconds(i int) error {
	return fmt.Errorf("$%s at column %d is not a time in seconds (\"0.123\")", v.name, i+1)
}
