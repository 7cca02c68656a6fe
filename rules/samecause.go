package rules

import "strings"

// sameCauseRules are rules that see one cause from two sides: a region ×
// model that runs out of capacity answers 429 (rate_limit_storm) and
// 5xx (error_burst) in the same minutes.
var sameCauseRules = map[string]bool{RuleStorm: true, RuleBurst: true}

// mergeSameCause merges, of two findings of those rules on the same key
// whose windows overlap, the one of smaller impact into the other: it is
// listed in the other's Explains (dimension "rule", key "rule key") and
// not reported on its own (SPEC §5 "One cause, one finding"). fs must be
// sorted by impact, largest first.
func mergeSameCause(fs []Finding) []Finding {
	out := fs[:0]
	var kept []int // indexes in out of findings that can explain others
	for _, f := range fs {
		merged := false
		if sameCauseRules[f.Rule] && f.Window != nil {
			for _, i := range kept {
				g := &out[i]
				if g.Rule != f.Rule && sameKey(g.Key, f.Key) && g.Window.From < f.Window.To && f.Window.From < g.Window.To {
					g.Explains = append(g.Explains, Explained{"rule", f.Rule + " " + keyText(f.Key)})
					merged = true
					break
				}
			}
		}
		if merged {
			continue
		}
		out = append(out, f)
		if sameCauseRules[f.Rule] && f.Window != nil {
			kept = append(kept, len(out)-1)
		}
	}
	return out
}

// mergeNonStreaming merges each latency_regression of a model that its
// non-streaming calls explain (evidence explained_by non_streaming) into
// that model's non_streaming_large_model finding, when there is one:
// the regression and what it explained are listed in the latter's
// Explains, which takes the more severe of the two severities. A model
// made slow by calls that wait for the whole answer is one cause with
// one fix (stream: true), not a regression to look into beside it.
func mergeNonStreaming(fs []Finding) []Finding {
	ns := map[string]bool{} // the models of non-streaming findings
	for _, f := range fs {
		if m, ok := f.Key.Get("model").(string); ok && f.Rule == RuleNonStreaming {
			ns[m] = true
		}
	}
	if len(ns) == 0 {
		return fs
	}
	into := map[string][]Finding{} // a model's regressions its finding takes
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		if m, ok := f.Key.Get("key").(string); ok && ns[m] && f.Rule == RuleRegression &&
			f.Key.Get("dimension") == "model" && f.Evidence.Get("explained_by") == "non_streaming" {
			into[m] = append(into[m], f)
			continue
		}
		// A key's regression its requests of the model explain.
		if m, ok := f.Evidence.Get("model").(string); ok && ns[m] && f.Rule == RuleRegression &&
			f.Evidence.Get("explained_by") == "model_mix" {
			into[m] = append(into[m], f)
			continue
		}
		out = append(out, f)
	}
	for i := range out {
		g := &out[i]
		m, _ := g.Key.Get("model").(string)
		if g.Rule != RuleNonStreaming {
			continue
		}
		for _, f := range into[m] {
			g.Explains = append(g.Explains, Explained{"rule", f.Rule + " " + keyText(f.Key)})
			g.Explains = append(g.Explains, f.Explains...)
			g.Severity = max(g.Severity, f.Severity)
		}
	}
	return out
}

// mergeCeilings merges each timeout_ceiling whose requests are error
// bursts' errors into the burst of the most of them: the time-out's
// requests are the burst's failures, cut at the limit (a burst of 504s
// at 60 s is one cause, not a burst and a 60 s ceiling). A ceiling is
// the bursts' when bursts' errors have its statuses and end, on
// average, within 2 % of it, and they account for 80 % or more of its
// requests; it is named in that burst's explains, which takes the more
// severe of the two severities. fs must be sorted by impact.
func mergeCeilings(fs []Finding) []Finding {
	var bursts []int
	for i, f := range fs {
		if f.Rule == RuleBurst {
			bursts = append(bursts, i)
		}
	}
	if len(bursts) == 0 {
		return fs
	}
	drop := map[int]bool{}
	for i, f := range fs {
		if f.Rule != RuleTimeout {
			continue
		}
		ceil, ok1 := f.Evidence.Get("ceiling_ms").(float64)
		n, ok2 := f.Evidence.Get("requests_at_ceiling").(int64)
		statuses, ok3 := f.Evidence.Get("statuses").(Fields)
		if !ok1 || !ok2 || !ok3 || ceil <= 0 || n <= 0 {
			continue
		}
		left := map[string]int64{} // the ceiling's requests by status not yet a burst's
		for _, st := range statuses {
			if c, ok := st.Value.(int64); ok {
				left[st.Name] = c
			}
		}
		var covered int64
		best, bestN := -1, int64(0)
		for _, b := range bursts {
			mean, ok := fs[b].Evidence.Get("error_request_time_mean_ms").(float64)
			by, ok2 := fs[b].Evidence.Get("by_status").(Fields)
			if !ok || !ok2 || mean < 0.98*ceil || mean > 1.02*ceil {
				continue
			}
			var got int64
			for _, st := range by {
				if c, ok := st.Value.(int64); ok {
					k := min(c, left[st.Name])
					left[st.Name] -= k
					got += k
				}
			}
			covered += got
			if got > bestN {
				best, bestN = b, got
			}
		}
		if best < 0 || float64(covered) < 0.8*float64(n) {
			continue
		}
		g := &fs[best]
		g.Explains = append(g.Explains, Explained{"rule", f.Rule + " " + keyText(f.Key)})
		g.Severity = max(g.Severity, f.Severity)
		drop[i] = true
	}
	if len(drop) == 0 {
		return fs
	}
	out := fs[:0]
	for i, f := range fs {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return out
}

func sameKey(a, b Fields) bool {
	ka, _ := a.MarshalJSON()
	kb, _ := b.MarshalJSON()
	return string(ka) == string(kb)
}

// keyText writes a key as "name=value,name=value"; a name without a
// value ("all") alone.
func keyText(k Fields) string {
	var b strings.Builder
	for i, f := range k {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.Name)
		if s, ok := f.Value.(string); ok && s != "" {
			b.WriteByte('=')
			b.WriteString(s)
		}
	}
	return b.String()
}
