package ingest

import (
	"strings"
	"testing"
	"time"
)

// hapDefaultFormat is HAProxy's default HTTP log format (option httplog)
// as a log-format, as its source defines it (default_http_log_format).
const hapDefaultFormat = `%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r`

// hapCustomFormat is the format of testdata/text/haproxy-custom.log: a
// shorter line with the unique id at its end, as users write them.
const hapCustomFormat = `%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %tsc %hr %{+Q}r %ID`

// at is the time of "06/Feb/2009:12:14:14.655" and the like, in seconds,
// in UTC (testParser's zone).
func at(year int, month time.Month, day, h, m, s, msec int) float64 {
	return float64(time.Date(year, month, day, h, m, s, msec*1e6, time.UTC).UnixNano()) / 1e9
}

// An HAProxy log-format given with --log-format: each alias means what
// HAProxy's manual (8.2.6, 8.4) says; the values below are worked out
// from the lines by hand, the timers in ms.
func TestHAProxyFormatGiven(t *testing.T) {
	manual := at(2009, time.February, 6, 12, 14, 14, 655)
	// The manual's example line (8.2.3): TR 10, Tw 0, Tc 30, Tr 69, Ta 109.
	const manualLine = `10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"`
	manualWant := []want{{f: FTime, num: manual}, {f: FRemoteAddr, text: "10.0.1.2"}, {f: FUpstreamAddr, text: "static/srv1"},
		{f: FRequestTime, num: 0.109}, {f: FUpstreamResponseTime, num: 0.099}, {f: FUpstreamConnectTime, num: 0.030},
		{f: FUpstreamHeaderTime, num: 0.069}, {f: FStatus, num: 200}, {f: FMethod, text: "GET"}, {f: FURI, text: "/index.html"}}
	tests := []struct {
		name, format, line string
		want               []want
		absent             []Field
	}{
		{name: "the default format, the manual's line", format: hapDefaultFormat, line: manualLine, want: manualWant},
		{name: "behind rsyslog's header", format: hapDefaultFormat,
			line: "Feb  6 12:14:14 localhost haproxy[14389]: " + manualLine, want: manualWant},
		{name: "behind HAProxy's local header (no host)", format: hapDefaultFormat,
			line: "<134>Feb  6 12:14:14 haproxy[14389]: " + manualLine, want: manualWant},
		{name: "behind an RFC 5424 header", format: hapDefaultFormat,
			line: "<134>1 2009-02-06T12:14:14.700Z lb1 haproxy 14389 - - " + manualLine, want: manualWant},
		{name: "behind the short format's priority", format: hapDefaultFormat, line: "<134>" + manualLine, want: manualWant},
		{name: "behind rsyslog's RFC 3339 file format", format: hapDefaultFormat,
			line: "2009-02-06T12:14:14.700+00:00 lb1 haproxy[14389]: " + manualLine, want: manualWant},
		{name: "behind the iso format's time", format: hapDefaultFormat,
			line: "2009-02-06T12:14:14.700+00:00 " + manualLine, want: manualWant},
		{name: "no captures configured: %hr and %hs and their separators not written", format: hapDefaultFormat,
			line: strings.Replace(manualLine, "{1wt.eu} {} ", "", 1), want: manualWant},
		{name: "request captures only", format: hapDefaultFormat,
			line: strings.Replace(manualLine, "{1wt.eu} {} ", `{Mozilla/5.0 (X11; "Linux")|1wt.eu} `, 1), want: manualWant},
		{name: "the configuration's escaped spaces", format: strings.ReplaceAll(hapDefaultFormat, " ", `\ `), line: manualLine, want: manualWant},
		{name: "the configuration's spaces merged", format: strings.ReplaceAll(hapDefaultFormat, " ", "   "), line: manualLine, want: manualWant},
		{name: "a step never reached (-1) and no server", format: hapDefaultFormat,
			line:   `66.132.224.85:16860 [06/Feb/2009:12:14:14.655] main main/<NOSRV> -1/-1/-1/-1/0 400 0 - - PR-- 3/1/0/0/0 0/0 "<BADREQ>"`,
			want:   []want{{f: FTime, num: manual}, {f: FRemoteAddr, text: "66.132.224.85"}, {f: FRequestTime, num: 0}, {f: FStatus, num: 400}},
			absent: []Field{FUpstreamAddr, FUpstreamResponseTime, FUpstreamConnectTime, FUpstreamHeaderTime, FRequest, FMethod, FURI}},
		{name: "no response headers, no status", format: hapDefaultFormat,
			line:   strings.Replace(manualLine, "10/0/30/69/109 200", "2/5/1/-1/30001 -1", 1),
			want:   []want{{f: FRequestTime, num: 30.001}, {f: FUpstreamResponseTime, num: 29.994}, {f: FUpstreamConnectTime, num: 0.001}},
			absent: []Field{FUpstreamHeaderTime, FStatus}},
		{name: "option logasap: Ta taken before the end", format: hapDefaultFormat,
			line: strings.Replace(manualLine, "10/0/30/69/109 200 2750", "10/0/30/69/+109 200 +2750", 1),
			want: []want{{f: FUpstreamHeaderTime, num: 0.069}, {f: FStatus, num: 200}}, absent: []Field{FRequestTime, FUpstreamResponseTime}},
		{name: "before 1.9: Tq and Tt, and %t", format: `%ci:%cp [%t] %ft %b/%s %Tq/%Tw/%Tc/%Tr/%Tt %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r`,
			line: manualLine, want: manualWant},
		{name: "%Ta alone", format: `%Ta`, line: `1500`, want: []want{{f: FRequestTime, num: 1.5}},
			absent: []Field{FUpstreamResponseTime, FTime}},
		{name: "%Ta over %Tt; Tt's Th and Ti not the server's", format: `%HM %HU %ST %Tt %Ta %Th %Ti %TR %Tw %Tc %Tr`,
			line: `POST /v1/chat/completions?stream=true 200 9000 2500 4000 2500 40 10 3 2300`,
			want: []want{{f: FMethod, text: "POST"}, {f: FURI, text: "/v1/chat/completions?stream=true"}, {f: FStatus, num: 200},
				{f: FRequestTime, num: 2.5}, {f: FUpstreamResponseTime, num: 2.45}, {f: FUpstreamConnectTime, num: 0.003},
				{f: FUpstreamHeaderTime, num: 2.3}}},
		{name: "JSON-ish, %Ts.%ms the time", format: `{"time":%Ts.%ms,"client":"%ci","req":"%HM %HP%HQ","status":%ST,"ta":%Ta,"tr":%TR,"tw":%Tw,"id":"%ID"}`,
			line: `{"time":1795917600.036,"client":"203.0.113.7","req":"POST /v1/chat/completions?stream=true","status":429,"ta":1234,"tr":3,"tw":1,"id":"abc"}`,
			want: []want{{f: FTime, num: 1795917600.036}, {f: FRemoteAddr, text: "203.0.113.7"}, {f: FMethod, text: "POST"},
				{f: FURI, text: "/v1/chat/completions?stream=true"}, {f: FStatus, num: 429}, {f: FRequestTime, num: 1.234},
				{f: FUpstreamResponseTime, num: 1.230}}},
		{name: "a query HAProxy does not write, and its separator", format: `%ci %HP %HQ %ST %Ta`, line: `10.0.0.1 /v1/models 200 12`,
			want: []want{{f: FURI, text: "/v1/models"}, {f: FStatus, num: 200}, {f: FRequestTime, num: 0.012}}},
		{name: "an IPv6 client, written without brackets", format: `%ci:%cp [%tr] %ST %Ta`, line: `2001:db8::7:40000 [06/Feb/2009:12:14:14.655] 200 109`,
			want: []want{{f: FTime, num: manual}, {f: FRemoteAddr, text: "2001:db8::7"}, {f: FRequestTime, num: 0.109}}},
		{name: "%o's quotes, %{-Q} and a sample expression", format: `%{+Q}o %{-Q}ci [%trg] %HM %HU %ST %Ta %b %s %[capture.req.hdr(0)] %[req.hdr(host),lower] %[var(txn.model)]`,
			line: `10.0.1.2 [06/Feb/2009:12:14:14 +0000] "GET" "/index.html" 200 109 "static" "srv1" "openai-python/1.30.1" "api.example.com" "qwen-max"`,
			want: []want{{f: FTime, num: at(2009, time.February, 6, 12, 14, 14, 0)}, {f: FRemoteAddr, text: "10.0.1.2"},
				{f: FMethod, text: "GET"}, {f: FURI, text: "/index.html"}, {f: FStatus, num: 200}, {f: FRequestTime, num: 0.109},
				{f: FUpstreamAddr, text: "srv1"}, {f: FHost, text: "api.example.com"}, {f: FModel, text: "qwen-max"}}},
		{name: "%T with its zone, before a space", format: `%T %ci %ST %Ta`, line: `06/Feb/2009:04:14:14 -0800 10.0.1.2 200 109`,
			want: []want{{f: FTime, num: at(2009, time.February, 6, 12, 14, 14, 0)}, {f: FRequestTime, num: 0.109}}},
		{name: "no time of its own: the RFC 5424 header's", format: `%ci %HM %HU %ST %Ta`,
			line: `<134>1 2026-11-29T10:00:04.010Z lb1 haproxy 901 - - 10.0.1.2 POST /v1/chat/completions 200 812`,
			want: []want{{f: FTime, num: at(2026, time.November, 29, 10, 0, 4, 10)}, {f: FRequestTime, num: 0.812}}},
		{name: "hexadecimal: not read, nor quoted", format: `%{+Q}o %{+X}ci:%cp %{+X}Ts.%ms %ST %Ta`, line: `0A000102:33317 4990C4C6.655 200 109`,
			want: []want{{f: FStatus, num: 200}}, absent: []Field{FRemoteAddr, FTime}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParser(t, tc.format)
			if p.f.source != "haproxy" {
				t.Fatalf("source %q, want haproxy", p.f.source)
			}
			var r Record
			if err := p.Parse([]byte(tc.line), &r); err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			checkRecord(t, &r, tc.want, tc.absent)
		})
	}
}

