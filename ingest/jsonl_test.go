package ingest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func parseJSON(t testing.TB, line string) (*Record, error) {
	t.Helper()
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	p := newJSONParser(s, time.UTC)
	var r Record
	err = p.Parse([]byte(line), &r)
	return &r, err
}

func TestJSONTypedAndCLS(t *testing.T) {
	typed := `{"time":"2026-11-29T10:00:00.036+08:00","app_id":"app-003","remote_addr":"10.12.129.190","client_region":"ap-beijing","region":"ap-beijing","method":"POST","uri":"/v1/chat/completions?x=1","model":"qwen2-7b-instruct","stream":false,"status":200,"request_time":4.683,"upstream_response_time":"4.681","first_token_ms":4680.7,"retry_after":null,"tags":[1,{"a":"]"}],"obj":{"x":"}"}}`
	cls := `{"__TIMESTAMP__":"1795917600036","__SOURCE__":"10.12.129.190","__TAG__.client_region":"ap-beijing","__TAG__.region":"ap-beijing","app_id":"app-003","request":"POST /v1/chat/completions?x=1 HTTP/1.1","model":"qwen2-7b-instruct","stream":"false","status":"200","request_time":"4.683","upstream_response_time":"4.681","first_token_ms":"4680.7","retry_after":""}`
	for name, line := range map[string]string{"typed": typed, "cls": cls} {
		r, err := parseJSON(t, line)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := time.Date(2026, 11, 29, 2, 0, 0, 36e6, time.UTC).UnixNano()
		if r.TimeNS != want {
			t.Errorf("%s: time %v", name, time.Unix(0, r.TimeNS).UTC())
		}
		for f, v := range map[Field]string{
			FClient: "app-003", FRemoteAddr: "10.12.129.190", FClientRegion: "ap-beijing",
			FRegion: "ap-beijing", FModel: "qwen2-7b-instruct", FMethod: "POST", FURI: "/v1/chat/completions?x=1",
		} {
			if got := string(r.Text(f)); got != v {
				t.Errorf("%s: %s = %q, want %q", name, f, got, v)
			}
		}
		if v, _ := r.Float(FRequestTime); v != 4.683 {
			t.Errorf("%s: request_time %v", name, v)
		}
		if v, _ := r.Float(FUpstreamResponseTime); v != 4.681 {
			t.Errorf("%s: upstream %v", name, v)
		}
		if v, _ := r.Float(FTTFT); v != 4680.7 {
			t.Errorf("%s: ttft %v", name, v)
		}
		if v, _ := r.Int(FStatus); v != 200 {
			t.Errorf("%s: status %v", name, v)
		}
		if b, ok := r.Bool(FStream); !ok || b {
			t.Errorf("%s: stream %v %v", name, b, ok)
		}
		if r.Has(FRetryAfter) {
			t.Errorf("%s: retry_after should be absent", name)
		}
	}
}

func TestJSONNestedAndEscapes(t *testing.T) {
	r, err := parseJSON(t, `{"time":1795917600,"ai_log":"{\"model\":\"qwen-max\",\"llm_first_token_duration\":350,\"llm_service_duration\":4200}","client":"a\"b\u00e9\ud83d\ude00"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(r.Text(FModel)); got != "qwen-max" {
		t.Errorf("model %q", got)
	}
	if v, _ := r.Float(FTTFT); v != 350 {
		t.Errorf("ttft %v", v)
	}
	if v, _ := r.Float(FRequestTime); v != 4.2 {
		t.Errorf("request_time %v", v)
	}
	if got := string(r.Text(FClient)); got != "a\"bé😀" {
		t.Errorf("client %q", got)
	}
	r, err = parseJSON(t, `{"ai_log":{"model":"m1","llm_service_duration":"1500"}}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(r.Text(FModel)); got != "m1" {
		t.Errorf("nested model %q", got)
	}
	if v, _ := r.Float(FRequestTime); v != 1.5 {
		t.Errorf("nested request_time %v", v)
	}
}

func TestJSONBadLines(t *testing.T) {
	for _, c := range []struct{ line, reason string }{
		{`{"time":"2026-11-29T10:00:00Z","request_time":1.2`, "truncated"},
		{"\x00\x01binary\xff", "not a JSON object"},
		{`{"time":"not-a-time","request_time":1}`, `time: cannot read "not-a-time"`},
		{`{"request_time":"abc"}`, `request_time: cannot read "abc"`},
		{`{"request_time":"NaN"}`, `request_time: cannot read "NaN"`},
		{`{"request_time":-1}`, `request_time: cannot read "-1"`},
		{`{"a":1}x`, "text after the object"},
		{`{"a":tru}`, "want a value"},
		{`{"a" 1}`, "want ':'"},
		{`{"a":"\q"}`, "bad escape"},
		{`{"a":"\x2"}`, "bad \\x escape"},
		{`{"a":"\xg0"}`, "bad \\x escape"},
		{`[1,2]`, "not a JSON object"},
		{`{"a":1,}`, "want a key"},
		{`{"a":{"b":[` + strings.Repeat("[", 100000), "truncated"},
	} {
		_, err := parseJSON(t, c.line)
		if err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("Parse(%.40q) = %v, want %q", c.line, err, c.reason)
		}
	}
	// Absent values are not bad.
	for _, line := range []string{`{"time":null,"request_time":null}`, `{"time":"","request_time":"-"}`, `{}`} {
		if _, err := parseJSON(t, line); err != nil {
			t.Errorf("Parse(%q) = %v, want nil", line, err)
		}
	}
}

