package rules

import (
	"fmt"
	"sort"
	"strconv"

	"loganalyze/aggregate"
)

// burstRule is error_burst (SPEC §5): minutes of one key where 5xx and
// 499 responses are many and a large share.
type burstRule struct {
	enabled
	MinErrors int64   // 5xx and 499 responses in a minute
	MinShare  float64 // of the minute's responses
	// CritShare makes a burst crit when its errors are at least this
	// share of the window's responses.
	CritShare float64
}

func newBurst() rule {
	return &burstRule{enabled: enabled{true}, MinErrors: 20, MinShare: 0.05, CritShare: 0.25}
}

func (*burstRule) id() string { return RuleBurst }

func (r *burstRule) params() []param {
	return []param{enabledP(&r.Enabled), intP("min_errors", &r.MinErrors), shareP("min_share", &r.MinShare), shareP("crit_share", &r.CritShare)}
}

func (*burstRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return minutesCollector()
}

func (*burstRule) needs(acc *aggregate.Accumulator) string { return timeBoundNeeds(acc) }

func (r *burstRule) evaluate(_ *aggregate.Accumulator, col aggregate.Collector, _ *Config) ([]Finding, string) {
	ms := col.(*minuteStats)
	return burst(ms, r), ms.partly()
}

// burst flags minutes of one key (region × model, or what the records
// have: keyKind) where 5xx and 499 responses are many and a
// large share; adjacent minutes form one finding.
func burst(ms *minuteStats, cfg *burstRule) []Finding {
	errs := func(b *minuteBucket) int64 { return b.N5xx + b.N499 }
	hit := func(b *minuteBucket) bool {
		return errs(b) >= cfg.MinErrors && float64(errs(b)) >= cfg.MinShare*float64(b.Total)
	}
	var out []Finding
	for _, r := range ms.runs(hit) {
		total := r.sum(func(b *minuteBucket) int64 { return b.Total })
		n := r.sum(errs)
		share := float64(n) / float64(total)
		sev := Warn
		if share >= cfg.CritShare {
			sev = Crit
		}
		status := map[int]int64{}
		upStatus := map[int]int64{}
		upstream := map[string]int64{}
		var errMs, timeoutMs, upMs Total
		upN := int64(0)
		for _, b := range r.buckets {
			for k, v := range b.Status {
				if k != 429 {
					status[k] += v
				}
			}
			for k, v := range b.UpstreamStatus {
				upStatus[k] += v
			}
			for k, v := range b.Upstream {
				upstream[k] += v
			}
			errMs.Merge(b.ErrMs)
			timeoutMs.Merge(b.TimeoutMs)
			upMs.Merge(b.ErrUpMs)
			upN += b.ErrUpN
		}
		meanMs := errMs.Float() / float64(n)
		ev := Fields{{"minutes", int64(len(r.buckets))}, {"responses", total}, {"errors", n}, {"error_share", round(share, 3)},
			{"peak_errors_per_minute", r.peak(errs)}, {"by_status", intFields(status, "")}}
		if len(upstream) > 1 || upstream["-"] == 0 {
			ev = append(ev, Field{"by_upstream", topNames(upstream, 5)})
		}
		if len(upStatus) > 1 || upStatus[0] == 0 {
			ev = append(ev, Field{"by_upstream_status", intFields(upStatus, "none")})
		}
		ev = append(ev, Field{"error_request_time_mean_ms", round(meanMs, 1)})
		if upN > 0 {
			ev = append(ev, Field{"error_upstream_time_mean_ms", round(upMs.Float()/float64(upN), 1)})
		}
		// Impact: each failed call's time was lost, and the caller must
		// redo it: requests lost × their mean request_time.
		out = append(out, Finding{
			Rule:     RuleBurst,
			Severity: sev,
			Key:      r.keyFields(),
			Title:    "Error burst on " + r.where(),
			Evidence: ev,
			Impact:   impact(meanMs, n),
			Advice:   burstAdvice(r, status, upstream, n, timeoutMs.Float(), upN),
			Window:   r.window(),
		})
	}
	return out
}

// burstAdvice says who to page: the backend when upstreams answered with
// errors, the path when none answered; time-outs near a limit.
func burstAdvice(r run, status map[int]int64, upstream map[string]int64, n int64, timeoutMs float64, upN int64) string {
	timeouts := status[504] + status[499]
	where := r.where()
	var advice string
	switch {
	case upN == 0:
		advice = fmt.Sprintf("No upstream answered the failed calls on %s: the path failed (gateway, network, or no healthy upstream). Check the gateway and upstream health, then capacity.", where)
	default:
		who := "the backend of " + where
		if names := topKeys(upstream, 2); len(names) > 0 && names[0] != "-" {
			who = "the owner of upstream " + names[0]
			if len(names) > 1 {
				who += " (then " + names[1] + ")"
			}
		}
		advice = fmt.Sprintf("Page %s: an upstream was reached for %d of the %d failed calls, so the backend failed them. Check its capacity.", who, upN, n)
	}
	if timeouts > 0 && timeouts*5 >= n {
		advice += fmt.Sprintf(" %d of the errors are time-outs (504/499) after %s on average: if that is the client's or gateway's limit, raise it or stream the response.",
			timeouts, seconds(timeoutMs/float64(timeouts)/1000))
	}
	return advice
}

// intFields lists integer-keyed counts in key order; zero is named zero.
func intFields(m map[int]int64, zero string) Fields {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var fs Fields
	for _, k := range keys {
		name := strconv.Itoa(k)
		if k == 0 && zero != "" {
			name = zero
		}
		fs = append(fs, Field{name, m[k]})
	}
	return fs
}
