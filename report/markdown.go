package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"loganalyze/rules"
)

// mdTopKeys is how many keys of a dimension the Markdown tables show.
const mdTopKeys = 10

// WriteMarkdown writes the report for a ticket or a chat: verdict first,
// then findings by impact, latency tables, status codes and input
// problems. Every log-derived string is escaped.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }

	if r.NoData != nil {
		p("# loganalyze report: NO DATA — %s\n\n", r.NoData.headline(mdText, mdCode))
	} else {
		p("# loganalyze report\n\n")
	}
	p("%s\n\n", r.verdictLine())

	if len(r.Findings) > 0 {
		p("## Findings\n\n")
		for i := range r.Findings {
			r.markdownFinding(b, i+1, &r.Findings[i])
		}
	}
	if len(r.NotEvaluated) > 0 {
		p("## Not evaluated\n\n")
		for _, n := range r.NotEvaluated {
			p("- %s: %s\n", mdText(n.Rule), mdText(n.Reason))
		}
		p("\n")
	}

	r.markdownLatency(p)
	for _, c := range r.Comparisons {
		for _, x := range c.all() {
			markdownComparison(p, x)
		}
	}

	if len(r.Status) > 0 {
		p("## Status codes\n\n| status | count | share |\n|---|--:|--:|\n")
		var total int64
		for _, s := range r.Status {
			total += s.Count
		}
		for _, s := range r.Status {
			p("| %d | %d | %.1f %% |\n", s.Status, s.Count, 100*float64(s.Count)/float64(total))
		}
		p("\n")
	}

	p("## Input\n\n| file | format | records | bad lines | note |\n|---|---|--:|--:|---|\n")
	for _, f := range r.Input.Files {
		p("| %s | %s | %d | %d | %s |\n", mdCell(f.Path), mdCell(string(f.Format)), f.Records, f.BadLines, mdText(r.fileNote(f)))
	}
	p("\n%s, %s.\n", plural(int(r.Input.Records), "record"), plural(int(r.Input.BadLines), "bad line"))
	if len(r.Input.Fields) > 0 {
		var parts []string
		for _, fc := range r.Input.Fields {
			parts = append(parts, mdCode(fc.Field)+" "+strconv.FormatInt(fc.Count, 10))
		}
		p("\nRecords carrying each field: %s.\n", strings.Join(parts, ", "))
	}
	if len(r.Input.Problems) > 0 {
		p("\nFirst bad lines:\n\n")
		for _, pr := range r.Input.Problems {
			p("- %s:%d: %s\n", mdText(pr.File), pr.Line, mdText(pr.Reason))
		}
	}
	return b.Flush()
}

// markdownLatency writes the latency tables: per metric with values, the
// whole input and each dimension's busiest keys.
func (r *Report) markdownLatency(p func(string, ...any)) {
	p("## Latency (ms)\n\n")
	if !r.hasLatency() {
		p("No record in the window carries a latency field.\n\n")
		return
	}
	p("%s\n\n", mdText(r.quantileDefinition()))
	for _, ml := range r.Latency {
		if ml.All.Count == 0 {
			continue
		}
		p("### %s\n\n", ml.Metric)
		if note := r.coverageNote(ml, mdCode); note != "" {
			p("*%s; the others do not carry it.*\n\n", note)
		}
		p("| dimension | key | count | p50 | p95 | p99 | max |\n|---|---|--:|--:|--:|--:|--:|\n")
		p("| all | all | %s |\n", mdQuantiles(ml.All))
		for _, dl := range ml.By {
			for _, q := range dl.Rows[:min(TableKeys, len(dl.Rows))] {
				p("| %s | %s | %s |\n", mdText(dl.Dim), mdCell(q.Key), mdQuantiles(q))
			}
			if q := dl.Rest; q != nil {
				p("| %s | *%s* | %s |\n", mdText(dl.Dim), otherLabel(dl), mdQuantiles(*q))
			}
		}
		p("\n")
	}
	p("Each dimension shows its %d busiest keys; *other* merges the rest (every key is in the JSON report).\n\n", TableKeys)
}

