package ingest

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// The nginx parser as it was before its scanning and setting were made
// cheaper, kept as the oracle of FuzzNginxRef: every value through
// Record.Set, every literal through bytes.Index.

func refNginxParse(p *nginxParser, line []byte, r *Record) (trailing bool, err error) {
	p.scratch = p.scratch[:0]
	f := p.f
	if !bytes.HasPrefix(line, f.prefix) {
		return false, mismatch(line, 0, f.prefix)
	}
	i := len(f.prefix)
	for k := range f.vars {
		v := &f.vars[k]
		end, next, err := refMatch(v, line, i, f.lenient)
		if err != nil {
			return false, err
		}
		if v.seconds && !nginxSeconds(line[i:end]) {
			return false, fmt.Errorf("$%s at column %d is not a time in seconds (\"0.123\")", v.name, i+1)
		}
		if len(v.bind) > 0 {
			val := line[i:end]
			esc := bytes.IndexByte(val, '\\') >= 0
			if v.how != howPlain || esc {
				val = p.value(v, val, esc)
			}
			if err := r.Set(v.bind, val, p.loc); err != nil {
				return false, err
			}
		}
		i = next
	}
	if i != len(line) {
		if !f.lenient {
			return false, &nginxError{col: i + 1}
		}
		trailing = true
	}
	r.Finish()
	return trailing, nil
}

func refMatch(v *nginxVar, line []byte, i int, lenient bool) (end, next int, err error) {
	if v.joined {
		return i, i, nil
	}
	lit := v.next
	if len(lit) == 0 {
		if !lenient {
			return len(line), len(line), nil
		}
		lit = space
	}
	from := i
	if v.timeLocal && lit[0] == ' ' && i+21 <= len(line) && line[i+2] == '/' && line[i+20] == ' ' {
		from = i + 21
	}
	for {
		k := bytes.Index(line[from:], lit)
		if k < 0 {
			if len(v.next) == 0 {
				return len(line), len(line), nil
			}
			if from >= len(line) || endsWithPrefix(line[from:], lit) {
				return 0, 0, &nginxError{want: string(lit), col: len(line) + 1, end: true}
			}
			return 0, 0, &nginxError{want: string(lit), col: i + 1}
		}
		k += from
		if v.list && lit[0] == ' ' && k > i {
			if line[k-1] == ',' {
				from = k + 1
				continue
			}
			if k+2 < len(line) && line[k+1] == ':' && line[k+2] == ' ' {
				from = k + 3
				continue
			}
		}
		if len(v.next) == 0 {
			return k, k, nil
		}
		return k, k + len(lit), nil
	}
}

// sameRecord reports how a and b differ in what a consumer can read of
// them (the priorities of their fields aside), or "".
func sameRecord(a, b *Record) string {
	if a.set != b.set {
		return fmt.Sprintf("fields %b and %b", a.set, b.set)
	}
	for f := Field(0); f < NumFields; f++ {
		if !a.Has(f) {
			continue
		}
		switch f {
		case FTime:
			if a.TimeNS != b.TimeNS {
				return fmt.Sprintf("time %d and %d", a.TimeNS, b.TimeNS)
			}
			continue
		case FEndTime:
			if a.endNS != b.endNS {
				return fmt.Sprintf("end time %d and %d", a.endNS, b.endNS)
			}
			continue
		case FFirstTokenTime:
			if a.firstNS != b.firstNS {
				return fmt.Sprintf("first token time %d and %d", a.firstNS, b.firstNS)
			}
			continue
		}
		switch fields[f].kind {
		case KindText, KindRequest:
			if !bytes.Equal(a.text[f], b.text[f]) {
				return fmt.Sprintf("%s %q and %q", f, a.text[f], b.text[f])
			}
		default:
			if math.Float64bits(a.num[f]) != math.Float64bits(b.num[f]) {
				return fmt.Sprintf("%s %v and %v", f, a.num[f], b.num[f])
			}
		}
	}
	return ""
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// FuzzNginxRef: the parser reads every line as the reference does: the
// same error, or the same fields with the same values.
func FuzzNginxRef(f *testing.F) {
	sample := fileLines(f, sharedFile(f, "examples", "tokenhub-sample-nginx.log"), 500)
	for i := 0; i < len(sample); i += 50 {
		f.Add("tokenhub", sample[i])
		f.Add("tokenhub", strings.Replace(sample[i], "+0800", "-0130", 1))
		f.Add("tokenhub", strings.Replace(sample[i], "python", `py\x22thon`, 1))
	}
	for _, l := range fileLines(f, sharedFile(f, "real", "ingress-nginx-upstreaminfo.log"), 20) {
		f.Add("upstreaminfo", l)
	}
	f.Add(`$upstream_response_time $upstream_status`, `0.100, 0.004 200`)
	f.Add(`[$time_local] "$request"`, `[29/Nov/2026:10:00:00 +0800] "GET /\x22 HTTP/1.1"`)
	f.Add(`[$time_local] "$request"`, `[31/Feb/2099:23:59:60 -2359] "GET / HTTP/1.1"`)
	f.Add(`[$time_local] "$request"`, `[29/Nov/1999:10:00:00 +0800] "GET / HTTP/1.1"`)
	f.Add(`$time_local $upstream_addr : $x`, `29/Nov/2026:10:00:00 +0800 a : b : c`)
	f.Add(`$a\\x$request_time`, `a\\b\\x0.5`)
	f.Add(`$remote_addr rt=$request_time`, `1.2.3.4 rt=0.1 rt=0.2`)
	f.Add(`[%START_TIME%] %DURATION% "%REQ(X-FORWARDED-FOR)%"`, `[2016-04-15T20:17:00.310Z] 12 "1.2.3.4, 10.0.0.1"`)
	s, _ := NewSchema(nil)
	named := map[string]*logFormat{}
	for _, name := range []string{"tokenhub", "upstreaminfo", "combined", "main+request_time", "envoy", "apisix-ai"} {
		named[name], _ = compileLogFormat(name, s)
	}
	f.Fuzz(func(t *testing.T, format, line string) {
		lf := named[format]
		if lf == nil {
			var err error
			if lf, err = compileLogFormat(format, s); err != nil {
				return
			}
		}
		if lf.haproxy {
			// HAProxy's formats read what the reference does not (a
			// syslog header, an item not written with its separator,
			// derived times): TestHAProxyFormatGiven and
			// FuzzHAProxyFormat check them.
			return
		}
		for _, loc := range []*time.Location{time.UTC, time.FixedZone("+08", 8*3600)} {
			got := newNginxParserFor(lf, loc)
			ref := newNginxParserFor(lf, loc)
			var a, b Record
			ta, ea := got.parse([]byte(line), &a)
			tb, eb := refNginxParse(ref, []byte(line), &b)
			if errText(ea) != errText(eb) || ta != tb {
				t.Fatalf("%q in %q: error %v, trailing %v; reference %v, %v", line, format, ea, ta, eb, tb)
			}
			if ea == nil {
				if d := sameRecord(&a, &b); d != "" {
					t.Fatalf("%q in %q: %s", line, format, d)
				}
			}
		}
	})
}

func newNginxParserFor(f *logFormat, loc *time.Location) *nginxParser {
	p, err := newNginxParser(&parserConfig{nginx: f, loc: loc})
	if err != nil {
		panic(err)
	}
	return p
}
