package report

import (
	"bytes"
	"embed"
	"html/template"
	"io"
	"strconv"
	"sync"
	"time"

	"loganalyze/rules"
)

//go:embed html.tmpl
var htmlFS embed.FS

// htmlTemplates are parsed once per language, with the functions t (a
// message of the catalogue) and tf (a message with its format verbs
// filled), the first time an HTML report is written: parsed when the
// program started, they cost every run 0.7 ms, most of what starting
// took past Go's own start. Every value they print goes through
// html/template's contextual escaping; only the SVG charts, built and
// escaped by svg.go, are template.HTML.
var htmlTemplates = sync.OnceValue(func() map[Lang]*template.Template {
	out := map[Lang]*template.Template{}
	for _, l := range Langs {
		m := printerFor(l)
		out[l] = template.Must(template.New("html.tmpl").Funcs(template.FuncMap{
			"t":  func(id string) string { return m.t(msgID(id)) },
			"tf": func(id string, args ...any) string { return m.f(msgID(id), args...) },
		}).ParseFS(htmlFS, "html.tmpl"))
	}
	return out
})

// htmlView is what the template draws: the report, formatted.
type htmlView struct {
	Lang        Lang   // the page's lang attribute
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
	Triage       string
	Breakdown    template.HTML
	Timeline     template.HTML
	RegionChart  template.HTML
	RegionNote   string
	Histograms   []htmlChart
	Metrics      []htmlMetric
	Comparisons  []htmlComparison
	Status       []htmlStatus
	Files        []htmlFile
	Problems     []string
	Notes        []string // problems of the run or a file as a whole (line 0)
	Records      int64
	BadLines     int64
	Quantiles    string // how the quantiles are defined
	NoLatency    bool   // no metric has values
	Fields       []FieldCount
	UnreadValues []FieldCount
	// ValueProblems are samples of the records with unreadable values.
	ValueProblems []string
	Clocks        []Clock
	TimeHints     []htmlHint
	StatusHints   []htmlHint
	UnitHints     []htmlHint
}

type htmlHint struct{ Flag, Why string }

type htmlStat struct{ Label, Value string }

type htmlField struct{ Name, Value string }

