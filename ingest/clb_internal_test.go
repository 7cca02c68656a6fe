package ingest

import (
	"strings"
	"testing"
)

// clbLine builds a CLB line from the sample's first line with some fields
// replaced, by column name.
func clbLine(repl map[string]string) string {
	vals := []string{"be8874ccdedaed58", "29/Nov/2026:10:00:00 +0800", "HTTPS", "10.0.0.10:443",
		"tokenhub.example.com", "10.12.129.190:40027", "200", "10.0.1.1:8080", "200", "tokenhub-backend",
		"POST /v1/chat/completions HTTP/1.1", "358", "1496", "tokenhub.example.com", "python-requests/2.31",
		"-", "4.683", "4.681", "0.000", "1.404", "1481", "27", "29", "1:0.000:0.000:0.000:0.000:0.000:0.000",
		"ECDHE-RSA-AES128-GCM-SHA256", "TLSv1.2", "-1", "/v1/chat/completions", "HTTP/1.1"}
	for i, name := range clbColumns {
		if v, ok := repl[name]; ok {
			vals[i] = v
		}
	}
	return "[" + strings.Join(vals, "] [") + "]"
}

// clbLayout27 is clbLine(nil) as CLB wrote it before [$uri] and
// [$server_protocol] (Configuring Access Logs, earlier).
func clbLayout27() string {
	l := clbLine(nil)
	for range 2 {
		l = l[:strings.LastIndex(l, " [")]
	}
	return l
}

// clbLayout26 is clbLine(nil) as CLB stored it to COS (Storing Request
// Logs to COS, 214/10329): no [$upstream_addr], [$ssl_session_reused]
// after [$ssl_protocol].
func clbLayout26() string {
	fields := strings.Split(strings.Trim(clbLine(nil), "[]"), "] [")
	fields = append(append(fields[:7:7], fields[8:26]...), "r")
	return "[" + strings.Join(fields, "] [") + "]"
}

func TestCLBParse(t *testing.T) {
	// 29/Nov/2026:10:00:00 +0800.
	const t0 = int64(1795917600) * 1e9
	base := func(extra ...textWant) []textWant {
		ws := []textWant{{f: FTime, ns: t0}, {f: FRemoteAddr, text: "10.12.129.190"}, {f: FClient, text: "10.12.129.190"},
			{f: FStatus, num: 200}, {f: FUpstreamAddr, text: "10.0.1.1:8080"}, {f: FUpstreamStatus, num: 200},
			{f: FRequest, text: "POST /v1/chat/completions HTTP/1.1"}, {f: FMethod, text: "POST"},
			{f: FURI, text: "/v1/chat/completions"}, {f: FRequestTime, num: 4.683},
			{f: FUpstreamResponseTime, num: 4.681}, {f: FUpstreamConnectTime, num: 0}, {f: FUpstreamHeaderTime, num: 1.404},
			{f: FTCPInfoRTT, num: 1481}, {f: FConnection, num: 27}, {f: FConnectionRequests, num: 29},
			{f: FSSLHandshakeTime, num: 0}, {f: FHost, text: "tokenhub.example.com"}}
		for _, e := range extra {
			for i := range ws {
				if ws[i].f == e.f {
					ws[i] = e
					e.f = NumFields
				}
			}
			if e.f != NumFields {
				ws = append(ws, e)
			}
		}
		return ws
	}
	tests := []struct {
		name string
		line string
		want []textWant
		err  string
	}{
		{name: "sample", line: clbLine(nil), want: base()},
		{name: "trailing spaces", line: clbLine(nil) + "  ", want: base()},
		{name: "full handshake", line: clbLine(map[string]string{"ssl_handshake_time": "0:0.359:0.001:0.001:0.000:0.000:0.000"}),
			want: base(textWant{f: FSSLHandshakeTime, num: 0.359})},
		{name: "handshake as a plain number", line: clbLine(map[string]string{"ssl_handshake_time": "0.250"}),
			want: base(textWant{f: FSSLHandshakeTime, num: 0.25})},
		{name: "handshake with two parts", line: clbLine(map[string]string{"ssl_handshake_time": "0:0.125"}),
			want: base(textWant{f: FSSLHandshakeTime, num: 0.125})},
		{name: "no handshake", line: clbLine(map[string]string{"ssl_handshake_time": "-"}),
			want: wantsWithout(base(), FSSLHandshakeTime)},
		{name: "upstream lists", line: clbLine(map[string]string{"upstream_addr": "10.0.1.1:8080, 10.0.1.2:8080",
			"upstream_status": "502, 200", "upstream_response_time": "0.003, 3.661", "upstream_connect_time": "0.001, 0.002"}),
			want: base(textWant{f: FUpstreamAddr, text: "10.0.1.1:8080, 10.0.1.2:8080"}, textWant{f: FUpstreamStatus, num: 200},
				textWant{f: FUpstreamResponseTime, num: 0.003 + 3.661}, textWant{f: FUpstreamConnectTime, num: 0.003})},
		{name: "no upstream", line: clbLine(map[string]string{"upstream_addr": "-", "upstream_status": "-",
			"upstream_response_time": "-", "upstream_connect_time": "-", "upstream_header_time": "-"}),
			want: wantsWithout(base(), FUpstreamAddr, FUpstreamStatus, FUpstreamResponseTime, FUpstreamConnectTime, FUpstreamHeaderTime)},
		{name: "IPv6 in brackets", line: clbLine(map[string]string{"remote_addr": "[2001:db8::7]:40027"}),
			want: base(textWant{f: FRemoteAddr, text: "2001:db8::7"}, textWant{f: FClient, text: "2001:db8::7"})},
		{name: "IPv6 without brackets", line: clbLine(map[string]string{"remote_addr": "2001:db8::7:40027"}),
			want: base(textWant{f: FRemoteAddr, text: "2001:db8::7"}, textWant{f: FClient, text: "2001:db8::7"})},
		{name: "address without a port", line: clbLine(map[string]string{"remote_addr": "10.1.2.3"}),
			want: base(textWant{f: FRemoteAddr, text: "10.1.2.3"}, textWant{f: FClient, text: "10.1.2.3"})},
		{name: "a ] inside a value", line: clbLine(map[string]string{"http_user_agent": "agent]x [y]", "uri": "/v1/a]"}),
			want: base(textWant{f: FURI, text: "/v1/a]"})},
		{name: "absent request time", line: clbLine(map[string]string{"request_time": "-"}),
			want: wantsWithout(base(), FRequestTime)},
		{name: "bad time", line: clbLine(map[string]string{"time_local": "not-a-time"}), err: `time: cannot read "not-a-time"`},
		{name: "bad request time", line: clbLine(map[string]string{"request_time": "abc"}), err: `request_time: cannot read "abc"`},
		{name: "a value holding the separator", line: clbLine(map[string]string{"http_user_agent": "a] [b"}),
			err: "want 29 bracketed fields (or an older layout's 27 or 26), got 30"},
		{name: "a field short", line: clbLine(nil)[:strings.LastIndex(clbLine(nil), " [")], err: "want 29 bracketed fields (or an older layout's 27 or 26), got 28"},
		// The layouts CLB wrote before: without [$uri] [$server_protocol]
		// (27, the request line gives the uri), and the log it stored to
		// COS (26: no [$upstream_addr], [$ssl_session_reused] last).
		{name: "27 fields", line: clbLayout27(), want: base()},
		{name: "COS's 26 fields", line: clbLayout26(), want: wantsWithout(base(), FUpstreamAddr)},
		{name: "broken", line: "[broken clb line", err: "not a CLB access log line"},
		{name: "empty brackets", line: "[]", err: "want 29 bracketed fields (or an older layout's 27 or 26), got 1"},
		{name: "garbage", line: "\x00\x01\x02binary\xff\xfe garbage", err: "not a CLB access log line"},
	}
	c := textConfig(t, "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newCLBParser(c)
			checkParse(t, p, tt.line, tt.want, tt.err)
		})
	}
}

