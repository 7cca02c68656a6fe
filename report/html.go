package report

import (
	"embed"
	"html/template"
	"io"
	"strconv"
	"strings"
	"time"

	"loganalyze/rules"
)

//go:embed html.tmpl
var htmlFS embed.FS

// htmlTemplate is parsed once. Every value it prints goes through
// html/template's contextual escaping; only the SVG charts, built and
// escaped by svg.go, are template.HTML.
var htmlTemplate = template.Must(template.ParseFS(htmlFS, "html.tmpl"))

// htmlView is what the template draws: the report, formatted.
type htmlView struct {
	Verdict     string // ok, warn, crit or no_data: the banner's class
	VerdictWord string
	Headline    string
	// NoData is the whole no_data reason; "" for another verdict.
	NoData       string
	Window       string
	Glance       []htmlStat
	InputNote    string
	Findings     []htmlFinding
	NotEvaluated []rules.NotEvaluated
	Timeline     template.HTML
	RegionChart  template.HTML
	RegionNote   string
	Histograms   []htmlChart
	Metrics      []htmlMetric
	Comparisons  []htmlComparison
	Status       []htmlStatus
	Files        []htmlFile
	Problems     []string
	Records      int64
	BadLines     int64
	Quantiles    string // how the quantiles are defined
	NoLatency    bool   // no metric has values
	Fields       []FieldCount
}

type htmlStat struct{ Label, Value string }

type htmlField struct{ Name, Value string }

type htmlFinding struct {
	N        int
	Severity string
	Rule     string
	Title    string
	Key      []htmlField
	Window   string
	Impact   string
	Evidence []htmlField
	Advice   string
}

type htmlChart struct {
	Title string
	SVG   template.HTML
}

type htmlMetric struct {
	Name     string
	Open     bool
	All      htmlRow
	Coverage string // "request_time: from 1 of 14 records", or ""
	Tables   []htmlTable
}

type htmlTable struct {
	Dim   string
	Rows  []htmlRow
	Other *htmlRow
	Note  string
}

// htmlRow is a table row; the V fields are the raw numbers the sort
// script reads.
type htmlRow struct {
	Key                    string
	Count                  int64
	P50, P95, P99, Max     string
	P50V, P95V, P99V, MaxV string
	OtherRow               bool
	OtherKeys              int64
}

type htmlStatus struct {
	Status string
	Count  int64
	Share  string
}

type htmlFile struct {
	Path, Format     string
	Records, BadLine int64
	Note             string
}

// WriteHTML writes the report as one self-contained HTML page: inline
// CSS, one small inline script (table sorting), charts as inline SVG; it
// fetches nothing. Every log-derived string is escaped.
func (r *Report) WriteHTML(w io.Writer) error {
	return htmlTemplate.Execute(w, r.htmlView())
}

func (r *Report) htmlView() *htmlView {
	v := &htmlView{
		Verdict:      r.Verdict.String(),
		VerdictWord:  strings.ToUpper(r.Verdict.String()),
		Window:       "no timestamps",
		NotEvaluated: r.NotEvaluated,
		Records:      r.Input.Records,
		BadLines:     r.Input.BadLines,
		Quantiles:    r.quantileDefinition(),
		NoLatency:    !r.hasLatency(),
		Fields:       r.Input.Fields,
	}
	r.htmlVerdict(v)
	if r.Window != nil {
		v.Window = r.Window.From.Format("2006-01-02 15:04:05") + " – " + r.Window.To.Format("2006-01-02 15:04:05 -07:00")
	}
	if r.Input.BadLines > 0 || r.Input.Incomplete {
		v.InputNote = plural(int(r.Input.BadLines), "bad line")
		if r.Input.Incomplete {
			v.InputNote += "; some files incomplete"
		}
	}

	var total, n429, n5xx int64
	for _, s := range r.Status {
		total += s.Count
		switch {
		case s.Status == 429:
			n429 += s.Count
		case s.Status >= 500 && s.Status < 600:
			n5xx += s.Count
		}
	}
	v.Glance = append(v.Glance, htmlStat{"requests", strconv.FormatInt(r.Input.InWindow(), 10)})
	if len(r.Latency) > 0 && r.Latency[0].All.Count > 0 {
		a := r.Latency[0].All
		v.Glance = append(v.Glance,
			htmlStat{"p50", ms(a.P50) + " ms"}, htmlStat{"p95", ms(a.P95) + " ms"}, htmlStat{"p99", ms(a.P99) + " ms"},
			htmlStat{"max", ms(a.Max) + " ms"})
		if note := r.coverageNote(r.Latency[0], plainText); note != "" {
			v.Glance = append(v.Glance, htmlStat{"coverage", note})
		}
	}
	if total > 0 {
		v.Glance = append(v.Glance,
			htmlStat{"429", share(n429, total)}, htmlStat{"5xx", share(n5xx, total)})
	}

	for i := range r.Findings {
		v.Findings = append(v.Findings, r.htmlFinding(i+1, &r.Findings[i]))
	}

	v.Timeline = timelineChart(r.Timeline, r.TimelineStep, r.Location)
	v.RegionChart = regionChart(r.RegionP99, r.RegionStep)
	if r.RegionStep > 0 {
		v.RegionNote = bucketText(r.RegionStep) + " buckets"
		if len(r.RegionP99) == ChartRegions {
			v.RegionNote += "; the " + strconv.Itoa(ChartRegions) + " busiest regions"
		}
	}
	for _, h := range r.Histograms {
		if len(h.Bins) > 0 {
			v.Histograms = append(v.Histograms, htmlChart{Title: h.Metric, SVG: histogramChart(h)})
		}
	}

	v.Metrics = r.htmlMetrics()

	v.Comparisons = htmlComparisons(r.Comparisons)
	for _, s := range r.Status {
		v.Status = append(v.Status, htmlStatus{Status: statusKey(s.Status), Count: s.Count, Share: share(s.Count, total)})
	}
	for _, f := range r.Input.Files {
		v.Files = append(v.Files, htmlFile{Path: f.Path, Format: string(f.Format), Records: f.Records, BadLine: f.BadLines, Note: r.fileNote(f)})
	}
	for _, p := range r.Input.Problems {
		v.Problems = append(v.Problems, p.String())
	}
	return v
}