// TestHAProxyFormatFixture reads testdata/text/haproxy-custom.log through
// the pipeline with its log-format: each line's values, worked out from
// the line by hand (--tz UTC).
func TestHAProxyFormatFixture(t *testing.T) {
	type line struct {
		ok                bool
		time              float64
		addr, upstream    string
		rt, urt, uct, uht float64 // ms; -1 absent
		status            float64 // -1 absent
		method            string
	}
	wants := []line{
		{ok: false}, // "Proxy llm-in started.": no request
		{true, at(2026, time.November, 29, 10, 0, 1, 100), "10.0.1.2", "vllm/gpu-1", 6210, 6207, 1, 412, 200, "POST"},
		{true, at(2026, time.November, 29, 10, 0, 2, 250), "10.0.1.3", "vllm/gpu-2", 5100, 5098, 1, 388, 200, "POST"},
		{true, at(2026, time.November, 29, 10, 0, 3, 333), "66.132.224.85", "", 0, -1, -1, -1, 400, ""},
		{true, at(2026, time.November, 29, 10, 0, 4, 0), "10.0.1.2", "vllm/gpu-1", 60001, 60000, 0, -1, 504, "POST"},
		{true, at(2026, time.November, 29, 10, 0, 5, 500), "10.0.1.4", "vllm/gpu-2", -1, -1, 1, 95, 200, "GET"},
		{true, at(2026, time.November, 29, 10, 0, 6, 0), "10.0.1.5", "vllm/gpu-1", 3007, 3003, 2, -1, -1, "POST"},
	}
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := compileLogFormat(hapCustomFormat, s)
	if err != nil {
		t.Fatal(err)
	}
	lines := fileLines(t, "testdata/text/haproxy-custom.log", 100)
	if len(lines) != len(wants) {
		t.Fatalf("%d lines, want %d", len(lines), len(wants))
	}
	if got := pickLogFormat([]byte(strings.Join(lines, "\n")+"\n"), append([]*logFormat{f}, compileKnown(s)...)); got != f {
		t.Fatalf("the file's format is not the one given")
	}
	p := newNginxParserFor(f, time.UTC)
	for i, w := range wants {
		var r Record
		err := p.Parse([]byte(lines[i]), &r)
		if !w.ok {
			if err == nil {
				t.Errorf("line %d read, want a bad line", i+1)
			}
			continue
		}
		if err != nil {
			t.Errorf("line %d: %v", i+1, err)
			continue
		}
		ws := []want{{f: FTime, num: w.time}, {f: FRemoteAddr, text: w.addr}}
		var absent []Field
		for _, m := range []struct {
			f Field
			v float64
			s float64 // to the field's unit
		}{{FRequestTime, w.rt, 1e-3}, {FUpstreamResponseTime, w.urt, 1e-3}, {FUpstreamConnectTime, w.uct, 1e-3},
			{FUpstreamHeaderTime, w.uht, 1e-3}, {FStatus, w.status, 1}} {
			if m.v < 0 {
				absent = append(absent, m.f)
			} else {
				ws = append(ws, want{f: m.f, num: m.v * m.s})
			}
		}
		for _, m := range []struct {
			f Field
			v string
		}{{FUpstreamAddr, w.upstream}, {FMethod, w.method}} {
			if m.v == "" {
				absent = append(absent, m.f)
			} else {
				ws = append(ws, want{f: m.f, text: m.v})
			}
		}
		t.Run(lines[i][:20], func(t *testing.T) { checkRecord(t, &r, ws, absent) })
	}
}

