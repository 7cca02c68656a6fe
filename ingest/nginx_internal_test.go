package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/internal/sharedtest"
)

func testParser(t testing.TB, logFormat string) *nginxParser {
	t.Helper()
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := compileLogFormat(logFormat, s)
	if err != nil {
		t.Fatalf("log format %q: %v", logFormat, err)
	}
	p, err := newNginxParser(&parserConfig{schema: s, loc: time.UTC, nginx: f})
	if err != nil {
		t.Fatalf("log format %q: %v", logFormat, err)
	}
	return p
}

// want is one expected field value: a number, or text when text != "".
type want struct {
	f    Field
	num  float64
	text string
}

func TestNginxParse(t *testing.T) {
	tests := []struct {
		name, format, line string
		want               []want
		absent             []Field
	}{
		{
			name:   "list value before a space literal",
			format: `$upstream_response_time $upstream_status`,
			line:   `0.100, 0.004 200`,
			want:   []want{{f: FUpstreamResponseTime, num: 0.104}, {f: FUpstreamStatus, num: 200}},
		},
		{
			name:   "lists with groups and absent items",
			format: `$upstream_addr $upstream_response_time $upstream_status $request_time`,
			line:   `10.0.0.1:80, 10.0.0.2:80 : 10.0.0.3:80 0.100, - : 0.050 502, 504 : 200 0.160`,
			want: []want{{f: FUpstreamAddr, text: "10.0.0.1:80, 10.0.0.2:80 : 10.0.0.3:80"},
				{f: FUpstreamResponseTime, num: 0.150}, {f: FUpstreamStatus, num: 200}, {f: FRequestTime, num: 0.160}},
		},
		{
			name:   "all absent",
			format: `$upstream_addr $upstream_response_time $upstream_status $request_time`,
			line:   `- - - 0.001`,
			want:   []want{{f: FRequestTime, num: 0.001}},
			absent: []Field{FUpstreamAddr, FUpstreamResponseTime, FUpstreamStatus},
		},
		{
			name:   "APISIX's upstream time: whole milliseconds from ai-proxy",
			format: `$apisix_upstream_response_time $status "$llm_time_to_first_token"`,
			line:   `498 200 "412"`,
			want:   []want{{f: FUpstreamResponseTime, num: 0.498}, {f: FStatus, num: 200}, {f: FTTFT, num: 412}},
		},
		{
			name:   "APISIX's upstream time: seconds copied from nginx",
			format: `$apisix_upstream_response_time $status`,
			line:   `0.003 200`,
			want:   []want{{f: FUpstreamResponseTime, num: 0.003}, {f: FStatus, num: 200}},
		},
		{
			name:   "APISIX's upstream time: a few milliseconds",
			format: `$apisix_upstream_response_time $request_time`,
			line:   `7 0.009`,
			want:   []want{{f: FUpstreamResponseTime, num: 0.007}, {f: FRequestTime, num: 0.009}},
		},
		{
			name:   "APISIX's upstream time: many milliseconds",
			format: `$apisix_upstream_response_time $request_time`,
			line:   `12345 12.346`,
			want:   []want{{f: FUpstreamResponseTime, num: 12.345}, {f: FRequestTime, num: 12.346}},
		},
		{
			name:   "time_local without brackets",
			format: `$time_local $status`,
			line:   `29/Nov/2026:10:00:01 +0800 429`,
			want:   []want{{f: FTime, num: 1795917601}, {f: FStatus, num: 429}},
		},
		{
			name:   "braced names and literal text",
			format: `s=${status}x${request_time}ms $msec`,
			line:   `s=504x60.002ms 1795917601.250`,
			want:   []want{{f: FStatus, num: 504}, {f: FRequestTime, num: 60.002}, {f: FTime, num: 1795917601.25}},
		},
		{
			name:   "escapes in a quoted value",
			format: `"$request" $remote_user "$http_user_agent"`,
			line:   `"GET /a\x22b\x5C HTTP/1.1" app-1 "curl \x22x\x22"`,
			want: []want{{f: FMethod, text: "GET"}, {f: FURI, text: `/a"b\`}, {f: FClient, text: "app-1"},
				{f: FRequest, text: `GET /a"b\ HTTP/1.1`}},
		},
		{
			name:   "custom variables the schema knows",
			format: `$remote_addr region=$region model=$model ttft=$first_token_ms rtt=$tcpinfo_rtt ssl=$ssl_handshake_time cr=$connection_requests`,
			line:   `10.1.2.3 region=ap-beijing model=deepseek-v3 ttft=612.5 rtt=1481 ssl=0.012 cr=7`,
			want: []want{{f: FClient, text: "10.1.2.3"}, {f: FRegion, text: "ap-beijing"}, {f: FModel, text: "deepseek-v3"},
				{f: FTTFT, num: 612.5}, {f: FTCPInfoRTT, num: 1481}, {f: FSSLHandshakeTime, num: 0.012},
				{f: FConnectionRequests, num: 7}},
		},
		{
			name:   "last variable runs to the end of the line",
			format: `$status $http_user_agent`,
			line:   `200 Mozilla/5.0 (X11; Linux)`,
			want:   []want{{f: FStatus, num: 200}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParser(t, tc.format)
			var r Record
			if err := p.Parse([]byte(tc.line), &r); err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			for _, w := range tc.want {
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
			for _, f := range tc.absent {
				if r.Has(f) {
					t.Errorf("%s is present, want absent", f)
				}
			}
		})
	}
}

func TestNginxBadLines(t *testing.T) {
	const combined = "combined"
	tests := []struct{ format, line, reason string }{
		{combined, `garbage`, `want " - " after column 1`},
		{combined, `1.2.3.4 - - 29/Nov/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1 "-" "-"`, `want " [" after column 11`},
		{combined, `1.2.3.4 - - [29/Nov/2026:10:00:00 +0800] "GET / HTTP/1.1`, `want "\" " after column 43`},
		// A format given as text is read strictly; the known formats
		// accept trailing fields (TestKnownFormatTrailing).
		{combinedFormat, `1.2.3.4 - - [29/Nov/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1 "-" "-" extra`, `text after the end of the log format at column 72`},
		{combined, `1.2.3.4 - - [29/Nov/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1 "-" `, `line ends at column 68, want "\" \""`}, // the trailing space is none of the line's
		{combined, `1.2.3.4 - - [31/Foo/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1 "-" "-"`, `time: cannot read "31/Foo/2026:10:00:00 +0800"`},
		{`$status rt=$request_time`, `200 rt=abc`, `request_time: cannot read "abc"`},
		{`$status rt=$request_time`, `200 rt=-1`, `request_time: cannot read "-1"`},
		{`[$status]`, `200]`, `want "[" at column 1`},
		{`[$status]`, `[200`, `want "]" after column 2`},
		{`[$status] $request_time`, `[200]`, `line ends at column 6, want "] "`},
	}
	for _, tc := range tests {
		p := testParser(t, tc.format)
		var r Record
		err := p.Parse([]byte(tc.line), &r)
		if err == nil || err.Error() != tc.reason {
			t.Errorf("%s: Parse(%q) = %v, want %q", tc.format, tc.line, err, tc.reason)
		}
	}
}

func TestCompileLogFormat(t *testing.T) {
	// $a$b: neither value is read (no schema binds them), so that they
	// need not be told apart.
	good := []string{"combined", " Upstreaminfo ", "main", "tokenhub", `$a`, `${a}-$b`, `[$time_local] $status`, `$a$b`}
	for _, s := range good {
		if err := CompileLogFormat(s); err != nil {
			t.Errorf("CompileLogFormat(%q): %v", s, err)
		}
	}
	bad := map[string]string{
		"":          "the log format is empty",
		"combind":   `"combind" has no $variable, gunicorn atom, HAProxy alias, Envoy operator, Apache directive or morgan token and is not a known format name (want apisix, apisix-ai, aspnetcore, aws-alb, aws-elb, bentoml, chi, combined, common, django, emissary, envoy, granian, haproxy-clf, hono, huawei-apig, huawei-elb, hypercorn, istio, koa, kuma, lighttpd, linkerd, llama-server, main, morgan-dev, morgan-short, morgan-tiny, quarkus, railway, ray-serve, reactor-netty, sanic, serilog, squid, timed_combined, tokenhub, traefik, upstream_time, upstreaminfo, upstreaminfo-0.2x, uvicorn, werkzeug)`,
		`x ${a`:     "${ at column 3 is not closed by }",
		`x ${a-b}`:  `bad variable name "a-b" at column 3`,
		`$status $`: "$ at column 9 is not followed by a variable name",
	}
	for s, want := range bad {
		if err := CompileLogFormat(s); err == nil || err.Error() != want {
			t.Errorf("CompileLogFormat(%q) = %v, want %q", s, err, want)
		}
	}
}

// TestAdjacentVariables: two variables with no text between them are
// refused when a value of theirs is read, with the names --map binds too;
// two whose values nobody reads are joined, and the format reads its
// lines: APISIX's default access_log_format, given with --log-format,
// whose "$upstream_scheme://$upstream_host$upstream_uri" nothing reads.
func TestAdjacentVariables(t *testing.T) {
	plain, _ := NewSchema(nil)
	mapped, err := NewSchema([]string{"request_time=upstream_uri:s"})
	if err != nil {
		t.Fatal(err)
	}
	const apisix = `$remote_addr - $remote_user [$time_local] $http_host "$request_line" $status $body_bytes_sent $request_time "$http_referer" "$http_user_agent" $upstream_addr $upstream_status $upstream_response_time "$upstream_scheme://$upstream_host$upstream_uri"`
	for _, c := range []struct {
		format string
		schema *Schema
		want   string
	}{
		{apisix, plain, ""},
		{`$request_time$status`, plain, "$request_time and $status are not separated by any text, so their values cannot be told apart"},
		{`$status $upstream_host$upstream_uri`, mapped, "$upstream_host and $upstream_uri are not separated by any text, so their values cannot be told apart"},
		{`$status $upstream_host$upstream_uri`, plain, ""},
	} {
		err := CheckLogFormat(c.format, c.schema)
		if got := fmt.Sprint(err); err == nil && c.want != "" || err != nil && got != c.want {
			t.Errorf("CheckLogFormat(%q) = %v, want %q", c.format, err, c.want)
		}
	}
	f, err := compileLogFormat(apisix, plain)
	if err != nil {
		t.Fatal(err)
	}
	line := `127.0.0.1 - - [19/Apr/2022:14:00:00 +0800] flask-demo.dev.apisix.net:9080 "GET /headers HTTP/1.1" 200 20 0.975 "-" "curl/7.64.0" 127.0.0.1:8102 200 0.974 "http://flask-demo.dev.apisix.net:9080/headers"`
	p := &nginxParser{f: f, loc: time.UTC}
	var r Record
	if _, err := p.parse([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	r.Finish()
	rt, _ := r.Float(FRequestTime)
	urt, _ := r.Float(FUpstreamResponseTime)
	status, _ := r.Int(FStatus)
	if rt != 0.975 || urt != 0.974 || status != 200 || string(r.Text(FURI)) != "/headers" || string(r.Text(FMethod)) != "GET" {
		t.Errorf("request_time %v, upstream %v, status %d, %s %s; want 0.975, 0.974, 200, GET /headers",
			rt, urt, status, r.Text(FMethod), r.Text(FURI))
	}
}

func TestGuessLogFormat(t *testing.T) {
	combined := `1.2.3.4 - - [29/Nov/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1 "-" "curl/8"`
	upstream := combined + ` 89 0.001 [web] [] 10.0.0.1:80, 10.0.0.2:80 59, 0 0.000, 0.001 502, 200 abc`
	mainLine := combined + ` "-"`
	tests := []struct{ head, want string }{
		{combined + "\n" + combined + "\n", "combined"},
		{combined, "combined"}, // one line without its newline
		{"garbage\n" + upstream + "\n" + upstream + "\n", "upstreaminfo"},
		{mainLine + "\n", "main"},
		{"hello world\nsecond line\n", ""},
		{"", ""},
	}
	s, _ := NewSchema(nil)
	for _, tc := range tests {
		if got := guessLogFormat([]byte(tc.head), s); got != tc.want {
			t.Errorf("guessLogFormat(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
	if knownFormatByName("tokenhub").format != gen.NginxLogFormat {
		t.Errorf("the tokenhub format differs from the generator's")
	}
}

// sharedFile returns a file of the shared sample folder beside the
// repository root; a missing one fails the test.
func sharedFile(t testing.TB, parts ...string) string { return sharedtest.File(t, parts...) }

func fileLines(t testing.TB, path string, max int) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < max {
		out = append(out, sc.Text())
	}
	return out
}

func FuzzNginx(f *testing.F) {
	sample := fileLines(f, sharedFile(f, "examples", "tokenhub-sample-nginx.log"), 500)
	real := fileLines(f, sharedFile(f, "real", "ingress-nginx-upstreaminfo.log"), 100)
	for i := 0; i < len(sample); i += 25 {
		f.Add("tokenhub", sample[i])
	}
	for _, l := range real {
		f.Add("upstreaminfo", l)
	}
	f.Add(`$upstream_response_time $upstream_status`, `0.100, 0.004 200`)
	f.Add(`[$time_local] "$request"`, `[29/Nov/2026:10:00:00 +0800] "GET /\x22 HTTP/1.1"`)
	f.Add(`$time_local $upstream_addr : $x`, `29/Nov/2026:10:00:00 +0800 a : b : c`)
	for _, name := range []string{"envoy-default.log", "istio-text.log", "apisix.log", "apisix-ai.log", "nginx-main-times.log"} {
		for _, l := range fileLines(f, "testdata/text/"+name, 3) {
			f.Add("combined", l)
		}
	}
	f.Add(`[%START_TIME%] %DURATION% "%REQ(X-FORWARDED-FOR)%"`, `[2016-04-15T20:17:00.310Z] 12 "1.2.3.4, 10.0.0.1"`)
	f.Add(hapDefaultFormat, hapManualLine)
	f.Add(`%h %l %u [%t] "%r" %s %b "%i{Referer}" "%i{User-Agent}" %D`,
		`10.1.1.1 - - [10/Oct/2026:13:55:36 -0700] "POST /v1/chat HTTP/1.1" 200 2326 "-" "x" 6210`)
	f.Add(`%ci %hr %hs %HP%HQ %ST %Ta`, `<134>1.2.3.4 {a b} /x?y 200 5`)
	for _, name := range []string{"reactor-netty.log", "reactor-netty-boot.log", "quarkus-console.log", "quarkus-combined.log", "bentoml.log", "granian.log", "django-runserver.log", "werkzeug.log", "hypercorn.log", "sanic-prod.log", "sanic-legacy.log", "ray-serve.log", "ray-serve-29.log", "ray-serve-driver.log", "ray-serve-client.log", "emissary.log", "kuma.log", "lighttpd.log", "lighttpd-timed.log", "squid.log", "linkerd-apache.log", "llama-server-sorted.log",
		"uvicorn-sglang.log", "uvicorn-fastchat.log", "uvicorn-openwebui.log", "uvicorn-openwebui-extra.log",
		"uvicorn-nim.log", "uvicorn-nim-1x.log", "uvicorn-xinference.log", "uvicorn-xinference-29.log", "uvicorn-xinference-210.log",
		"aspnetcore-console.log", "aspnetcore-singleline.log", "aspnetcore-singleline-clock.log", "aspnetcore-systemd.log",
		"koa.log", "koa-colour.log", "hono.log"} {
		for _, l := range fileLines(f, "testdata/text/"+name, 4) {
			f.Add("combined", l)
		}
	}
	s, _ := NewSchema(nil)
	var named []*nginxParser
	for _, name := range []string{"tokenhub", "upstreaminfo", "combined", "main+request_time", "envoy", "istio", "apisix", "apisix-ai"} {
		named = append(named, testParser(f, name))
	}
	// Every form of the formats that servers write through their loggers
	// (behind Spring Boot's pattern, after Ray's actor) and of Envoy's
	// kin, not only the first of each name.
	for _, lf := range compileKnown(s) {
		switch lf.source {
		case "reactor-netty", "quarkus", "bentoml", "granian", "django", "werkzeug", "hypercorn", "sanic", "ray-serve", "emissary", "kuma", "lighttpd", "squid", "uvicorn", "linkerd", "llama-server", "aspnetcore", "koa", "hono":
			named = append(named, &nginxParser{f: lf, loc: time.UTC})
		}
	}
	f.Fuzz(func(t *testing.T, format, line string) {
		parsers := append([]*nginxParser(nil), named...)
		if lf, err := compileLogFormat(format, s); err == nil {
			parsers = append(parsers, &nginxParser{f: lf, loc: time.UTC})
		} else if err.Error() == "" {
			t.Fatalf("log format %q: empty error", format)
		}
		for _, p := range parsers {
			var r Record
			err := p.Parse([]byte(line), &r)
			if err != nil {
				if err.Error() == "" {
					t.Fatalf("Parse(%q): empty error", line)
				}
				continue
			}
			// An accepted line follows the format: it starts with the
			// format's first literal (after a syslog header, for HAProxy's
			// formats), holds the others in order (but the separator
			// after an item HAProxy did not write), and its request_time
			// is a number.
			rest := line
			if p.f.haproxy {
				n, _ := hapHeader([]byte(line))
				rest = line[n:]
			}
			if !strings.HasPrefix(rest, string(p.f.prefix)) {
				t.Fatalf("Parse(%q) accepted a line without the prefix %q", line, p.f.prefix)
			}
			rest = rest[len(p.f.prefix):]
			for _, v := range p.f.vars {
				next := v.next
				if v.skipSep {
					next = next[1:]
				}
				k := strings.Index(rest, string(next))
				if k < 0 {
					t.Fatalf("Parse(%q) accepted a line without %q", line, next)
				}
				rest = rest[k+len(next):]
			}
			if v, ok := r.Float(FRequestTime); ok && (v < 0 || math.IsNaN(v) || math.IsInf(v, 0)) {
				t.Fatalf("Parse(%q): request_time %v", line, v)
			}
		}
	})
}

func BenchmarkNginx(b *testing.B) {
	reqs := gen.Generate(gen.Config{Seed: 3, N: 20000, Plants: gen.All})
	for i := range reqs {
		if i%7 == 3 && len(reqs[i].UpstreamTimes) == 1 {
			reqs[i].UpstreamTimes = []float64{0.003, reqs[i].UpstreamTimes[0]}
		}
	}
	var buf bytes.Buffer
	if _, err := gen.WriteNginx(&buf, reqs, gen.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	p := testParser(b, gen.NginxLogFormat)
	var r Record
	b.ReportAllocs()
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		for _, l := range lines {
			r.Reset()
			if err := p.Parse(l, &r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestMilliAsSeconds: a whole number of milliseconds of every length
// becomes the text of exactly a thousandth of it; other text is left.
func TestMilliAsSeconds(t *testing.T) {
	p := newNginxParserFor(&logFormat{}, time.UTC)
	for n := 1; n <= 18; n++ {
		for _, lead := range []string{"0", "1", "9"} {
			ms := lead + strings.Repeat("7", n-1)
			got := string(p.milliAsSeconds([]byte(ms)))
			want, ok := new(big.Rat).SetString(ms)
			if !ok {
				t.Fatal(ms)
			}
			want.Quo(want, big.NewRat(1000, 1))
			r, ok := new(big.Rat).SetString(got)
			if !ok || r.Cmp(want) != 0 || !strings.Contains(got, ".") {
				t.Errorf("milliAsSeconds(%q) = %q, want %s", ms, got, want.FloatString(3))
			}
		}
	}
	for _, s := range []string{"", "-", "0.003", "1.5", "12a", "-12", "1e3", "1234567890123456789"} {
		if got := string(p.milliAsSeconds([]byte(s))); got != s {
			t.Errorf("milliAsSeconds(%q) = %q, want it unchanged", s, got)
		}
	}
}

// BenchmarkCompileKnown: what every run that reads a text log pays to
// compile the known formats it picks from.
func BenchmarkCompileKnown(b *testing.B) {
	s, err := NewSchema(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(compileKnown(s)) != len(knownFormats) {
			b.Fatal("a known format was not compiled")
		}
	}
}

// TestPyMsecs: a time Python's logging wrote, its milliseconds a whole
// number after a comma (asctime's "%s,%03d") or a point (NIM's unpadded
// ".%(msecs)d"), is read as those milliseconds; other text is left.
func TestPyMsecs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2025-09-10 16:31:52.7", "2025-09-10 16:31:52.007"},
		{"2025-09-10 16:31:52.91", "2025-09-10 16:31:52.091"},
		{"2025-09-10 16:31:52.239", "2025-09-10 16:31:52.239"},
		{"2025-12-05 10:00:05,302", "2025-12-05 10:00:05.302"},
		{"2025-12-05 10:00:05,030", "2025-12-05 10:00:05.030"},
		{"2025-09-10 16:31:52.1234", "2025-09-10 16:31:52.1234"}, // no ms: left to the time readers
		{"2025-09-10 16:31:52", "2025-09-10 16:31:52"},
		{"2025-09-10 16:31:52.", "2025-09-10 16:31:52."},
		{"7", "7"},
		{"", ""},
	} {
		p := &nginxParser{}
		if got := string(p.pyMsecs([]byte(c.in))); got != c.want {
			t.Errorf("pyMsecs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
