package ingest

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hapManualLine is the example of HAProxy's configuration manual (8.2.3,
// HTTP log format), with its syslog header.
const hapManualLine = `Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"`

// ms is a timer's milliseconds in the canonical seconds, as the schema's
// ms unit scales them.
func ms(n float64) float64 { return n * 0.001 }

func TestHAProxyParse(t *testing.T) {
	// 06/Feb/2009:12:14:14.655 in textConfig's zone, +08:00.
	t0 := time.Date(2009, 2, 6, 12, 14, 14, 655e6, time.FixedZone("+08", 8*3600)).UnixNano()
	// The manual's line: TR 10, Tw 0, Tc 30, Tr 69, Ta 109 (ms); the
	// server's part Ta − TR − Tw = 99 ms.
	manual := []textWant{{f: FTime, ns: t0}, {f: FRemoteAddr, text: "10.0.1.2"}, {f: FClient, text: "10.0.1.2"},
		{f: FUpstreamAddr, text: "static/srv1"}, {f: FUpstreamConnectTime, num: ms(30)}, {f: FUpstreamHeaderTime, num: ms(69)},
		{f: FRequestTime, num: ms(109)}, {f: FUpstreamResponseTime, num: ms(99)}, {f: FStatus, num: 200},
		{f: FRequest, text: "GET /index.html HTTP/1.1"}, {f: FMethod, text: "GET"}, {f: FURI, text: "/index.html"}}
	noSyslog := hapManualLine[strings.Index(hapManualLine, "10.0.1.2:"):]
	with := func(ws []textWant, repl ...textWant) []textWant {
		out := append([]textWant(nil), ws...)
		for _, r := range repl {
			found := false
			for i := range out {
				if out[i].f == r.f {
					out[i], found = r, true
				}
			}
			if !found {
				out = append(out, r)
			}
		}
		return out
	}
	tests := []struct {
		name, line string
		want       []textWant
		err        string
	}{
		{name: "the manual's example", line: hapManualLine, want: manual},
		{name: "without syslog header", line: noSyslog, want: manual},
		{name: "RFC 5424 header", line: "<134>1 2009-02-06T12:14:14+08:00 lb1 haproxy 14389 - - " + noSyslog, want: manual},
		{name: "the short format's priority", line: "<134>" + noSyslog, want: manual},
		{name: "no captures", line: strings.Replace(noSyslog, "{1wt.eu} {} ", "", 1), want: manual},
		{name: "a capture holding spaces and a quote", line: strings.Replace(noSyslog, "{1wt.eu}", `{Mozilla/5.0 (X11; "Linux")|1wt.eu}`, 1), want: manual},
		{name: "the https format's fields after the request",
			line: noSyslog + " 0/0/0/0/0 api.example.com/TLSv1.3/TLS_AES_256_GCM_SHA384", want: manual},
		{name: "an SSL frontend and IPv6 client",
			line: `[2001:db8::7]:40000 [06/Feb/2009:12:14:14.655] http-in~ llm/vllm-1 0/0/1/350/12800 200 52311 - - ---- 3/3/1/1/0 0/0 "POST /v1/chat/completions HTTP/1.1"`,
			want: with(manual, textWant{f: FRemoteAddr, text: "2001:db8::7"}, textWant{f: FClient, text: "2001:db8::7"},
				textWant{f: FUpstreamAddr, text: "llm/vllm-1"}, textWant{f: FUpstreamConnectTime, num: ms(1)},
				textWant{f: FUpstreamHeaderTime, num: ms(350)}, textWant{f: FRequestTime, num: ms(12800)},
				textWant{f: FUpstreamResponseTime, num: ms(12800)}, textWant{f: FRequest, text: "POST /v1/chat/completions HTTP/1.1"},
				textWant{f: FMethod, text: "POST"}, textWant{f: FURI, text: "/v1/chat/completions"})},
		{name: "no server, a bad request",
			line: `66.132.224.85:16860 [06/Feb/2009:12:14:14.655] main main/<NOSRV> -1/-1/-1/-1/0 400 0 - - PR-- 3/1/0/0/0 0/0 "<BADREQ>"`,
			want: []textWant{{f: FTime, ns: t0}, {f: FRemoteAddr, text: "66.132.224.85"}, {f: FClient, text: "66.132.224.85"},
				{f: FRequestTime, num: 0}, {f: FStatus, num: 400}}},
		{name: "no server and no backend named",
			line: `66.132.224.85:16860 [06/Feb/2009:12:14:14.655] main <NOSRV> -1/-1/-1/-1/0 400 0 - - PR-- 3/1/0/0/0 0/0 "<BADREQ>"`,
			want: []textWant{{f: FTime, ns: t0}, {f: FRemoteAddr, text: "66.132.224.85"}, {f: FClient, text: "66.132.224.85"},
				{f: FRequestTime, num: 0}, {f: FStatus, num: 400}}},
		{name: "the server timed out: no response headers",
			line: strings.Replace(noSyslog, "10/0/30/69/109 200", "2/5/1/-1/30001 504", 1),
			want: with(wantsWithout(manual, FUpstreamHeaderTime), textWant{f: FUpstreamConnectTime, num: ms(1)},
				textWant{f: FRequestTime, num: ms(30001)}, textWant{f: FUpstreamResponseTime, num: ms(29994)}, textWant{f: FStatus, num: 504})},
		{name: "logasap: times taken before the end",
			line: strings.Replace(noSyslog, "10/0/30/69/109", "10/0/30/69/+109", 1),
			want: wantsWithout(manual, FRequestTime, FUpstreamResponseTime)},
		{name: "no status", line: strings.Replace(noSyslog, "109 200", "109 -1", 1), want: wantsWithout(manual, FStatus)},
		{name: "the request not received: no upstream time",
			line: strings.Replace(noSyslog, "10/0/30/69/109", "-1/0/30/69/109", 1), want: wantsWithout(manual, FUpstreamResponseTime)},
		{name: "four timers", line: strings.Replace(noSyslog, "10/0/30/69/109", "10/0/30/109", 1), err: "timers not TR/Tw/Tc/Tr/Ta"},
		{name: "six timers", line: strings.Replace(noSyslog, "10/0/30/69/109", "10/0/30/69/109/1", 1), err: "timers not TR/Tw/Tc/Tr/Ta"},
		{name: "an empty timer", line: strings.Replace(noSyslog, "10/0/30/69/109", "10//30/69/109", 1), err: "timers not TR/Tw/Tc/Tr/Ta"},
		{name: "a negative time", line: strings.Replace(noSyslog, "10/0/30/69/109", "10/0/30/69/-5", 1), err: "request_time"},
		{name: "an unreadable time", line: strings.Replace(noSyslog, "10/0/30/69/109", "10/0/30/69/abc", 1), err: "request_time"},
		{name: "an unreadable date", line: strings.Replace(noSyslog, "12:14:14.655", "12:14:xx.655", 1), err: "time"},
		{name: "cut after the queues", line: noSyslog[:strings.Index(noSyslog, " {")], err: "request not quoted"},
		{name: "cut in the counters", line: noSyslog[:strings.Index(noSyslog, " 1/1/1/1/0")], err: "cut short"},
		{name: "a capture not closed", line: strings.Replace(noSyslog, "{1wt.eu} {} ", "{1wt.eu ", 1), err: "not closed by }"},
		{name: "tcplog", line: `10.0.1.2:33313 [06/Feb/2009:12:12:51.443] fnt bck/srv1 0/0/5007 212 -- 0/0/0/0/3 0/0`, err: "TCP log line"}, // passed over
		{name: "nginx combined", line: `10.0.1.2 - - [06/Feb/2009:12:14:14 +0800] "GET / HTTP/1.1" 200 612 "-" "curl/8.0"`, err: "not an HAProxy"},
		{name: "garbage", line: "\x00\x01 [\xff", err: "not an HAProxy"},
	}
	c := textConfig(t, "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkParse(t, newHAProxyParser(c), tt.line, tt.want, tt.err)
			switch looks := looksHAProxy([]byte(tt.line)); {
			case tt.err != "" && looks && strings.Contains(tt.err, "HAProxy"):
				t.Errorf("looksHAProxy takes a line Parse refuses")
			case tt.err == "" && !looks:
				t.Errorf("looksHAProxy refuses a line Parse reads")
			}
		})
	}
}

