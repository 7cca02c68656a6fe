package rules

import (
	"fmt"
	"math"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// tokenCacheRule is token_cache_miss (SPEC §5): callers that fetch a
// token before most calls.
type tokenCacheRule struct {
	enabled
	MinTokenRequests int64
	MinRatio         float64 // token requests per other request
}

func newTokenCache() rule {
	return &tokenCacheRule{enabled: enabled{true}, MinTokenRequests: 20, MinRatio: 0.5}
}

func (*tokenCacheRule) id() string { return RuleTokenCache }

func (r *tokenCacheRule) params() []param {
	return []param{enabledP(&r.Enabled), intP("min_token_requests", &r.MinTokenRequests), floatP("min_ratio", &r.MinRatio)}
}

func (*tokenCacheRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return callersCollector()
}

func (*tokenCacheRule) needs(acc *aggregate.Accumulator) string {
	return absent(acc, ingest.FClient, ingest.FURI)
}

func (r *tokenCacheRule) evaluate(_ *aggregate.Accumulator, col aggregate.Collector, c *Config) ([]Finding, string) {
	cs := col.(*callers)
	return tokenCache(cs, r, c), cs.clients.partly("callers")
}

// tokenCache flags callers that fetch a token before most calls instead
// of once per token lifetime.
func tokenCache(cs *callers, cfg *tokenCacheRule, c *Config) []Finding {
	var out []Finding
	for _, cl := range cs.sorted() {
		if cl.Token < cfg.MinTokenRequests {
			continue
		}
		ratio := math.Inf(1)
		if cl.Other > 0 {
			ratio = float64(cl.Token) / float64(cl.Other)
		}
		if ratio < cfg.MinRatio {
			continue
		}
		mean := cl.TokenMs.Float() / float64(cl.Token)
		ev := Fields{{"token_requests", cl.Token}, {"other_requests", cl.Other}}
		if cl.Other > 0 {
			ev = append(ev, Field{"token_requests_per_call", round(ratio, 3)})
		}
		ev = append(ev, Field{"token_request_mean_ms", round(mean, 1)}, Field{"token_uri", c.TokenURI.String()})
		// Impact: with a cached token almost every token call disappears;
		// each other call loses the token time spread over it (the token
		// calls' request_time in all ÷ the other calls).
		per := cl.TokenMs.Float()
		if cl.Other > 0 {
			per /= float64(cl.Other)
		}
		out = append(out, Finding{
			Rule:     RuleTokenCache,
			Severity: Warn,
			Key:      Fields{{"client", cl.Client}},
			Title:    fmt.Sprintf("%s fetches a token before most calls", cl.Client),
			Evidence: ev,
			Impact:   impact(per, max(cl.Other, 1)),
			Advice: fmt.Sprintf("Cache the token in %s for 80 %% of its TTL and refresh it in the background before it expires, one refresher at a time (single-flight / lock): "+
				"%d token requests for %d calls.", cl.Client, cl.Token, cl.Other),
		})
	}
	return out
}
