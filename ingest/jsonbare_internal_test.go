package ingest

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

// TestQuoteBare: nginx's unquoted variables in a JSON log_format are
// quoted as the strings they are; JSON numbers and literals are kept, and
// a line whose values' ends cannot be told is left bad.
func TestQuoteBare(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"s":502,"urt":0.003, 0.942,"ua":"10.1.0.5:8000, 10.1.0.6:8000"}`, `{"s":502,"urt":"0.003, 0.942","ua":"10.1.0.5:8000, 10.1.0.6:8000"}`},
		{`{"s":504,"urt":59.998 : 0.002,"a":1}`, `{"s":504,"urt":"59.998 : 0.002","a":1}`},
		{`{"s":499,"urt":-,"ua":"-"}`, `{"s":499,"urt":"-","ua":"-"}`},
		{`{"s":499,"urt":-}`, `{"s":499,"urt":"-"}`},
		{`{"s":200,"urt":,"x":true}`, `{"s":200,"urt":"","x":true}`},
		{`{"a":{"urt":-},"b":null}`, `{"a":{"urt":"-"},"b":null}`},
		{`{"k":"a:b","urt":1.5 , 2,"q":"x\"y:z"}`, `{"k":"a:b","urt":"1.5 , 2","q":"x\"y:z"}`},
		{`{"ua":10.1.0.5:8000, unix:/run/a.sock : backend.svc:80}`, `{"ua":"10.1.0.5:8000, unix:/run/a.sock : backend.svc:80"}`},
		// No bare value, or no end to one: left as it is.
		{`{"a":1,"b":"x"}`, ""},
		{`{"a":1,"b":-`, ""},
		{`{"a":- "b":1}`, ""},
		{`{"a":"open`, ""},
		// Text no nginx variable of an upstream holds: a damaged line.
		{`{"a":tru}`, ""},
		{`{"a":1,}`, ""},
		{`{"a":12abc,"b":1}`, ""},
		{`{"a":a\b}`, ""},
	} {
		got, ok := quoteBare(nil, []byte(c.in))
		if ok != (c.want != "") || ok && string(got) != c.want {
			t.Errorf("quoteBare(%s) = %s, %v; want %q", c.in, got, ok, c.want)
		}
		if ok && !json.Valid(got) {
			t.Errorf("quoteBare(%s) = %s, no JSON", c.in, got)
		}
	}
}

// TestBareValuesRead: lines of a JSON log_format with unquoted upstream
// variables are read, their lists summed as nginx text's are, beside
// lines that are JSON; a line still no JSON is a bad line.
func TestBareValuesRead(t *testing.T) {
	p := newJSONParser(mustSchema(t), time.UTC)
	for _, c := range []struct {
		line    string
		status  int64
		urt     float64 // s; 0: none
		wantErr bool
	}{
		{`{"time":"2026-12-05T10:00:29+08:00","status":200,"request_time":1.2,"upstream_response_time":1.199}`, 200, 1.199, false},
		{`{"time":"2026-12-05T10:00:29+08:00","status":502,"request_time":0.947,"upstream_response_time":0.003, 0.942,"upstream_addr":"a, b"}`, 502, 0.945, false},
		{`{"time":"2026-12-05T10:00:29+08:00","status":504,"request_time":60.003,"upstream_response_time":59.998 : 0.002}`, 504, 60, false},
		{`{"time":"2026-12-05T10:00:29+08:00","status":499,"request_time":0.591,"upstream_response_time":-,"upstream_addr":"-"}`, 499, 0, false},
		{`{"time":"2026-12-05T10:00:29+08:00","status":499,"request_time":0.591,"upstream_response_time":- "upstream_addr":"-"}`, 0, 0, true},
	} {
		var r Record
		err := p.Parse([]byte(c.line), &r)
		if (err != nil) != c.wantErr {
			t.Errorf("Parse(%s): %v, want error %v", c.line, err, c.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if s, _ := r.Int(FStatus); s != c.status {
			t.Errorf("%s: status %d, want %d", c.line, s, c.status)
		}
		urt, ok := r.Float(FUpstreamResponseTime)
		if ok != (c.urt != 0) || ok && math.Abs(urt-c.urt) > 1e-9 {
			t.Errorf("%s: upstream_response_time %v (%v), want %v", c.line, urt, ok, c.urt)
		}
	}
}

// FuzzQuoteBare: quoting never fails on any line; what it gives, when
// it gives anything, is longer than the line (a quote pair at least per
// value quoted) and has no bare value left to quote.
func FuzzQuoteBare(f *testing.F) {
	for _, s := range []string{`{"a":-,"b":1}`, `{"a":0.1, 0.2}`, `{"a":,"b":{"c":x}}`, `{"a":"\"x","b":y}`, `{`, `:`, `{"a":\}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, ok := quoteBare(nil, []byte(line))
		if !ok {
			return
		}
		if len(got) < len(line)+2 {
			t.Fatalf("quoteBare(%q) = %q: nothing quoted", line, got)
		}
		if again, ok := quoteBare(nil, got); ok {
			t.Fatalf("quoteBare(%q) = %q, which quotes again to %q", line, got, again)
		}
	})
}
