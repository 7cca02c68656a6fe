package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"loganalyze/ingest"
	"loganalyze/rules"
)

// mdTopKeys is how many keys of a dimension the Markdown tables show.
const mdTopKeys = 10

// WriteMarkdown writes the report in English: WriteMarkdownIn(w, LangEn).
func (r *Report) WriteMarkdown(w io.Writer) error { return r.WriteMarkdownIn(w, LangEn) }

// WriteMarkdownIn writes the report for a ticket or a chat in lang:
// verdict first, then findings by impact, latency tables, status codes
// and input problems. Every log-derived string is escaped.
func (r *Report) WriteMarkdownIn(w io.Writer, lang Lang) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	m := printerFor(lang)

	if r.NoData != nil {
		p("%s\n\n", m.f("title.nodata", r.NoData.headline(m, mdText, mdCode)))
	} else {
		p("%s\n\n", m.t("title"))
	}
	p("%s\n\n", r.verdictLine(m))
	if s := r.Triage.text(m, mdText); s != "" {
		p("%s\n\n", s)
	}

	if len(r.Findings) > 0 {
		p("## %s\n\n", m.t("findings"))
		for i := range r.Findings {
			r.markdownFinding(b, m, i+1, &r.Findings[i])
		}
	}
	if len(r.NotEvaluated) > 0 {
		p("## %s\n\n", m.t("notevaluated"))
		for _, n := range r.NotEvaluated {
			p("- %s%s%s\n", mdText(n.Rule), m.t("colon"), mdText(m.reason(n.Reason)))
		}
		p("\n")
	}

	r.markdownBreakdown(p, m)
	r.markdownLatency(p, m)
	for _, c := range r.Comparisons {
		for _, x := range c.all() {
			markdownComparison(p, m, x)
		}
	}

	if len(r.Status) > 0 {
		p("## %s\n\n| %s | %s | %s |\n|---|--:|--:|\n", m.t("statuscodes"), m.t("col.status"), m.t("col.count"), m.t("col.share"))
		var total int64
		for _, s := range r.Status {
			total += s.Count
		}
		for _, s := range r.Status {
			p("| %d | %d | %.1f %% |\n", s.Status, s.Count, 100*float64(s.Count)/float64(total))
		}
		p("\n")
	}

	p("## %s\n\n| %s | %s | %s | %s | %s |\n|---|---|--:|--:|---|\n", m.t("input"),
		m.t("col.file"), m.t("col.format"), m.t("col.records"), m.t("col.badlines"), m.t("col.note"))
	for _, f := range r.Input.Files {
		p("| %s | %s | %d | %d | %s |\n", mdCell(f.Path), mdCell(formatLabel(f)), f.Records, f.BadLines, mdText(r.fileNote(m, f)))
	}
	p("\n%s%s%s%s\n", m.n(int(r.Input.Records), "n.record"), m.t("comma"), m.n(int(r.Input.BadLines), "n.badline"), m.t("period"))
	if len(r.Input.Fields) > 0 {
		var parts []string
		for _, fc := range r.Input.Fields {
			parts = append(parts, mdCode(fc.Field)+" "+strconv.FormatInt(fc.Count, 10))
		}
		p("\n%s %s%s\n", m.t("fieldcounts"), strings.Join(parts, ", "), m.t("period"))
	}
	if len(r.Input.UnreadValues) > 0 {
		var parts []string
		for _, fc := range r.Input.UnreadValues {
			parts = append(parts, mdCode(fc.Field)+" "+strconv.FormatInt(fc.Count, 10))
		}
		p("\n%s %s%s\n", m.t("unreadvalues"), strings.Join(parts, ", "), m.t("period"))
	}
	for _, c := range r.Clocks {
		p("\n%s%s\n", m.f("clocktime", mdCode(c.Name), mdText(c.File)), m.t("period"))
	}
	for _, h := range r.TimeHints {
		p("\n%s%s\n", m.f("timehint", mdCode(h.Flag), mdText(h.why(m))), m.t("period"))
	}
	for _, h := range r.StatusHints {
		p("\n%s%s\n", m.f("statushint", mdCode(h.Flag), mdText(h.why(m))), m.t("period"))
	}
	for _, h := range r.UnitHints {
		p("\n%s%s\n", m.f("unithint", mdCode(h.Flag), mdText(h.why(m))), m.t("period"))
	}
	notes, bad := r.inputNotes()
	for _, list := range []struct {
		title msgID
		ps    []ingest.Problem
	}{{"inputnotes", notes}, {"firstbadlines", bad}, {"firstunreadvalues", r.Input.ValueProblems}} {
		if len(list.ps) > 0 {
			p("\n%s%s\n\n", m.t(list.title), strings.TrimSpace(m.t("colon")))
			for _, pr := range list.ps {
				if pr.Line == 0 {
					p("- %s: %s\n", mdText(pr.File), mdText(pr.Reason))
					continue
				}
				p("- %s:%d: %s\n", mdText(pr.File), pr.Line, mdText(pr.Reason))
			}
		}
	}
	return b.Flush()
}