// TestHAProxyFormatOracle: HAProxy's default HTTP format given as a
// log-format reads the HTTP log reader's lines as that reader does.
func TestHAProxyFormatOracle(t *testing.T) {
	lines := []string{
		hapManualLine,
		"<134>1 2009-02-06T12:14:14+08:00 lb1 haproxy 14389 - - " + hapManualLine[strings.Index(hapManualLine, "10.0.1.2:"):],
		`[2001:db8::7]:40000 [06/Feb/2009:12:14:14.655] http-in~ llm/vllm-1 0/0/1/350/12800 200 52311 - - ---- 3/3/1/1/0 0/0 "POST /v1/chat/completions HTTP/1.1"`,
		`66.132.224.85:16860 [06/Feb/2009:12:14:14.655] main main/<NOSRV> -1/-1/-1/-1/0 400 0 - - PR-- 3/1/0/0/0 0/0 "<BADREQ>"`,
		`10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/+109 200 2750 - - ---- 1/1/1/1/0 0/0 "GET / HTTP/1.1"`,
		`10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 2/5/1/-1/30001 504 194 - - sH-- 1/1/1/1/0 0/0 {a b|c} "POST /x HTTP/1.1"`,
	}
	for _, l := range lines {
		if a, b, ok := hapBoth(t, l); !ok {
			t.Errorf("%q: read by one of them only", l)
		} else if d := sameRecord(a, b); d != "" {
			t.Errorf("%q: %s", l, d)
		}
	}
}

