package ingest

import (
	"testing"
	"time"
)

// TestStrftimeTimes: a time written with a format of the writer's
// choosing, Envoy's %START_TIME(FORMAT)% (its documentation's example
// among them) and Apache's %{FORMAT}t, is read as written: the wanted
// times come from time.Date, not from the parser.
func TestStrftimeTimes(t *testing.T) {
	at := time.Date(2026, 12, 4, 10, 0, 0, 123e6, time.UTC)
	sec := float64(at.Unix())
	ms := float64(at.UnixMilli()) / 1e3
	envoy := func(f string) string {
		return `[%START_TIME(` + f + `)%] "%REQ(:METHOD)% %REQ(:PATH)% %PROTOCOL%" %RESPONSE_CODE% %DURATION%`
	}
	const req = ` "POST /v1/chat/completions HTTP/1.1" 200 1234`
	tests := []struct {
		name, format, line string
		time               float64
	}{
		{"Envoy's documented example, a space inside", envoy("%Y/%m/%dT%H:%M:%S%z %s"),
			"[2026/12/04T18:00:00+0800 1796378400]" + req, sec},
		{"Envoy's %3f", envoy("%Y-%m-%dT%H:%M:%S.%3f%z"),
			"[2026-12-04T18:00:00.123+0800]" + req, ms},
		{"Envoy's %s.%3f", envoy("%s.%3f"), "[1796378400.123]" + req, ms},
		{"Envoy's, no zone: --tz", envoy("%Y-%m-%d %H:%M:%S"), "[2026-12-04 10:00:00]" + req, sec},
		{"Apache's, unbracketed with a space", `%h %{%Y-%m-%d %H:%M:%S}t "%r" %>s %D`,
			`10.1.1.1 2026-12-04 10:00:00 "POST /v1/chat HTTP/1.1" 200 1234`, sec},
		{"Apache's end: with a zone", `%h [%{end:%d/%b/%Y:%H:%M:%S %z}t] "%r" %>s %D`,
			`10.1.1.1 [04/Dec/2026:05:00:00 -0500] "POST /v1/chat HTTP/1.1" 200 1234`, sec},
		// Jetty's CustomRequestLog: Apache's syntax, a Java pattern
		// (its requestlog module's default), the time in brackets.
		{"Jetty's default", `%{client}a - %u %{dd/MMM/yyyy:HH:mm:ss ZZZ|GMT}t "%r" %s %O`,
			`10.1.1.1 - - [04/Dec/2026:10:00:00 +0000] "POST /v1/chat HTTP/1.1" 200 1234`, sec},
		{"Jetty's ISO 8601 with a fraction", `%{client}a %{yyyy-MM-dd'T'HH:mm:ss.SSSXXX|UTC}t "%r" %s %{ms}T`,
			`10.1.1.1 [2026-12-04T18:00:00.123+08:00] "POST /v1/chat HTTP/1.1" 200 1234`, ms},
		{"Apache's msec", `%h %{msec}t "%r" %>s %D`, `10.1.1.1 1796378400123 "POST /v1/chat HTTP/1.1" 200 1234`, ms},
		{"Apache's sec", `%h %{sec}t "%r" %>s %D`, `10.1.1.1 1796378400 "POST /v1/chat HTTP/1.1" 200 1234`, sec},
		// mod_log_config's own example: the date and time to the
		// second, the fraction and the zone, in directives of their own,
		// are read as one time.
		{"Apache's manual's three directives", `%h [%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t] "%r" %>s %D`,
			`10.1.1.1 [04/Dec/2026 18:00:00.123 +0800] "POST /v1/chat HTTP/1.1" 200 1234`, ms},
		{"Apache's three directives, ISO 8601", `%h [%{%Y-%m-%dT%H:%M:%S}t.%{usec_frac}t%{%z}t] "%r" %>s %D`,
			`10.1.1.1 [2026-12-04T05:00:00.123000-0500] "POST /v1/chat HTTP/1.1" 200 1234`, ms},
		{"Apache's date and zone apart", `%h [%{begin:%d/%b/%Y:%H:%M:%S}t %{begin:%z}t] "%r" %>s %D`,
			`10.1.1.1 [04/Dec/2026:18:00:00 +0800] "POST /v1/chat HTTP/1.1" 200 1234`, sec},
		{"Apache's date and fraction, no zone: --tz", `%h [%{%d/%b/%Y %T}t.%{msec_frac}t] "%r" %>s %D`,
			`10.1.1.1 [04/Dec/2026 10:00:00.123] "POST /v1/chat HTTP/1.1" 200 1234`, ms},
		{"Apache's date and an hour apart: the date read", `%h [%{%d/%b/%Y %T}t %{%H}t] "%r" %>s %D`,
			`10.1.1.1 [04/Dec/2026 10:00:00 10] "POST /v1/chat HTTP/1.1" 200 1234`, sec},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testParser(t, tc.format)
			p.loc = time.UTC
			var r Record
			if err := p.Parse([]byte(tc.line), &r); err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			checkRecord(t, &r, []want{{f: FTime, num: tc.time}, {f: FStatus, num: 200}}, nil)
		})
	}
	// A time its format does not read is a bad line, not a record
	// without a time.
	p := testParser(t, envoy("%Y-%m-%d %H:%M:%S"))
	var r Record
	if err := p.Parse([]byte("[04/12/2026 10:00]"+req), &r); err == nil {
		t.Errorf("a time its format does not read: no error")
	}
}
