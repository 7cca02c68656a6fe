package rules

import (
	"fmt"
	"sort"
	"strings"

	"loganalyze/aggregate"
)

// stormRule is rate_limit_storm (SPEC §5): minutes of one key where 429s
// are many and a large share.
type stormRule struct {
	enabled
	Min429   int64   // 429 responses in a minute
	MinShare float64 // of the minute's responses
	// CritShare makes a storm crit when its 429s are at least this share
	// of the window's responses.
	CritShare float64
}

func newStorm() rule {
	return &stormRule{enabled: enabled{true}, Min429: 20, MinShare: 0.20, CritShare: 0.5}
}

func (*stormRule) id() string { return RuleStorm }

func (r *stormRule) params() []param {
	return []param{enabledP(&r.Enabled), intP("min_429", &r.Min429), shareP("min_share", &r.MinShare), shareP("crit_share", &r.CritShare)}
}

func (*stormRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return minutesCollector()
}

func (*stormRule) needs(acc *aggregate.Accumulator) string { return timeBoundNeeds(acc) }

func (r *stormRule) evaluate(_ *aggregate.Accumulator, col aggregate.Collector, _ *Config) ([]Finding, string) {
	ms := col.(*minuteStats)
	return storm(ms, r), ms.partly()
}

// defaultRetryDelayS is the delay a rejected call is assumed to cost when
// no Retry-After was logged: the first step of the back-off SPEC §1
// recommends.
const defaultRetryDelayS = 1.0

// storm flags minutes of one key (region × model, or what the records
// have: keyKind) where 429s are many and a large share;
// adjacent minutes form one finding.
func storm(ms *minuteStats, cfg *stormRule) []Finding {
	hit := func(b *minuteBucket) bool {
		return b.N429 >= cfg.Min429 && float64(b.N429) >= cfg.MinShare*float64(b.Total)
	}
	var out []Finding
	for _, r := range ms.runs(hit) {
		w := r.window()
		total := r.sum(func(b *minuteBucket) int64 { return b.Total })
		n429 := r.sum(func(b *minuteBucket) int64 { return b.N429 })
		raN := r.sum(func(b *minuteBucket) int64 { return b.RetryAfterN })
		var raS Total
		for _, b := range r.buckets {
			raS.Merge(b.RetryAfterS)
		}
		share := float64(n429) / float64(total)
		sev := Warn
		if share >= cfg.CritShare {
			sev = Crit
		}
		ev := Fields{{"minutes", int64(len(r.buckets))}, {"responses", total}, {"responses_429", n429},
			{"share_429", round(share, 3)}, {"peak_429_per_minute", r.peak(func(b *minuteBucket) int64 { return b.N429 })}}
		delay, raText := defaultRetryDelayS, "no Retry-After was logged"
		if raN > 0 {
			delay = raS.Float() / float64(raN)
			ev = append(ev, Field{"retry_after_mean_s", round(delay, 2)})
			raText = fmt.Sprintf("Retry-After was %s", seconds(delay))
		}
		callers, cut, early := ms.retries(&r, w)
		ev = append(ev, Field{"callers_429", topCallers(callers, cut, 5)})
		earlyNames := make([]string, 0, len(early))
		for _, e := range early {
			earlyNames = append(earlyNames, e.String())
		}
		ev = append(ev, Field{"retried_before_retry_after", earlyNames})
		advice := fmt.Sprintf("Rate limit hit on %s (%s). Callers must honour Retry-After and back off exponentially (1 s, 2 s, 4 s, ±20 %% jitter, at most 3 retries); "+
			"split the quota between core and burst traffic.", r.where(), raText)
		if len(early) > 0 {
			var who []string
			for i, e := range early {
				if i == 3 {
					break
				}
				who = append(who, e.client)
			}
			advice += fmt.Sprintf(" Fix first: %s, which retried sooner than Retry-After.", strings.Join(who, ", "))
		}
		// Impact: every 429 is a call that did not get through and must
		// wait before retrying: requests lost × the retry delay (the mean
		// Retry-After, or 1 s when none was logged).
		out = append(out, Finding{
			Rule:     RuleStorm,
			Severity: sev,
			Key:      r.keyFields(),
			Title:    "HTTP 429 storm on " + r.where(),
			Evidence: ev,
			Impact:   impact(delay*1000, n429),
			Advice:   advice,
			Window:   w,
		})
	}
	return out
}

// earlyRetrier is a caller that retried sooner than Retry-After.
type earlyRetrier struct {
	client      string
	early, n    int64   // early retries of n measured 429s
	medianGapMs float64 // of the early retries
	retryAfterS float64 // the largest Retry-After they ignored
}

func (e earlyRetrier) String() string {
	return fmt.Sprintf("%s: %d of %d retries sooner than Retry-After %s (median gap %s)",
		e.client, e.early, e.n, seconds(e.retryAfterS), seconds(e.medianGapMs/1000))
}

// retries counts each caller's 429s of the run's key in w, and finds the
// callers whose next request came sooner than the 429's Retry-After.
// The samples are per minute; a caller's minutes are joined so that a
// retry in the next minute is seen. A sample keeps maxLimitedTimes of a
// minute's 429s: a caller with a minute of more counts at least what
// its samples hold (cut).
func (ms *minuteStats) retries(r *run, w *Window) (map[string]int64, map[string]bool, []earlyRetrier) {
	byClient := map[string][]*retrySample{}
	// One minute past the window holds the retries of its last 429s.
	for _, rs := range ms.retrySamplesOf(r.buckets[0].KeyHash(), w.From, w.To) {
		byClient[rs.Client] = append(byClient[rs.Client], rs)
	}
	counts, cut := map[string]int64{}, map[string]bool{}
	var early []earlyRetrier
	for client, samples := range byClient {
		sort.Slice(samples, func(i, j int) bool { return samples[i].Minute < samples[j].Minute })
		var reqs []int64
		var lim []Limited
		for _, s := range samples {
			reqs = s.requestTimes(reqs)
			lim = append(lim, s.Limited...)
			cut[client] = cut[client] || len(s.Limited) >= maxLimitedTimes
		}
		e := earlyRetrier{client: client}
		var gaps []float64
		for _, l := range lim {
			if l.T < w.From || l.T >= w.To {
				continue
			}
			counts[client]++
			if l.RetryAfter <= 0 {
				continue
			}
			i := sort.Search(len(reqs), func(i int) bool { return reqs[i] > l.T })
			if i == len(reqs) {
				continue
			}
			e.n++
			gap := float64(reqs[i]-l.T) / 1e6
			if gap < l.RetryAfter*1000 {
				e.early++
				gaps = append(gaps, gap)
				e.retryAfterS = max(e.retryAfterS, l.RetryAfter)
			}
		}
		if e.early > 0 {
			sort.Float64s(gaps)
			e.medianGapMs = gaps[(len(gaps)-1)/2]
			early = append(early, e)
		}
	}
	sort.Slice(early, func(i, j int) bool {
		if early[i].early != early[j].early {
			return early[i].early > early[j].early
		}
		return early[i].client < early[j].client
	})
	return counts, cut, early
}

// topCallers names the n callers of the most 429s with their counts, as
// topNames does; a count its samples cut is a floor: "app-7 (≥160)".
func topCallers(counts map[string]int64, cut map[string]bool, n int) []string {
	out := topNames(counts, n)
	for i, s := range out {
		if j := strings.LastIndex(s, " ("); j > 0 && cut[s[:j]] {
			out[i] = s[:j+2] + "≥" + s[j+2:]
		}
	}
	return out
}
