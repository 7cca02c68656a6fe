package ingest_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestEnvoyAIGateway reads Envoy AI Gateway's access log, in both of its
// documented spellings: Envoy's fields, and the call's model and tokens.
func TestEnvoyAIGateway(t *testing.T) {
	lines := map[string]string{
		"genai":  `{"start_time":"2026-12-05T10:00:0%dZ","method":"POST","x-envoy-origin-path":"/v1/chat/completions","response_code":200,"response_flags":"-","duration":%d,"x-envoy-upstream-service-time":"%d","upstream_host":"34.128.142.77:443","upstream_cluster":"httproute/default/aigw/rule/0","downstream_remote_address":"10.2.3.192:39655","genai_model_name":"%s","genai_tokens_input":%d,"genai_tokens_output":%d}`,
		"gen_ai": `{"start_time":"2026-12-05T10:00:0%dZ","method":"POST","x-envoy-origin-path":"/v1/chat/completions","response_code":200,"response_flags":"-","duration":%d,"x-envoy-upstream-service-time":"%d","upstream_host":"34.128.142.77:443","upstream_cluster":"httproute/default/aigw/rule/0","downstream_remote_address":"10.2.3.192:39655","gen_ai.request.model":"%s","gen_ai.response.model":"%s-2024","gen_ai.usage.input_tokens":%d,"gen_ai.usage.output_tokens":%d}`,
	}
	for name, format := range lines {
		var b strings.Builder
		models := []string{"claude-3-haiku", "gpt-4o-mini"}
		for i := range 6 {
			m := models[i%2]
			if name == "gen_ai" {
				fmt.Fprintf(&b, format+"\n", i, 1000+i, 900+i, m, m, 100+i, 10+i)
			} else {
				fmt.Fprintf(&b, format+"\n", i, 1000+i, 900+i, m, 100+i, 10+i)
			}
		}
		got, res := collect(t, []string{writeTemp(t, name+".jsonl", b.String())}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(got) != 6 || res.Files[0].Source != "envoy" {
			t.Fatalf("%s: %d records, source %q; want 6, envoy", name, len(got), res.Files[0].Source)
		}
		for i, g := range got { // in time order, as written
			if g.model != models[i%2] || g.prompt != int64(100+i) || g.completion != int64(10+i) || math.Abs(g.rt-float64(1000+i)/1000) > 1e-12 || math.Abs(g.urt-float64(900+i)/1000) > 1e-12 {
				t.Errorf("%s row %d: model %q, tokens %d/%d, request_time %v, upstream %v", name, i, g.model, g.prompt, g.completion, g.rt, g.urt)
			}
		}
	}
}
