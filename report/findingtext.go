package report

import (
	"fmt"
	"slices"
	"strings"

	"loganalyze/internal/lazyre"
	"loganalyze/rules"
)

// The rules write each finding's title and advice in English, for the
// JSON report and the English ones. For another language a finding's
// title and advice are rewritten from its key and evidence with the
// messages "rule.<id>.…" of the catalogue.

// findingTemplate writes a finding's title and advice in m's language
// from its key and evidence; ok is false when the finding lacks a field
// the template needs.
type findingTemplate func(m printer, f *rules.Finding) (title, advice string, ok bool)

// findingTemplates are the templates of each rule ID (SPEC §5).
var findingTemplates = map[string]findingTemplate{
	"cross_region":              crossRegionText,
	"non_streaming_large_model": nonStreamingText,
	"missing_keepalive":         keepaliveText,
	"rate_limit_storm":          stormText,
	"token_cache_miss":          tokenCacheText,
	"error_burst":               burstText,
	"latency_regression":        regressionText,
	"timeout_ceiling":           timeoutCeilingText,
}

// finding is f's title and advice in m's language: the rule's template,
// else the English the rule wrote (never empty).
func (p printer) finding(f *rules.Finding) (title, advice string) {
	if p.lang == LangEn {
		return f.Title, f.Advice
	}
	if tmpl := findingTemplates[f.Rule]; tmpl != nil {
		if title, advice, ok := tmpl(p, f); ok && title != "" && advice != "" {
			return title, advice
		}
	}
	return f.Title, f.Advice
}

// text is the string value of a key or evidence field.
func text(fs rules.Fields, name string) (string, bool) {
	v, ok := fs.Get(name).(string)
	return v, ok
}