type htmlFinding struct {
	N        int
	Severity string // the class: warn or crit
	SevWord  string // its name in the report's language
	Rule     string
	Title    string
	Key      []htmlField
	Window   string
	Impact   string
	Evidence []htmlField
	Explains []htmlField
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
	CountText              string // Count, or its range (Quantiles.Missing)
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

// WriteHTML writes the report in English: WriteHTMLIn(w, LangEn).
func (r *Report) WriteHTML(w io.Writer) error { return r.WriteHTMLIn(w, LangEn) }

// WriteHTMLIn writes the report in lang as one self-contained HTML page:
// inline CSS, one small inline script (table sorting), charts as inline
// SVG; it fetches nothing. Every log-derived string is escaped, and its
// control and bidirectional formatting characters (isControl), which
// html/template leaves as they are, become spaces: the page is rendered
// whole, then they are replaced, wherever the template put the text.
func (r *Report) WriteHTMLIn(w io.Writer, lang Lang) error {
	m := printerFor(lang)
	var page bytes.Buffer
	if err := htmlTemplates()[m.lang].Execute(&page, r.htmlView(m)); err != nil {
		return err
	}
	_, err := w.Write(replaceControls(page.Bytes()))
	return err
}

func (r *Report) htmlView(m printer) *htmlView {
	v := &htmlView{
		Lang:        m.lang,
		Verdict:     r.Verdict.String(),
		VerdictWord: m.upper(verdictWord(r.Verdict)),
		Window:      r.windowText(m),
		Records:     r.Input.Records,
		BadLines:    r.Input.BadLines,
		Quantiles:   r.quantileDefinition(m),
		NoLatency:   !r.hasLatency(),
		Fields:      r.Input.Fields,

		UnreadValues: r.Input.UnreadValues,
	}
	for _, p := range r.Input.ValueProblems {
		v.ValueProblems = append(v.ValueProblems, p.String())
	}
	v.Clocks = r.Clocks
	for _, h := range r.TimeHints {
		v.TimeHints = append(v.TimeHints, htmlHint{h.Flag, h.why(m)})
	}
	for _, h := range r.StatusHints {
		v.StatusHints = append(v.StatusHints, htmlHint{h.Flag, h.why(m)})
	}
	for _, h := range r.UnitHints {
		v.UnitHints = append(v.UnitHints, htmlHint{h.Flag, h.why(m)})
	}
	for _, n := range r.NotEvaluated {
		v.NotEvaluated = append(v.NotEvaluated, rules.NotEvaluated{Rule: n.Rule, Reason: m.reason(n.Reason)})
	}
	r.htmlVerdict(m, v)
	v.InputNote = r.inputNote(m, plainText, plainText)

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
	v.Glance = append(v.Glance, htmlStat{m.t("glance.requests"), strconv.FormatInt(r.Input.InWindow(), 10)})
	if len(r.Latency) > 0 && r.Latency[0].All.Count > 0 {
		a := r.Latency[0].All
		v.Glance = append(v.Glance,
			htmlStat{"p50", ms(a.P50) + " ms"}, htmlStat{"p95", ms(a.P95) + " ms"}, htmlStat{"p99", ms(a.P99) + " ms"},
			htmlStat{"max", ms(a.Max) + " ms"})
		if note := r.coverageNote(m, r.Latency[0], plainText); note != "" {
			v.Glance = append(v.Glance, htmlStat{m.t("glance.coverage"), note})
		}
	}
	if total > 0 {
		v.Glance = append(v.Glance,
			htmlStat{"429", share(n429, total)}, htmlStat{"5xx", share(n5xx, total)})
	}

	for i := range r.Findings {
		v.Findings = append(v.Findings, r.htmlFinding(m, i+1, &r.Findings[i]))
	}

	v.Triage = r.Triage.text(m, plainText)
	v.Breakdown = breakdownChart(m, r.Breakdown, r.shownPhases())
	v.Timeline = timelineChart(m, r.Timeline, r.TimelineStep, r.Location)
	v.RegionChart = regionChart(m, r.RegionP99, r.RegionStep)
	if r.RegionStep > 0 {
		v.RegionNote = m.f("buckets", bucketText(m, r.RegionStep))
		if len(r.RegionP99) == ChartRegions {
			v.RegionNote += m.f("busiestregions", ChartRegions)
		}
	}
	for _, h := range r.Histograms {
		if len(h.Bins) > 0 {
			v.Histograms = append(v.Histograms, htmlChart{Title: h.Metric, SVG: histogramChart(m, h)})
		}
	}

	v.Metrics = r.htmlMetrics(m)

	v.Comparisons = htmlComparisons(m, r.Comparisons)
	for _, s := range r.Status {
		v.Status = append(v.Status, htmlStatus{Status: statusKey(s.Status), Count: s.Count, Share: share(s.Count, total)})
	}
	for _, f := range r.Input.Files {
		v.Files = append(v.Files, htmlFile{Path: f.Path, Format: formatLabel(f), Records: f.Records, BadLine: f.BadLines, Note: r.fileNote(m, f)})
	}
	notes, bad := r.inputNotes()
	for _, p := range notes {
		v.Notes = append(v.Notes, p.String())
	}
	for _, p := range bad {
		v.Problems = append(v.Problems, p.String())
	}
	return v
}

// verdictWord is the message naming a verdict of findings.
func verdictWord(s rules.Severity) msgID {
	if s == rules.OK {
		return "word.ok"
	}
	return msgID("sev." + s.String())
}

// htmlVerdict fills the banner's verdict and headline.
func (r *Report) htmlVerdict(m printer, v *htmlView) {
	crit, warn := r.severityCounts()
	if len(r.Findings) == 0 {
		v.Headline = m.t("nothingtofix")
		if c := r.Triage.tailKey(); c != nil {
			v.Headline = m.f("headline.tail", c.Dimension, plainText(c.Key), pct(c.SlowShare))
		}
		if r.inPart() {
			v.Headline += m.t("verdict.inread")
		}
	} else {
		v.Headline = m.f("headline.counts", m.n(len(r.Findings), "n.finding"), crit, warn)
	}
	if r.NoData != nil {
		v.Verdict, v.VerdictWord = VerdictNoData, m.t("word.nodata")
		v.Headline = r.NoData.headline(m, plainText, plainText)
		if len(r.Findings) > 0 {
			v.Headline += m.f("headline.other", m.n(len(r.Findings), "n.finding"), crit, warn)
		}
		v.NoData = r.NoData.text(m, plainText, plainText)
	}
	if r.unreadCount() > 0 {
		v.Headline += m.t("semicolon") + r.unreadText(m, plainText)
	}
	if r.warnStatus {
		v.Headline += m.t("semicolon") + m.t("headline.nostatus")
	}
	if r.warnUnit {
		v.Headline += m.t("semicolon") + m.t("headline.unit")
	}
	if t := r.mostlyText(m, plainText); t != "" {
		v.Headline += m.t("semicolon") + t
	}
	if n := r.timedRequests(); r.NoData == nil && n > 0 && n < r.Input.InWindow() {
		v.Headline += m.t("semicolon") + m.f("headline.timed", n, r.Input.InWindow())
	}
}

// htmlMetrics are the latency tables of each metric with values.
func (r *Report) htmlMetrics(m printer) []htmlMetric {
	var out []htmlMetric
	for i, ml := range r.Latency {
		if ml.All.Count == 0 {
			continue
		}
		hm := htmlMetric{Name: ml.Metric, Open: i == 0, All: row(ml.All), Coverage: r.coverageNote(m, ml, plainText)}
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
				o.Key = otherLabel(m, dl)
				t.Other = &o
			}
			if n := len(dl.Rows); n > TableKeys && dl.FoldedKeys == 0 {
				t.Note = m.f("keysofn", TableKeys, n)
			} else if dl.KeyShare > 0 && dl.KeyShare < 1 {
				t.Note = m.f("keyssampled", min(n, TableKeys), int(1/dl.KeyShare))
			} else if dl.FoldedKeys > 0 {
				t.Note = m.f("keysfolded", min(n, TableKeys))
			}
			if ranged(dl.Rows[:min(TableKeys, len(dl.Rows))]) {
				if t.Note != "" {
					t.Note += m.t("semicolon")
				}
				t.Note += m.t("keysranged")
			}
			hm.Tables = append(hm.Tables, t)
		}
		out = append(out, hm)
	}
	return out
}