// markdownLatency writes the latency tables: per metric with values, the
// whole input and each dimension's busiest keys.
func (r *Report) markdownLatency(p func(string, ...any), m printer) {
	p("## %s\n\n", m.t("latency"))
	if !r.hasLatency() {
		p("%s\n\n", m.t("nolatency"))
		return
	}
	p("%s\n\n", mdText(r.quantileDefinition(m)))
	for _, ml := range r.Latency {
		if ml.All.Count == 0 {
			continue
		}
		p("### %s\n\n", ml.Metric)
		if note := r.coverageNote(m, ml, mdCode); note != "" {
			p("*%s*\n\n", m.f("coverage.rest", note))
		}
		p("| %s | %s | %s | p50 | p95 | p99 | %s |\n|---|---|--:|--:|--:|--:|--:|\n", m.t("col.dimension"), m.t("col.key"), m.t("col.count"), m.t("col.max"))
		p("| all | all | %s |\n", mdQuantiles(ml.All))
		anyRange := false
		for _, dl := range ml.By {
			anyRange = anyRange || ranged(dl.Rows[:min(TableKeys, len(dl.Rows))])
			for _, q := range dl.Rows[:min(TableKeys, len(dl.Rows))] {
				p("| %s | %s | %s |\n", mdText(dl.Dim), mdCell(q.Key), mdQuantiles(q))
			}
			if q := dl.Rest; q != nil {
				p("| %s | *%s* | %s |\n", mdText(dl.Dim), otherLabel(m, dl), mdQuantiles(*q))
			}
		}
		p("\n")
		if anyRange {
			p("*%s*\n\n", m.t("countrange"))
		}
	}
	p("%s\n\n", m.f("busiestkeys", TableKeys))
}

// windowText is the window as the verdicts show it.
func (r *Report) windowText(m printer) string {
	if r.Window == nil {
		return m.t("notimestamp")
	}
	s := spanText(r.Window)
	if r.Requested != nil {
		s += m.f("window.whole", spanText(r.Requested))
	}
	return s
}

// spanText is a span as the verdicts show it; an open end is "…". The
// offset is written once, after the end, when both ends share it.
func spanText(w *Span) string {
	from, to := "…", "…"
	if !w.From.IsZero() {
		from = w.From.Format("2006-01-02 15:04:05")
	}
	if !w.To.IsZero() {
		to = w.To.Format("2006-01-02 15:04:05 -07:00")
	}
	// The end's offset is the start's too, unless a change of daylight
	// saving time lies between (--tz America/New_York: 00:00 -04:00 to
	// 02:59 -05:00 is four hours, not three).
	_, fromOff := w.From.Zone()
	_, toOff := w.To.Zone()
	if !w.From.IsZero() && (w.To.IsZero() || fromOff != toOff) {
		from += w.From.Format(" -07:00")
	}
	return from + " – " + to
}

func (r *Report) verdictLine(m printer) string {
	crit, warn := r.severityCounts()
	head := m.t("verdict.ok")
	if c := r.Triage.tailKey(); c != nil && len(r.Findings) == 0 {
		head = m.f("verdict.oktail", c.Dimension, mdCode(c.Key), pct(c.SlowShare))
	}
	if r.inPart() {
		head += m.t("verdict.inread")
	}
	switch {
	case r.NoData != nil:
		head = m.t("verdict.nodata")
		if len(r.Findings) > 0 {
			head += m.f("verdict.fromother", m.n(len(r.Findings), "n.finding"))
		}
	case r.Verdict == rules.Crit:
		head = m.f("verdict.crit", m.n(len(r.Findings), "n.finding"))
	case r.warnUnread:
		head = m.t("verdict.warnunread")
	case r.warnStatus:
		head = m.t("verdict.warnstatus")
	case r.warnUnit:
		head = m.t("verdict.warnunit")
	case r.Verdict == rules.Warn:
		head = m.f("verdict.warn", m.n(len(r.Findings), "n.finding"))
	}
	if crit+warn > 0 {
		head += m.f("verdict.counts", crit, warn)
	}
	line := m.f("verdict.line", head, r.requestsText(m), r.windowText(m))
	if note := r.inputNote(m, mdText, mdCode); note != "" {
		line += m.f("verdict.input", note) + m.t("period")
	}
	if n := r.unreadCount(); n > 0 {
		line += " " + r.unreadText(m, mdText)
	}
	if t := r.mostlyText(m, mdText); t != "" {
		line += " " + t
	}
	if r.NoData != nil {
		line += " " + r.NoData.text(m, mdText, mdCode)
	}
	return line
}

// mdQuantiles is the count, p50, p95, p99 and max cells of a table row.
func mdQuantiles(q Quantiles) string {
	return fmt.Sprintf("%s | %s | %s | %s | %s", countText(q), ms(q.P50), ms(q.P95), ms(q.P99), ms(q.Max))
}

