package report

import (
	"html/template"
	"strconv"
	"strings"

	"loganalyze/aggregate"
)

// The breakdown (SPEC §4): per request class, the mean time of each
// phase, which with unknown adds up to the mean request time
// (aggregate/breakdown.go says how a request's time is split).

// phaseOrder is the order the reports show the phases in: the order
// they happen in a request.
var phaseOrder = [aggregate.NumPhases]int{
	aggregate.PhaseDNS, aggregate.PhaseTCPConnect, aggregate.PhaseTLS, aggregate.PhaseNetwork,
	aggregate.PhaseUpstreamConnect, aggregate.PhaseUpstreamHeaderWait, aggregate.PhaseUpstreamBody,
	aggregate.PhaseFirstToken, aggregate.PhaseGeneration,
}

// phaseColors are the stacked bars' colours by phase index; unknown is
// grey.
var phaseColors = [aggregate.NumPhases]string{
	aggregate.PhaseDNS:                "#8250df",
	aggregate.PhaseTCPConnect:         "#bf3989",
	aggregate.PhaseTLS:                "#cf222e",
	aggregate.PhaseNetwork:            "#bc4c00",
	aggregate.PhaseGeneration:         "#1a7f37",
	aggregate.PhaseUpstreamConnect:    "#0a7d8c",
	aggregate.PhaseUpstreamHeaderWait: "#0969da",
	aggregate.PhaseFirstToken:         "#9a6700",
	aggregate.PhaseUpstreamBody:       "#4d2d00",
}

const unknownColor = "#afb8c1"

// usMS is a time in whole microseconds as milliseconds.
func usMS(us int64) float64 { return float64(us) / 1000 }

// breakdownJSON is the JSON breakdown: the classes with requests, each
// phase only when some request of the class carried it.
func (r *Report) breakdownJSON() []obj {
	out := []obj{}
	for _, c := range r.Breakdown {
		phases := obj{}
		for _, p := range phaseOrder {
			if c.Has[p] {
				phases = append(phases, kv{Name: aggregate.PhaseNames[p], Value: usMS(c.Phases[p])})
			}
		}
		out = append(out, obj{
			{Name: "class", Value: c.Class},
			{Name: "count", Value: c.Count},
			{Name: "request_time_mean_ms", Value: usMS(c.RequestTime)},
			{Name: "phases", Value: phases},
			{Name: "unknown_ms", Value: usMS(c.Unknown)},
		})
	}
	return out
}

// shownPhases are the phases some class carries, in phaseOrder.
func (r *Report) shownPhases() []int {
	var out []int
	for _, p := range phaseOrder {
		for _, c := range r.Breakdown {
			if c.Has[p] {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func phaseMsg(p int) msgID { return msgID("phase." + aggregate.PhaseNames[p]) }

func classMsg(class string) msgID { return msgID("class." + class) }

// markdownBreakdown writes the breakdown table: a column per phase some
// class carries, "–" where a class does not.
func (r *Report) markdownBreakdown(p func(string, ...any), m printer) {
	if len(r.Breakdown) == 0 {
		return
	}
	shown := r.shownPhases()
	p("## %s\n\n%s\n\n", m.t("breakdown"), m.t("breakdown.note"))
	head := []string{m.t("col.class"), m.t("col.count"), m.t("col.mean")}
	align := []string{"---", "--:", "--:"}
	for _, ph := range shown {
		head = append(head, m.t(phaseMsg(ph)))
		align = append(align, "--:")
	}
	head = append(head, m.t("phase.unknown"))
	align = append(align, "--:")
	p("| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(align, "|"))
	for _, c := range r.Breakdown {
		cells := []string{m.t(classMsg(c.Class)), strconv.FormatInt(c.Count, 10), ms(usMS(c.RequestTime))}
		for _, ph := range shown {
			if c.Has[ph] {
				cells = append(cells, ms(usMS(c.Phases[ph])))
			} else {
				cells = append(cells, "–")
			}
		}
		cells = append(cells, ms(usMS(c.Unknown)))
		p("| %s |\n", strings.Join(cells, " | "))
	}
	p("\n")
}

// breakdownChart draws one stacked horizontal bar per class, each
// scaled to the longest class mean, with a legend of the phases shown.
func breakdownChart(m printer, classes []aggregate.ClassMeans, shown []int) template.HTML {
	if len(classes) == 0 {
		return ""
	}
	const labelW, barH, gap, legendH = 170.0, 22.0, 10.0, 20.0
	const width = 760.0
	// The legend, each phase shown then unknown, wrapped into rows.
	type item struct {
		name, color string
		x, row      float64
	}
	var items []item
	add := func(name, color string) { items = append(items, item{name: name, color: color}) }
	for _, p := range shown {
		add(m.t(phaseMsg(p)), phaseColors[p])
	}
	add(m.t("phase.unknown"), unknownColor)
	x, row := labelW, 0.0
	for i := range items {
		w := 14 + 7*float64(len([]rune(items[i].name))) + 16
		if x+w > width-padRight && x > labelW {
			x, row = labelW, row+1
		}
		items[i].x, items[i].row = x, row
		x += w
	}
	b := &svgBuf{}
	top := padTop + float64(len(classes))*(barH+gap)
	b.open(width, top+(row+1)*legendH+10, m.t("breakdown"))
	longest := int64(1)
	for _, c := range classes {
		longest = max(longest, c.RequestTime)
	}
	plotW := b.w - labelW - padRight - 90
	for i, c := range classes {
		y := padTop + float64(i)*(barH+gap)
		b.text(labelW-8, y+barH/2+4, "end", "tick", m.t(classMsg(c.Class))+" ("+strconv.FormatInt(c.Count, 10)+")")
		x := labelW
		seg := func(name, color string, us int64) {
			w := float64(us) / float64(longest) * plotW
			if w <= 0 {
				return
			}
			b.WriteString("<g>")
			b.title(m.t(classMsg(c.Class)) + " · " + name + ": " + ms(usMS(us)) + " ms")
			b.rect(x, y, w, barH, color)
			b.WriteString("</g>")
			x += w
		}
		for _, p := range shown {
			if c.Has[p] {
				seg(m.t(phaseMsg(p)), phaseColors[p], c.Phases[p])
			}
		}
		seg(m.t("phase.unknown"), unknownColor, c.Unknown)
		b.text(x+6, y+barH/2+4, "start", "tick", ms(usMS(c.RequestTime))+" ms")
	}
	for _, it := range items {
		ly := top + it.row*legendH
		b.rect(it.x, ly, 10, 10, it.color)
		b.text(it.x+14, ly+9, "start", "tick", it.name)
	}
	return b.close()
}
