package report

import (
	"strconv"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// The triage is the verdict's paragraph: the guide's order of checks
// taken from the data. First where the time of the inference requests
// goes (first token, generation, network or upstream, from the
// breakdown), then which region or model holds the slow tail, then the
// 429s. What cannot be judged (no phase known, one key) is left out.

// Where the time goes: the breakdown's phases grouped.
const (
	WhereFirstToken = "first_token"
	WhereGeneration = "generation"
	WhereNetwork    = "network"
	WhereUpstream   = "upstream"
	// WhereUpstreamBody is the upstream's time after its headers, of
	// records without ttft: a streamed answer's generation, mostly.
	WhereUpstreamBody = "upstream_body"
)

// The first action, in the guide's order of checks.
const (
	ActionInference    = "inference"         // the first token is slow, generation flows
	ActionGeneration   = "generation"        // long answers or a slow model
	ActionNetworkPath  = "network_path"      // the time is outside the upstream
	ActionUpstream     = "upstream"          // connect and header wait
	ActionUpstreamBody = "upstream_body"     // the body after the headers: streamed tokens
	ActionSplitTTFT    = "split_first_token" // no phase known: log ttft
	// ActionSplitUpstream: the records carry ttft, but most of the time
	// is in no phase still: the upstream's times would tell.
	ActionSplitUpstream = "split_upstream"
)

// minSlow is the fewest slow requests a concentration is named on.
const minSlow = 5

// minRateLimitedShare is the share of 429 responses the triage names.
const minRateLimitedShare = 0.01

// Triage is what the verdict paragraph says, as facts.
type Triage struct {
	// Where is the group of phases that takes the most of the inference
	// requests' time; "" when no phase is known, or the time no phase
	// shows (unknown) is larger. WhereMs is its mean per
	// inference request, WhereShare its share of their mean time.
	Where      string
	WhereMs    float64
	WhereShare float64
	// Concentration is the region or model key holding the largest share
	// of the requests above the overall p99; nil when no dimension has
	// two keys or nothing is above the p99.
	Concentration *Concentration
	// RateLimited is the count of 429 responses and their share of the
	// requests; StatusRead is false when no record had a status, and
	// the two are then no count.
	RateLimited      int64
	RateLimitedShare float64
	StatusRead       bool
	Action           string
}

// Concentration is one key's share of the slow tail.
type Concentration struct {
	Dimension, Key string
	P99            float64 // the overall p99 of request_time, ms
	SlowRequests   int64   // its requests at or above it (from its sketch's bins)
	SlowShare      float64 // of all requests above it
	RequestShare   float64 // its share of all requests
	// Concentrated is true when there are at least minSlow slow requests
	// and the key holds at least a fifth of them and 1.5 times its share
	// of all requests: a big key with its share of the tail is not a
	// concentration.
	Concentrated bool
}

// whereGroups maps each phase to its group.
var whereGroups = [aggregate.NumPhases]string{
	aggregate.PhaseDNS:                WhereNetwork,
	aggregate.PhaseTCPConnect:         WhereNetwork,
	aggregate.PhaseTLS:                WhereNetwork,
	aggregate.PhaseNetwork:            WhereNetwork,
	aggregate.PhaseUpstreamConnect:    WhereUpstream,
	aggregate.PhaseUpstreamHeaderWait: WhereUpstream,
	aggregate.PhaseFirstToken:         WhereFirstToken,
	aggregate.PhaseGeneration:         WhereGeneration,
	aggregate.PhaseUpstreamBody:       WhereUpstreamBody,
}

// whereOrder breaks ties between groups, in the guide's order.
var whereOrder = []string{WhereFirstToken, WhereGeneration, WhereUpstreamBody, WhereNetwork, WhereUpstream}

var whereActions = map[string]string{
	WhereFirstToken:   ActionInference,
	WhereGeneration:   ActionGeneration,
	WhereNetwork:      ActionNetworkPath,
	WhereUpstream:     ActionUpstream,
	WhereUpstreamBody: ActionUpstreamBody,
	"":                ActionSplitTTFT,
}

// triage works the facts out; nil when latency could not be judged.
func triage(classes []aggregate.ClassMeans, set *sketch.Set, status map[int]int64) *Triage {
	if set == nil || set.All.Metric(aggregate.RequestTime) == nil || set.All.Metric(aggregate.RequestTime).Count() == 0 {
		return nil
	}
	t := &Triage{}
	var total, unknown float64
	group := map[string]float64{}
	var n int64
	for _, c := range classes {
		if c.Class == aggregate.ClassNames[aggregate.ClassToken] {
			continue
		}
		n += c.Count
		total += float64(c.RequestTime) * float64(c.Count)
		unknown += float64(c.Unknown) * float64(c.Count)
		for p, v := range c.Phases {
			if c.Has[p] {
				group[whereGroups[p]] += float64(v) * float64(c.Count)
			}
		}
	}
	best := 0.0
	for _, g := range whereOrder {
		if v, ok := group[g]; ok && v > best {
			t.Where, best = g, v
		}
	}
	// A phase that takes less than what no phase shows is not where the
	// time goes: too little is known to say.
	if best < unknown {
		t.Where = ""
	}
	if t.Where != "" && total > 0 {
		t.WhereMs = round3(best / float64(n) / 1000)
		t.WhereShare = round3(best / total)
	}
	t.Action = whereActions[t.Where]
	if _, ttft := group[WhereFirstToken]; t.Where == "" && ttft {
		t.Action = ActionSplitUpstream // ttft is logged: not that again
	}
	t.Concentration = concentration(set)
	var all int64
	for code, k := range status {
		all += k
		if code == 429 {
			t.RateLimited = k
		}
	}
	// Of every request, not only those with a status: a log may write
	// one for failed calls only (new-api's error log; a billed call
	// has none).
	if all > 0 {
		t.StatusRead = true
		t.RateLimitedShare = round3(float64(t.RateLimited) / float64(max(all, set.All.Count)))
	}
	return t
}

// above counts a sketch's values at or above v: those of the bins that
// reach past v, v's own bin included (the p99 is its bin's value, and a
// tail cut at a time-out sits in that one bin).
func above(s *sketch.Sketch, v float64) int64 {
	var n int64
	if s == nil {
		return 0
	}
	s.Bins(func(_, upper float64, count int64) {
		if upper > v {
			n += count
		}
	})
	return n
}

// concentration finds the region or model key holding the largest share
// of the requests above the overall p99 of request_time, each key's
// count above it estimated from its sketch's bins.
func concentration(set *sketch.Set) *Concentration {
	all := set.All.Metric(aggregate.RequestTime)
	p99 := all.Quantile(0.99)
	slow := above(all, p99)
	if slow == 0 {
		return nil
	}
	var best *Concentration
	for _, d := range []int{aggregate.DimRegion, aggregate.DimModel} {
		dim := set.Dims[d]
		if dim.Len() < 2 {
			continue
		}
		for _, ke := range dim.Sorted() {
			s := ke.Metric(aggregate.RequestTime)
			k := above(s, p99)
			if k == 0 || best != nil && k <= best.SlowRequests {
				continue
			}
			best = &Concentration{Dimension: dim.Name, Key: ke.Key, P99: round3(p99), SlowRequests: k,
				SlowShare: round3(float64(k) / float64(slow)), RequestShare: round3(float64(s.Count()) / float64(all.Count()))}
		}
	}
	if best != nil {
		best.Concentrated = slow >= minSlow && best.SlowShare >= 0.2 && best.SlowShare >= 1.5*best.RequestShare
	}
	return best
}

// json is the triage's JSON object; absent facts are left out.
func (t *Triage) json() obj {
	o := obj{}
	if t.Where != "" {
		o = append(o, kv{Name: "where", Value: t.Where}, kv{Name: "where_ms", Value: t.WhereMs}, kv{Name: "where_share", Value: t.WhereShare})
	}
	if c := t.Concentration; c != nil {
		o = append(o, kv{Name: "concentration", Value: obj{
			{Name: "dimension", Value: c.Dimension}, {Name: "key", Value: c.Key}, {Name: "p99_ms", Value: c.P99},
			{Name: "slow_requests", Value: c.SlowRequests}, {Name: "slow_share", Value: c.SlowShare},
			{Name: "request_share", Value: c.RequestShare}, {Name: "concentrated", Value: c.Concentrated},
		}})
	}
	if t.StatusRead {
		o = append(o, kv{Name: "status_429", Value: t.RateLimited}, kv{Name: "status_429_share", Value: t.RateLimitedShare})
	}
	o = append(o, kv{Name: "action", Value: t.Action})
	return o
}

func pct(share float64) string { return strconv.FormatFloat(100*share, 'f', 1, 64) }

// tailKey returns the key that holds half or more of the slow tail when
// the triage names one: a verdict of no finding then says no rule fired,
// not that there is nothing to fix (a region slow for half an hour,
// without --state, is no rule's).
//
// Only a region: a large model is slower than a small one in every
// healthy hour, and holds their slow tail; regions serve alike.
func (t *Triage) tailKey() *Concentration {
	if t == nil || t.Concentration == nil || !t.Concentration.Concentrated || t.Concentration.SlowShare < 0.5 ||
		t.Concentration.Dimension != "region" {
		return nil
	}
	return t.Concentration
}

// text is the paragraph after the verdict line: two or three sentences;
// key is how a log-derived key is quoted (mdCode, plainText).
func (t *Triage) text(m printer, key func(string) string) string {
	if t == nil {
		return ""
	}
	var s string
	if t.Where != "" {
		s = m.f("triage.where", m.t(msgID("where."+t.Where)), pct(t.WhereShare), ms(t.WhereMs))
	} else {
		s = m.t("triage.nowhere")
	}
	c := t.Concentration
	if c != nil && c.Concentrated {
		s += m.sep() + m.f("triage.conc", c.Dimension, key(c.Key), pct(c.SlowShare), ms(c.P99), pct(c.RequestShare))
	}
	act := m.t(msgID("action." + t.Action))
	if c != nil && c.Concentrated {
		act += m.f("triage.then.conc", c.Dimension, key(c.Key))
	}
	if t.RateLimitedShare >= minRateLimitedShare {
		act += m.f("triage.then.429", pct(t.RateLimitedShare))
	}
	return s + m.sep() + m.f("triage.first", act)
}

// sep is what goes between two sentences: a space, none after the
// Chinese full stop.
func (p printer) sep() string {
	if p.lang == LangZhCN {
		return ""
	}
	return " "
}