func (r *Report) htmlFinding(m printer, n int, f *rules.Finding) htmlFinding {
	title, advice := m.finding(f)
	h := htmlFinding{
		N:        n,
		Severity: f.Severity.String(),
		SevWord:  m.severity(f.Severity.String()),
		Rule:     f.Rule,
		Title:    title,
		Key:      htmlFields(f.Key),
		Evidence: htmlFields(m.evidence(f)),
		Explains: htmlFields(explainFields(f.Explains)),
		Advice:   advice,
		Impact:   m.f("impact", ms(f.Impact.MsPerRequest), f.Impact.Requests, f.Impact.Seconds),
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
		Key: q.Key, Count: q.Count, CountText: countText(q),
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
func durationText(m printer, d time.Duration) string {
	n, one, many := int64(d/time.Minute), msgID("minute"), msgID("minutes")
	switch {
	case d%(24*time.Hour) == 0:
		n, one, many = int64(d/(24*time.Hour)), "day", "days"
	case d%time.Hour == 0:
		n, one, many = int64(d/time.Hour), "hour", "hours"
	}
	if n == 1 {
		return m.t(one)
	}
	return m.f(many, n)
}

// bucketText names a bucket width: "1-minute", "6-hour".
func bucketText(m printer, d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return m.f("bucket.day", int64(d/(24*time.Hour)))
	case d%time.Hour == 0:
		return m.f("bucket.hour", int64(d/time.Hour))
	}
	return m.f("bucket.minute", int64(d/time.Minute))
}
