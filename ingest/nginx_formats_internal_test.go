package ingest

import (
	"strings"
	"testing"
)

const (
	tCombined = `10.0.0.1 - - [29/Nov/2026:10:00:00 +0800] "POST /v1/chat/completions HTTP/1.1" 200 1532 "-" "curl/8.5.0"`
	tMain     = tCombined + ` "-"`
	tEnvoy    = `[2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100 "10.0.35.28" "nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "locations" "tcp://10.0.2.1:80"`
	tIstio    = `[2020-11-25T21:26:18.409Z] "GET /status/418 HTTP/1.1" 418 - via_upstream - "-" 0 135 4 4 "-" "curl/7.73.0-DEV" "84961386-6d84-929d-98bd-c5aee93b5c88" "httpbin:8000" "10.44.1.27:80" outbound|8000||httpbin.foo.svc.cluster.local 10.44.1.23:37652 10.0.45.184:8000 10.44.1.23:46520 - default`
	tAPISIX   = `192.168.1.10 - - [29/Nov/2026:10:00:00 +0800] api.example.com "POST /v1/chat/completions HTTP/1.1" 200 1532 1.204 "-" "curl/8.5.0" 10.0.0.5:8080 200 1.201 "http://10.0.0.5:8080/v1/chat/completions"`
)

