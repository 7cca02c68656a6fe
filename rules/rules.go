package rules

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// Evaluate runs every enabled rule over the merged aggregate. It returns
// the findings, largest estimated impact first, and the rules that could
// not run with the reason (the fields they miss).
func Evaluate(acc *aggregate.Accumulator, cfg *Config) ([]Finding, []NotEvaluated) {
	if cfg == nil {
		cfg = Default()
	}
	type rule struct {
		id      string
		enabled bool
		needs   func(*aggregate.Accumulator, *Config) string
		run     func(*aggregate.Accumulator, *Config) []Finding
	}
	all := []rule{
		{RuleCrossRegion, cfg.CrossRegion.Enabled, crossRegionNeeds, crossRegion},
		{RuleNonStreaming, cfg.NonStreaming.Enabled, nonStreamingNeeds, nonStreaming},
		{RuleKeepalive, cfg.Keepalive.Enabled, keepaliveNeeds, keepalive},
		{RuleStorm, cfg.Storm.Enabled, stormNeeds, storm},
		{RuleTokenCache, cfg.TokenCache.Enabled, tokenCacheNeeds, tokenCache},
		{RuleBurst, cfg.Burst.Enabled, burstNeeds, burst},
		{RuleRegression, cfg.Regression.Enabled, regressionNeeds, regression},
	}
	findings := []Finding{}
	var notEval []NotEvaluated
	for _, r := range all {
		if !r.enabled {
			continue
		}
		if why := r.needs(acc, cfg); why != "" {
			notEval = append(notEval, NotEvaluated{Rule: r.id, Reason: why})
			continue
		}
		findings = append(findings, r.run(acc, cfg)...)
		if why := partly(acc, r.id); why != "" {
			notEval = append(notEval, NotEvaluated{Rule: r.id, Reason: why})
		}
	}
	SortFindings(findings)
	return findings, notEval
}

// partly says what part of the input a rule that ran could not judge, or
// "": the storm and burst rules judge only the latest minutes of a log
// with more key × minutes than their bound (aggregate.MinuteStats).
func partly(acc *aggregate.Accumulator, rule string) string {
	from := acc.Rules.Minutes.JudgedFrom
	if from == 0 || rule != RuleStorm && rule != RuleBurst {
		return ""
	}
	return "partly: minutes before " + time.Unix(from*60, 0).UTC().Format(time.RFC3339) +
		" were not judged, the log holding more key × minute buckets than kept (the latest are)"
}

// absent returns a reason naming the fields no record carried, or "".
func absent(acc *aggregate.Accumulator, fields ...ingest.Field) string {
	var names []string
	for _, f := range fields {
		if acc.Present[f] == 0 {
			names = append(names, f.String())
		}
	}
	return missing(names...)
}

func missing(names ...string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "field " + names[0] + " is absent from every record"
	}
	return "fields " + strings.Join(names, ", ") + " are absent from every record"
}

// impact is ms lost per affected request × requests.
func impact(msPer float64, requests int64) Impact {
	msPer = max(0, msPer)
	return Impact{MsPerRequest: msPer, Requests: requests, Seconds: msPer * float64(requests) / 1000}
}

// quantile returns a quantile of s, or 0 for a nil or empty sketch.
func quantile(s *sketch.Sketch, q float64) float64 {
	if s == nil {
		return 0
	}
	return s.Quantile(q)
}

// round rounds to d decimals, so evidence prints stably.
func round(v float64, d int) float64 {
	p := 1.0
	for range d {
		p *= 10
	}
	x := v * p
	if x < 0 {
		return -float64(int64(-x+0.5)) / p
	}
	return float64(int64(x+0.5)) / p
}

// topNames lists up to n names by count, largest first, as "name (count)".
func topNames(counts map[string]int64, n int) []string {
	type kc struct {
		k string
		c int64
	}
	var all []kc
	for k, c := range counts {
		all = append(all, kc{k, c})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].c != all[j].c {
			return all[i].c > all[j].c
		}
		return all[i].k < all[j].k
	})
	var out []string
	for i, x := range all {
		if i == n {
			out = append(out, fmt.Sprintf("%d more", len(all)-n))
			break
		}
		out = append(out, fmt.Sprintf("%s (%d)", x.k, x.c))
	}
	return out
}

// seconds formats a duration in seconds for advice text.
func seconds(s float64) string {
	if s >= 10 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}
