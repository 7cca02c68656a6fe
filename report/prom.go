package report

import (
	"bufio"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"loganalyze/rules"
)

// KnownRules are the IDs of the built-in rules (SPEC §5), sorted. The
// Prometheus report has a findings sample for each of them, zero when it
// did not fire, so that alerts always have a series. They are the rules'
// own list: a rule added there has its series.
var KnownRules = knownRules()

func knownRules() []string {
	ids := rules.RuleIDs()
	slices.Sort(ids)
	return ids
}

// PromOtherKey is the key label of the row that merges a dimension's keys
// past the first TableKeys.
const PromOtherKey = "(other)"

// PromOptions configure the Prometheus text report.
type PromOptions struct {
	// Timestamp, when not zero, is written as
	// loganalyze_last_run_timestamp_seconds.
	Timestamp time.Time
}

var promQuantiles = [...]struct {
	label string
	get   func(Quantiles) float64
}{
	{"0.5", func(q Quantiles) float64 { return q.P50 }},
	{"0.95", func(q Quantiles) float64 { return q.P95 }},
	{"0.99", func(q Quantiles) float64 { return q.P99 }},
}

// WritePrometheus writes the report in the Prometheus text exposition
// format, for node_exporter's textfile collector: latency quantiles of the
// whole input and of each dimension's busiest keys, request and status
// counts, findings per rule and severity, input health. Samples are
// sorted within each family; the output is deterministic.
func (r *Report) WritePrometheus(w io.Writer, opts PromOptions) error {
	b := bufio.NewWriter(w)
	pw := &promWriter{b}
	family, sample := pw.family, pw.sample

	r.promVerdict(pw)
	family("loganalyze_latency_ms", "gauge", "Latency quantile in milliseconds over the analysed window, by metric, dimension and key (dim=\"all\" is the whole input; key=\""+PromOtherKey+"\" merges the keys past the busiest "+strconv.Itoa(TableKeys)+").")
	for _, ml := range r.Latency {
		if ml.All.Count == 0 {
			continue
		}
		latency := func(dim string, q Quantiles, key string) {
			for _, pq := range promQuantiles {
				sample("loganalyze_latency_ms", []string{"metric", ml.Metric, "dim", dim, "key", key, "quantile", pq.label}, promFloat(pq.get(q)))
			}
		}
		latency("all", ml.All, "all")
		for _, dl := range ml.By {
			rows := append([]Quantiles(nil), dl.Rows[:min(TableKeys, len(dl.Rows))]...)
			sort.Slice(rows, func(i, j int) bool { return rows[i].Key < rows[j].Key })
			for _, q := range rows {
				latency(dl.Dim, q, q.Key)
			}
			if dl.Rest != nil {
				latency(dl.Dim, *dl.Rest, PromOtherKey)
			}
		}
	}

	family("loganalyze_requests_total", "gauge", "Records analysed in the window.")
	// The window's, as its latencies and statuses are: not those read
	// outside --since/--until.
	sample("loganalyze_requests_total", nil, strconv.FormatInt(r.Input.Records-r.Input.OutsideWindow, 10))

	family("loganalyze_status_total", "gauge", "Responses in the window by HTTP status.")
	codes := make([]StatusCount, len(r.Status))
	copy(codes, r.Status)
	sort.Slice(codes, func(i, j int) bool { return statusKey(codes[i].Status) < statusKey(codes[j].Status) })
	for _, s := range codes {
		sample("loganalyze_status_total", []string{"status", statusKey(s.Status)}, strconv.FormatInt(s.Count, 10))
	}

	family("loganalyze_findings", "gauge", "Findings in the window by rule and severity (0 for a known rule that did not fire).")
	type rs struct {
		rule string
		sev  rules.Severity
	}
	counts := map[rs]int{}
	for _, rule := range KnownRules {
		counts[rs{rule, rules.Warn}] = 0
		counts[rs{rule, rules.Crit}] = 0
	}
	for _, f := range r.Findings {
		counts[rs{f.Rule, f.Severity}]++
	}
	keys := make([]rs, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].rule != keys[j].rule {
			return keys[i].rule < keys[j].rule
		}
		return keys[i].sev.String() < keys[j].sev.String()
	})
	for _, k := range keys {
		sample("loganalyze_findings", []string{"rule", k.rule, "severity", k.sev.String()}, strconv.Itoa(counts[k]))
	}

	r.promInput(pw)

	if !opts.Timestamp.IsZero() {
		family("loganalyze_last_run_timestamp_seconds", "gauge", "Unix time of the run that wrote this file.")
		sample("loganalyze_last_run_timestamp_seconds", nil, strconv.FormatInt(opts.Timestamp.Unix(), 10))
	}
	return b.Flush()
}