// countText is a row's count, or the range of counts it may have when
// stored hours folded the key into other in some of them: "9920–9925".
func countText(q Quantiles) string {
	if q.Missing > 0 {
		return strconv.FormatInt(q.Count, 10) + "–" + strconv.FormatInt(q.Count+q.Missing, 10)
	}
	return strconv.FormatInt(q.Count, 10)
}

// ranged reports whether a row of rows shows a range of counts.
func ranged(rows []Quantiles) bool {
	for _, q := range rows {
		if q.Missing > 0 {
			return true
		}
	}
	return false
}

// mdCode shows a field name or a flag the program wrote (never log
// text) as code.
func mdCode(s string) string { return "`" + s + "`" }

func (r *Report) markdownFinding(b *bufio.Writer, m printer, n int, f *rules.Finding) {
	title, advice := m.finding(f)
	item := func(label msgID, value string) { fmt.Fprintf(b, "- **%s**%s%s\n", m.t(label), m.t("colon"), value) }
	fmt.Fprintf(b, "### %d. %s — %s\n\n", n, strings.ToUpper(m.severity(f.Severity.String())), mdText(title))
	item("f.key", mdKey(f.Key))
	if f.Window != nil {
		from := "15:04"
		if r.Window != nil && r.Window.To.Sub(r.Window.From) > 24*time.Hour {
			from = "2006-01-02 15:04" // a log of several days: which day
		}
		item("f.window", time.Unix(0, f.Window.From).In(r.Location).Format(from)+" – "+
			time.Unix(0, f.Window.To).In(r.Location).Format("15:04 -07:00"))
	}
	item("f.impact", m.f("impact", ms(f.Impact.MsPerRequest), f.Impact.Requests, f.Impact.Seconds))
	item("f.evidence", mdFields(m.evidence(f)))
	if len(f.Explains) > 0 {
		item("f.explains", mdKey(explainFields(f.Explains)))
	}
	item("f.fix", mdText(advice))
	b.WriteString("\n")
}

// maxExplainsShown bounds the keys a finding's explains list shows in
// Markdown and HTML; the JSON has them all.
const maxExplainsShown = 12

// explainFields are the keys a finding explains as fields (dimension =
// key), the first maxExplainsShown and how many more.
func explainFields(es []rules.Explained) rules.Fields {
	var fs rules.Fields
	for i, e := range es {
		if i == maxExplainsShown {
			fs = append(fs, rules.Field{Name: "more", Value: int64(len(es) - maxExplainsShown)})
			break
		}
		if e.Dimension == "all" {
			fs = append(fs, rules.Field{Name: "all", Value: ""}) // the whole input: its name alone
			continue
		}
		fs = append(fs, rules.Field{Name: e.Dimension, Value: e.Key})
	}
	return fs
}

// mdKey writes a finding's key: "region = eu; model = m"; a field
// without a value is its name alone ("all", the whole input).
func mdKey(fs rules.Fields) string {
	var parts []string
	for _, f := range fs {
		if v, ok := f.Value.(string); ok && v == "" {
			parts = append(parts, mdText(f.Name))
			continue
		}
		parts = append(parts, mdText(f.Name)+" = "+mdText(fieldText(f)))
	}
	return strings.Join(parts, "; ")
}

func mdFields(fs rules.Fields) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, mdText(f.Name)+" = "+mdText(fieldText(f)))
	}
	return strings.Join(parts, "; ")
}

// fieldText formats one evidence value: times in ms with the precision
// they deserve, other numbers as they are (a share of 0.17, 70 B
// parameters).
func fieldText(f rules.Field) string {
	if v, ok := f.Value.(float64); ok && !strings.HasSuffix(f.Name, "_ms") {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return valueText(f.Value)
}

func valueText(v any) string {
	switch v := v.(type) {
	case float64:
		return ms(v)
	case []string:
		return strings.Join(v, ", ")
	case rules.Fields:
		var parts []string
		for _, f := range v {
			parts = append(parts, f.Name+": "+valueText(f.Value))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// ms formats a duration in ms with the precision it deserves.
func ms(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// mdText escapes log-derived text for Markdown prose: every character
// with a Markdown or HTML meaning is backslash-escaped or replaced, and
// line breaks, control characters and bidirectional formatting
// characters (isControl) become spaces.
func mdText(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '&':
			b.WriteString("&amp;")
		case isControl(c):
			b.WriteByte(' ')
		case strings.ContainsRune("\\`*_[]|~#!", c):
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// mdCell is mdText for a table cell; empty text shows as a dash.
func mdCell(s string) string {
	if s == "" {
		return "–"
	}
	return mdText(s)
}

// otherLabel names a table's "other" row.
func otherLabel(m printer, dl DimLatency) string {
	if dl.KeyShare > 0 && dl.KeyShare < 1 {
		return m.f("other.sampled", int(1/dl.KeyShare))
	}
	if dl.FoldedKeys > 0 {
		return m.t("other.folded")
	}
	return m.f("other.keys", m.n(int(dl.RestKeys), "n.key"))
}
