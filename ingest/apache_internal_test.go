package ingest

import (
	"strings"
	"testing"
	"time"
)

// apacheCombinedD is Apache httpd's combined LogFormat with the time
// taken in microseconds, the access log of mod_log_config's
// documentation with %D appended.
const apacheCombinedD = `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D`

// An Apache LogFormat given with --log-format: each directive means what
// mod_log_config's documentation says, its unit included; the values
// below are worked out from the lines by hand.
func TestApacheFormatGiven(t *testing.T) {
	// 10/Oct/2026:13:55:36 -0700 is 20:55:36 UTC.
	t0 := float64(time.Date(2026, 10, 10, 20, 55, 36, 0, time.UTC).Unix())
	tests := []struct {
		name, format, line string
		want               []want
	}{
		{"combined with %D (µs)", apacheCombinedD,
			`10.1.1.1 - frank [10/Oct/2026:13:55:36 -0700] "POST /v1/chat/completions HTTP/1.1" 200 2326 "-" "openai-python/1.54.0" 6210452`,
			[]want{{f: FTime, num: t0}, {f: FRemoteAddr, text: "10.1.1.1"}, {f: FClient, text: "frank"}, {f: FStatus, num: 200},
				{f: FMethod, text: "POST"}, {f: FURI, text: "/v1/chat/completions"}, {f: FRequestTime, num: 6.210452}}},
		{"%T: whole seconds", `%h %t "%r" %>s %T`,
			`10.1.1.1 [10/Oct/2026:13:55:36 -0700] "GET /v1/models HTTP/1.1" 200 2`,
			[]want{{f: FTime, num: t0}, {f: FStatus, num: 200}, {f: FRequestTime, num: 2}}},
		{"%{ms}T and mod_logio's %^FB (µs)", `%a %t "%m %U%q %H" %s %{ms}T %^FB`,
			`10.1.1.1 [10/Oct/2026:13:55:36 -0700] "POST /v1/chat/completions?stream=true HTTP/2.0" 200 6210 412345`,
			[]want{{f: FRemoteAddr, text: "10.1.1.1"}, {f: FMethod, text: "POST"}, {f: FURI, text: "/v1/chat/completions?stream=true"},
				{f: FStatus, num: 200}, {f: FRequestTime, num: 6.21}, {f: FTTFB, num: 412.345}}},
		{"the client behind a proxy, a status condition, %%", `"%{X-Forwarded-For}i" %t "%r" %!200,304>s 100%% %{us}T`,
			`"203.0.113.7, 10.0.0.2" [10/Oct/2026:13:55:36 -0700] "POST /v1/chat HTTP/1.1" 504 100% 60001234`,
			[]want{{f: FRemoteAddr, text: "203.0.113.7"}, {f: FStatus, num: 504}, {f: FRequestTime, num: 60.001234}}},
		// Unquoted, the header's list holds a space before its next
		// address: the value runs past it, and %h (which wins) is the
		// word after the list.
		{"the proxies' list unquoted", `%{X-Forwarded-For}i %h %t "%r" %>s %D`,
			`203.0.113.7, 10.0.0.2 10.0.0.9 [10/Oct/2026:13:55:36 -0700] "POST /v1/chat HTTP/1.1" 200 6210452`,
			[]want{{f: FRemoteAddr, text: "10.0.0.9"}, {f: FTime, num: t0}, {f: FRequestTime, num: 6.210452}}},
		// logback-access's patterns (its PatternLayout's COMBINED_PATTERN
		// with %D appended, and CLF_PATTERN's "[%t]" alone): the date
		// between brackets of the pattern's own, a header "%i{Name}", and
		// %D in ms.
		{"logback-access's combined with %D (ms)", `%h %l %u [%t] "%r" %s %b "%i{Referer}" "%i{User-Agent}" %D`,
			`10.1.1.1 - frank [10/Oct/2026:13:55:36 -0700] "POST /v1/chat/completions HTTP/1.1" 200 2326 "-" "openai-python/1.54.0" 6210`,
			[]want{{f: FTime, num: t0}, {f: FRemoteAddr, text: "10.1.1.1"}, {f: FClient, text: "frank"}, {f: FStatus, num: 200},
				{f: FMethod, text: "POST"}, {f: FURI, text: "/v1/chat/completions"}, {f: FRequestTime, num: 6.21}}},
		{"logback-access's [%t] and %D (ms)", `%h %l %u [%t] "%r" %s %b %D`,
			`10.1.1.1 - - [10/Oct/2026:13:55:36 -0700] "GET /v1/models HTTP/1.1" 200 512 7`,
			[]want{{f: FTime, num: t0}, {f: FStatus, num: 200}, {f: FRequestTime, num: 0.007}}},
		{"logback-access's header, the client behind a proxy", `%i{X-Forwarded-For} [%t] "%r" %s`,
			`203.0.113.7 [10/Oct/2026:13:55:36 -0700] "POST /v1/chat HTTP/1.1" 504`,
			[]want{{f: FRemoteAddr, text: "203.0.113.7"}, {f: FTime, num: t0}, {f: FStatus, num: 504}}},
	}
	// The same format copied from httpd.conf as its manual writes it:
	// the directive whole, its quoted string, or the text within, its
	// quotes escaped.
	combined := tests[0]
	escaped := strings.ReplaceAll(apacheCombinedD, `"`, `\"`)
	for _, f := range []string{`LogFormat "` + escaped + `" combinedD`, "logformat \t\"" + escaped + "\"", `"` + escaped + `"`, escaped} {
		c := combined
		c.name, c.format = "copied from httpd.conf: "+f, f
		tests = append(tests, c)
	}
	// Tomcat's AccessLogValve pattern as server.xml writes it.
	c := combined
	c.name, c.format = "copied from server.xml", strings.ReplaceAll(apacheCombinedD, `"`, "&quot;")
	tests = append(tests, c)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParser(t, tc.format)
			if p.f.source != "apache" {
				t.Errorf("source %q, want apache", p.f.source)
			}
			var r Record
			if err := p.Parse([]byte(tc.line), &r); err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			checkRecord(t, &r, tc.want, nil)
		})
	}
	// --map wins over a directive's own binding.
	s, _ := NewSchema([]string{"request_time=request_time:ms"})
	f, err := compileLogFormat(`%h %D`, s)
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := (&nginxParser{f: f}).Parse([]byte("10.1.1.1 1500"), &r); err != nil {
		t.Fatal(err)
	}
	checkRecord(t, &r, []want{{f: FRequestTime, num: 1.5}}, nil)
}