// number is the numeric value of an evidence field.
func number(fs rules.Fields, name string) (float64, bool) {
	switch v := fs.Get(name).(type) {
	case int64:
		return float64(v), true
	case int:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// texts are the string values of fields that must all be there.
func texts(fs rules.Fields, names ...string) ([]string, bool) {
	out := make([]string, len(names))
	for i, n := range names {
		v, ok := text(fs, n)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// The expressions are compiled at their first use, by a report that
// names such evidence: at start-up they were a part of every run's.
var (
	counted = lazyre.New(`^(.*) \(\d+\)$`)
	moreN   = lazyre.New(`^\d+ more$`)
)

// names are the first n names of a list of "name (count)" evidence,
// without the count and without the "N more" entry.
func names(fs rules.Fields, field string, n int) []string {
	list, _ := fs.Get(field).([]string)
	var out []string
	for _, s := range list {
		if len(out) == n {
			break
		}
		if moreN().MatchString(s) {
			continue
		}
		if m := counted().FindStringSubmatch(s); m != nil {
			s = m[1]
		}
		out = append(out, s)
	}
	return out
}

// where names a finding's key: "ap-guangzhou × deepseek-v3" for region
// and model, all requests for {"all": ""}, else "name value" pairs.
func where(m printer, key rules.Fields) string {
	if v, ok := texts(key, "region", "model"); ok && len(key) == 2 {
		return v[0] + " × " + v[1]
	}
	var parts []string
	for _, f := range key {
		if v, ok := f.Value.(string); ok && v == "" {
			if f.Name == "all" {
				parts = append(parts, m.t("rule.all"))
			} else {
				parts = append(parts, f.Name)
			}
			continue
		}
		parts = append(parts, f.Name+" "+valueText(f.Value))
	}
	return strings.Join(parts, m.t("comma"))
}

// seconds formats a duration in seconds as the rules' advice does.
func seconds(s float64) string {
	if s >= 10 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}

func crossRegionText(m printer, f *rules.Finding) (string, string, bool) {
	if inferred, _ := f.Key.Get("inferred").(bool); inferred {
		k, ok := texts(f.Key, "client", "region")
		metric, okm := text(f.Evidence, "metric")
		p50, ok50 := number(f.Evidence, "p50_ms")
		level, okl := number(f.Evidence, "same_region_level_ms")
		if !ok || !okm || !ok50 || !okl {
			return "", "", false
		}
		return m.f("rule.cross_region.inferred.title", k[0], k[1], metric),
			m.f("rule.cross_region.inferred.advice", k[0], metric, p50, level, k[1], k[1]), true
	}
	k, ok := texts(f.Key, "client_region", "region")
	if !ok {
		return "", "", false
	}
	callers := strings.Join(names(f.Evidence, "callers", 3), ", ")
	return m.f("rule.cross_region.title", k[0], k[1]),
		m.f("rule.cross_region.advice", callers, k[1], k[1], f.Impact.MsPerRequest, m.f("rule.cross_region.base", k[1])), true
}

func nonStreamingText(m printer, f *rules.Finding) (string, string, bool) {
	model, ok := text(f.Key, "model")
	params, okp := number(f.Evidence, "params_b")
	n, okn := number(f.Evidence, "non_streaming_requests")
	share, oks := number(f.Evidence, "non_streaming_share")
	if !ok || !okp || !okn || !oks {
		return "", "", false
	}
	p50, ok50 := number(f.Evidence, "ttft_p50_ms")
	if !ok50 {
		p50, _ = number(f.Evidence, "request_time_p50_ms")
	}
	return m.f("rule.non_streaming_large_model.title", model),
		m.f("rule.non_streaming_large_model.advice", model, params, int64(n), 100*share, seconds(p50/1000)), true
}

func keepaliveText(m printer, f *rules.Finding) (string, string, bool) {
	client, ok := text(f.Key, "client")
	n, okn := number(f.Evidence, "requests")
	share, oks := number(f.Evidence, "new_connection_share")
	if !ok || !okn || !oks {
		return "", "", false
	}
	_, rtt := number(f.Evidence, "tcpinfo_rtt_mean_ms")
	_, tls := number(f.Evidence, "tls_handshake_mean_ms")
	if !rtt && !tls {
		return m.f("rule.missing_keepalive.title", client),
			m.f("rule.missing_keepalive.advice_unmeasured", client, 100*share, int64(n)), true
	}
	return m.f("rule.missing_keepalive.title", client),
		m.f("rule.missing_keepalive.advice", client, 100*share, int64(n), f.Impact.MsPerRequest), true
}

// earlyClient is the caller named by an entry of
// retried_before_retry_after ("app-7: 12 of 15 retries sooner …").
var earlyClient = lazyre.New(`^(.*): \d+ of \d+ retries`)

// earlyEntry is the whole of such an entry, as the rule writes it.
var earlyEntry = lazyre.New(`^(.*): (\d+) of (\d+) retries sooner than Retry-After (\S+ s) \(median gap (\S+ s)\)$`)

// evidence returns f's evidence as the printer's language shows it: the
// storm's retried_before_retry_after, sentences the rule writes in
// English, in the printer's words; every other value as it is.
func (m printer) evidence(f *rules.Finding) rules.Fields {
	early, ok := f.Evidence.Get("retried_before_retry_after").([]string)
	if !ok || len(early) == 0 || m.lang == LangEn {
		return f.Evidence
	}
	said := make([]string, len(early))
	for i, e := range early {
		said[i] = e
		if c := earlyEntry().FindStringSubmatch(e); c != nil {
			said[i] = m.f("rule.rate_limit_storm.earlyentry", c[1], c[2], c[3], c[4], c[5])
		}
	}
	out := slices.Clone(f.Evidence)
	for i := range out {
		if out[i].Name == "retried_before_retry_after" {
			out[i].Value = said
		}
	}
	return out
}

func stormText(m printer, f *rules.Finding) (string, string, bool) {
	w := where(m, f.Key)
	ra := m.t("rule.rate_limit_storm.noretryafter")
	if s, ok := number(f.Evidence, "retry_after_mean_s"); ok {
		ra = m.f("rule.rate_limit_storm.retryafter", seconds(s))
	}
	advice := m.f("rule.rate_limit_storm.advice", w, ra)
	early, _ := f.Evidence.Get("retried_before_retry_after").([]string)
	var who []string
	for _, e := range early[:min(3, len(early))] {
		if c := earlyClient().FindStringSubmatch(e); c != nil {
			e = c[1]
		}
		who = append(who, e)
	}
	if len(who) > 0 {
		advice += m.f("rule.rate_limit_storm.early", strings.Join(who, ", "))
	}
	return m.f("rule.rate_limit_storm.title", w), advice, true
}

func burstText(m printer, f *rules.Finding) (string, string, bool) {
	w := where(m, f.Key)
	n, ok := number(f.Evidence, "errors")
	if !ok {
		return "", "", false
	}
	var advice string
	if _, reached := number(f.Evidence, "error_upstream_time_mean_ms"); !reached {
		advice = m.f("rule.error_burst.path", w)
	} else {
		who := m.f("rule.error_burst.backend", w)
		if up := names(f.Evidence, "by_upstream", 2); len(up) > 0 && up[0] != "-" {
			who = m.f("rule.error_burst.owner", up[0])
			if len(up) > 1 {
				who += m.f("rule.error_burst.then", up[1])
			}
		}
		advice = m.f("rule.error_burst.page", who)
	}
	byStatus, _ := f.Evidence.Get("by_status").(rules.Fields)
	s504, _ := number(byStatus, "504")
	s499, _ := number(byStatus, "499")
	if t := s504 + s499; t > 0 && t*5 >= n {
		advice += m.f("rule.error_burst.timeouts", int64(t))
	}
	return m.f("rule.error_burst.title", w), advice, true
}

func tokenCacheText(m printer, f *rules.Finding) (string, string, bool) {
	client, ok := text(f.Key, "client")
	token, okt := number(f.Evidence, "token_requests")
	other, oko := number(f.Evidence, "other_requests")
	if !ok || !okt || !oko {
		return "", "", false
	}
	return m.f("rule.token_cache_miss.title", client),
		m.f("rule.token_cache_miss.advice", client, int64(token), int64(other)), true
}

func regressionText(m printer, f *rules.Finding) (string, string, bool) {
	k, ok := texts(f.Key, "metric", "dimension", "key")
	p99, ok99 := number(f.Evidence, "p99_ms")
	prev, okp := number(f.Evidence, "previous_p99_ms")
	hour, okh := text(f.Evidence, "previous_hour")
	if !ok || !ok99 || !okp || !okh || prev <= 0 {
		return "", "", false
	}
	what := k[1] + " " + k[2]
	if k[1] == "all" {
		what = m.t("rule.all")
	}
	went := grewInText(m, f.Evidence)
	title := msgID("rule.latency_regression.title")
	if a, _ := text(f.Evidence, "against"); a == "day_before" {
		title = "rule.latency_regression.title_day"
	}
	return m.f(title, k[0], what, p99/prev) + went,
		m.f("rule.latency_regression.advice", what, hour, k[0], prev, p99), true
}

// grewInText says where a regression's time went (evidence grew_in and
// the mean deltas), or "" when unknown.
func grewInText(m printer, ev rules.Fields) string {
	g, _ := text(ev, "grew_in")
	up, _ := number(ev, "upstream_mean_ms_delta")
	net, _ := number(ev, "network_mean_ms_delta")
	ttft, _ := number(ev, "ttft_mean_ms_delta")
	switch g {
	case "upstream":
		return m.f("rule.latency_regression.upstream", up, net)
	case "first_token":
		return m.f("rule.latency_regression.first_token", ttft, up, net)
	case "network":
		return m.f("rule.latency_regression.network", net, up)
	}
	return ""
}

// timeoutCeilingText names the ceiling when the evidence gives it in ms
// or s (SPEC §5: the ceiling, how many, which callers and statuses).
func timeoutCeilingText(m printer, f *rules.Finding) (string, string, bool) {
	w := where(m, f.Key)
	title := m.f("rule.timeout_ceiling.title", w)
	if v, ok := number(f.Evidence, "ceiling_ms"); ok {
		title = m.f("rule.timeout_ceiling.titleat", w, seconds(v/1000))
	} else if v, ok := number(f.Evidence, "ceiling_s"); ok {
		title = m.f("rule.timeout_ceiling.titleat", w, seconds(v))
	}
	return title, m.t("rule.timeout_ceiling.advice"), true
}

// reasonPattern turns a reason a rule gives for not being evaluated
// into a message: the reason's text after prefix (and before suffix)
// fills the message's %s.
type reasonPattern struct {
	prefix, suffix string
	id             msgID
}

// reasonPatterns are the not-evaluated reasons the rules give.
var reasonPatterns = []reasonPattern{
	{"needs --state", "", "reason.state"},
	{"no previous hour in the state directory", "", "reason.noprevious"},
	{"the previous hour's state file is damaged", "", "reason.damaged"},
	{"the previous hour's state file was written for other metrics, dimensions or rules", "", "reason.layout"},
	{"field ", " is absent from every record", "reason.field"},
	{"fields ", " are absent from every record", "reason.fields"},
	{"partly: minutes before ", " were not judged, the log holding more key × minute buckets than kept (the latest are)", "reason.partly"},
	{"partly: the callers were judged from a hash sample of about ", " % of them, the log having more callers than kept", "reason.sampledcallers"},
	{"partly: the callers' paths were judged from a hash sample of about ", " % of them, the log having more paths than kept", "reason.sampledpaths"},
}

// reason is a rule's not-evaluated reason in m's language; a reason of
// no known pattern is shown as the rule gave it.
func (p printer) reason(s string) string {
	if p.lang == LangEn {
		return s
	}
	for _, rp := range reasonPatterns {
		rest, ok := strings.CutPrefix(s, rp.prefix)
		if !ok {
			continue
		}
		if rp.suffix == "" {
			return p.t(rp.id) + rest // the detail, as " (2026-11-29T09)"
		}
		if rest, ok = strings.CutSuffix(rest, rp.suffix); ok {
			return p.f(rp.id, rest)
		}
	}
	return s
}