// TestHAProxyParseAllocatesNothing: a line, its derived upstream time
// included, is read without allocating once the parser is warm.
func TestHAProxyParseAllocatesNothing(t *testing.T) {
	if n := parseAllocs(t, newHAProxyParser(textConfig(t, "")), []byte(hapManualLine)); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
}

// TestHAProxyMap: --map reads a text column as it says; the timers keep
// the manual's meaning (--map matches names whatever their case, and TR
// and Tr are two timers).
func TestHAProxyMap(t *testing.T) {
	s, err := NewSchema([]string{"region=frontend_name", "request_time=Tr:ms"})
	if err != nil {
		t.Fatal(err)
	}
	p := newHAProxyParser(&parserConfig{schema: s, loc: time.UTC})
	var r Record
	if err := p.Parse([]byte(hapManualLine), &r); err != nil {
		t.Fatal(err)
	}
	if got := string(r.Text(FRegion)); got != "http-in" {
		t.Errorf("region %q, want the frontend", got)
	}
	if got, _ := r.Float(FRequestTime); got != ms(109) {
		t.Errorf("request_time %v, want Ta's 0.109", got)
	}
}

// TestSniffHAProxy: an HAProxy log is told by its lines, after a syslog
// file's start messages too; nginx's and the other formats' are not
// taken for it.
func TestSniffHAProxy(t *testing.T) {
	start := "Feb  6 12:14:00 localhost haproxy[14389]: Proxy http-in started.\nFeb  6 12:14:00 localhost haproxy[14389]: Proxy static started.\n"
	for _, c := range []struct {
		head string
		want Format
	}{
		{hapManualLine + "\n", HAProxy},
		{start + hapManualLine + "\n", HAProxy},
		{`10.0.1.2 - - [06/Feb/2009:12:14:14 +0800] "GET / HTTP/1.1" 200 612 "-" "curl/8.0"` + "\n", Nginx},
		{`[be8874ccdedaed58] [29/Nov/2026:10:00:00 +0800] [HTTPS]` + "\n", CLB},
		{"time:[06/Feb/2009:12:14:14 +0800]\thost:10.0.1.2\treqtime:0.1\n", LTSV},
		{start, Nginx}, // no request among them: a text log of its own
	} {
		if got := sniff([]byte(c.head), nil); got != c.want {
			t.Errorf("sniff(%.40q…) = %s, want %s", c.head, got, c.want)
		}
	}
}