// htmlVerdict fills the banner's verdict and headline.
func (r *Report) htmlVerdict(v *htmlView) {
	crit, warn := r.severityCounts()
	if len(r.Findings) == 0 {
		v.Headline = "nothing to fix"
		if r.unreadCount() > 0 {
			v.Headline += " in what was read"
		}
	} else {
		v.Headline = plural(len(r.Findings), "finding") + " (" + strconv.Itoa(crit) + " crit, " + strconv.Itoa(warn) + " warn)"
	}
	if r.NoData != nil {
		v.Verdict, v.VerdictWord = VerdictNoData, "NO DATA"
		v.Headline = r.NoData.headline(plainText, plainText)
		if len(r.Findings) > 0 {
			v.Headline += "; " + plural(len(r.Findings), "finding") + " from other fields (" + strconv.Itoa(crit) + " crit, " + strconv.Itoa(warn) + " warn)"
		}
		v.NoData = r.NoData.text(plainText, plainText)
	}
	if r.unreadCount() > 0 {
		v.Headline += "; " + r.unreadText(plainText)
	}
}

// htmlMetrics are the latency tables of each metric with values.
func (r *Report) htmlMetrics() []htmlMetric {
	var out []htmlMetric
	for i, ml := range r.Latency {
		if ml.All.Count == 0 {
			continue
		}
		hm := htmlMetric{Name: ml.Metric, Open: i == 0, All: row(ml.All), Coverage: r.coverageNote(ml, plainText)}
		for _, dl := range ml.By {
			if len(dl.Rows) == 0 {
				continue
			}
			t := htmlTable{Dim: dl.Dim}
			for _, q := range dl.Rows[:min(TableKeys, len(dl.Rows))] {
				t.Rows = append(t.Rows, row(q))
			}
			if dl.Rest != nil {
				o := row(*dl.Rest)
				o.OtherRow, o.OtherKeys = true, dl.RestKeys
				o.Key = otherLabel(dl)
				t.Other = &o
			}
			if n := len(dl.Rows); n > TableKeys && dl.FoldedKeys == 0 {
				t.Note = strconv.Itoa(TableKeys) + " of " + strconv.Itoa(n) + " keys"
			} else if dl.FoldedKeys > 0 {
				t.Note = "busiest " + strconv.Itoa(min(n, TableKeys)) + " keys; more were folded by --top"
			}
			hm.Tables = append(hm.Tables, t)
		}
		out = append(out, hm)
	}
	return out
}

func (r *Report) htmlFinding(n int, f *rules.Finding) htmlFinding {
	h := htmlFinding{
		N:        n,
		Severity: f.Severity.String(),
		Rule:     f.Rule,
		Title:    f.Title,
		Key:      htmlFields(f.Key),
		Evidence: htmlFields(f.Evidence),
		Advice:   f.Advice,
		Impact: "~" + ms(f.Impact.MsPerRequest) + " ms per request × " + strconv.FormatInt(f.Impact.Requests, 10) +
			" requests ≈ " + strconv.FormatFloat(f.Impact.Seconds, 'f', 1, 64) + " s",
	}
	if f.Window != nil {
		h.Window = time.Unix(0, f.Window.From).In(r.Location).Format("2006-01-02 15:04") + " – " +
			time.Unix(0, f.Window.To).In(r.Location).Format("15:04 -07:00")
	}
	return h
}

func htmlFields(fs rules.Fields) []htmlField {
	out := make([]htmlField, 0, len(fs))
	for _, f := range fs {
		out = append(out, htmlField{Name: f.Name, Value: fieldText(f)})
	}
	return out
}

func row(q Quantiles) htmlRow {
	return htmlRow{
		Key: q.Key, Count: q.Count,
		P50: ms(q.P50), P95: ms(q.P95), P99: ms(q.P99),
		P50V: promFloat(q.P50), P95V: promFloat(q.P95), P99V: promFloat(q.P99),
		Max: ms(q.Max), MaxV: promFloat(q.Max),
	}
}

func share(n, total int64) string {
	if total == 0 {
		return "0.0 %"
	}
	return strconv.FormatFloat(100*float64(n)/float64(total), 'f', 1, 64) + " %"
}

// durationText names a bucket width after "per": "minute", "5 minutes",
// "hour", "10 days".
func durationText(d time.Duration) string {
	n, unit := int64(d/time.Minute), "minute"
	switch {
	case d%(24*time.Hour) == 0:
		n, unit = int64(d/(24*time.Hour)), "day"
	case d%time.Hour == 0:
		n, unit = int64(d/time.Hour), "hour"
	}
	if n == 1 {
		return unit
	}
	return strconv.FormatInt(n, 10) + " " + unit + "s"
}

// bucketText names a bucket width: "1-minute", "6-hour".
func bucketText(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "-day"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "-hour"
	}
	return strconv.FormatInt(int64(d/time.Minute), 10) + "-minute"
}
