package ingest_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestTracingTGI reads text-generation-inference's text log: the
// launcher's and router's own lines are bad lines that say so, each
// request's Success event is a request whose request_time is its span's
// total_time (in whichever unit Rust wrote it) and whose uri is that
// span's name, a Debug-written field with spaces, braces, quotes and
// "key=" inside is skipped whole, an error in a request's span is a
// request without request_time, its DEBUG event is passed over with the
// line that continues it, and a coloured line reads as a plain one.
func TestTracingTGI(t *testing.T) {
	params := `parameters=GenerateParameters { best_of: None, temperature: Some(0.7), stop: ["}: x", "total_time=\"9s\""], max_new_tokens: Some(20), grammar: None }`
	lines := []string{
		`2026-12-05T09:59:40.000000Z  INFO text_generation_launcher: Args { model_id: "bigscience/bloom-560m", revision: None, max_total_tokens: 2048 }`,
		`2026-12-05T09:59:45.100000Z  INFO shard-manager: text_generation_launcher: Shard ready in 4.2s rank=0`,
		`2026-12-05T09:59:50.100000Z  INFO text_generation_router::server: router/src/server.rs:2266: Connected`,
		`2026-12-05T10:00:00.637000Z  INFO compat_generate{default_return_full_text=true compute_type=Extension(ComputeType("1-nvidia-a10g"))}:generate_stream{` + params + ` total_time="2.731219246s" validation_time="1.210923ms" queue_time="1.799491ms" inference_time="2.728197212s" time_per_token="25.98283ms" seed="None"}: text_generation_router::server: router/src/server.rs:516: Success`,
		`2026-12-05T10:00:01.000000Z  INFO generate{` + params + ` total_time="815.012ms" validation_time="2.1ms" queue_time="350µs" inference_time="812.5ms" time_per_token="25ms" seed="Some(42)"}: text_generation_router::server: router/src/server.rs:322: Success`,
		`2026-12-05T10:00:01.500000Z DEBUG generate{` + params + `}: text_generation_router::server: router/src/server.rs:291: Input: hello`,
		`and the input's second line`,
		`2026-12-05T10:00:02.000000Z ERROR generate_stream{` + params + `}:async_stream:generate_stream: text_generation_router::infer: router/src/infer/mod.rs:127: Model is overloaded`,
		"\x1b[2m2026-12-05T10:00:03.000000Z\x1b[0m \x1b[32m INFO\x1b[0m \x1b[1mchat_completions\x1b[0m\x1b[1m{\x1b[0m\x1b[3mtotal_time\x1b[0m\x1b[2m=\x1b[0m\"1.5s\" \x1b[3mvalidation_time\x1b[0m\x1b[2m=\x1b[0m\"3ms\"\x1b[1m}\x1b[0m\x1b[2m:\x1b[0m \x1b[2mtext_generation_router::server\x1b[0m\x1b[2m:\x1b[0m \x1b[2mrouter/src/server.rs\x1b[0m\x1b[2m:\x1b[0m\x1b[2m600:\x1b[0m Success",
	}
	path := writeTemp(t, "tgi.log", strings.Join(lines, "\n")+"\n")
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	fs := res.Files[0]
	if fs.Format != ingest.Tracing || fs.Source != "tgi" || len(got) != 4 || fs.BadLines != 3 || fs.PassedOver != 2 {
		t.Fatalf("format %q, source %q, %d records, %d bad %v, %d passed over; want tracing, tgi, 4, 3, 2", fs.Format, fs.Source, len(got), fs.BadLines, res.Problems, fs.PassedOver)
	}
	for i, p := range res.Problems {
		if want := []int64{1, 2, 3}[i]; p.Line != want || !strings.Contains(p.Reason, "not a request") {
			t.Errorf("problem %d: line %d %q; want line %d, not a request", i, p.Line, p.Reason, want)
		}
	}
	want := []struct {
		uri  string
		rt   float64 // s; NaN: none
		unix float64
	}{
		{"generate_stream", 2.731219246, 1796464800.637},
		{"generate", 0.815012, 1796464801},
		{"generate_stream", math.NaN(), 1796464802}, // no span holds a total_time: the first one's name
		{"chat_completions", 1.5, 1796464803},
	}
	for i, w := range want {
		g := got[i]
		if g.uri != w.uri || math.IsNaN(w.rt) != math.IsNaN(g.rt) || !math.IsNaN(w.rt) && math.Abs(g.rt-w.rt) > 1e-9 {
			t.Errorf("row %d: uri %q, request_time %v s; want %q, %v", i, g.uri, g.rt, w.uri, w.rt)
		}
		if d := float64(g.timeNS)/1e9 - w.unix; math.Abs(d) > 1e-6 {
			t.Errorf("row %d: time %d ns, want %v s", i, g.timeNS, w.unix)
		}
	}
}

