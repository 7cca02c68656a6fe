package report

import (
	"bytes"
	"html/template"
	"math"
	"strconv"
	"time"
	"unicode"
)

// The charts of the HTML report are inline SVG drawn here from the view
// model, so that the page needs no script library and no network. Every
// text node and attribute value that could hold log-derived text goes
// through template.HTMLEscapeString; the result is therefore safe to
// hand to html/template as template.HTML.

const (
	padLeft   = 56.0
	padRight  = 24.0
	padTop    = 18.0
	padBottom = 30.0
	// maxColumns bounds the bars of the time line chart; longer spans
	// group several minutes per bar.
	maxColumns = 360
	// maxMarkers is the most points a series gets hover markers for.
	maxMarkers = 240
)

// seriesColors are the line colours of the p99-over-time chart.
var seriesColors = [ChartRegions]string{"#0969da", "#cf222e", "#1a7f37", "#8250df", "#bc4c00", "#0a7d8c", "#bf3989", "#57606a"}

// svgBuf is one chart being drawn, w × h user units.
type svgBuf struct {
	bytes.Buffer
	w, h float64
}

func (b *svgBuf) plotW() float64 { return b.w - padLeft - padRight }
func (b *svgBuf) plotH() float64 { return b.h - padTop - padBottom }

func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func (b *svgBuf) open(w, h float64, label string) {
	b.w, b.h = w, h
	b.WriteString(`<svg class="chart" viewBox="0 0 ` + num(w) + " " + num(h) + `" role="img" aria-label="`)
	b.WriteString(template.HTMLEscapeString(label))
	b.WriteString(`" xmlns="http://www.w3.org/2000/svg">`)
}

func (b *svgBuf) close() template.HTML {
	b.WriteString("</svg>")
	return template.HTML(b.String()) // #nosec: built here, every text escaped
}

func (b *svgBuf) text(x, y float64, anchor, class, s string) {
	b.WriteString(`<text x="` + num(x) + `" y="` + num(y) + `" text-anchor="` + anchor + `" class="` + class + `">`)
	b.WriteString(template.HTMLEscapeString(s))
	b.WriteString("</text>")
}

func (b *svgBuf) rect(x, y, w, h float64, fill string) {
	b.WriteString(`<rect x="` + num(x) + `" y="` + num(y) + `" width="` + num(w) + `" height="` + num(h) + `" fill="` + fill + `"/>`)
}

func (b *svgBuf) title(s string) {
	b.WriteString("<title>" + template.HTMLEscapeString(s) + "</title>")
}

// yAxis draws horizontal grid lines and labels for [0, top] and returns
// the function mapping a value to y.
func (b *svgBuf) yAxis(top float64, step float64, format func(float64) string) func(float64) float64 {
	y := func(v float64) float64 { return padTop + b.plotH() - v/top*b.plotH() }
	for v := 0.0; v <= top+step/2; v += step {
		b.WriteString(`<line class="grid" x1="` + num(padLeft) + `" x2="` + num(b.w-padRight) + `" y1="` + num(y(v)) + `" y2="` + num(y(v)) + `"/>`)
		b.text(padLeft-6, y(v)+4, "end", "tick", format(v))
	}
	return y
}

// niceScale returns a round step and the axis top (a multiple of the
// step) for values up to max, with about four steps.
func niceScale(max float64) (step, top float64) {
	if !(max > 0) {
		return 1, 4
	}
	raw := max / 4
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			step = m * p
			break
		}
	}
	return step, step * math.Ceil(max/step)
}

