package rules

import "testing"

// calls makes n calls to model with the stream setting and a fixed ttft.
func calls(n int, model string, stream *bool, ttftMs float64) []rec {
	return times(n, rec{client: "a", region: "eu", model: model, stream: stream, status: 200, rt: ttftMs / 1000, ttft: ttftMs}, nil)
}

func TestNonStreamingEdges(t *testing.T) {
	for _, tc := range []struct {
		name      string
		off, on   int
		fires     bool
		wantShare float64
	}{
		{"19 calls, all non-streaming", 19, 0, false, 0},
		{"20 calls, all non-streaming", 20, 0, true, 1},
		{"20 of 200 (10 %)", 20, 180, true, 0.1},
		{"20 of 201 (9.95 %)", 20, 181, false, 0},
	} {
		fs := ruleFindings(t, nil, RuleNonStreaming, concat(calls(tc.off, "qwen2-72b-instruct", no, 8000), calls(tc.on, "qwen2-72b-instruct", yes, 400)))
		if got := len(fs) == 1; got != tc.fires {
			t.Errorf("%s: fired %v, want %v", tc.name, got, tc.fires)
			continue
		}
		if !tc.fires {
			continue
		}
		f := fs[0]
		if keyString(f) != `{"model":"qwen2-72b-instruct"}` {
			t.Errorf("%s: key %s", tc.name, keyString(f))
		}
		if got := f.Evidence.Get("non_streaming_share"); got != tc.wantShare {
			t.Errorf("%s: share %v, want %v", tc.name, got, tc.wantShare)
		}
		// 8 s to the first token instead of the model's streaming 0.4 s
		// (or the assumed 0.5 s when it has no streaming calls).
		stream := 400.0
		if tc.on == 0 {
			stream = assumedStreamTTFTMs
		}
		if got := f.Impact.MsPerRequest; got < 8000*0.99-stream*1.01 || got > 8000*1.01-stream*0.99 {
			t.Errorf("%s: impact %v ms, want ~%v", tc.name, got, 8000-stream)
		}
	}
}

func TestNonStreamingCritEdge(t *testing.T) {
	for _, tc := range []struct {
		ttft float64
		want Severity
	}{{1950, Warn}, {2050, Crit}} {
		fs := ruleFindings(t, nil, RuleNonStreaming, calls(30, "llama-3.1-405b", no, tc.ttft))
		if len(fs) != 1 || fs[0].Severity != tc.want {
			t.Errorf("ttft %v: %+v, want one %v finding", tc.ttft, fs, tc.want)
		}
	}
}

func TestNonStreamingModelSize(t *testing.T) {
	cfg := Default()
	cfg.Models["hunyuan-turbo"] = 300
	for _, tc := range []struct {
		model string
		fires bool
	}{
		{"qwen2-7b-instruct", false},
		{"mixtral-8x7b-instruct", false}, // 56B
		{"mixtral-8x22b-instruct", true}, // 176B
		{"deepseek-v3", true},            // known: 671B
		{"hunyuan-turbo", true},          // from the rules file
		{"mystery-model", false},         // unknown size
	} {
		fs := ruleFindings(t, cfg, RuleNonStreaming, calls(50, tc.model, no, 5000))
		if got := len(fs) == 1; got != tc.fires {
			t.Errorf("%s: fired %v, want %v", tc.model, got, tc.fires)
		}
	}
}

func TestNonStreamingNotEvaluated(t *testing.T) {
	wantNotEvaluated(t, RuleNonStreaming, calls(50, "qwen2-72b", nil, 5000), "stream")
	wantNotEvaluated(t, RuleNonStreaming, calls(50, "", no, 5000), "model")
}

// The finding gives the model's streaming generation speed and the
// answer length it implies for the non-streaming wait: 8 s at 40 ms a
// token is a 200-token answer, at 4 ms a 2,000-token one.
func TestNonStreamingGenerationSpeed(t *testing.T) {
	for _, msPerToken := range []float64{40, 4} {
		// Streaming calls: 400 ms to the first token, then 101 tokens.
		on := times(50, rec{client: "a", region: "eu", model: "qwen2-72b-instruct", stream: yes, status: 200,
			rt: (400 + 100*msPerToken) / 1000, ttft: 400, tokens: 101}, nil)
		fs := ruleFindings(t, nil, RuleNonStreaming, concat(calls(30, "qwen2-72b-instruct", no, 8000), on))
		if len(fs) != 1 {
			t.Fatalf("%v ms a token: %d findings", msPerToken, len(fs))
		}
		got, _ := fs[0].Evidence.Get("time_per_output_token_p50_ms").(float64)
		if got < msPerToken*0.99 || got > msPerToken*1.01 {
			t.Errorf("time_per_output_token_p50_ms %v, want %v", got, msPerToken)
		}
		want := 8000 / msPerToken
		if n, _ := fs[0].Evidence.Get("answer_tokens_est").(float64); n < want*0.98 || n > want*1.02 {
			t.Errorf("%v ms a token: answer_tokens_est %v, want ~%v", msPerToken, n, want)
		}
	}
	// Without completion tokens there is no speed to give.
	fs := ruleFindings(t, nil, RuleNonStreaming, concat(calls(30, "qwen2-72b-instruct", no, 8000), calls(50, "qwen2-72b-instruct", yes, 400)))
	if len(fs) != 1 || fs[0].Evidence.Get("time_per_output_token_p50_ms") != nil {
		t.Errorf("no tokens: %+v", fs)
	}
}