// promWriter writes families and samples of the text format.
type promWriter struct{ b *bufio.Writer }

func (p *promWriter) family(name, typ, help string) {
	p.b.WriteString("# HELP " + name + " " + help + "\n# TYPE " + name + " " + typ + "\n")
}

// sample writes one sample; labels are name, value pairs.
func (p *promWriter) sample(name string, labels []string, v string) {
	b := p.b
	b.WriteString(name)
	if len(labels) > 0 {
		b.WriteByte('{')
		for i := 0; i < len(labels); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(labels[i])
			b.WriteString(`="`)
			b.WriteString(promLabel(labels[i+1]))
			b.WriteByte('"')
		}
		b.WriteByte('}')
	}
	b.WriteByte(' ')
	b.WriteString(v)
	b.WriteByte('\n')
}

// promVerdict writes the verdict; a no_data report starts with a comment
// line that says why, so that whoever opens the file reads it first.
func (r *Report) promVerdict(pw *promWriter) {
	if r.NoData != nil {
		pw.b.WriteString("# loganalyze: no_data: " + promComment(r.NoData.text(english, plainText, plainText)) + "\n")
	}
	pw.family("loganalyze_verdict", "gauge", "1 for the run's verdict (ok, warn, crit or no_data), 0 for the others.")
	for _, v := range []string{"crit", VerdictNoData, "ok", "warn"} {
		pw.sample("loganalyze_verdict", []string{"verdict", v}, promBool(r.VerdictName() == v))
	}
	pw.family("loganalyze_no_data", "gauge", "1 when no record in the window carries request_time: latency was not judged.")
	pw.sample("loganalyze_no_data", nil, promBool(r.NoData != nil))
}

// promInput writes the input's health: bad lines, incomplete and unread
// files, records carrying each field.
func (r *Report) promInput(pw *promWriter) {
	pw.family("loganalyze_bad_lines_total", "gauge", "Lines that could not be read in this run.")
	pw.sample("loganalyze_bad_lines_total", nil, strconv.FormatInt(r.Input.BadLines, 10))

	pw.family("loganalyze_input_incomplete", "gauge", "1 when some input could not be read to its end (truncated or damaged file).")
	pw.sample("loganalyze_input_incomplete", nil, promBool(r.Input.Incomplete))

	pw.family("loganalyze_unread_files", "gauge", "Input files that held data of which not one record could be read.")
	pw.sample("loganalyze_unread_files", nil, strconv.Itoa(len(r.Unread)))

	pw.family("loganalyze_field_records", "gauge", "Records in the window carrying each canonical field.")
	fields := append([]FieldCount(nil), r.Input.Fields...)
	sort.Slice(fields, func(i, j int) bool { return fields[i].Field < fields[j].Field })
	for _, fc := range fields {
		pw.sample("loganalyze_field_records", []string{"field", fc.Field}, strconv.FormatInt(fc.Count, 10))
	}
	if len(r.Input.UnreadValues) > 0 { // only then: the family is new
		pw.family("loganalyze_unreadable_values", "gauge", "Records read with a value of the field that could not be read, kept without it.")
		unread := append([]FieldCount(nil), r.Input.UnreadValues...)
		sort.Slice(unread, func(i, j int) bool { return unread[i].Field < unread[j].Field })
		for _, fc := range unread {
			pw.sample("loganalyze_unreadable_values", []string{"field", fc.Field}, strconv.FormatInt(fc.Count, 10))
		}
	}
}

// promFloat formats a sample value with fixed precision.
func promFloat(v float64) string {
	return strconv.FormatFloat(v, 'f', 3, 64)
}

func promBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// promComment makes text safe for one comment line: valid UTF-8, no line
// breaks, other control characters or bidirectional formatting
// characters (isControl).
func promComment(s string) string {
	return strings.Map(func(c rune) rune {
		if isControl(c) {
			return ' '
		}
		return c
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

var promEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// promLabel escapes a label value: backslash, double quote and line
// feed; invalid UTF-8 becomes U+FFFD, since the format requires UTF-8;
// the other control and bidirectional formatting characters (isControl)
// become spaces, as in the other reports, so that printing the file runs
// no terminal sequence and reorders no text.
func promLabel(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(c rune) rune { // allocates only when it replaces
		if c != '\n' && isControl(c) {
			return ' '
		}
		return c
	}, s)
	if !strings.ContainsAny(s, "\\\"\n") {
		return s
	}
	return promEscaper.Replace(s)
}
