package ingest

import (
	"bytes"
	"math"
	"strconv"
	"testing"
)

// FuzzTracing reads any line as a tracing event: no crash, a reason for
// every refusal, and a line read carries its time and, when one of its
// spans holds total_time, that duration as its request_time.
func FuzzTracing(f *testing.F) {
	f.Add(`2026-12-05T10:00:01.000000Z  INFO generate{parameters=GenerateParameters { stop: ["}: x"], seed: None } total_time="815.012ms" queue_time="350µs"}: text_generation_router::server: router/src/server.rs:322: Success`)
	f.Add(`2026-12-05T10:00:02.000000Z ERROR generate_stream{parameters=P { a: "\"" }}:async_stream:generate_stream: t::infer: x.rs:1: Model is overloaded`)
	f.Add("\x1b[2m2026-12-05T10:00:03Z\x1b[0m \x1b[32m INFO\x1b[0m \x1b[1mchat\x1b[0m{total_time=\"1m2.5s\"}: t: ok")
	f.Add(`2026-12-05 10:00:03 WARN a{total_time=9223372036854775807s b=((]}: t: m`)
	// The SGLang router's answers: latency µs, or a Debug Duration; its
	// span before the answer; a time of day after a space.
	f.Add(`2025-09-05 10:00:02.951  INFO http_request{method=POST uri=/v1/chat/completions version=HTTP/1.1 module="smg" request_id="chatcmpl-J" status_code=200 latency=810637}: smg::response: src/middleware.rs:262: finished processing request`)
	f.Add(`2025-09-05 10:00:02  WARN http_request{method=POST uri=/v1/x?a=b version=HTTP/1.1 request_id="c" status_code=429 latency="58.75ms"}: sglang_router_rs::response: src/middleware.rs:262: request failed with client error`)
	f.Add(`2025-09-05 10:00:06 ERROR http_request{method=POST uri=/generate version=HTTP/1.1 module="smg" request_id="g"}: smg::routers::http::router: src/routers/http/router.rs:611: Failed to send request`)
	f.Add("\x1b[2m2025-09-05 10:00:07\x1b[0m \x1b[33m WARN\x1b[0m \x1b[1mhttp_request\x1b[0m\x1b[1m{\x1b[0m\x1b[3mstatus_code\x1b[0m\x1b[2m=\x1b[0m429 \x1b[3mlatency\x1b[0m\x1b[2m=\x1b[0m18446744073709551615\x1b[1m}\x1b[0m\x1b[2m:\x1b[0m smg::response: request failed with server error")
	// tower-http's answers: full and compact formats, its span filtered
	// out, the file and line, a unit after a space, the start and the
	// failure.
	f.Add(`2025-03-10T10:00:13.469482Z DEBUG request{method=POST uri=/v1/completions version=HTTP/1.1}: tower_http::trace::on_response: finished processing request latency=3280 ms status=200`)
	f.Add(`2025-03-10T10:00:13.469482Z DEBUG request: tower_http::trace::on_response: finished processing request latency=3280896 μs status=200 method=POST uri=/v1/completions version=HTTP/1.1`)
	f.Add(`2025-03-10T10:01:07.004000Z  INFO tower_http::trace::on_response: finished processing request latency=0.004 s status=404`)
	f.Add(`2025-03-10T10:01:05.512000Z  INFO request{uri=/e headers={"a": "b=c: d"}}: tower_http::trace::on_response: src/trace/on_response.rs:263: finished processing request latency=12 ns response_headers={"x": "y"}`)
	f.Add(`2025-03-10T10:00:29.377702Z ERROR request: tower_http::trace::on_failure: response failed classification=Status code: 502 Bad Gateway latency=4175 ms method=POST uri=/api/v1/chat version=HTTP/1.1`)
	f.Add(`2025-03-10T10:01:07.000000Z  INFO tower_http::trace::on_request: started processing request`)
	c := textConfig(f, "")
	f.Fuzz(func(t *testing.T, line string) {
		p := newTracingParser(c)
		var r Record
		if err := p.Parse([]byte(line), &r); err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a reason")
			}
			return
		}
		var q tracingParser
		plain := []byte(line)
		if coloured(plain) {
			plain = appendDecolored(nil, plain)
		}
		if q.split(plain) != nil {
			t.Fatal("read a line split refuses")
		}
		if !r.Has(FTime) {
			t.Fatal("a line read without its time")
		}
		if q.tower {
			// tower-http's answer: its target and message, and the
			// status it names.
			if !bytes.Contains(plain, towerTarget) || !bytes.Contains(plain, towerFinished) {
				t.Fatal("read as tower-http's answer a line that is none")
			}
			if st, err := strconv.ParseInt(string(q.vals[trEventStatus]), 10, 64); err == nil && st >= 0 {
				if got, has := r.Int(FStatus); !has || got != st {
					t.Fatalf("status %d (%v), want %d", got, has, st)
				}
			}
		}
		if q.towerOther && q.vals[trTotal] == nil {
			t.Fatal("read one of tower-http's events that is not its answer")
		}
		if q.vals[trTotal] == nil && q.vals[trLatency] == nil && q.vals[trURI] != nil && !q.tower {
			t.Fatal("read an event of the SGLang router's span that is not its answer")
		}
		if lat := q.vals[trLatency]; q.vals[trTotal] == nil && len(lat) > 0 {
			// smg's µs as an integer (a number, in its binding's µs), or
			// a duration naming its unit.
			want, fl := unitDuration(lat)
			if us, err := strconv.ParseFloat(string(lat), 64); err == nil && !endsInUnit(lat) {
				want, fl = us/1e6, fine
			}
			if got, has := r.Float(FRequestTime); fl != fine || !has || math.Abs(got-want) > 1e-9*max(1, want) {
				t.Fatalf("request_time %v (%v), want latency %q's %v", got, has, lat, want)
			}
			if !routerAnswer(plain) && !q.tower {
				t.Fatal("read an event of the SGLang router's span that is not its answer")
			}
		}
		if total := q.vals[trTotal]; total != nil {
			want, fl := unitDuration(total)
			ok := fl == fine
			if got, has := r.Float(FRequestTime); !ok || !has || got != want || !(got >= 0 && got <= MaxDurationS) {
				t.Fatalf("request_time %v (%v), want total_time %q's %v", got, has, total, want)
			}
		}
	})
}

// TestDecolored reads lines without their terminal escapes, ESC written
// as a byte or as rsyslog writes it ("#033"), and leaves other text, a
// '#' or "#03" among it, as it is.
func TestDecolored(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\x1b[2m2026-12-05T10:00:03Z\x1b[0m \x1b[32m INFO\x1b[0m x", "2026-12-05T10:00:03Z  INFO x"},
		{"#033[2m2026-12-05T10:00:03Z#033[0m #033[32m INFO#033[0m x", "2026-12-05T10:00:03Z  INFO x"},
		{"a #03 b # c #033x \x1b", "a #03 b # c #033x "}, // a lone ESC is dropped
		{"#033[1;31", ""},
	} {
		if !coloured([]byte(c.in)) {
			t.Errorf("%q: not coloured", c.in)
		}
		if got := string(appendDecolored(nil, []byte(c.in))); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
	if coloured([]byte("a #033 b #03[ c")) {
		t.Error(`"#033 " is no escape`)
	}
}