func (r *Report) verdictLine() string {
	crit, warn := r.severityCounts()
	window := "no timestamps"
	if r.Window != nil {
		window = r.Window.From.Format("2006-01-02 15:04:05") + " – " + r.Window.To.Format("2006-01-02 15:04:05 -07:00")
	}
	head := "**Verdict: OK** — nothing to fix"
	if r.unreadCount() > 0 {
		head += " in what was read"
	}
	switch {
	case r.NoData != nil:
		head = "**Verdict: NO DATA** — latency not judged"
		if len(r.Findings) > 0 {
			head += fmt.Sprintf("; %s from other fields", plural(len(r.Findings), "finding"))
		}
	case r.Verdict == rules.Crit:
		head = fmt.Sprintf("**Verdict: CRIT** — %s", plural(len(r.Findings), "finding"))
	case r.Verdict == rules.Warn:
		head = fmt.Sprintf("**Verdict: WARN** — %s", plural(len(r.Findings), "finding"))
	}
	if crit+warn > 0 {
		head += fmt.Sprintf(" (%d crit, %d warn)", crit, warn)
	}
	line := fmt.Sprintf("%s; %s, %s.", head, r.requestsText(), window)
	if r.Input.BadLines > 0 || r.Input.Incomplete {
		line += fmt.Sprintf(" Input: %d bad lines", r.Input.BadLines)
		if r.Input.Incomplete {
			line += ", some files incomplete"
		}
		line += "."
	}
	if n := r.unreadCount(); n > 0 {
		line += " " + r.unreadText(mdText)
	}
	if r.NoData != nil {
		line += " " + r.NoData.text(mdText, mdCode)
	}
	return line
}

// mdQuantiles is the count, p50, p95, p99 and max cells of a table row.
func mdQuantiles(q Quantiles) string {
	return fmt.Sprintf("%d | %s | %s | %s | %s", q.Count, ms(q.P50), ms(q.P95), ms(q.P99), ms(q.Max))
}

// mdCode shows a field name or a flag the program wrote (never log
// text) as code.
func mdCode(s string) string { return "`" + s + "`" }

func (r *Report) markdownFinding(b *bufio.Writer, n int, f *rules.Finding) {
	fmt.Fprintf(b, "### %d. %s — %s\n\n", n, strings.ToUpper(f.Severity.String()), mdText(f.Title))
	fmt.Fprintf(b, "- **Key**: %s\n", mdKey(f.Key))
	if f.Window != nil {
		from := "15:04"
		if r.Window != nil && r.Window.To.Sub(r.Window.From) > 24*time.Hour {
			from = "2006-01-02 15:04" // a log of several days: which day
		}
		fmt.Fprintf(b, "- **Window**: %s – %s\n",
			time.Unix(0, f.Window.From).In(r.Location).Format(from),
			time.Unix(0, f.Window.To).In(r.Location).Format("15:04 -07:00"))
	}
	fmt.Fprintf(b, "- **Impact**: ~%s ms per request × %d requests ≈ %.1f s\n",
		ms(f.Impact.MsPerRequest), f.Impact.Requests, f.Impact.Seconds)
	fmt.Fprintf(b, "- **Evidence**: %s\n", mdFields(f.Evidence))
	fmt.Fprintf(b, "- **Fix**: %s\n\n", mdText(f.Advice))
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

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
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
// line breaks and control characters become spaces.
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
		case c < ' ' || c == 0x7f || c == '\u2028' || c == '\u2029':
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
func otherLabel(dl DimLatency) string {
	if dl.FoldedKeys > 0 {
		return "other (incl. keys folded by --top)"
	}
	return "other (" + plural(int(dl.RestKeys), "key") + ")"
}
