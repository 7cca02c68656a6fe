package ingest_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// checkSink fails the test on a record whose numbers or time no report
// could use.
type checkSink struct {
	t *testing.T
	n int64
}

func (c *checkSink) Add(r *ingest.Record) {
	c.n++
	for _, f := range []ingest.Field{ingest.FRequestTime, ingest.FUpstreamResponseTime, ingest.FTTFT, ingest.FSSLHandshakeTime} {
		if v, ok := r.Float(f); ok && (v < 0 || math.IsNaN(v) || math.IsInf(v, 0)) {
			c.t.Errorf("%s = %v", f, v)
		}
	}
	if r.Has(ingest.FTime) && (r.TimeNS < ingest.MinTimeNS || r.TimeNS >= ingest.MaxTimeNS) {
		c.t.Errorf("time %v outside 2000–2100", time.Unix(0, r.TimeNS).UTC())
	}
}

// textLines counts the lines of data the pipeline reads: those left
// when "\r" is cut from their end and they are not only blanks.
func textLines(data []byte) (lines, nonBlank int64) {
	// The NUL bytes a file begins with are a copytruncate hole, no line
	// (skipNULs): the line they lead is blank or not by what follows.
	data = bytes.TrimLeft(data, "\x00")
	for len(data) > 0 {
		l := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		lines++
		if len(bytes.Trim(bytes.TrimSuffix(l, []byte("\r")), " \t")) > 0 {
			nonBlank++
		}
	}
	return lines, nonBlank
}