// hapBoth reads line with the HTTP log's reader and with its format
// given as a log-format; ok when both read it, from the same byte (the
// HTTP log's reader takes any text before the client for a header).
func hapBoth(t testing.TB, line string) (a, b *Record, ok bool) {
	a, b = new(Record), new(Record)
	c := textConfig(t, "")
	f, err := compileLogFormat(hapDefaultFormat, c.schema)
	if err != nil {
		t.Fatal(err)
	}
	errA := newHAProxyParser(c).Parse([]byte(line), a)
	errB := newNginxParserFor(f, c.loc).Parse([]byte(line), b)
	client, _ := haproxyStart([]byte(line))
	header, _ := hapHeader([]byte(line))
	return a, b, errA == nil && errB == nil && client == header
}

// FuzzHAProxyFormat: a line both read, the HTTP log's reader and its
// format given as a log-format read alike.
func FuzzHAProxyFormat(f *testing.F) {
	f.Add(hapManualLine)
	f.Add(`[::1]:1 [06/Feb/2009:12:14:14.655] a b/<NOSRV> +1/-1/0/0/-1 -1 0 - - ---- 0/0/0/0/0 0/0 {a} {b c} "<BADREQ>"`)
	f.Add(`1.2.3.4:5 [06/Feb/2009:12:14:14.655] a b/c 9223372036854775807/0/0/0/9223372036854775807 200 0 - - ---- 0/0/0/0/0 0/0 "GET / HTTP/1.1"`)
	f.Add(`<1>Feb  6 12:14:14 h: 1.2.3.4:5 [06/Feb/2009:12:14:14.655] a b/c 1/2/3/4/1e3 200 0 - - ---- 0/0/0/0/0 0/0 "GET / HTTP/1.1"`)
	f.Fuzz(func(t *testing.T, line string) {
		if a, b, ok := hapBoth(t, line); ok {
			if d := sameRecord(a, b); d != "" {
				t.Fatalf("%q: %s", line, d)
			}
		}
	})
}

