package ingest_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestTGIRouterJSON reads text-generation-inference's JSON log: each
// request's Success event with its span's times as Rust writes a
// Duration, a failed request's ERROR event as a request without a time,
// and the server's own event as no request.
func TestTGIRouterJSON(t *testing.T) {
	lines := []string{
		`{"timestamp":"2026-12-05T09:59:50.100000Z","level":"INFO","message":"Connected","target":"text_generation_router::server","filename":"router/src/server.rs","line_number":2266}`,
		`{"timestamp":"2026-12-05T10:00:00.637000Z","level":"INFO","message":"Success","target":"text_generation_router::server","filename":"router/src/server.rs","line_number":600,"span":{"inference_time":"2.728197212s","name":"chat_completions","queue_time":"1.799491ms","seed":"None","time_per_token":"25.98283ms","total_time":"2.731219246s","validation_time":"1.210923ms"},"spans":[{"name":"chat_completions","total_time":"2.731219246s"}]}`,
		`{"timestamp":"2026-12-05T10:00:01.000000Z","level":"INFO","message":"Success","target":"text_generation_router::server","filename":"router/src/server.rs","line_number":322,"span":{"inference_time":"812.5ms","name":"generate","queue_time":"350µs","seed":"None","time_per_token":"25ms","total_time":"815.012ms","validation_time":"2.1ms"}}`,
		`{"timestamp":"2026-12-05T10:00:02.000000Z","level":"ERROR","message":"Model is overloaded","target":"text_generation_router::infer","filename":"router/src/infer/mod.rs","line_number":127,"span":{"name":"generate_stream","parameters":"GenerateParameters { }"}}`,
	}
	got, res := collect(t, []string{writeTemp(t, "tgi.jsonl", strings.Join(lines, "\n")+"\n")}, ingest.Options{Workers: 1, Location: time.UTC})
	fs := res.Files[0]
	if fs.Source != "tgi" || len(got) != 3 || fs.BadLines != 1 || res.Problems[0].Line != 1 {
		t.Fatalf("source %q, %d records, %d bad %v; want tgi, 3, 1 at line 1", fs.Source, len(got), fs.BadLines, res.Problems)
	}
	want := []struct {
		uri string
		rt  float64 // s; NaN: none
	}{{"chat_completions", 2.731219246}, {"generate", 0.815012}, {"generate_stream", math.NaN()}}
	for i, w := range want { // in time order, as written
		g := got[i]
		if g.uri != w.uri || math.IsNaN(w.rt) != math.IsNaN(g.rt) || !math.IsNaN(w.rt) && math.Abs(g.rt-w.rt) > 1e-9 {
			t.Errorf("row %d: uri %q, request_time %v s; want %q, %v", i, g.uri, g.rt, w.uri, w.rt)
		}
	}
}
