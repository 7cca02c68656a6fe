package ingest

// LTSV (http://ltsv.org): one record per line, fields separated by tabs,
// each field "label:value". The alp / ISUCON convention names the labels
// time, host, forwardedfor, req, method, uri, status, size, referer, ua,
// reqtime and apptime (seconds), cache, runtime, vhost, protocol.

import (
	"bytes"
	"fmt"
	"time"
)

// ltsvOnly binds the LTSV labels whose name means something else in other
// sources: "host" is the client here, the Host header in nginx's $host and
// in JSON logs. The schema's names are looked up first, so --map wins.
var ltsvOnly = map[string]Bindings{
	"host": {{Field: FRemoteAddr, Prio: prioAlias}},
}

// ltsvParser reads LTSV lines. Values point into the line, or into a
// scratch buffer for values with nginx's \xHH escapes; the labels of the
// last line are kept with their bindings, so a file whose lines repeat
// their labels (they all do) looks each one up once, and a line whose
// labels are all those kept has its values set by the kept labels'
// setters (putter); a line with another label, through Record.Set.
// Nothing is allocated per line once warm.
type ltsvParser struct {
	holding // scratch: unescaped text the records point into
	keyBinds
	schema *Schema
	loc    *time.Location
	puts   []putter // of binds; nil after a change of labels
	vals   [][]byte // the current line's values, by position
	clock  clocks
}

func newLTSVParser(c *parserConfig) *ltsvParser {
	return &ltsvParser{schema: c.schema, loc: c.loc}
}

// ltsvError is a field that is not label:value.
type ltsvError struct {
	col int // 1-based column of the field
	msg string
}

func (e *ltsvError) Error() string { return fmt.Sprintf("column %d: %s", e.col, e.msg) }

// Parse reads one line into r. Empty fields (a tab at the end of the
// line) are skipped; a field without a label is an error. The labels
// are read first, then the values set, those before a bad field too, so
// that a bad value before it is the line's error, as when each field
// was set as it was read.
func (p *ltsvParser) Parse(line []byte, r *Record) error {
	p.newLine()
	vals := p.vals[:0]
	kept := p.puts != nil // every label so far is the kept one
	var bad error
	for i := 0; i <= len(line); {
		j := bytes.IndexByte(line[i:], '\t')
		if j < 0 {
			j = len(line)
		} else {
			j += i
		}
		field := line[i:j]
		if len(field) > 0 {
			n := len(vals)
			// The kept label and its colon (labels hold none), or the
			// field is cut at its first colon.
			k := -1
			if n < len(p.labels) {
				if l := p.labels[n]; len(field) > len(l) && field[len(l)] == ':' && string(field[:len(l)]) == string(l) {
					k = len(l)
				}
			}
			if k < 0 {
				if k = bytes.IndexByte(field, ':'); k <= 0 {
					bad = &ltsvError{col: i + 1, msg: "field is not label:value"}
					if k == 0 {
						bad = &ltsvError{col: i + 1, msg: "field has an empty label"}
					}
					break
				}
				kept = false
				p.puts = nil
				p.bindings(n, field[:k])
			}
			vals = append(vals, field[k+1:])
		}
		i = j + 1
	}
	p.vals = vals
	for n, val := range vals {
		b := p.binds[n]
		if len(b) == 0 {
			continue
		}
		val = p.value(b, val)
		var err error
		if kept {
			err = p.puts[n].set(r, val, p.loc, &p.clock)
		} else {
			err = r.Set(b, val, p.loc)
		}
		if err != nil {
			return err
		}
	}
	if p.puts == nil {
		p.puts = newPutters(p.binds)
	}
	if bad != nil {
		return bad
	}
	return r.Finish()
}

// bindings returns the bindings of the n-th label of the line.
func (p *ltsvParser) bindings(n int, label []byte) Bindings {
	if b, ok := p.kept(n, label); ok {
		return b
	}
	b := p.schema.Lookup(label)
	if only, ok := ltsvOnly[string(label)]; ok && !mapped(b) {
		b = only
	}
	p.keep(n, label, b)
	return b
}

// keyBinds are the names of the last line of a format of named values
// (LTSV's labels, logfmt's keys) by their place in it, with their
// bindings: a file whose lines repeat their names looks each one up once.
type keyBinds struct {
	labels [][]byte // owned copies
	binds  []Bindings
}

// kept returns the bindings of name when it is the one kept at place n.
func (k *keyBinds) kept(n int, name []byte) (Bindings, bool) {
	if n < len(k.labels) && bytes.Equal(k.labels[n], name) {
		return k.binds[n], true
	}
	return nil, false
}

// keep keeps name and its bindings b at place n (the next place at
// most).
func (k *keyBinds) keep(n int, name []byte, b Bindings) {
	if n < len(k.labels) {
		k.labels[n] = append(k.labels[n][:0], name...)
		k.binds[n] = b
	} else if n == len(k.labels) {
		k.labels = append(k.labels, append([]byte(nil), name...))
		k.binds = append(k.binds, b)
	}
}

// value returns the text the schema reads: nginx's \xHH escapes decoded
// (nginx writes most LTSV logs), and a time without the brackets of
// ltsv.org's "time:[28/Feb/2013:12:00:00 +0900]".
func (p *ltsvParser) value(b Bindings, val []byte) []byte {
	if bytes.IndexByte(val, '\\') >= 0 {
		from := len(p.scratch)
		p.scratch = appendUnescaped(p.scratch, val)
		val = p.scratch[from:len(p.scratch):len(p.scratch)]
	}
	if n := len(val); n >= 2 && val[0] == '[' && val[n-1] == ']' {
		for _, x := range b {
			if x.Field == FTime {
				return val[1 : n-1]
			}
		}
	}
	return val
}

// looksLTSV reports whether line is LTSV: at least two tab-separated
// fields, each "label:value" with a label of [A-Za-z0-9_.-] (empty fields
// aside).
func looksLTSV(line []byte) bool {
	if bytes.IndexByte(line, '\t') < 0 {
		return false
	}
	n := 0
	for _, f := range bytes.Split(line, []byte{'\t'}) {
		if len(f) == 0 {
			continue
		}
		k := bytes.IndexByte(f, ':')
		if k <= 0 {
			return false
		}
		for _, c := range f[:k] {
			if !(isVarChar(c) || c == '.' || c == '-') {
				return false
			}
		}
		n++
	}
	return n >= 2
}

// ltsvLabels returns the labels of line, at most max.
func ltsvLabels(line []byte, max int) []string {
	var out []string
	for _, f := range bytes.Split(line, []byte{'\t'}) {
		if k := bytes.IndexByte(f, ':'); k > 0 && len(out) < max {
			out = append(out, string(f[:k]))
		}
	}
	return out
}

// mapped reports whether bs holds a --map binding, which beats the
// names only one format gives a meaning (LTSV's, HAProxy's).
func mapped(bs Bindings) bool {
	for _, b := range bs {
		if b.Prio == prioMapped {
			return true
		}
	}
	return false
}