// TestCLBMap: the CLB columns go through the schema, so --map applies.
func TestCLBMap(t *testing.T) {
	s, err := NewSchema([]string{"region=server_name", "client=http_user_agent"})
	if err != nil {
		t.Fatal(err)
	}
	p := newCLBParser(&parserConfig{schema: s, loc: textConfig(t, "").loc})
	var r Record
	if err := p.Parse([]byte(clbLine(nil)), &r); err != nil {
		t.Fatal(err)
	}
	if got := string(r.Text(FRegion)); got != "tokenhub.example.com" {
		t.Errorf("region %q, want the server name", got)
	}
	if got := string(r.Text(FClient)); got != "python-requests/2.31" {
		t.Errorf("client %q, want the user agent", got)
	}
}

func FuzzCLB(f *testing.F) {
	for _, l := range textSampleLines(f, "tokenhub-sample-clb.log", 20, func(l string) bool {
		return !strings.HasPrefix(l, "[") || strings.Contains(l, "0, ") || strings.Contains(l, "[0:")
	}) {
		f.Add(l)
	}
	f.Add(clbLine(map[string]string{"remote_addr": "[::1]:443", "http_user_agent": "a]b"}))
	f.Add(clbLayout27())
	f.Add(clbLayout26())
	f.Fuzz(func(t *testing.T, line string) {
		p := newCLBParser(textConfig(t, ""))
		var r Record
		err := p.Parse([]byte(line), &r)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a reason")
			}
			return
		}
		// What parses is bracketed and has a layout's fields: 29, 27
		// or 26.
		l := strings.TrimRight(line, " ")
		if !strings.HasPrefix(l, "[") || !strings.HasSuffix(l, "]") {
			t.Fatalf("parsed %q, which is not bracketed", line)
		}
		if n := strings.Count(l[1:len(l)-1], "] [") + 1; n != 29 && n != 27 && n != 26 {
			t.Fatalf("parsed %q, which is %d bracketed fields", line, n)
		}
	})
}

func BenchmarkCLB(b *testing.B) {
	lines := textSampleLines(b, "tokenhub-sample-clb.log", 1<<30, func(string) bool { return true })
	benchTextParse(b, newCLBParser(textConfig(b, "")), lines)
}