// TestHAProxyFormatAllocatesNothing: a line behind an RFC 5424 header,
// its derived upstream time included, is read without allocating once
// the parser is warm.
func TestHAProxyFormatAllocatesNothing(t *testing.T) {
	p := testParser(t, hapDefaultFormat)
	line := []byte("<134>1 2009-02-06T12:14:14+08:00 lb1 haproxy 14389 - - " + hapManualLine[strings.Index(hapManualLine, "10.0.1.2:"):])
	if n := parseAllocs(t, p, line); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
}

// TestHAProxyTokens: the items' names, HAProxy's parsing of a format
// (merged spaces, %%, a dropped %, escapes, merged items), the flawed
// formats refused with what is wrong, and which strings are HAProxy's.
func TestHAProxyTokens(t *testing.T) {
	toks, err := haproxyTokens(`  %ci:%cp\ [%tr]  %b/%s 50%% %-x %{+Q}r %HP%HQ %Ts.%ms %[req.hdr(X-Model)] %[var(txn.tokens),json] `)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, tk := range toks {
		if tk.name == "" {
			got.WriteString(tk.lit)
		} else {
			got.WriteString("<" + tk.name + "=" + tk.lookup + ">")
		}
	}
	want := `<client_ip=client_ip> [<request_date=request_date>] <server_name=server_name> 50% -x "<http_request=http_request>" ` +
		`<http_path_query=http_path_query> <accept_timestamp=accept_timestamp> <req.hdr(X-Model)=x_model> <var(txn.tokens),json=tokens> `
	if got.String() != want {
		t.Errorf("tokens\n%s\nwant\n%s", got.String(), want)
	}
	for bad, why := range map[string]string{
		`%ci %Tx`:                "%Tx at column 5 is not an alias",
		`%ci %[req.hdr(host)`:    "sample expression at column 5 is not closed by ]",
		`%ci %[]`:                "sample expression at column 5 is empty",
		`%ci %{+Q`:               "flags of the item at column 5 are not closed",
		`%ci %{+Q} %ST`:          "flags at column 5 are followed by no alias",
		`%ci %5 %ST`:             "the % at column 5 starts no alias",
		`%ci %ST %`:              "the % at column 9 starts no alias",
		`%{+json}o %ci %ST`:      "+json flag at column 1 writes JSON, which is read as JSON lines by its items' names",
		`%ci %HM%HU %ST`:         "%HM and %HU are not separated",
		`%ci %ST%[req.hdr(a)]`:   "%ST and %[req.hdr(a)] are not separated",
		`%ci %(name %ST`:         "name of the item at column 5 is not closed",
		`%ci %b/%s%Ta`:           "%b/%s and %Ta are not separated",
		`%ci [%tr] %ST %Ta %HM%`: "the % at column 22 starts no alias",
	} {
		err := CompileLogFormat(bad)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("CompileLogFormat(%q): %v, want an error saying %q", bad, err, why)
		} else if m := err.Error(); m[0] != '"' || strings.HasSuffix(m, ".") {
			t.Errorf("CompileLogFormat(%q): %q does not start with the format or ends with a period", bad, m)
		}
	}
	for s, want := range map[string]string{
		hapDefaultFormat:  "haproxy",
		`%Ta`:             "haproxy",
		`%ci %ST`:         "haproxy",
		`%{+Q}r %t`:       "haproxy",
		`%[src] %t %r %T`: "haproxy",
		`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D %{ms}T %^FB %U%q`: "apache",
		`%h %t "%r" %>s %T`:                         "apache",
		`%h %t "%r" %s took %Ts`:                    "apache", // %T and an "s"
		`%h %{%d/%b/%Y %T}t "%r" %s %b`:             "apache",
		`"%{X-Forwarded-For}i" %t "%r" %!200,304>s`: "apache",
		`$remote_addr $request_time`:                "nginx",
		`%START_TIME% %DURATION%ms %RESPONSE_CODE%`: "envoy",
		`%ci %HP%HQ %ST`:                            "haproxy",
		`[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %DURATION% %UPSTREAM_HOST%`: "envoy",
	} {
		f, err := compileLogFormat(s, nil)
		if err != nil {
			t.Errorf("compileLogFormat(%q): %v", s, err)
		} else if f.source != want {
			t.Errorf("%q compiled as %s's, want %s's", s, f.source, want)
		}
	}
}