// TestTracingTEI reads text-embeddings-inference's router log, whose
// spans record tokenization_time where TGI's record validation_time, and
// whose failed requests' spans, their fields all still empty, are
// written without braces: an error there is a request without
// request_time, a warning passed over.
func TestTracingTEI(t *testing.T) {
	lines := []string{
		`2026-12-05T10:00:02.798333Z  INFO openai_embed{total_time="1.207716998s" tokenization_time="11.232786ms" queue_time="686.203µs" inference_time="1.195713965s"}: text_embeddings_router::http::server: router/src/http/server.rs:1290: Success`,
		`2026-12-05T10:00:03.000000Z  WARN openai_embed: text_embeddings_router::http::server: router/src/http/server.rs:1000: model=x has not been found`,
		`2026-12-05T10:00:03.579418Z  INFO embed{total_time="685.148571ms" tokenization_time="8.812018ms" queue_time="724.303µs" inference_time="675.535478ms"}: text_embeddings_router::http::server: router/src/http/server.rs:714: Success`,
		`2026-12-05T10:00:04.000000Z ERROR embed:try_acquire_permit: text_embeddings_core::infer: core/src/infer.rs:102: Model is overloaded`,
		`2026-12-05T10:00:05.000000Z ERROR rerank: text_embeddings_router::http::server: router/src/http/server.rs:400: Input validation error: empty`,
	}
	got, res := collect(t, []string{writeTemp(t, "tei.log", strings.Join(lines, "\n")+"\n")}, ingest.Options{Workers: 1, Location: time.UTC})
	if fs := res.Files[0]; fs.Source != "tei" || len(got) != 4 || fs.BadLines != 0 || fs.PassedOver != 1 {
		t.Fatalf("source %q, %d records, %d bad %v, %d passed over; want tei, 4, 0, 1", fs.Source, len(got), fs.BadLines, res.Problems, fs.PassedOver)
	}
	for i, w := range []struct {
		uri string
		rt  float64
	}{{"openai_embed", 1.207716998}, {"embed", 0.685148571}, {"embed", math.NaN()}, {"rerank", math.NaN()}} {
		g := got[i]
		if g.uri != w.uri || math.IsNaN(w.rt) != math.IsNaN(g.rt) || !math.IsNaN(w.rt) && math.Abs(g.rt-w.rt) > 1e-9 {
			t.Errorf("row %d: %q, request_time %v s; want %q, %v", i, g.uri, g.rt, w.uri, w.rt)
		}
	}
}

// TestTracingSGLang reads the SGLang router's text log (smg's, and the
// older sglang_router_rs'): each request's answer is the request, its
// status the span's status_code, its request_time the span's latency
// (smg's µs integer, or the older router's Debug Duration), its uri the
// span's uri field; its time UTC whatever the run's zone (the router's
// ChronoUtc writes none). The start of a request, an error before its
// answer and tower-http's "response failed" after it are passed over,
// the router's own line a bad line; a coloured line reads as a plain one.
func TestTracingSGLang(t *testing.T) {
	at := func(s string) int64 {
		v, err := time.Parse("2006-01-02 15:04:05.999", s) // UTC
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixNano()
	}
	type want struct {
		at     string
		rt     float64 // s
		status int64
		uri    string
	}
	for _, c := range []struct {
		file        string
		bad, passed int64
		wants       []want
		badLine     int64
	}{
		{"smg.log", 1, 5, []want{
			{"2025-09-05 10:00:02.951", 0.810637, 200, "/v1/chat/completions"},
			{"2025-09-05 10:00:06.342", 2.334552, 503, "/generate"},
			{"2025-09-05 10:00:07.459", 0.05875, 429, "/v1/completions"},
		}, 1},
		{"sglang-router.log", 0, 2, []want{
			{"2025-09-05 10:00:02", 0.000810637, 200, "/v1/chat/completions"},
			{"2025-09-05 10:00:09", 0.05875, 400, "/v1/chat/completions"},
			{"2025-09-05 10:01:12", 62.016, 200, "/generate"},
		}, 0},
	} {
		path := filepath.Join("testdata", "text", c.file)
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.FixedZone("CST", 8*3600)})
		fs := res.Files[0]
		if fs.Format != ingest.Tracing || fs.Source != "smg" || len(got) != len(c.wants) || fs.BadLines != c.bad || fs.PassedOver != c.passed {
			t.Fatalf("%s: format %q, source %q, %d records, %d bad %v, %d passed over; want tracing, smg, %d, %d, %d",
				c.file, fs.Format, fs.Source, len(got), fs.BadLines, res.Problems, fs.PassedOver, len(c.wants), c.bad, c.passed)
		}
		if c.bad > 0 && (res.Problems[0].Line != c.badLine || !strings.Contains(res.Problems[0].Reason, "not a request")) {
			t.Errorf("%s: problem %+v, want line %d, not a request", c.file, res.Problems[0], c.badLine)
		}
		for i, w := range c.wants {
			g := got[i]
			if g.timeNS != at(w.at) || math.Abs(g.rt-w.rt) > 1e-9 || g.status != w.status || !g.hasStatus || g.uri != w.uri {
				t.Errorf("%s: record %d: time %v, request_time %v s, status %d, uri %q; want %s UTC, %v, %d, %q",
					c.file, i, time.Unix(0, g.timeNS).UTC(), g.rt, g.status, g.uri, w.at, w.rt, w.status, w.uri)
			}
		}
	}
}