// countLabel formats an axis count: 1500 → 1.5k.
func countLabel(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// msLabel formats an axis latency in ms: 2500 → 2.5 s.
func msLabel(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(v/1000, 'f', -1, 64) + " s"
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + " ms"
}

// timeAxis labels about six instants between from and to (x maps an
// instant to its position).
func (b *svgBuf) timeAxis(from, to time.Time, x func(time.Time) float64) {
	layout := "15:04"
	if to.Sub(from) > 24*time.Hour {
		layout = "01-02 15:04"
	}
	span := to.Sub(from)
	if span <= 0 {
		b.text(x(from), b.h-10, "middle", "tick", from.Format(layout))
		return
	}
	steps := []time.Duration{time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour, 365 * 24 * time.Hour}
	step := steps[len(steps)-1]
	for _, s := range steps {
		if span/s <= 6 {
			step = s
			break
		}
	}
	_, off := from.Zone()
	offset := time.Duration(off) * time.Second
	t := from.Add(offset).Truncate(step).Add(-offset)
	if t.Before(from) {
		t = t.Add(step)
	}
	for ; !t.After(to); t = t.Add(step) {
		xx := x(t)
		b.WriteString(`<line class="axis" x1="` + num(xx) + `" x2="` + num(xx) + `" y1="` + num(padTop+b.plotH()) + `" y2="` + num(padTop+b.plotH()+4) + `"/>`)
		b.text(xx, b.h-10, "middle", "tick", t.Format(layout))
	}
}

// legend draws coloured keys in a row at the top right.
func (b *svgBuf) legend(names, colors []string) {
	x := b.w - padRight
	for i := len(names) - 1; i >= 0; i-- {
		w := 14 + 7*float64(textWidth(names[i]))
		x -= w
		b.rect(x, 2, 10, 10, colors[i])
		b.text(x+13, 11, "start", "legend", names[i])
		x -= 8
	}
}

// textWidth is how many narrow characters s takes: a CJK character
// takes two.
func textWidth(s string) int {
	n := 0
	for _, r := range s {
		n++
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef {
			n++
		}
	}
	return n
}

// timelineChart draws the requests of each bucket of the time line (step
// wide) as bars with the 429 and 5xx responses stacked at their foot.
func timelineChart(m printer, tl []Minute, step time.Duration, loc *time.Location) template.HTML {
	var b svgBuf
	stepS := max(int64(step/time.Second), 60)
	b.open(800, 260, m.f("svg.requests", durationText(m, time.Duration(stepS)*time.Second)))
	if len(tl) == 0 {
		b.text(b.w/2, b.h/2, "middle", "empty", m.t("notimestamp"))
		return b.close()
	}
	first := tl[0].Time.Unix() / stepS
	last := tl[len(tl)-1].Time.Unix() / stepS
	buckets := last - first + 1
	per := (buckets + maxColumns - 1) / maxColumns
	cols := (buckets + per - 1) / per
	type col struct{ req, n429, n5xx int64 }
	cs := make([]col, cols)
	for _, m := range tl {
		c := &cs[(m.Time.Unix()/stepS-first)/per]
		c.req += m.Requests
		c.n429 += m.N429
		c.n5xx += m.N5xx
	}
	var peak int64
	for _, c := range cs {
		peak = max(peak, c.req)
	}
	ystep, top := niceScale(float64(peak))
	y := b.yAxis(top, ystep, countLabel)
	bw := b.plotW() / float64(cols)
	from := time.Unix(first*stepS, 0).In(loc)
	to := time.Unix((first+cols*per)*stepS, 0).In(loc)
	x := func(t time.Time) float64 {
		return padLeft + float64(t.Sub(from))/float64(to.Sub(from))*b.plotW()
	}
	gap := 0.0
	if bw > 3 {
		gap = 1
	}
	label := m.f("svg.per", durationText(m, time.Duration(per*stepS)*time.Second))
	for i, c := range cs {
		if c.req == 0 {
			continue
		}
		x0 := padLeft + float64(i)*bw
		t := time.Unix((first+int64(i)*per)*stepS, 0).In(loc)
		b.WriteString("<g>")
		b.title(m.f("svg.bar", t.Format("2006-01-02 15:04"), c.req, c.n429, c.n5xx))
		b.rect(x0, y(float64(c.req)), bw-gap, y(0)-y(float64(c.req)), "#8bb8e8")
		if c.n5xx > 0 {
			b.rect(x0, y(float64(c.n5xx)), bw-gap, y(0)-y(float64(c.n5xx)), "#cf222e")
		}
		if c.n429 > 0 {
			b.rect(x0, y(float64(c.n5xx+c.n429)), bw-gap, y(float64(c.n5xx))-y(float64(c.n5xx+c.n429)), "#d4a72c")
		}
		b.WriteString("</g>")
	}
	b.timeAxis(from, to, x)
	b.legend([]string{m.f("svg.reqlegend", label), "429", "5xx"}, []string{"#8bb8e8", "#d4a72c", "#cf222e"})
	return b.close()
}

// regionChart draws p99 request_time over time, one line per region.
func regionChart(m printer, series []RegionSeries, step time.Duration) template.HTML {
	var b svgBuf
	b.open(800, 260, m.t("svg.regions"))
	var from, to time.Time
	peak := 0.0
	for _, s := range series {
		for _, p := range s.Points {
			if from.IsZero() || p.Time.Before(from) {
				from = p.Time
			}
			if end := p.Time.Add(step); to.IsZero() || end.After(to) {
				to = end
			}
			peak = max(peak, p.P99)
		}
	}
	if from.IsZero() {
		b.text(b.w/2, b.h/2, "middle", "empty", m.t("svg.noregions"))
		return b.close()
	}
	ystep, top := niceScale(peak)
	y := b.yAxis(top, ystep, msLabel)
	x := func(t time.Time) float64 {
		return padLeft + float64(t.Sub(from))/float64(to.Sub(from))*b.plotW()
	}
	names := make([]string, len(series))
	colors := make([]string, len(series))
	for i, s := range series {
		names[i], colors[i] = s.Region, seriesColors[i]
		mid := func(p Point) float64 { return x(p.Time.Add(step / 2)) }
		b.WriteString(`<g><title>` + template.HTMLEscapeString(s.Region) + `</title><polyline fill="none" stroke-width="1.5" stroke="` + colors[i] + `" points="`)
		for j, p := range s.Points {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(num(mid(p)) + "," + num(y(p.P99)))
		}
		b.WriteString(`"/>`)
		if len(s.Points) <= maxMarkers {
			for _, p := range s.Points {
				b.WriteString(`<circle r="2" fill="` + colors[i] + `" cx="` + num(mid(p)) + `" cy="` + num(y(p.P99)) + `">`)
				b.title(m.f("svg.point", s.Region, p.Time.Format("15:04"), ms(p.P99), p.Count))
				b.WriteString("</circle>")
			}
		}
		b.WriteString("</g>")
	}
	b.timeAxis(from, to, x)
	b.legend(names, colors)
	return b.close()
}

// histogramChart draws a metric's distribution as bars on a log scale of
// latency (four bins per power of ten), empty bins included.
func histogramChart(m printer, h Histogram) template.HTML {
	var b svgBuf
	b.open(420, 220, m.f("svg.dist", h.Metric))
	if len(h.Bins) == 0 {
		b.text(b.w/2, b.h/2, "middle", "empty", m.t("svg.novalues"))
		return b.close()
	}
	// Fill the gaps between the first and the last non-zero bin.
	var bins []HistBin
	var total, peak int64
	for i, bin := range h.Bins {
		if i > 0 && bin.Lower > 0 && h.Bins[i-1].Upper > 0 {
			lo := h.Bins[i-1].Upper
			for k := 1; lo < bin.Lower*0.999 && k < 400; k++ {
				hi := round3(math.Pow(10, math.Round(math.Log10(lo)*4+1)/4))
				bins = append(bins, HistBin{Lower: lo, Upper: hi})
				lo = hi
			}
		}
		bins = append(bins, bin)
		total += bin.Count
		peak = max(peak, bin.Count)
	}
	step, top := niceScale(float64(peak))
	y := b.yAxis(top, step, countLabel)
	bw := b.plotW() / float64(len(bins))
	every := 1 + len(bins)/12
	for i, bin := range bins {
		x0 := padLeft + float64(i)*bw
		rangeText := "0 ms"
		if bin.Upper > 0 {
			rangeText = ms(bin.Lower) + "–" + ms(bin.Upper) + " ms"
		}
		if bin.Count > 0 {
			b.WriteString("<g>")
			b.title(rangeText + ": " + strconv.FormatInt(bin.Count, 10) + " (" + strconv.FormatFloat(100*float64(bin.Count)/float64(total), 'f', 1, 64) + " %)")
			b.rect(x0+0.5, y(float64(bin.Count)), max(bw-1, 0.5), y(0)-y(float64(bin.Count)), "#8250df")
			b.WriteString("</g>")
		}
		if i%every == 0 {
			b.text(x0, b.h-10, "middle", "tick", boundLabel(bin.Lower))
		}
	}
	return b.close()
}

// boundLabel formats a histogram bin bound: 178 (ms), 1.78 s.
func boundLabel(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(v/1000, 'g', 3, 64) + " s"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
