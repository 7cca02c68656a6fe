package ingest

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

func testLTSV(t testing.TB, maps ...string) *ltsvParser {
	t.Helper()
	s, err := NewSchema(maps)
	if err != nil {
		t.Fatal(err)
	}
	return newLTSVParser(&parserConfig{schema: s, loc: time.UTC})
}

func TestLTSVParse(t *testing.T) {
	tests := []struct {
		name, line string
		maps       []string
		want       []want
		absent     []Field
	}{
		{
			name: "alp",
			line: "time:2015-09-06T05:58:05+09:00\tmethod:POST\turi:/foo/bar?token=xxx&uuid=1234\tstatus:200\tsize:12\tapptime:0.057",
			want: []want{{f: FTime, num: 1441486685}, {f: FMethod, text: "POST"}, {f: FURI, text: "/foo/bar?token=xxx&uuid=1234"},
				{f: FStatus, num: 200}, {f: FUpstreamResponseTime, num: 0.057}},
			absent: []Field{FRequestTime, FClient},
		},
		{
			name: "ltsv.org labels, bracketed time, req split",
			line: "time:[28/Feb/2013:12:00:00 +0900]\thost:192.168.0.1\tforwardedfor:-\treq:GET /list HTTP/1.1\tstatus:200\tsize:5316\treferer:-\tua:Mozilla/5.0\treqtime:0.030\tapptime:-\tvhost:example.com",
			want: []want{{f: FTime, num: 1362020400}, {f: FRemoteAddr, text: "192.168.0.1"}, {f: FClient, text: "192.168.0.1"},
				{f: FMethod, text: "GET"}, {f: FURI, text: "/list"}, {f: FStatus, num: 200}, {f: FRequestTime, num: 0.030}},
			absent: []Field{FUpstreamResponseTime},
		},
		{
			name: "empty fields and a colon in the value",
			line: "\tstatus:404\t\turi:/a:b\t",
			want: []want{{f: FStatus, num: 404}, {f: FURI, text: "/a:b"}},
		},
		{
			name: "nginx escapes",
			line: "uri:/q?s=\\x22x\\x22\tua:a\\x5Cb\tstatus:200",
			want: []want{{f: FURI, text: `/q?s="x"`}, {f: FStatus, num: 200}},
		},
		{
			name: "canonical and schema names, any case",
			line: "Request_Time:1.5\tupstream_response_time:0.100, 0.004\tmodel:deepseek-v3\tSTATUS:200",
			want: []want{{f: FRequestTime, num: 1.5}, {f: FUpstreamResponseTime, num: 0.104}, {f: FModel, text: "deepseek-v3"}, {f: FStatus, num: 200}},
		},
		{
			name: "--map beats the LTSV-only host",
			line: "host:10.0.0.1\tapp:key-7\tstatus:200",
			maps: []string{"client=app"},
			want: []want{{f: FClient, text: "key-7"}, {f: FRemoteAddr, text: "10.0.0.1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testLTSV(t, tc.maps...)
			var r Record
			if err := p.Parse([]byte(tc.line), &r); err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			checkRecord(t, &r, tc.want, tc.absent)
		})
	}
}

// checkRecord compares r with the expected values and absent fields.
func checkRecord(t *testing.T, r *Record, ws []want, absent []Field) {
	t.Helper()
	for _, w := range ws {
		switch {
		case w.f == FTime:
			if got := float64(r.TimeNS) / 1e9; !r.Has(FTime) || math.Abs(got-w.num) > 1e-6 {
				t.Errorf("time = %v, want %v", got, w.num)
			}
		case w.text != "":
			if got := string(r.Text(w.f)); got != w.text {
				t.Errorf("%s = %q, want %q", w.f, got, w.text)
			}
		default:
			if got, ok := r.Float(w.f); !ok || math.Abs(got-w.num) > 1e-9 {
				t.Errorf("%s = %v (%v), want %v", w.f, got, ok, w.num)
			}
		}
	}
	for _, f := range absent {
		if r.Has(f) {
			t.Errorf("%s is present, want absent", f)
		}
	}
}

func TestLTSVBadLines(t *testing.T) {
	tests := []struct{ line, reason string }{
		{"status:200\tnot a field", "column 12: field is not label:value"},
		{":200\tstatus:200", "column 1: field has an empty label"},
		{"status:200\treqtime:abc", `request_time: cannot read "abc"`},
		{"time:yesterday\tstatus:200", `time: cannot read "yesterday"`},
	}
	p := testLTSV(t)
	for _, tc := range tests {
		var r Record
		if err := p.Parse([]byte(tc.line), &r); err == nil || err.Error() != tc.reason {
			t.Errorf("Parse(%q) = %v, want %q", tc.line, err, tc.reason)
		}
	}
}

// Lines whose labels change order or number are read by position without
// mixing up the cached bindings.
func TestLTSVLabelsChange(t *testing.T) {
	p := testLTSV(t)
	lines := []string{"status:200\treqtime:0.5", "reqtime:0.25\tstatus:201", "status:202", "a:1\tb:2\tstatus:203\treqtime:1"}
	wantRT := []float64{0.5, 0.25, -1, 1}
	for i, l := range lines {
		var r Record
		if err := p.Parse([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		st, _ := r.Int(FStatus)
		rt, ok := r.Float(FRequestTime)
		if st != int64(200+i) || ok != (wantRT[i] >= 0) || ok && rt != wantRT[i] {
			t.Errorf("line %q: status %d, request_time %v (%v)", l, st, rt, ok)
		}
	}
}

func TestSniffLTSV(t *testing.T) {
	tests := []struct {
		head string
		want Format
	}{
		{"time:2015-09-06T05:58:05+09:00\tmethod:POST\tstatus:200\n", LTSV},
		{"host:1.2.3.4\treq:GET / HTTP/1.1\t\n", LTSV},
		{"a.b-c_d:1\tx:\n", LTSV},
		{"status\tmethod\turi\n200\tGET\t/\n", TSV},          // a TSV header
		{"time:1\tstatus 200\tx:y\n", TSV},                   // a field without a label
		{"status:200\n", Nginx},                              // one field is not enough
		{"[a] [29/Nov/2026:10:00:00 +0800] [x]\tk:v\n", CLB}, // CLB first
		{`{"status":200,"a":"x:y"}` + "\n", JSONL},           // JSON first
		{"ti me:1\tstatus:200\tx:y\n", TSV},                  // a space in a label
		{"10.0.0.1 - - [29/Nov/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"\n", Nginx},
	}
	for _, tc := range tests {
		if got := sniff([]byte(tc.head), nil); got != tc.want {
			t.Errorf("sniff(%q) = %s, want %s", tc.head, got, tc.want)
		}
	}
	if byExtension("x/access.ltsv") != LTSV {
		t.Errorf("the .ltsv extension is not LTSV")
	}
	if f, err := ParseFormat("LTSV"); err != nil || f != LTSV {
		t.Errorf("ParseFormat(LTSV) = %v, %v", f, err)
	}
}

func FuzzLTSV(f *testing.F) {
	seedLines(f, "testdata/text/access.ltsv", sharedFile(f, "real", "alp-ltsv", "access.log"))
	for _, s := range []string{"", "\t", ":", "a:", ":b", "a:b\t\t:c", "time:[\tx:]", "uri:\\x", "uri:\\x2", "reqtime:1e308\tstatus:-1"} {
		f.Add([]byte(s))
	}
	p := testLTSV(f, "client=app", "ttft=first_byte:s")
	f.Fuzz(func(t *testing.T, line []byte) {
		var r Record
		err := p.Parse(line, &r)
		if err != nil {
			if err.Error() == "" || strings.Contains(err.Error(), "\n") && !bytes.Contains(line, []byte("\n")) {
				t.Fatalf("unhelpful error %q", err)
			}
			return
		}
		if v, ok := r.Float(FRequestTime); ok && (v < 0 || math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("request_time %v from %q", v, line)
		}
		// A value read is text of the line, or its unescaping.
		if m := r.Text(FMethod); m != nil && !bytes.Contains(line, m) && !bytes.Contains(line, []byte("\\x")) {
			t.Fatalf("method %q is not in %q", m, line)
		}
	})
}

// ltsvBenchLines are LTSV lines in the alp convention with the labels
// nginx users add, varied so the values differ.
func ltsvBenchLines(n int) [][]byte {
	out := make([][]byte, 0, n)
	for i := 0; i < n; i++ {
		var buf bytes.Buffer
		buf.WriteString("time:[28/Feb/2013:12:00:00 +0900]\thost:192.168.0.")
		buf.WriteString(strings.Repeat("1", 1+i%3))
		buf.WriteString("\tforwardedfor:-\treq:POST /v1/chat/completions HTTP/1.1\tstatus:200\tsize:5316\treferer:-\tua:OpenAI/Python 1.30.1\treqtime:")
		buf.WriteString([]string{"0.030", "1.204", "12.500"}[i%3])
		buf.WriteString("\tapptime:0.029, 0.001\tcache:-\truntime:-\tvhost:api.example.com\tmodel:deepseek-v3\tq:\\x22x\\x22")
		out = append(out, buf.Bytes())
	}
	return out
}

func BenchmarkLTSV(b *testing.B) {
	lines := ltsvBenchLines(1000)
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	p := testLTSV(b)
	var r Record
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			r.Reset()
			if err := p.Parse(l, &r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// Once warm, the parser allocates nothing per line.
func TestLTSVNoAllocs(t *testing.T) {
	lines := ltsvBenchLines(30)
	p := testLTSV(t)
	var r Record
	parse := func() {
		for _, l := range lines {
			r.Reset()
			if err := p.Parse(l, &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	parse()
	if n := testing.AllocsPerRun(20, parse); n != 0 {
		t.Errorf("%v allocations per run of %d lines, want 0", n, len(lines))
	}
}