// FuzzLogFormatRun reads a text log with a --log-format through the whole
// pipeline, as the command does: FuzzNginx parses one line with a
// compiled format; this adds the choice between the given and the known
// formats from the first lines, the cutting into lines and chunks, and
// the counting of bad lines. CompileLogFormat (the flag's check) and Run
// agree on which formats are valid; with a valid one, every line that is
// not blank is a record or a bad line with its line number and a reason,
// and every record's numbers and time are sane.
func FuzzLogFormatRun(f *testing.F) {
	head := func(path string, n int) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(b, []byte("\n"))
		return bytes.Join(lines[:min(n, len(lines))], nil)
	}
	f.Add(gen.NginxLogFormat, head(filepath.Join("..", "testdata", "logs", "tokenhub-4-nginx.log"), 3))
	f.Add("tokenhub", head(filepath.Join("..", "testdata", "logs", "tokenhub-4-nginx.log"), 2))
	for format, file := range map[string]string{
		"combined":      "nginx-combined-rt.log",
		"main":          "nginx-main-times.log",
		"upstream_time": "nginx-upstream-time.log",
		"envoy":         "envoy-default.log",
		"istio":         "istio-text.log",
		"apisix":        "apisix.log",
		"apisix-ai":     "apisix-ai.log",
		// Undertow's combined with %D in ms: its first values' median
		// is kept (apacheunit.go).
		`%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-Agent}i" %D`: "undertow-combined-msD.log",
		// Quarkus's through its logging, an Apache format given.
		`%h %l %u %t "%r" %s %b %D`: "quarkus-console.log",
		`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time`: "nginx-combined-trailing.log",
	} {
		f.Add(format, head(filepath.Join("testdata", "text", file), 3))
	}
	// A gunicorn format given, read behind Hypercorn's logger's line.
	f.Add(`%(h)s %(l)s %(l)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(D)s`, head(filepath.Join("testdata", "text", "hypercorn-timed.log"), 4))
	f.Add(`%(h)s %(r)s %(s)s %(b)s %(L)s`, []byte("[2026-12-05 10:00:00 +0800] [12] [INFO] 10.0.2.151:33801 POST /v1/x 1.1 200 8393 0.508371\n"))
	f.Add(`$remote_addr [$time_local] "$request" $status $request_time "$upstream_response_time" ups=$upstream_addr model=$http_x_model`,
		[]byte("10.0.0.1 [29/Nov/2026:09:00:00 +0000] \"POST /v1/chat/completions HTTP/1.1\" 200 1.250 \"0.100, 1.100\" ups=10.1.0.1:80, 10.1.0.2:80 model=m\n"+
			"this line does not follow the format\n\n  \t\r\n"+
			"10.0.0.2 [29/Nov/2026:09:00:41 +0000] \"POST /v1/chat/completions HTTP/1.1\" 504 60.001 \"-\" ups=- model=m"))
	f.Add(`[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %DURATION% "%REQ(X-FORWARDED-FOR)%"`,
		[]byte("[2016-04-15T20:17:00.310Z] \"POST /api/v1/locations HTTP/2\" 204 12 \"1.2.3.4, 10.0.0.1\"\n"))
	f.Add(`[%START_TIME(%Y/%m/%dT%H:%M:%S%z %s)%] "%REQ(:METHOD)% %REQ(:PATH)% %PROTOCOL%" %RESPONSE_CODE% %DURATION%`,
		[]byte("[2026/12/04T18:00:00+0800 1796378400] \"POST /v1/chat HTTP/1.1\" 200 1234\n"))
	f.Add(`%h [%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t] "%r" %>s %{msec}t %D`,
		[]byte("10.1.1.1 [04/Dec/2026 10:00:00.123 +0000] \"POST /v1/chat HTTP/1.1\" 200 1796378400123 1234\n"))
	f.Add(`%{client}a - %u %{dd/MMM/yyyy:HH:mm:ss ZZZ|GMT}t "%r" %s %O %{ms}T`,
		[]byte(`10.1.1.1 - - [04/Dec/2026:10:00:00 +0000] "POST /v1/chat HTTP/1.1" 200 1234 56`+"\n"))
	f.Add(`LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D" combined`,
		[]byte(`10.1.1.1 - - [10/Oct/2026:13:55:36 -0700] "POST /v1/chat HTTP/1.1" 200 2326 "-" "x" 6210452`+"\n"))
	f.Add(`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D %{ms}T %^FB %U%q`,
		[]byte("10.1.1.1 - frank [10/Oct/2026:13:55:36 -0700] \"POST /v1/chat HTTP/1.1\" 200 2326 \"-\" \"curl/8\" 6210452 6210 412 /v1/chat?a=b\n"))
	f.Add(`%h %l %u [%t] "%r" %s %b "%i{Referer}" "%i{User-Agent}" %D`,
		[]byte(`10.1.1.1 - - [10/Oct/2026:13:55:36 -0700] "POST /v1/chat HTTP/1.1" 200 2326 "-" "x" 6210`+"\n"))
	f.Add(`%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %tsc %hr %{+Q}r %ID`, head(filepath.Join("testdata", "text", "haproxy-custom.log"), 6))
	f.Add(`{"time":%Ts.%ms,"client":"%ci","req":"%HM %HP%HQ","status":%ST,"ta":%Ta,"tr":%TR,"tw":%Tw,"tt":%Tt,"tq":%Tq,"id":"%[capture.req.hdr(0),json(utf8s)]"}`,
		[]byte(`{"time":1795917600.036,"client":"203.0.113.7","req":"POST /v1/chat?stream=1","status":429,"ta":+1234,"tr":-1,"tw":1,"tt":9,"tq":2,"id":"a"}`+"\n"+
			`<134>1 2026-11-29T10:00:04.010Z lb1 haproxy 901 - - {"time":-1.5,"client":"::1","req":"<BADREQ>","status":-1,"ta":0,"tr":0,"tw":0,"tt":0,"tq":0,"id":""}`))
	f.Add(`%{+Q}o %{-Q}ci [%T] %hr %hs %HM %HP%HQ %ST %Tc/%Tr/%Ta %b/%s`,
		[]byte("Nov 29 10:00:01 lb1 haproxy[901]: 10.0.0.1 [29/Nov/2026:10:00:01 +0000] {a \"b\"} \"POST\" \"/v1\"\"?a=1\" 200 1/2/3 \"be\"/\"srv\"\n"+
			"2026-11-29T10:00:02Z 10.0.0.1 [29/Nov/2026:10:00:02 +0000] \"GET\" \"/\"\"\" 200 -1/-1/+9 \"be\"/\"<NOSRV>\"\n"))
	f.Add(`%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(L)s`, head(filepath.Join("testdata", "text", "gunicorn-timed.log"), 8))
	f.Add(`%({x-forwarded-for}i)s %(t)s "%(r)s" %(s)s "%(a)s" %(D)s %(M)s %(T)s 100%%`,
		[]byte("203.0.113.9, 10.0.0.1 [04/Dec/2026:10:00:01 +0000] \"POST / HTTP/1.1\" 200 \"a \\\"b\\\"\" 1 0 0 100%\n- [x] \"\" - \"\\\" -1 1e308 NaN 100%\n"))
	f.Add("morgan-dev", head(filepath.Join("testdata", "text", "morgan-dev.log"), 7))
	f.Add(`[:date] :remote-addr :req[x-forwarded-for] ":method :url" :status :response-time[1] ms :total-time`,
		[]byte("[Fri, 04 Dec 2026 10:00:01 GMT] ::1 1.2.3.4, 5.6.7.8 \"POST /\" 200 1.5 ms 2.25\n[Fri, 04 Dec 2026 10:00:01] - - \"\" - - ms -\n"))
	f.Add("$request_time", []byte("0.1\n-\nNaN\n1e308\n-1\n"))
	f.Add("$time_iso8601 $msec", []byte("2026-11-29T09:00:00+00:00 1764406800.000\n0001-01-01T00:00:00Z 1\n"))
	f.Add("no variables here", []byte("x\n"))
	f.Add("$", []byte("\n"))
	// Zeros alone, and a line of them between two: a file a crash left
	// unwritten, and a line lost where it was.
	f.Add("$0", []byte("\x00"))
	f.Add("$request_time", []byte("0.1\n\x00\x00\n0.2\n"))
	f.Fuzz(func(t *testing.T, format string, data []byte) {
		compileErr := ingest.CompileLogFormat(format)
		sinks, res, err := ingest.Run([]string{"-"}, ingest.Options{
			Format: ingest.Nginx, LogFormats: []string{format}, Stdin: bytes.NewReader(data), Workers: 2, Location: time.UTC,
		}, func() *checkSink { return &checkSink{t: t} })
		if compileErr != nil {
			if err == nil || !strings.Contains(err.Error(), compileErr.Error()) {
				t.Fatalf("CompileLogFormat(%q): %v; Run: %v", format, compileErr, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("CompileLogFormat(%q) accepts it, Run fails: %v", format, err)
		}
		if len(sinks) != 2 || len(res.Files) != 1 {
			t.Fatalf("%d sinks, %d files", len(sinks), len(res.Files))
		}
		if n := sinks[0].n + sinks[1].n; n != res.Records() {
			t.Fatalf("the sinks saw %d records, the result counts %d", n, res.Records())
		}
		fs := res.Files[0]
		if fs.Incomplete && fs.Reason == "" {
			t.Fatal("an incomplete file without a reason")
		}
		lines, nonBlank := textLines(data)
		compressed := bytes.HasPrefix(data, []byte("\x1f\x8b")) || bytes.HasPrefix(data, []byte("\x28\xb5\x2f\xfd"))
		if !compressed && !fs.Incomplete && fs.Records+fs.BadLines+fs.PassedOver != nonBlank {
			t.Fatalf("%d records + %d bad lines + %d passed over; the log has %d lines that are not blank", fs.Records, fs.BadLines, fs.PassedOver, nonBlank)
		}
		if int64(len(res.Problems)) > fs.BadLines {
			t.Fatalf("%d problems for %d bad lines", len(res.Problems), fs.BadLines)
		}
		for _, p := range res.Problems {
			if p.Reason == "" || p.Line < 1 || !compressed && p.Line > lines {
				t.Fatalf("problem %+v; the log has %d lines", p, lines)
			}
		}
	})
}