// FuzzHAProxy: any line is read or refused with a reason, never a
// panic; looksHAProxy agrees with split; a line read has its times in
// bounds, and the upstream time is Ta − TR − Tw of the line's timers.
func FuzzHAProxy(f *testing.F) {
	f.Add(hapManualLine)
	f.Add(`[::1]:1 [06/Feb/2009:12:14:14.655] a b/<NOSRV> +1/-1/0/0/-1 -1 0 - - ---- 0/0/0/0/0 0/0 {a} {b c} "<BADREQ>" x`)
	f.Add(`1.2.3.4:5 [06/Feb/2009:12:14:14.655] a b/c 9223372036854775807/0/0/0/9223372036854775807 200 0 - - ---- 0/0/0/0/0 0/0 "GET / HTTP/1.1"`)
	f.Add(`1.2.3.4:5 [06/Feb/2009:12:14:14.655] a b/c 1/2/3/4/1e308 200 0 - - ---- 0/0/0/0/0 0/0 "GET / HTTP/1.1"`)
	f.Add(`Dec  5 10:00:02 lb1 haproxy[901]: 10.0.1.9:51000 [05/Dec/2026:10:00:02.300] llm-in/tls: SSL handshake failure`)
	f.Add(`10.0.1.4:40200 [05/Dec/2026:10:00:03.000] redis-in redis/r1 0/0/+5007 212 -- 1/1/0/0/0 0/0`)
	f.Add(`2026-12-05T10:00:04.5Z [WARNING]  (8) : Server vllm/gpu-1 is DOWN`)
	c := textConfig(f, "")
	f.Fuzz(func(t *testing.T, line string) {
		p := newHAProxyParser(c)
		var r Record
		err := p.Parse([]byte(line), &r)
		var q haproxyParser
		splits := q.split([]byte(line)) == nil
		if looksHAProxy([]byte(line)) != splits {
			t.Fatal("looksHAProxy disagrees with split")
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a reason")
			}
			return
		}
		if !splits {
			t.Fatal("read a line split refuses")
		}
		for _, f := range []Field{FRequestTime, FUpstreamResponseTime, FUpstreamConnectTime, FUpstreamHeaderTime} {
			if x, ok := r.Float(f); ok && !(x >= 0 && x <= MaxDurationS) {
				t.Fatalf("%s = %v", f, x)
			}
		}
		if urt, ok := r.Float(FUpstreamResponseTime); ok {
			rt, okRT := r.Float(FRequestTime)
			if !okRT || urt > rt {
				t.Fatalf("upstream time %v beyond the request's %v (%v)", urt, rt, okRT)
			}
			if want := float64(mustInt(t, q.vals[hapTa])-mustInt(t, q.vals[hapTR])-mustInt(t, q.vals[hapTw])) / 1000; math.Abs(urt-want) > 1e-9*math.Max(1, want) {
				t.Fatalf("upstream time %v, want Ta − TR − Tw = %v", urt, want)
			}
		}
		if r.Has(FRequest) && bytes.IndexByte(r.Text(FRequest), '<') == 0 {
			t.Fatalf("request %q read as one", r.Text(FRequest))
		}
	})
}

func mustInt(t *testing.T, b []byte) int64 {
	t.Helper()
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		t.Fatalf("timer %q: %v", b, err)
	}
	return n
}