// The first lines choose the format: the timed variants by the shape of
// what follows the base format, and only when it is written as nginx
// writes times.
func TestGuessKnownFormats(t *testing.T) {
	tests := []struct{ head, want string }{
		{tCombined + " 0.005\n", "combined+request_time"},
		{tCombined + " 0.005 0.004\n", "combined+request_time+upstream_response_time"},
		{tCombined + " 0.105 0.100, 0.004\n", "combined+request_time+upstream_response_time"},
		{tMain + " 0.005 0.004\n", "main+request_time+upstream_response_time"},
		{tMain + " 0.005 -\n", "main+request_time+upstream_response_time"},
		{tMain + " 0.005\n", "main+request_time"},
		{tCombined + ` rt=0.005 uct="0.000" uht="0.004" urt="0.004"` + "\n", "upstream_time"},
		{tCombined + `rt=0.005 uct="0.000" uht="0.004" urt="0.004"` + "\n", "upstream_time"},
		{tMain + ` rt=0.005 uct="0.000" uht="0.004" urt="0.004"` + "\n", "main+upstream_time"},
		{tCombined + " 0.640 0.640 .\n", "timed_combined"},
		// $request_length $request_time: 1843 is no nginx time.
		{tCombined + " 1843 0.512\n", "combined"},
		{tCombined + " 5\n", "combined"},
		// A main line among combined ones, and the reverse: combined reads
		// every line (the main one with text after its end), main only
		// its own.
		{tCombined + "\n" + tMain + "\n" + tCombined + "\n", "combined"},
		{tMain + "\n" + tMain + "\n" + tCombined + "\n", "combined"},
		{tMain + "\n" + tMain + "\n", "main"},
		{tEnvoy + "\n", "envoy"},
		{tIstio + "\n", "istio"},
		{tAPISIX + "\n", "apisix"},
		{strings.Replace(tAPISIX, "1.201", "0.100, 1.201", 1) + "\n", "apisix"},
		// APISIX 1.0 to 2.0's, before the upstream's URL was appended.
		{tAPISIX[:strings.LastIndex(tAPISIX, ` "http:`)] + "\n", "apisix"},
		// Envoy's line with fields of the configuration's own after it.
		{tEnvoy + " extra 12\n", "envoy"},
		// ingress-nginx's default before 0.24, and with Alibaba Cloud's
		// $host after it.
		{`172.158.185.67 - [172.158.185.67] - - [10/Mar/2025:09:00:01 +0000] "GET /v1/x HTTP/1.1" 200 22 "-" "curl/8" 1813 0.540 [default-web-8080] 10.0.1.2:8080 2007 0.530 200 f2c94386` + "\n", "upstreaminfo-0.2x"},
		{`203.70.31.36 - [203.70.31.36] - - [10/Mar/2025:17:00:02 +0800] "GET /v1/x HTTP/1.1" 200 46 "-" "kube-probe/1.28" 2369 0.069 [kube-system-app-80] 10.0.2.5:8080 5652 0.062 200 35c33744 www.example.com` + "\n", "upstreaminfo-0.2x"},
		{tCombined + ` "0.046" "0.002" "0.022" "0.038"` + "\n", "combined+quoted_times"},
		// gunicorn's UvicornWorker: uvicorn's line without its prefix
		// and status phrase, among gunicorn's own lines.
		{"[2025-03-10 08:00:00 +0000] [7] [INFO] Application startup complete.\n" +
			`10.0.26.60:52683 - "POST /v1/chat/completions HTTP/1.1" 200` + "\n" +
			`[2001:db8::1]:443 - "GET /health HTTP/1.1" 404` + "\n", "uvicorn"},
		// vLLM's OpenAI server: uvicorn's line after the process, among
		// its own lines.
		{"(APIServer pid=35049) INFO 12-05 10:00:00 [logger.py:43] Received request chatcmpl-f2a7: prompt: 'hi'\n" +
			`(APIServer pid=35049) INFO:     10.0.0.95:33801 - "POST /v1/chat/completions HTTP/1.1" 200 OK` + "\n" +
			`(APIServer pid=35049) INFO:     10.0.0.95:33802 - "POST /v1/chat/completions HTTP/1.1" 429 Too Many Requests` + "\n", "uvicorn"},
		// uvicorn's line behind SGLang's date, FastChat's logger and Open
		// WebUI's loguru, among their own lines.
		{"[03-10 16:00:00 TP0] Prefill batch. #new-seq: 1, #new-token: 104\n" +
			`[2026-03-10 16:00:00] INFO:     10.0.3.200:38160 - "POST /v1/chat/completions HTTP/1.1" 200 OK` + "\n", "uvicorn"},
		{"2026-03-10 15:59:41 | INFO | model_worker | Loading the model\n" +
			`2026-03-10 16:00:00 | INFO | stdout | INFO:     10.0.3.200:38160 - "POST /worker_generate_stream HTTP/1.1" 200 OK` + "\n", "uvicorn"},
		{"2026-03-10 15:59:50.112 | INFO     | open_webui.env:<module>:265 - ENV: PRODUCTION\n" +
			`2026-03-10 16:00:00.637 | INFO     | uvicorn.protocols.http.httptools_impl:send:476 - 10.0.3.200:0 - "POST /api/chat/completions HTTP/1.1" 200` + "\n", "uvicorn"},
		// ingress-nginx's before $req_id was appended.
		{`192.168.1.7 - [192.168.9.9] - - [04/Dec/2026:10:00:05 +0000] "POST /v1/embeddings HTTP/1.1" 200 2321 "-" "curl/8.4.0" 551 0.125 [default-svc-80] 10.1.0.4:8080 478 0.105 200` + "\n", "upstreaminfo-0.2x"},
		// main with its times and fields of the configuration's own.
		{tMain + ` 0.105 0.100, 0.004 "api.example.com" 5f2c 3` + "\n", "main+request_time+upstream_response_time"},
		// lighttpd's default: the Host where combined has "-"; with a
		// number after it (its unit unknown); a line without a Host
		// among them. combined's "-" there, and nginx's address slot
		// holding "host addr", are combined's, which lighttpd's shape
		// also reads.
		{strings.Replace(tCombined, " - - ", " api.example.com - ", 1) + "\n", "lighttpd"},
		{strings.Replace(tCombined, " - - ", " api.example.com:8080 bob ", 1) + " 5169650\n", "lighttpd"},
		{strings.Replace(tCombined, " - - ", " api.example.com - ", 1) + "\n" + tCombined + "\n" +
			strings.Replace(tCombined, " - - ", " llm.internal - ", 1) + "\n", "lighttpd"},
		{tCombined + "\n" + tCombined + "\n", "combined"},
		{"api.example.com " + tCombined + "\n", "combined"},
	}
	s, _ := NewSchema(nil)
	for _, tc := range tests {
		if got := guessLogFormat([]byte(tc.head), s); got != tc.want {
			t.Errorf("guessLogFormat(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}

// Known formats read text after their end; a format given as text does
// not (TestNginxBadLines).
func TestKnownFormatTrailing(t *testing.T) {
	tests := []struct {
		format, line string
		want         []want
		absent       []Field
	}{
		{"combined", tCombined + ` "-" 0.005`, []want{{f: FStatus, num: 200}, {f: FURI, text: "/v1/chat/completions"}}, []Field{FRequestTime}},
		{"combined", tCombined + `extra`, []want{{f: FStatus, num: 200}}, nil},
		{"upstreaminfo", `1.2.3.4 - - [29/Nov/2026:10:00:00 +0800] "GET / HTTP/1.1" 200 1 "-" "curl/8" 89 0.001 [web] [] 10.0.0.1:80 59 0.001 200 abc extra 1`,
			[]want{{f: FRequestTime, num: 0.001}, {f: FUpstreamStatus, num: 200}}, nil},
		{"envoy", tEnvoy + ` "x"`, []want{{f: FRequestTime, num: 0.226}, {f: FUpstreamResponseTime, num: 0.100}}, nil},
		{"istio", tIstio + " more", []want{{f: FRemoteAddr, text: "10.44.1.23"}, {f: FRequestTime, num: 0.004}}, nil},
		{"main+request_time", tMain + " 0.005", []want{{f: FRequestTime, num: 0.005}}, nil},
		{"upstreaminfo-0.2x", `203.70.31.36 - [203.70.31.36] - - [10/Mar/2025:17:00:02 +0800] "GET /v1/x HTTP/1.1" 200 46 "-" "kube-probe/1.28" 2369 0.069 [kube-system-app-80] 10.0.2.5:8080 5652 0.062 200 35c33744 www.example.com`,
			[]want{{f: FRequestTime, num: 0.069}, {f: FUpstreamResponseTime, num: 0.062}, {f: FRemoteAddr, text: "203.70.31.36"}}, nil},
		{"combined+quoted_times", tCombined + ` "0.046" "0.002" "0.022" "0.038"`,
			[]want{{f: FRequestTime, num: 0.046}, {f: FUpstreamConnectTime, num: 0.002}, {f: FUpstreamHeaderTime, num: 0.022}, {f: FUpstreamResponseTime, num: 0.038}}, nil},
	}
	for _, tc := range tests {
		p := testParser(t, tc.format)
		var r Record
		if err := p.Parse([]byte(tc.line), &r); err != nil {
			t.Errorf("%s: Parse(%q): %v", tc.format, tc.line, err)
			continue
		}
		checkRecord(t, &r, tc.want, tc.absent)
	}
	// The timed variants read their times, lists of them too, with
	// text after them; a time not as nginx writes it, or text stuck to
	// it, is not theirs.
	for _, tc := range []struct {
		format, line string
		rt, urt      float64
	}{
		{"main+request_time", tMain + " 0.005 x", 0.005, -1},
		{"main+request_time+upstream_response_time", tMain + ` 0.105 0.100, 0.004 "api.example.com" 5f2c 3`, 0.105, 0.104},
		{"main+request_time+upstream_response_time", tMain + " 0.105 0.100, - : 0.002 7", 0.105, 0.102},
		{"main+request_time+upstream_response_time", tMain + " 0.105 -", 0.105, -1},
		{"combined+request_time", tCombined + " 0.300 host", 0.3, -1},
	} {
		p := testParser(t, tc.format)
		var r Record
		if err := p.Parse([]byte(tc.line), &r); err != nil {
			t.Errorf("%s: Parse(%q): %v", tc.format, tc.line, err)
			continue
		}
		wants := []want{{f: FRequestTime, num: tc.rt}}
		var absent []Field
		if tc.urt >= 0 {
			wants = append(wants, want{f: FUpstreamResponseTime, num: tc.urt})
		} else {
			absent = append(absent, FUpstreamResponseTime)
		}
		checkRecord(t, &r, wants, absent)
	}
	for _, line := range []string{tMain + " 0.005x", tMain + " 5", tMain + " 0.005, x"} {
		p := testParser(t, "main+request_time")
		var r Record
		if err := p.Parse([]byte(line), &r); err == nil {
			t.Errorf("main+request_time read %q", line)
		}
	}
}

func TestAddrSlot(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10.0.0.1", "10.0.0.1"},
		{"2a02:cf40::4e36", "2a02:cf40::4e36"},
		{"lessons.example.com 192.168.0.1", "192.168.0.1"},
		{"10.0.0.2, 10.0.0.1, 127.0.0.1", "10.0.0.2"},
		{`"10.5.102.222, 199.96.1.1, 204.246.1.1" 10.2.1.185`, "10.2.1.185"},
		{"2a03:0000:10ff:f00f:0000:0000:0:8000, 10.225.192.17 10.2.2.121", "10.2.2.121"},
	}
	for _, tc := range tests {
		if got := string(addrSlot([]byte(tc.in))); got != tc.want {
			t.Errorf("addrSlot(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNginxSeconds(t *testing.T) {
	good := []string{"0.005", "12.345", "-", "0.100, 0.004", "0.100, -", "0.100, 0.004 : 0.020", ""}
	bad := []string{"5", "1843", "0.5", "1.2345", "abc", ".123", "1e.005", "0.00a", "0.100, x"}
	for _, s := range good {
		if !nginxSeconds([]byte(s)) {
			t.Errorf("nginxSeconds(%q) = false", s)
		}
	}
	for _, s := range bad {
		if nginxSeconds([]byte(s)) {
			t.Errorf("nginxSeconds(%q) = true", s)
		}
	}
}

func TestEnvoyOperator(t *testing.T) {
	tests := []struct {
		in, op string
		n      int
	}{
		{"%START_TIME% x", "START_TIME", 12},
		{"%REQ(X-ENVOY-ORIGINAL-PATH?:PATH)%", "REQ(X-ENVOY-ORIGINAL-PATH?:PATH)", 34},
		{"%REQ(USER-AGENT):10%", "REQ(USER-AGENT):10", 20},
		{"%START_TIME(%s.%3f)%", "START_TIME(%s.%3f)", 20},
		{"%", "", 0}, {"%%", "", 0}, {"%x%", "", 0}, {"%A", "", 0}, {"%REQ(X%", "", 0}, {"%A:%", "", 0},
	}
	for _, tc := range tests {
		if op, n := envoyOperator(tc.in); op != tc.op || n != tc.n {
			t.Errorf("envoyOperator(%q) = %q, %d; want %q, %d", tc.in, op, n, tc.op, tc.n)
		}
	}
	for op, want := range map[string]string{
		"REQ(:METHOD)": "method", "RESP(RETRY-AFTER)": "retry_after", "DURATION": "duration",
		"REQ(X-ENVOY-ORIGINAL-PATH?:PATH)": "x_envoy_original_path", "START_TIME(%s)": "start_time", "REQ(X-MODEL):20": "x_model",
	} {
		if got := envoyLookupName(op); got != want {
			t.Errorf("envoyLookupName(%q) = %q, want %q", op, got, want)
		}
	}
}

// A custom Envoy format given as text: the known operators keep their
// units, others go through the schema by name.
func TestEnvoyFormatGiven(t *testing.T) {
	p := testParser(t, `%START_TIME% %DURATION%ms up=%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% ra=%RESP(RETRY-AFTER)% 100%% %RESPONSE_CODE%`)
	var r Record
	line := `2016-04-15T20:17:00.310Z 1500ms up=1490 ra=3 100%% 429`
	if err := p.Parse([]byte(line), &r); err != nil {
		t.Fatalf("Parse(%q): %v", line, err)
	}
	checkRecord(t, &r, []want{{f: FTime, num: 1460751420.310}, {f: FRequestTime, num: 1.5},
		{f: FUpstreamResponseTime, num: 1.49}, {f: FRetryAfter, num: 3}, {f: FStatus, num: 429}}, nil)
	if p.f.source != "envoy" || p.f.lenient {
		t.Errorf("source %q, lenient %v; want envoy, strict", p.f.source, p.f.lenient)
	}
	// --map wins over the operator's own binding.
	s, _ := NewSchema([]string{"request_time=duration:s"})
	f, err := compileLogFormat(`%DURATION%`, s)
	if err != nil {
		t.Fatal(err)
	}
	r.Reset()
	if err := (&nginxParser{f: f}).Parse([]byte("2"), &r); err != nil {
		t.Fatal(err)
	}
	checkRecord(t, &r, []want{{f: FRequestTime, num: 2}}, nil)

	// Envoy's formats end in a line break, which Envoy writes only where
	// the format says: given as \n (its documentation's, Istio's and
	// Contour's configurations) or as a line break, it is the line's end.
	// %RESPONSE_DURATION% is when the upstream's response began.
	const envoyFormat = `%START_TIME(%s.%3f)% %REQ(:METHOD)% %RESPONSE_CODE% %DURATION% %RESPONSE_DURATION% %RESPONSE_TX_DURATION% "%UPSTREAM_HOST%"`
	for _, format := range []string{envoyFormat + `\n`, envoyFormat + "\n", envoyFormat + ` \n` + "\r\n"} {
		p := testParser(t, format)
		r.Reset()
		line := `1741615200.631 POST 200 8845 363 8482 "10.42.2.9:8000"`
		if err := p.Parse([]byte(line), &r); err != nil {
			t.Fatalf("format %q: Parse(%q): %v", format, line, err)
		}
		checkRecord(t, &r, []want{{f: FTime, num: 1741615200.631}, {f: FStatus, num: 200}, {f: FRequestTime, num: 8.845},
			{f: FUpstreamHeaderTime, num: 0.363}, {f: FUpstreamAddr, text: "10.42.2.9:8000"}}, nil)
	}
}

// APISIX's "$upstream_host$upstream_uri" is two variables without text
// between them: allowed in the known format, read as one value; in a
// format given as text, only when nothing reads either
// (TestAdjacentVariables).
func TestJoinedVariables(t *testing.T) {
	p := testParser(t, "apisix")
	var r Record
	if err := p.Parse([]byte(tAPISIX), &r); err != nil {
		t.Fatal(err)
	}
	checkRecord(t, &r, []want{{f: FStatus, num: 200}, {f: FRequestTime, num: 1.204}, {f: FUpstreamResponseTime, num: 1.201},
		{f: FUpstreamAddr, text: "10.0.0.5:8080"}, {f: FClient, text: "192.168.1.10"}}, nil)
	if err := CompileLogFormat(`"$status$upstream_uri"`); err == nil {
		t.Errorf("a variable read joined to another compiled in a format given as text")
	}
}

func TestLogFormatNames(t *testing.T) {
	for _, name := range LogFormatNames() {
		if strings.Contains(name, "+") || CompileLogFormat(name) != nil {
			t.Errorf("name %q", name)
		}
	}
	// The timed variants are accepted by name too, in any case.
	for _, name := range []string{"main+request_time", "Combined+Request_Time", "APISIX-AI"} {
		if err := CompileLogFormat(name); err != nil {
			t.Errorf("CompileLogFormat(%q): %v", name, err)
		}
	}
}

// TestReportedSourcesAreSourceNames: every source a report names for a
// text file (a known format's, HAProxy's, LTSV's, CLB's, the W3C
// ones') is a name --source takes, but the nginx:NAME ones, which
// --log-format takes.
func TestReportedSourcesAreSourceNames(t *testing.T) {
	names := []string{"haproxy", "ltsv", "clb", "iis", "aspnetcore-w3c", "cloudfront", "w3c"}
	for _, k := range knownFormats {
		if !strings.HasPrefix(k.source, "nginx:") {
			names = append(names, k.source)
		} else if knownFormatByName(strings.TrimPrefix(k.source, "nginx:")) == nil {
			t.Errorf("source %q names no format --log-format takes", k.source)
		}
	}
	for _, n := range names {
		if err := CheckSource(n); err != nil {
			t.Errorf("a report names source %q, which --source refuses: %v", n, err)
		}
	}
}

// TestGuessNoFormatForW3C: an IIS (W3C extended) log is read as what
// it is, a W3C log of source "iis", and matches none of the nginx known
// formats: its "#Date: 2026-11-29 …" directive put a date where AWS
// ALB's format wants a time, and a date is no number out of bounds, so
// it does not count for that format.
func TestGuessNoFormatForW3C(t *testing.T) {
	head := "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: 2026-11-29 10:00:00\n" +
		"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken\n" +
		"2026-11-29 10:00:00 10.0.0.5 POST /v1/chat/completions - 443 - 203.0.113.7 curl/8 - 200 0 0 6210\n"
	if f := sniff([]byte(head), nil); f != W3C {
		t.Errorf("sniff(IIS log) = %s, want w3c", f)
	}
	if src := w3cSource([]byte(head), ""); src.name != "iis" {
		t.Errorf("w3cSource(IIS log) = %q, want iis", src.name)
	}
	_, res, err := Run([]string{"-"}, Options{Stdin: strings.NewReader(head), Workers: 1}, func() *w3cDigest { return &w3cDigest{} })
	if err != nil {
		t.Fatal(err)
	}
	if fs := res.Files[0]; fs.Records != 1 || fs.BadLines != 0 || fs.Source != "iis" {
		t.Errorf("read %d records, %d bad lines, source %q; want 1, 0, iis", fs.Records, fs.BadLines, fs.Source)
	}
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := guessLogFormat([]byte(head), s); got != "" {
		t.Errorf("guessLogFormat(IIS log) = %q, want none", got)
	}
	for _, v := range []string{"2026-11-29", "10:00:00", "Microsoft", "-"} {
		if isNumeric(v) {
			t.Errorf("isNumeric(%q) = true", v)
		}
	}
	for _, v := range []string{"-5", "1e308", "0.5"} {
		if !isNumeric(v) {
			t.Errorf("isNumeric(%q) = false", v)
		}
	}
}

// TestOwnReaderBesideLogFormat: a --log-format is given for some files;
// a file none of the given formats reads (Gin's log, CSV, TSV, HAProxy's
// HTTP log) is read by its own reader, as without the flag, where it was
// read with the given format and every line was bad; a file the given
// format reads is read with it.
func TestOwnReaderBesideLogFormat(t *testing.T) {
	given := []string{`$status|$request_time`}
	for _, tc := range []struct {
		name, data string
		format     Format
	}{
		{"gin", "[GIN] 2026/12/04 - 10:00:01 | 200 |  1.532s |  10.0.0.1 | POST     \"/v1/chat/completions\"\n" +
			"[GIN] 2026/12/04 - 10:00:02 | 200 |  2.5s |  10.0.0.2 | POST     \"/v1/chat/completions\"\n", Gin},
		{"csv", "time,status,request_time\n2026-12-04T10:00:01Z,200,1.532\n2026-12-04T10:00:02Z,200,2.5\n", CSV},
		{"tsv", "time\tstatus\trequest_time\n2026-12-04T10:00:01Z\t200\t1.532\n2026-12-04T10:00:02Z\t200\t2.5\n", TSV},
		{"haproxy", hapManualLine + "\n" + hapManualLine + "\n", HAProxy},
		{"given", "200|1.532\n200|2.5\n", Nginx},
	} {
		for _, formats := range [][]string{nil, given} {
			if tc.format == Nginx && formats == nil {
				continue // only the given format reads it
			}
			_, res, err := Run([]string{"-"}, Options{LogFormats: formats, Stdin: strings.NewReader(tc.data), Workers: 1},
				func() *hapRows { return &hapRows{} })
			if err != nil {
				t.Fatal(err)
			}
			if fs := res.Files[0]; fs.Format != tc.format || fs.Records != 2 || fs.BadLines != 0 {
				t.Errorf("%s with %q: read as %s, %d records, %d bad lines; want %s, 2, 0", tc.name, formats, fs.Format, fs.Records, fs.BadLines, tc.format)
			}
		}
	}
}