// TestHAProxyFormatMap: --map reads an item's column as it says; the
// timers keep the manual's meaning.
func TestHAProxyFormatMap(t *testing.T) {
	s, err := NewSchema([]string{"region=frontend_name_transport", "model=capture.req.hdr(0)", "request_time=Tr:ms"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := compileLogFormat(`%ft %Tr %Ta %[capture.req.hdr(0)]`, s)
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := newNginxParserFor(f, time.UTC).Parse([]byte("llm-in~ 69 109 qwen-max"), &r); err != nil {
		t.Fatal(err)
	}
	checkRecord(t, &r, []want{{f: FRegion, text: "llm-in~"}, {f: FModel, text: "qwen-max"}, {f: FRequestTime, num: 0.109},
		{f: FUpstreamHeaderTime, num: 0.069}}, nil)
}

// TestHAProxyHeader: the syslog headers skipped before an HAProxy line,
// and the lines that have none.
func TestHAProxyHeader(t *testing.T) {
	const msg = `10.0.1.2:33317 [06/Feb/2009:12:14:14.655] x`
	for line, stamp := range map[string]string{
		"Feb  6 12:14:14 localhost haproxy[14389]: ": "",
		"Feb 16 12:14:14 haproxy[14389]: ":           "",
		"<134>Feb  6 12:14:14 haproxy: ":             "",
		"<134>":                                      "",
		"<3>":                                        "",
		"<134>1 2009-02-06T12:14:14.655+01:00 lb1 haproxy 14389 - - ": "2009-02-06T12:14:14.655+01:00",
		"<134>1 2009-02-06T12:14:14Z lb1 haproxy - - [x@1 a=\"]\"] ":  "2009-02-06T12:14:14Z",
		"<134>2009-02-06T12:14:14.655+01:00 ":                         "2009-02-06T12:14:14.655+01:00",
		"2009-02-06T12:14:14.655+01:00 lb1 haproxy[14389]: ":          "2009-02-06T12:14:14.655+01:00",
		"": "",
	} {
		n, st := hapHeader([]byte(line + msg))
		if n != len(line) || string(st) != stamp {
			t.Errorf("hapHeader(%q…) = %d, %q; want %d, %q", line, n, st, len(line), stamp)
		}
	}
	for _, line := range []string{`{"a": 1, "b": 2}`, `client: 10.0.0.1`, `2009-02-06 12:14:14 x`, `<1234567>x`, `Feb  6 x`} {
		if n, _ := hapHeader([]byte(line)); n != 0 {
			t.Errorf("hapHeader(%q) = %d, want 0", line, n)
		}
	}
}

// hapRows collects the request_time (ms, -1 absent) and status of the
// records a run reads.
type hapRows struct{ rt, status []float64 }

func (s *hapRows) Add(r *Record) {
	rt, ok := r.Float(FRequestTime)
	if !ok {
		rt = -1e-3
	}
	st, _ := r.Float(FStatus)
	s.rt, s.status = append(s.rt, rt*1e3), append(s.status, st)
}

// TestHAProxyFormatJSONLines: the lines of an HAProxy log-format that
// writes them like JSON objects are read with the format given (the
// timers in ms), not as JSON; without it, a JSON file stays JSON.
func TestHAProxyFormatJSONLines(t *testing.T) {
	const format = `{"ts":%Ts,"ci":"%ci","r":"%r","st":%ST,"ta":%Ta}`
	data := `{"ts":1795917600,"ci":"10.0.0.1","r":"POST /v1/chat/completions HTTP/1.1","st":200,"ta":1234}` + "\n" +
		`{"ts":1795917601,"ci":"10.0.0.2","r":"POST /v1/chat/completions HTTP/1.1","st":504,"ta":-1}` + "\n"
	for _, tc := range []struct {
		formats []string
		format  Format
		records int64
		rt      []float64
	}{
		{[]string{"combined", format}, Nginx, 2, []float64{1234, -1}},
		// Without it, JSON lines, whose one name known is ts, the time:
		// records without a request_time.
		{[]string{"combined"}, JSONL, 2, []float64{-1, -1}},
	} {
		sinks, res, err := Run([]string{"-"}, Options{LogFormats: tc.formats, Stdin: strings.NewReader(data), Workers: 1},
			func() *hapRows { return &hapRows{} })
		if err != nil {
			t.Fatal(err)
		}
		if fs := res.Files[0]; fs.Format != tc.format || fs.Records != tc.records {
			t.Errorf("%q: read as %s, %d records; want %s, %d", tc.formats, fs.Format, fs.Records, tc.format, tc.records)
		}
		if got := sinks[0].rt; len(got) != len(tc.rt) || len(got) == 2 && (got[0] != tc.rt[0] || got[1] != tc.rt[1]) {
			t.Errorf("%q: request_time %v ms, want %v", tc.formats, got, tc.rt)
		}
	}
}

// TestHAProxyBesideLogFormat: a file of HAProxy's HTTP log is read by its
// reader when the formats given read none of its lines, as when none is
// given; one a given format reads is read with it. The proxy's start is
// passed over.
func TestHAProxyBesideLogFormat(t *testing.T) {
	data := "Feb  6 12:14:00 localhost haproxy[14389]: Proxy http-in started.\n" + hapManualLine + "\n"
	for _, tc := range []struct {
		formats []string
		format  Format
		rt      float64 // ms
	}{
		{nil, HAProxy, 109},
		{[]string{"combined", `%ci %ST %Ta`}, HAProxy, 109},
		{[]string{"combined", hapDefaultFormat}, Nginx, 109},
		{[]string{`%ci:%cp [%t] %ft %b/%s %Tq/%Tw/%Tc/%Tr/%Tt %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r`}, Nginx, 109},
	} {
		sinks, res, err := Run([]string{"-"}, Options{LogFormats: tc.formats, Stdin: strings.NewReader(data), Workers: 1},
			func() *hapRows { return &hapRows{} })
		if err != nil {
			t.Fatal(err)
		}
		fs := res.Files[0]
		if fs.Format != tc.format || fs.Source != "haproxy" || fs.Records != 1 || fs.BadLines != 0 || fs.PassedOver != 1 {
			t.Errorf("%q: read as %s (%s), %d records, %d bad lines, %d passed over; want %s (haproxy), 1, 0, 1", tc.formats, fs.Format, fs.Source, fs.Records, fs.BadLines, fs.PassedOver, tc.format)
		}
		if got := sinks[0].rt; len(got) != 1 || got[0] != tc.rt {
			t.Errorf("%q: request_time %v ms, want %v", tc.formats, got, tc.rt)
		}
	}
}
