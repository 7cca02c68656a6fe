package rules

import (
	"fmt"
	"sort"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// assumedStreamTTFTMs is the first-token time assumed for a streaming call
// when the model has no streaming calls to measure: SPEC §1 puts it at
// ~0.2–0.6 s.
const assumedStreamTTFTMs = 500

func nonStreamingNeeds(acc *aggregate.Accumulator, c *Config) string {
	return absent(acc, ingest.FModel, ingest.FStream)
}

// nonStreaming flags large models called with stream=false often enough.
func nonStreaming(acc *aggregate.Accumulator, c *Config) []Finding {
	type pair struct{ on, off *aggregate.ModelStream }
	byModel := map[string]*pair{}
	for _, ms := range acc.Rules.ModelStream {
		p := byModel[ms.Model]
		if p == nil {
			p = &pair{}
			byModel[ms.Model] = p
		}
		if ms.Stream {
			p.on = ms
		} else {
			p.off = ms
		}
	}
	names := make([]string, 0, len(byModel))
	for k := range byModel {
		names = append(names, k)
	}
	sort.Strings(names)
	cfg := c.NonStreaming
	var out []Finding
	for _, name := range names {
		p := byModel[name]
		if p.off == nil || p.off.Count < cfg.MinRequests {
			continue
		}
		params, source, ok := c.ModelParams(name)
		if !ok || params < cfg.MinParamsB {
			continue
		}
		total := p.off.Count
		if p.on != nil {
			total += p.on.Count
		}
		share := float64(p.off.Count) / float64(total)
		if share < cfg.MinShare {
			continue
		}
		// A non-streaming call's first token is its whole answer; without
		// ttft, request_time measures the same wait.
		metric, first := "ttft", p.off.TTFT
		if first.Count() == 0 {
			metric, first = "request_time", p.off.RT
		}
		f := Finding{
			Rule:     RuleNonStreaming,
			Severity: Warn,
			Key:      Fields{{"model", name}},
			Title:    fmt.Sprintf("Non-streaming calls to the large model %s", name),
		}
		ev := Fields{{"params_b", params}, {"params_from", source}, {"non_streaming_requests", p.off.Count},
			{"requests", total}, {"non_streaming_share", round(share, 3)}}
		// Impact: each non-streaming call waits for its whole answer before
		// the first token; streaming would show one after the model's
		// streaming ttft p50 (or ~0.5 s when none was measured). Lost per
		// call: the non-streaming first-token p50 minus that.
		lost := 0.0
		if first.Count() > 0 {
			p50, p95 := first.Quantile(0.5), first.Quantile(0.95)
			ev = append(ev, Field{metric + "_p50_ms", round(p50, 1)}, Field{metric + "_p95_ms", round(p95, 1)})
			if p95 >= cfg.CritTTFTP95Ms {
				f.Severity = Crit
			}
			stream := float64(assumedStreamTTFTMs)
			if p.on != nil && p.on.TTFT.Count() > 0 {
				stream = p.on.TTFT.Quantile(0.5)
				ev = append(ev, Field{"streaming_ttft_p50_ms", round(stream, 1)})
			}
			lost = p50 - stream
		}
		f.Evidence = ev
		f.Impact = impact(lost, p.off.Count)
		f.Advice = fmt.Sprintf("Send \"stream\": true to %s (%.0fB parameters): %d calls (%.0f %%) wait %s for the whole answer before the first token. "+
			"Where the task allows, use a 7B–14B model or a quantized variant.",
			name, params, p.off.Count, 100*share, seconds(first.Quantile(0.5)/1000))
		out = append(out, f)
	}
	return out
}
