package rules

import (
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// rec describes one hand-made record; zero values are absent fields
// except where a has* flag says otherwise.
type rec struct {
	at                   time.Time
	client, from, region string
	model, uri           string
	stream               *bool
	status               int
	rt, urt              float64 // s; urt < 0 absent
	hasURT               bool
	ttft                 float64 // ms
	connReq              int
	ssl                  float64 // s
	hasSSL               bool
	rttUS                float64
	retryAfter           float64
	tokens               int // completion_tokens; 0 absent
}

var (
	yes = func() *bool { b := true; return &b }()
	no  = func() *bool { b := false; return &b }()
	t0  = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
)

// accumulate feeds recs to one accumulator per worker (round robin) and
// merges them, as the pipeline does.
func accumulate(t testing.TB, cfg *Config, recs []rec) *aggregate.Accumulator {
	t.Helper()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	accs := []*aggregate.Accumulator{
		aggregate.New(aggregate.Options{Mapping: m, Top: 100, Collectors: cfg.Collectors(m, 100, true), TokenURI: cfg.TokenURI}),
		aggregate.New(aggregate.Options{Mapping: m, Top: 100, Collectors: cfg.Collectors(m, 100, true), TokenURI: cfg.TokenURI}),
	}
	var r ingest.Record
	for i, x := range recs {
		r.Reset()
		if !x.at.IsZero() {
			r.SetTime(x.at.UnixNano())
		}
		text := func(f ingest.Field, s string) {
			if s != "" {
				r.SetText(f, []byte(s))
			}
		}
		text(ingest.FClient, x.client)
		text(ingest.FClientRegion, x.from)
		text(ingest.FRegion, x.region)
		text(ingest.FModel, x.model)
		text(ingest.FURI, x.uri)
		if x.stream != nil {
			v := 0.0
			if *x.stream {
				v = 1
			}
			r.SetFloat(ingest.FStream, v)
		}
		if x.status != 0 {
			r.SetFloat(ingest.FStatus, float64(x.status))
		}
		if x.rt > 0 {
			r.SetFloat(ingest.FRequestTime, x.rt)
		}
		if x.hasURT {
			r.SetFloat(ingest.FUpstreamResponseTime, x.urt)
		}
		if x.ttft > 0 {
			r.SetFloat(ingest.FTTFT, x.ttft)
		}
		if x.connReq > 0 {
			r.SetFloat(ingest.FConnectionRequests, float64(x.connReq))
		}
		if x.hasSSL {
			r.SetFloat(ingest.FSSLHandshakeTime, x.ssl)
		}
		if x.rttUS > 0 {
			r.SetFloat(ingest.FTCPInfoRTT, x.rttUS)
		}
		if x.retryAfter > 0 {
			r.SetFloat(ingest.FRetryAfter, x.retryAfter)
		}
		if x.tokens > 0 {
			r.SetFloat(ingest.FCompletionTokens, float64(x.tokens))
		}
		accs[i%len(accs)].Add(&r)
	}
	return aggregate.MergeAll(accs)
}

// times returns n copies of x, the i-th changed by f.
func times(n int, x rec, f func(i int, r *rec)) []rec {
	out := make([]rec, n)
	for i := range out {
		out[i] = x
		if f != nil {
			f(i, &out[i])
		}
	}
	return out
}

func concat(parts ...[]rec) []rec {
	var out []rec
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// ruleFindings evaluates recs with cfg and returns the findings of rule.
func ruleFindings(t testing.TB, cfg *Config, rule string, recs []rec) []Finding {
	t.Helper()
	if cfg == nil {
		cfg = Default()
	}
	fs, _ := Evaluate(accumulate(t, cfg, recs), cfg)
	var out []Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// wantNotEvaluated checks that rule is not evaluated and the reason
// names every field.
func wantNotEvaluated(t *testing.T, rule string, recs []rec, fields ...string) {
	t.Helper()
	fs, ne := Evaluate(accumulate(t, Default(), recs), Default())
	for _, f := range fs {
		if f.Rule == rule {
			t.Errorf("%s fired without its fields: %+v", rule, f.Key)
		}
	}
	for _, n := range ne {
		if n.Rule == rule {
			for _, f := range fields {
				if !strings.Contains(n.Reason, f) {
					t.Errorf("%s: reason %q does not name %q", rule, n.Reason, f)
				}
			}
			return
		}
	}
	t.Errorf("%s is not listed as not evaluated (got %+v)", rule, ne)
}

// keyString is a finding's key as JSON.
func keyString(f Finding) string {
	b, _ := f.Key.MarshalJSON()
	return string(b)
}
