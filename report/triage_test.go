package report

import (
	"bytes"
	"math"
	"regexp"
	"sort"
	"strings"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// call is a hand-built record for the triage and breakdown tests.
type call struct {
	region, model, uri string
	stream             int // 1 true, 0 false, -1 absent
	status             int
	rt, urt            float64 // s; urt 0: absent
	ttft               float64 // ms; 0: absent
}

func build(t *testing.T, calls []call) *Report {
	t.Helper()
	return buildHeaders(t, calls, 0)
}

// buildHeaders builds calls that carry upstream_header_time uht (s) as
// well, when it is not 0.
func buildHeaders(t *testing.T, calls []call, uht float64) *Report {
	t.Helper()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	accs := []*aggregate.Accumulator{
		aggregate.New(aggregate.Options{Mapping: m, Top: 100, TokenURI: regexp.MustCompile(`(?i)token`)}),
		aggregate.New(aggregate.Options{Mapping: m, Top: 100, TokenURI: regexp.MustCompile(`(?i)token`)}),
	}
	var r ingest.Record
	for i, c := range calls {
		r.Reset()
		for f, s := range map[ingest.Field]string{ingest.FRegion: c.region, ingest.FModel: c.model, ingest.FURI: c.uri} {
			if s != "" {
				r.SetText(f, []byte(s))
			}
		}
		if c.stream >= 0 {
			r.SetFloat(ingest.FStream, float64(c.stream))
		}
		if c.status != 0 { // 0: a record without a status
			r.SetFloat(ingest.FStatus, float64(c.status))
		}
		r.SetFloat(ingest.FRequestTime, c.rt)
		if c.urt > 0 {
			r.SetFloat(ingest.FUpstreamResponseTime, c.urt)
		}
		if c.ttft > 0 {
			r.SetFloat(ingest.FTTFT, c.ttft)
		}
		if uht > 0 {
			r.SetFloat(ingest.FUpstreamHeaderTime, uht)
		}
		accs[i%2].Add(&r)
	}
	return Build(BuildInput{Aggregate: aggregate.MergeAll(accs), Read: &ingest.Result{}})
}

func mustJSON(t *testing.T, r *Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func repeat(n int, c call) []call {
	out := make([]call, n)
	for i := range out {
		out[i] = c
	}
	return out
}

// Each branch of the guide's order: where the time goes decides the
// first action; the JSON and both languages' paragraphs say it.
func TestTriageWhere(t *testing.T) {
	for _, tc := range []struct {
		name   string
		calls  []call
		where  string
		share  float64 // of the inference requests' time
		action msgID
		uht    float64 // upstream_header_time of every call, s; 0: absent
	}{
		{"generation", repeat(100, call{"r", "m", "/v1/chat", 1, 200, 4.0, 3.99, 300}), WhereGeneration, 3.7 / 4.0, "action.generation", 0},
		// 3.0 s to the first token of a 3.5 s answer: the first token is
		// slow, generation fluent.
		{"first token", repeat(100, call{"r", "m", "/v1/chat", 1, 200, 3.5, 3.49, 3000}), WhereFirstToken, 2.99 / 3.5, "action.inference", 0},
		// No ttft, most of the time outside the upstream.
		{"network", repeat(100, call{"r", "m", "/v1/chat", 0, 200, 2.0, 0.5, 0}), WhereNetwork, 1.5 / 2.0, "action.network_path", 0},
		// request_time alone: nothing to split, say so.
		{"nothing known", repeat(100, call{"r", "m", "/v1/chat", 1, 200, 2.0, 0, 0}), "", 0, "action.split_first_token", 0},
		// 10 ms of network known, 1990 ms in no phase: too little known.
		{"mostly unknown", repeat(100, call{"r", "m", "/v1/chat", 1, 200, 2.0, 1.99, 0}), "", 0, "action.split_first_token", 0},
		// ttft logged for the streamed calls, nothing for the others
		// (new-api's frt): most of the time in no phase still. Logging
		// ttft again is no advice; the upstream's times are.
		{"ttft of some", append(repeat(30, call{"r", "m", "/v1/chat", 1, 200, 2.0, 0, 500}), repeat(70, call{"r", "m", "/v1/chat", 0, 200, 6.0, 0, 0})...),
			"", 0, "action.split_upstream", 0},
		// A gateway's log, no ttft: headers after 0.3 s of a 5.99 s upstream
		// time, the rest of it the body (a streamed answer).
		{"upstream body", repeat(100, call{"r", "m", "/v1/chat", 1, 200, 6.0, 5.99, 0}), WhereUpstreamBody, 5.69 / 6.0, "action.upstream_body", 0.3},
	} {
		r := buildHeaders(t, tc.calls, tc.uht)
		tr := r.Triage
		if tr == nil || tr.Where != tc.where || math.Abs(tr.WhereShare-tc.share) > 0.001 || tr.Action != strings.TrimPrefix(string(tc.action), "action.") {
			t.Errorf("%s: %+v, want where %q share %.3f action %s", tc.name, tr, tc.where, tc.share, tc.action)
			continue
		}
		for _, lang := range Langs {
			m := printerFor(lang)
			text := tr.text(m, plainText)
			if !strings.Contains(text, m.t(tc.action)) {
				t.Errorf("%s %s: %q lacks the action", tc.name, lang, text)
			}
			if tc.where == "" && !strings.Contains(text, m.t("triage.nowhere")) {
				t.Errorf("%s %s: %q does not say it cannot tell", tc.name, lang, text)
			}
			if tr.Concentration != nil || strings.Contains(text, "429") {
				t.Errorf("%s %s: one region, no 429: %q", tc.name, lang, text)
			}
		}
		if got := string(mustJSON(t, r)); !strings.Contains(got, `"action": "`+tr.Action+`"`) || (tc.where != "") != strings.Contains(got, `"where": "`+tc.where+`"`) {
			t.Errorf("%s: JSON triage %s", tc.name, got[strings.Index(got, `"triage"`):][:300])
		}
	}
}

// A slow tail in one region of two: the concentration names it with the
// share of the slow requests computed from the sorted values; the 429s,
// over 1 % of responses, come last.
func TestTriageConcentrationAnd429(t *testing.T) {
	var calls []call
	calls = append(calls, repeat(500, call{"ap-a", "m", "/v1/chat", 1, 200, 0.100, 0.099, 50})...)
	calls = append(calls, repeat(480, call{"ap-b", "m", "/v1/chat", 1, 200, 0.100, 0.099, 50})...)
	calls = append(calls, repeat(20, call{"ap-b", "m", "/v1/chat", 1, 200, 5.000, 4.990, 60})...)
	calls = append(calls, repeat(30, call{"ap-a", "m", "/v1/chat", 1, 429, 0.010, 0.009, 0})...)
	r := build(t, calls)
	// The oracle: exact p99 (rank ⌊0.99·(n−1)⌋) and the requests at or
	// above it per region.
	var rts []float64
	for _, c := range calls {
		rts = append(rts, c.rt*1000)
	}
	sort.Float64s(rts)
	p99 := rts[int(0.99*float64(len(rts)-1))]
	slow := map[string]int{}
	total, inB := 0, 0
	for _, c := range calls {
		if c.rt*1000 >= p99 {
			slow[c.region]++
			total++
		}
		if c.region == "ap-b" {
			inB++
		}
	}
	c := r.Triage.Concentration
	if c == nil || c.Dimension != "region" || c.Key != "ap-b" || !c.Concentrated {
		t.Fatalf("concentration %+v", c)
	}
	if want := float64(slow["ap-b"]) / float64(total); math.Abs(c.SlowShare-want) > 0.001 || c.SlowRequests != int64(slow["ap-b"]) {
		t.Errorf("slow share %v of %d, want %v of %d", c.SlowShare, c.SlowRequests, want, slow["ap-b"])
	}
	if want := float64(inB) / float64(len(calls)); math.Abs(c.RequestShare-want) > 0.001 {
		t.Errorf("request share %v, want %v", c.RequestShare, want)
	}
	if math.Abs(c.P99-p99) > 0.01*p99 {
		t.Errorf("p99 %v, exact %v", c.P99, p99)
	}
	if want := 30.0 / float64(len(calls)); r.Triage.RateLimited != 30 || math.Abs(r.Triage.RateLimitedShare-want) > 0.001 {
		t.Errorf("429: %d, %v", r.Triage.RateLimited, r.Triage.RateLimitedShare)
	}
	for _, lang := range Langs {
		m := printerFor(lang)
		text := r.Triage.text(m, plainText)
		for _, want := range []string{m.f("triage.then.conc", "region", "ap-b"), m.f("triage.then.429", pct(r.Triage.RateLimitedShare)), "ap-b"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q lacks %q", lang, text, want)
			}
		}
		// The verdict line, then the paragraph, in Markdown and HTML.
		for _, out := range []string{string(renderIn(t, r, "md", lang)), string(renderIn(t, r, "html", lang))} {
			if !strings.Contains(out, m.f("triage.then.429", pct(r.Triage.RateLimitedShare))) {
				t.Errorf("%s: the report lacks the triage", lang)
			}
		}
	}
	// A log that writes a status for failed calls only (new-api's error
	// log): the 429s' share is of every request, not of those with a
	// status; a log with no status has no 429 count at all.
	partial := build(t, append(repeat(970, call{"ap-a", "m", "/v1/chat", 1, 0, 0.1, 0.099, 50}), repeat(30, call{"ap-a", "m", "/v1/chat", 1, 429, 0.01, 0.009, 0})...))
	if tr := partial.Triage; tr.RateLimited != 30 || tr.RateLimitedShare != 0.03 || !tr.StatusRead {
		t.Errorf("429s of a log with statuses for failures only: %d, share %v, want 30, 0.03", tr.RateLimited, tr.RateLimitedShare)
	}
	none := build(t, repeat(100, call{"ap-a", "m", "/v1/chat", 1, 0, 0.1, 0.099, 50}))
	if got := string(mustJSON(t, none)); none.Triage.StatusRead || strings.Contains(got, `"status_429`) {
		t.Errorf("a log without statuses reports 429s: %s", got[strings.Index(got, `"triage"`):][:200])
	}
	// An even spread is not called a concentration.
	even := build(t, append(repeat(500, call{"ap-a", "m", "/v1/chat", 1, 200, 0.1, 0.099, 50}),
		append(repeat(500, call{"ap-b", "m", "/v1/chat", 1, 200, 0.1, 0.099, 50}),
			append(repeat(10, call{"ap-a", "m", "/v1/chat", 1, 200, 5, 4.99, 60}), repeat(10, call{"ap-b", "m", "/v1/chat", 1, 200, 5, 4.99, 60})...)...)...))
	if c := even.Triage.Concentration; c == nil || c.Concentrated || strings.Contains(even.Triage.text(english, plainText), "ap-") {
		t.Errorf("even spread: %+v", c)
	}
}

// No data, no triage.
func TestTriageNoData(t *testing.T) {
	if r := build(t, nil); r.Triage != nil || strings.Contains(string(mustJSON(t, r)), `"triage"`) {
		t.Errorf("triage without data: %+v", r.Triage)
	}
}
