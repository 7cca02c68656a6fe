package report

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/rules"
)

func parseProm(t *testing.T, text []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("the Prometheus text does not parse: %v\n%s", err, text)
	}
	return fams
}

func labelsOf(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// find returns the value of the sample of fam whose labels include want.
func find(t *testing.T, fam *dto.MetricFamily, want map[string]string) float64 {
	t.Helper()
	var found []float64
	for _, m := range fam.GetMetric() {
		ls := labelsOf(m)
		ok := true
		for k, v := range want {
			if ls[k] != v {
				ok = false
			}
		}
		if ok {
			found = append(found, m.GetGauge().GetValue())
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s%v: %d samples, want 1", fam.GetName(), want, len(found))
	}
	return found[0]
}

func TestPrometheusParsesAndMatchesReport(t *testing.T) {
	reqs := goldenRequests()
	r := buildFrom(t, jsonl(t, reqs, 150), nil, 2, 1000, sampleFindings())
	fams := parseProm(t, render(t, r, "prom"))
	for _, name := range []string{"loganalyze_latency_ms", "loganalyze_requests_total", "loganalyze_status_total", "loganalyze_findings", "loganalyze_bad_lines_total", "loganalyze_input_incomplete"} {
		f := fams[name]
		if f == nil {
			t.Fatalf("family %s missing", name)
		}
		if f.GetType() != dto.MetricType_GAUGE || f.GetHelp() == "" {
			t.Errorf("%s: type %v, help %q; want a documented gauge", name, f.GetType(), f.GetHelp())
		}
	}
	if _, ok := fams["loganalyze_last_run_timestamp_seconds"]; ok {
		t.Errorf("a timestamp was written without being asked for")
	}

	// Counts against the generator's requests, the independent oracle.
	if got := find(t, fams["loganalyze_requests_total"], nil); got != float64(len(reqs)) {
		t.Errorf("requests_total %v, want %d", got, len(reqs))
	}
	byStatus := map[int]int{}
	for _, rq := range reqs {
		byStatus[rq.Status]++
	}
	if n := len(fams["loganalyze_status_total"].GetMetric()); n != len(byStatus) {
		t.Errorf("%d status samples, want %d", n, len(byStatus))
	}
	for code, n := range byStatus {
		if got := find(t, fams["loganalyze_status_total"], map[string]string{"status": strconv.Itoa(code)}); got != float64(n) {
			t.Errorf("status %d: %v, want %d", code, got, n)
		}
	}
	if got := find(t, fams["loganalyze_bad_lines_total"], nil); got != float64(r.Input.BadLines) || r.Input.BadLines == 0 {
		t.Errorf("bad_lines_total %v, report says %d (want > 0 for this input)", got, r.Input.BadLines)
	}
	if got := find(t, fams["loganalyze_input_incomplete"], nil); got != 0 {
		t.Errorf("input_incomplete %v, want 0", got)
	}

	// Latency of the whole input and of each region within 1 % of the
	// exact request times.
	lat := fams["loganalyze_latency_ms"]
	all := make([]float64, 0, len(reqs))
	byRegion := map[string][]float64{}
	for _, rq := range reqs {
		all = append(all, rq.RequestTime*1000)
		byRegion[rq.Region] = append(byRegion[rq.Region], rq.RequestTime*1000)
	}
	for _, q := range []struct {
		label string
		q     float64
	}{{"0.5", 0.5}, {"0.95", 0.95}, {"0.99", 0.99}} {
		got := find(t, lat, map[string]string{"metric": "request_time", "dim": "all", "key": "all", "quantile": q.label})
		if want := exactQuantile(all, q.q); !within1pct(got, want) {
			t.Errorf("all q%s = %v, want %v ±1 %%", q.label, got, want)
		}
		for region, vals := range byRegion {
			got := find(t, lat, map[string]string{"metric": "request_time", "dim": "region", "key": region, "quantile": q.label})
			if want := exactQuantile(vals, q.q); !within1pct(got, want) {
				t.Errorf("%s q%s = %v, want %v ±1 %%", region, q.label, got, want)
			}
		}
	}
	// Exactly the values of the report's own rows, too.
	cl := r.Latency[aggregate.RequestTime].By[aggregate.DimClient]
	if got := find(t, lat, map[string]string{"metric": "request_time", "dim": "client", "key": PromOtherKey, "quantile": "0.99"}); got != cl.Rest.P99 {
		t.Errorf("client other p99 %v, report %v", got, cl.Rest.P99)
	}
	if got := find(t, lat, map[string]string{"metric": "ttft", "dim": "model", "key": gen.StormModel, "quantile": "0.95"}); got == 0 {
		t.Errorf("ttft of %s is 0", gen.StormModel)
	}

	// Findings: one sample per known rule × severity; the fired ones
	// count the findings.
	fnd := fams["loganalyze_findings"]
	want := map[string]int{}
	for _, f := range r.Findings {
		want[f.Rule+"/"+f.Severity.String()]++
	}
	for _, rule := range KnownRules {
		for _, sev := range []rules.Severity{rules.Warn, rules.Crit} {
			got := find(t, fnd, map[string]string{"rule": rule, "severity": sev.String()})
			if got != float64(want[rule+"/"+sev.String()]) {
				t.Errorf("findings %s/%s = %v, want %d", rule, sev, got, want[rule+"/"+sev.String()])
			}
		}
	}
	if len(fnd.GetMetric()) != 2*len(KnownRules) {
		t.Errorf("%d findings samples, want %d", len(fnd.GetMetric()), 2*len(KnownRules))
	}
}

func TestPrometheusTimestampOnlyWhenAsked(t *testing.T) {
	r := buildFrom(t, jsonl(t, goldenRequests()[:50], 0), nil, 1, 1000, nil)
	var b bytes.Buffer
	at := time.Date(2026, 11, 29, 11, 5, 0, 0, time.UTC)
	if err := r.WritePrometheus(&b, PromOptions{Timestamp: at}); err != nil {
		t.Fatal(err)
	}
	fams := parseProm(t, b.Bytes())
	if got := find(t, fams["loganalyze_last_run_timestamp_seconds"], nil); got != float64(at.Unix()) {
		t.Errorf("timestamp %v, want %d", got, at.Unix())
	}
}

func TestPrometheusEscapesLabels(t *testing.T) {
	r := hostileReport(t)
	text := render(t, r, "prom")
	checkPromLines(t, text)
	// The no_data reason, a comment line, holds file and field names.
	nd := render(t, hostileNoDataReport(t), "prom")
	checkPromLines(t, nd)
	if l := firstLine(nd); !strings.Contains(l, "<script>alert(1)</script>") || !strings.Contains(l, "line1 line2  | forged | row |") {
		t.Errorf("no_data comment %q", l)
	}
	fams := parseProm(t, text)
	keys := map[string]bool{}
	for _, m := range fams["loganalyze_latency_ms"].GetMetric() {
		ls := labelsOf(m)
		if ls["dim"] == "model" {
			keys[ls["key"]] = true
		}
	}
	// A value comes back whole but for its carriage returns, which a
	// label shows as spaces (its line feeds are escaped).
	for _, s := range hostileStrings {
		want := strings.ReplaceAll(s, "\r", " ")
		if !keys[want] {
			t.Errorf("model %q did not come back as %q; keys: %v", s, want, keys)
		}
	}
}

// checkPromLines checks that the text parses and that every line is a
// sample or a comment.
func checkPromLines(t *testing.T, text []byte) {
	t.Helper()
	parseProm(t, text)
	for i, line := range strings.Split(strings.TrimSuffix(string(text), "\n"), "\n") {
		if !strings.HasPrefix(line, "loganalyze_") && !strings.HasPrefix(line, "# ") {
			t.Errorf("line %d is broken: %q", i+1, line)
		}
	}
}

// TestKnownRulesAreTheRules: the Prometheus report has a findings
// series for every built-in rule, timeout_ceiling among them.
func TestKnownRulesAreTheRules(t *testing.T) {
	ids := rules.RuleIDs()
	if len(KnownRules) != len(ids) || !slices.IsSorted(KnownRules) {
		t.Fatalf("KnownRules %v, the rules %v", KnownRules, ids)
	}
	for _, id := range append(ids, "timeout_ceiling") {
		if !slices.Contains(KnownRules, id) {
			t.Errorf("rule %s has no findings series", id)
		}
	}
}
