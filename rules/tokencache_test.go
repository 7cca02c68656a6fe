package rules

import (
	"regexp"
	"testing"
)

// tokenCalls makes tokens token requests (20 ms each) and others other
// requests of client.
func tokenCalls(client string, tokens, others int, tokenURI string) []rec {
	return concat(
		times(tokens, rec{client: client, region: "eu", uri: tokenURI, status: 200, rt: 0.020}, nil),
		times(others, rec{client: client, region: "eu", uri: "/v1/chat/completions?x=1", status: 200, rt: 2}, nil))
}

func TestTokenCacheEdges(t *testing.T) {
	for _, tc := range []struct {
		tokens, others int
		fires          bool
	}{{20, 40, true}, {19, 38, false}, {20, 41, false}, {25, 0, true}} {
		fs := ruleFindings(t, nil, RuleTokenCache, tokenCalls("app-t", tc.tokens, tc.others, "/v1/auth/token"))
		if got := len(fs) == 1; got != tc.fires {
			t.Errorf("%d tokens for %d calls: fired %v, want %v", tc.tokens, tc.others, got, tc.fires)
			continue
		}
		if !tc.fires {
			continue
		}
		if keyString(fs[0]) != `{"client":"app-t"}` {
			t.Errorf("key %s", keyString(fs[0]))
		}
		if tc.others > 0 {
			// 20 token calls of 20 ms spread over 40 calls: 10 ms each.
			want := float64(tc.tokens) * 20 / float64(tc.others)
			if got := fs[0].Impact.MsPerRequest; got < want-1e-6 || got > want+1e-6 {
				t.Errorf("impact %v ms per call, want %v", got, want)
			}
		}
	}
}

func TestTokenCacheURIPattern(t *testing.T) {
	recs := tokenCalls("app-t", 30, 30, "/oauth/gettoken")
	recs = append(recs, tokenCalls("app-u", 30, 30, "/v1/detokenize")...)
	cfg := Default()
	cfg.TokenURI = regexp.MustCompile(`(?i)/token|gettoken`)
	fs := ruleFindings(t, cfg, RuleTokenCache, recs)
	if len(fs) != 1 || fs[0].Key.Get("client") != "app-t" {
		t.Errorf("with token_uri %q: %+v, want app-t only", cfg.TokenURI, fs)
	}
	// The default pattern matches both.
	if fs := ruleFindings(t, nil, RuleTokenCache, recs); len(fs) != 2 {
		t.Errorf("default token_uri: %d findings, want 2", len(fs))
	}
}

func TestTokenCacheNotEvaluated(t *testing.T) {
	recs := tokenCalls("app-t", 30, 30, "/token")
	for i := range recs {
		recs[i].uri = ""
	}
	wantNotEvaluated(t, RuleTokenCache, recs, "uri")
}
