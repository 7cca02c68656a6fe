package rules

import (
	"fmt"
	"math"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

func tokenCacheNeeds(acc *aggregate.Accumulator, c *Config) string {
	return absent(acc, ingest.FClient, ingest.FURI)
}

// tokenCache flags callers that fetch a token before most calls instead
// of once per token lifetime.
func tokenCache(acc *aggregate.Accumulator, c *Config) []Finding {
	cfg := c.TokenCache
	var out []Finding
	for _, cl := range sortedClients(acc) {
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
