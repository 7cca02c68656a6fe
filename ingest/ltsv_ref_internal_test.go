package ingest

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// refLTSVParse is the LTSV parser as it was before its values went
// through the labels' setters, kept as the oracle of FuzzLTSVRef: every
// value set through Record.Set as its field is read.
func refLTSVParse(p *ltsvParser, line []byte, r *Record) error {
	p.scratch = p.scratch[:0]
	n := 0
	for i := 0; i <= len(line); {
		j := bytes.IndexByte(line[i:], '\t')
		if j < 0 {
			j = len(line)
		} else {
			j += i
		}
		field := line[i:j]
		if len(field) > 0 {
			k := bytes.IndexByte(field, ':')
			switch {
			case k < 0:
				return &ltsvError{col: i + 1, msg: "field is not label:value"}
			case k == 0:
				return &ltsvError{col: i + 1, msg: "field has an empty label"}
			}
			if b := p.bindings(n, field[:k]); len(b) > 0 {
				if err := r.Set(b, p.value(b, field[k+1:]), p.loc); err != nil {
					return err
				}
			}
			n++
		}
		i = j + 1
	}
	r.Finish()
	return nil
}

// FuzzLTSVRef: lines read one after another (so that labels are kept,
// changed and kept again) give what the reference gives: the same error
// or the same fields with the same values.
func FuzzLTSVRef(f *testing.F) {
	bench := ltsvBenchLines(6)
	f.Add(string(bytes.Join(bench, []byte("\n"))))
	f.Add(string(bench[0]) + "\n" + strings.Replace(string(bench[1]), "host:", "remote_addr:", 1) + "\n" + string(bench[2]))
	f.Add("time:[28/Feb/2013:12:00:00 +0900]\treqtime:0.5\n" + "time:[28/Feb/2013:12:00:00 +0900]\treqtime:-1\n" + "time:2015-09-06T05:58:05+09:00\treqtime:0.5")
	f.Add("time:[28/Feb/2099:12:00:00 +0900]\treqtime:x\tstatus:200\n" + "time:[28/Feb/2013:12:00:00 +0900]\treqtime:0.1\t:b")
	f.Add("request_time:1\tduration:2\nrequest_time:1\tduration:2\nduration:3\trequest_time:4\nrequest_time:5")
	f.Add("uri:/q?s=\\x22x\\x22\tstatus:200\nuri:/q\tstatus:20\\x30")
	var schemas []*Schema
	for _, maps := range [][]string{nil, {"client=app", "ttft=first_byte:s"}} {
		s, err := NewSchema(maps)
		if err != nil {
			f.Fatal(err)
		}
		schemas = append(schemas, s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range schemas {
			c := &parserConfig{schema: s, loc: time.UTC}
			got, ref := newLTSVParser(c), newLTSVParser(c)
			for _, line := range strings.Split(text, "\n") {
				var a, b Record
				ea := got.Parse([]byte(line), &a)
				eb := refLTSVParse(ref, []byte(line), &b)
				if errText(ea) != errText(eb) {
					t.Fatalf("%q: error %v; reference %v", line, ea, eb)
				}
				if ea == nil {
					if d := sameRecord(&a, &b); d != "" {
						t.Fatalf("%q: %s", line, d)
					}
				}
			}
		}
	})
}