// nginxEscape escapes v as nginx's log module does for a log_format
// without escape=json: '"', '\\', bytes below 0x20 and from 0x7f as \xHH.
func nginxEscape(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			fmt.Fprintf(&b, "\\x%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// TestJSONNginxEscapes: a JSON log_format written without escape=json
// has nginx escape its values' quotes, backslashes, control and
// non-ASCII bytes as \xHH; each reads back as the byte it stands for.
func TestJSONNginxEscapes(t *testing.T) {
	for _, v := range []string{`curl "quoted"`, `C:\path\x`, "tab\there", "模型 qwen-plus", "\xff\x00", `\x22`, "plain"} {
		line := `{"time_local":"04/Dec/2026:10:00:00 +0800","request_time":"0.012","status":"200","model":"` + nginxEscape(v) + `"}`
		r, err := parseJSON(t, line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if got := string(r.Text(FModel)); got != v {
			t.Errorf("%s: model %q, want %q", line, got, v)
		}
		if rt, _ := r.Float(FRequestTime); rt != 0.012 {
			t.Errorf("%s: request_time %v", line, rt)
		}
	}
}

func TestJSONNoAllocs(t *testing.T) {
	s, _ := NewSchema(nil)
	p := newJSONParser(s, time.UTC)
	line := []byte(`{"__TIMESTAMP__":"1795917600036","__SOURCE__":"10.12.129.190","app_id":"app-003","region":"ap-beijing","request":"POST /v1/chat/completions HTTP/1.1","model":"qwen2-7b-instruct","stream":"false","status":"200","request_time":"4.683","upstream_response_time":"4.681, 0.002","first_token_ms":"4680.7","http_user_agent":"a\"b"}`)
	nested := []byte(`{"time":1795917600,"ai_log":"{\"model\":\"qwen-max\",\"llm_first_token_duration\":350}","x":{"ai_log":1},"ai_log2":{"model":"m"}}`)
	var r Record
	allocs := testing.AllocsPerRun(100, func() {
		for _, l := range [][]byte{line, nested} {
			r.Reset()
			if err := p.Parse(l, &r); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Parse allocates %v times per line, want 0", allocs)
	}
}

func BenchmarkJSONParse(b *testing.B) {
	s, _ := NewSchema(nil)
	p := newJSONParser(s, time.UTC)
	line := []byte(`{"time":"2026-11-29T10:00:00.036+08:00","request_id":"be8874ccdedaed58","app_id":"app-003","remote_addr":"10.12.129.190","client_region":"ap-beijing","region":"ap-beijing","method":"POST","uri":"/v1/chat/completions","model":"qwen2-7b-instruct","stream":false,"status":200,"request_time":4.683,"upstream_response_time":"4.681","first_token_ms":4680.7,"upstream_connect_time":0.000,"ssl_handshake_time":0.000,"tcpinfo_rtt":1481,"connection":27,"connection_requests":29,"retry_after":null,"prompt_tokens":58,"completion_tokens":324,"bytes_sent":1496,"http_user_agent":"python-requests/2.31"}`)
	var r Record
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset()
		if err := p.Parse(line, &r); err != nil {
			b.Fatal(err)
		}
	}
}
