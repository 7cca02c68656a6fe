package report

import (
	"sort"
	"strconv"
	"strings"

	"loganalyze/aggregate"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// Comparison is the window's quantiles next to those of a reference
// period: a --baseline, or an earlier hour of the state directory.
type Comparison struct {
	// Against names the reference: "baseline", "previous_hour" or
	// "day_before"; Label describes it for people.
	Against string
	Label   string
	Metrics []MetricComparison // in aggregate metric order; metrics with no row are left out
	// Peak and OffPeak compare the busiest and the quietest quarter of
	// the hours of each side, when both span several hours; else nil.
	Peak, OffPeak *Comparison
	// ref is the reference's Label, part "cmp.peak" or "cmp.offpeak"
	// for a Peak or OffPeak comparison: what label says in another
	// language.
	ref  string
	part msgID
}

// label names the reference in m's language: Label in English; in
// another, the kind of reference (Against) with the detail Label gives
// in parentheses.
func (c *Comparison) label(m printer) string {
	if m.lang == LangEn || c.ref == "" {
		return c.Label
	}
	l := c.ref
	if i := strings.Index(l, " ("); i >= 0 && strings.HasSuffix(l, ")") {
		if id := msgID("ref." + c.Against); m.msgs[id] != "" {
			l = m.f(id, l[i+2:len(l)-1])
		}
	}
	if c.part != "" {
		l = m.f(c.part, l)
	}
	return l
}

// all returns c followed by its peak and off-peak comparisons, if any.
func (c *Comparison) all() []*Comparison {
	if c.Peak == nil {
		return []*Comparison{c}
	}
	return []*Comparison{c, c.Peak, c.OffPeak}
}

// MetricComparison is one metric's rows: over the whole input and per
// dimension.
type MetricComparison struct {
	Metric string
	All    *CompareRow // nil when one side has no value
	By     []DimComparison
}

// DimComparison is one dimension's rows, for the keys both periods have,
// largest count (after) first.
type DimComparison struct {
	Dim  string
	Rows []CompareRow
}

// CompareRow is one key before and after, with the ratios after ÷ before
// (0 when before is 0).
type CompareRow struct {
	Key                          string
	Before, After                Quantiles
	P50Ratio, P95Ratio, P99Ratio float64
}

// Reference is a period the window is compared with: a --baseline, or
// an earlier hour of the state directory.
type Reference struct {
	// Against names it in the JSON report: "baseline", "previous_hour"
	// or "day_before"; Label describes it for people.
	Against, Label string
	// Set is its sketches, compared with the window's.
	Set *sketch.Set
	// Peaks, when both the reference and the window span several hours,
	// are the sketches of their busiest and quietest quarters of hours;
	// else nil.
	Peaks *Peaks
}

// Peaks are the busiest (Peak) and the quietest (OffPeak) quarter of the
// hours of the reference (Before) and of the window (After).
type Peaks struct {
	PeakBefore, PeakAfter       *sketch.Set
	OffPeakBefore, OffPeakAfter *sketch.Set
}

// compare builds the comparison of the window's set with the reference,
// and of their peak and off-peak hours.
func (ref *Reference) compare(window *sketch.Set) *Comparison {
	c := compare(ref.Against, ref.Label, ref.Set, window)
	c.ref = ref.Label
	if p := ref.Peaks; p != nil {
		c.Peak = compare(ref.Against, english.f("cmp.peak", ref.Label), p.PeakBefore, p.PeakAfter)
		c.Peak.ref, c.Peak.part = ref.Label, "cmp.peak"
		c.OffPeak = compare(ref.Against, english.f("cmp.offpeak", ref.Label), p.OffPeakBefore, p.OffPeakAfter)
		c.OffPeak.ref, c.OffPeak.part = ref.Label, "cmp.offpeak"
	}
	return c
}

// compare builds the comparison of after (the window) with before.
func compare(against, label string, before, after *sketch.Set) *Comparison {
	c := &Comparison{Against: against, Label: label}
	for m, changes := range sketch.Compare(before, after) {
		mc := MetricComparison{Metric: aggregate.MetricNames[m]}
		if changes.All != nil {
			row := compareRow(changes.All)
			mc.All = &row
		}
		for _, dim := range changes.By {
			dc := DimComparison{Dim: dim.Dim}
			for i := range dim.Changes {
				dc.Rows = append(dc.Rows, compareRow(&dim.Changes[i]))
			}
			sort.SliceStable(dc.Rows, func(i, j int) bool { return dc.Rows[i].After.Count > dc.Rows[j].After.Count })
			if len(dc.Rows) > 0 {
				mc.By = append(mc.By, dc)
			}
		}
		if mc.All != nil || len(mc.By) > 0 {
			c.Metrics = append(c.Metrics, mc)
		}
	}
	return c
}

// compareRow is a change with the report's fixed precision.
func compareRow(ch *sketch.Change) CompareRow {
	return CompareRow{
		Key: ch.Key, Before: rounded(ch.Key, ch.Before), After: rounded(ch.Key, ch.After),
		P50Ratio: round3(ch.P50Ratio), P95Ratio: round3(ch.P95Ratio), P99Ratio: round3(ch.P99Ratio),
	}
}

// rounded is a summary as the report shows it.
func rounded(key string, s sketch.Summary) Quantiles {
	return Quantiles{Key: key, Count: s.Count, P50: round3(s.P50), P95: round3(s.P95), P99: round3(s.P99), Mean: round3(s.Mean), Max: round3(s.Max)}
}

// jsonName is the comparison's key in the JSON report: the first one is
// "comparison" (SPEC §6), the others "comparison_" + Against.
func (r *Report) comparisonName(i int) string {
	if i == 0 {
		return "comparison"
	}
	return "comparison_" + r.Comparisons[i].Against
}

func briefJSON(q Quantiles) obj {
	return obj{{Name: "count", Value: q.Count}, {Name: "p50_ms", Value: q.P50}, {Name: "p95_ms", Value: q.P95}, {Name: "p99_ms", Value: q.P99}}
}

func compareRowJSON(row CompareRow, withKey bool) obj {
	o := obj{}
	if withKey {
		o = append(o, kv{Name: "key", Value: row.Key})
	}
	return append(o,
		kv{Name: "before", Value: briefJSON(row.Before)},
		kv{Name: "after", Value: briefJSON(row.After)},
		kv{Name: "p50_ratio", Value: row.P50Ratio},
		kv{Name: "p95_ratio", Value: row.P95Ratio},
		kv{Name: "p99_ratio", Value: row.P99Ratio},
	)
}

// comparisonJSON is one comparison as comparison.<metric>.<dimension>
// rows, with what it is against.
func comparisonJSON(c *Comparison) obj {
	o := append(obj{{Name: "against", Value: c.Against}, {Name: "label", Value: c.Label}}, metricsJSON(c)...)
	if c.Peak != nil {
		o = append(o, kv{Name: "peak", Value: metricsJSON(c.Peak)}, kv{Name: "off_peak", Value: metricsJSON(c.OffPeak)})
	}
	return o
}

// metricsJSON is a comparison's <metric>.<dimension> rows.
func metricsJSON(c *Comparison) obj {
	o := obj{}
	for _, mc := range c.Metrics {
		mo := obj{}
		if mc.All != nil {
			mo = append(mo, kv{Name: "all", Value: compareRowJSON(*mc.All, false)})
		}
		for _, dc := range mc.By {
			rows := []obj{}
			for _, row := range dc.Rows {
				rows = append(rows, compareRowJSON(row, true))
			}
			mo = append(mo, kv{Name: dc.Dim, Value: rows})
		}
		o = append(o, kv{Name: mc.Metric, Value: mo})
	}
	return o
}

// comparisonsJSON returns the JSON fields of every comparison.
func (r *Report) comparisonsJSON() rules.Fields {
	var out rules.Fields
	for i, c := range r.Comparisons {
		out = append(out, kv{Name: r.comparisonName(i), Value: comparisonJSON(c)})
	}
	return out
}

// ratioText formats a ratio for the tables: "1.52×", or "–" when unknown.
func ratioText(v float64) string {
	if v == 0 {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "×"
}

// tableRows calls f with the rows the Markdown and HTML tables show
// for one metric: all, then each dimension's TableKeys busiest keys.
func (mc *MetricComparison) tableRows(f func(dim string, row CompareRow)) {
	if mc.All != nil {
		f("all", *mc.All)
	}
	for _, dc := range mc.By {
		for _, row := range dc.Rows[:min(TableKeys, len(dc.Rows))] {
			f(dc.Dim, row)
		}
	}
}

// markdownComparison writes one comparison as a before/after table per
// metric.
func markdownComparison(p func(string, ...any), m printer, c *Comparison) {
	p("## %s\n\n", m.f("comparedwith", mdText(c.label(m))))
	if len(c.Metrics) == 0 {
		p("%s\n\n", m.t("cmp.novalues"))
		return
	}
	for i := range c.Metrics {
		mc := &c.Metrics[i]
		p("### %s\n\n", mc.Metric)
		p("|")
		for _, col := range compareColumns {
			p(" %s |", m.t(col))
		}
		p("\n")
		p("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		mc.tableRows(func(dim string, row CompareRow) {
			p("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s |\n", mdText(dim), mdCell(row.Key),
				row.Before.Count, row.After.Count, ms(row.Before.P50), ms(row.After.P50),
				ms(row.Before.P95), ms(row.After.P95), ms(row.Before.P99), ms(row.After.P99), ratioText(row.P99Ratio))
		})
		p("\n")
	}
	p("%s\n\n", m.f("cmp.busiest", TableKeys))
}

// compareColumns are the columns of a before/after table.
var compareColumns = []msgID{"col.dimension", "col.key", "col.countbefore", "col.countafter", "col.p50before", "col.p50after",
	"col.p95before", "col.p95after", "col.p99before", "col.p99after", "col.p99ratio"}

// htmlComparison is one comparison for the HTML template.
type htmlComparison struct {
	Label   string
	Metrics []htmlCompareMetric
}

type htmlCompareMetric struct {
	Name string
	Rows []htmlCompareRow
}

type htmlCompareRow struct {
	Dim, Key                string
	CountBefore, CountAfter int64
	P50B, P50A, P95B, P95A  string
	P99B, P99A, Ratio       string
	P99BV, P99AV, RatioV    string
}

func htmlComparisons(m printer, cs []*Comparison) []htmlComparison {
	var out []htmlComparison
	var flat []*Comparison
	for _, c := range cs {
		flat = append(flat, c.all()...)
	}
	for _, c := range flat {
		hc := htmlComparison{Label: c.label(m)}
		for i := range c.Metrics {
			mc := &c.Metrics[i]
			hm := htmlCompareMetric{Name: mc.Metric}
			mc.tableRows(func(dim string, row CompareRow) {
				hm.Rows = append(hm.Rows, htmlCompareRow{
					Dim: dim, Key: row.Key, CountBefore: row.Before.Count, CountAfter: row.After.Count,
					P50B: ms(row.Before.P50), P50A: ms(row.After.P50), P95B: ms(row.Before.P95), P95A: ms(row.After.P95),
					P99B: ms(row.Before.P99), P99A: ms(row.After.P99), Ratio: ratioText(row.P99Ratio),
					P99BV: promFloat(row.Before.P99), P99AV: promFloat(row.After.P99), RatioV: promFloat(row.P99Ratio),
				})
			})
			hc.Metrics = append(hc.Metrics, hm)
		}
		out = append(out, hc)
	}
	return out
}