// TestApacheTokens: the directives' names, modifiers dropped but < and >;
// malformed directives refused; nginx and Envoy strings are not
// Apache's.
func TestApacheTokens(t *testing.T) {
	toks, err := apacheTokens(`%h %!200,304>s %{User-Agent}i %^FB %U%q 50%% %t`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tk := range toks {
		if tk.name != "" {
			names = append(names, tk.name+"="+tk.lookup)
		}
	}
	if got, want := strings.Join(names, " "), "h=h >s=>s {User-Agent}i=user_agent ^FB=^FB U=U t=time_local"; got != want {
		t.Errorf("directives %q, want %q", got, want)
	}
	for bad, why := range map[string]string{`%h %{Referer`: "not closed by }", `%h %`: "no directive letter", `%h %5`: "no directive letter",
		`%h %{x}`: "no directive letter"} {
		if _, err := apacheTokens(bad); err == nil {
			t.Errorf("apacheTokens(%q) accepted", bad)
		}
		// The flag's check says what is wrong with it.
		if err := CompileLogFormat(`%t "%r" ` + bad); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("CompileLogFormat(%q): %v, want an error saying %q", bad, err, why)
		}
	}
	for _, s := range []string{`$remote_addr $request_time`, `[%START_TIME%] %DURATION% %RESPONSE_CODE%`, `no directives`} {
		if f, err := compileLogFormat(s, nil); err == nil && f.source == "apache" {
			t.Errorf("%q compiled as Apache's", s)
		}
	}
	if !hasApacheDirective(`%h %U%q %D`) || hasEnvoyOperator(`%h %U%q %D`) {
		t.Errorf("%q is not told as Apache's", `%h %U%q %D`)
	}
}
