// Package report builds one view model of a run — verdict, findings,
// latency per metric and dimension, time line, input problems — and
// renders it as JSON (the contract of SPEC §6), Markdown, HTML and
// Prometheus text. The same input gives byte-identical output.
package report

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// SchemaVersion is the version of the JSON report.
const SchemaVersion = 1

// Report is the view model every renderer draws from.
type Report struct {
	// Window is what the report covers; nil when neither a record's
	// time nor --since/--until gives one. An end it cannot know (an
	// --until alone, no record in the window) is zero, shown as open.
	Window *Span
	// Requested is the window --since/--until asked for, when Window
	// is wider: a report of stored hours keeps the hours that overlap
	// it whole. nil otherwise.
	Requested *Span
	// StateFrom, when not zero, is the first hour the run wrote to its
	// state directory: the log had more hours than a run keeps
	// (aggregate.MaxHours), and the earlier ones were stored nowhere.
	StateFrom    time.Time
	Input        Input
	Verdict      rules.Severity
	Findings     []rules.Finding
	NotEvaluated []rules.NotEvaluated
	Latency      []MetricLatency // in aggregate metric order
	Status       []StatusCount   // by status code
	// Timeline is the time line, one point per bucket of TimelineStep
	// (a minute, wider for long spans: aggregate.TimelineWidths).
	Timeline     []Minute
	TimelineStep time.Duration
	// Histograms are each metric's distribution over the whole input.
	Histograms []Histogram
	Location   *time.Location
	// Sketches is the finished set, for renderers that draw from bins.
	Sketches *sketch.Set
	// RegionP99 is p99 request_time over time for the busiest regions
	// (at most ChartRegions, busiest first); RegionStep is the width of
	// its buckets, TimelineStep.
	RegionP99  []RegionSeries
	RegionStep time.Duration
	// Comparisons are the window against earlier periods (compare.go).
	Comparisons []*Comparison
	// NoData says why latency could not be judged; nil when some record
	// in the window carries request_time (nodata.go).
	NoData *NoData
	// Unread are the files that held data of which not one record could
	// be read; BaselineUnread are such files of the baseline.
	Unread         []UnreadFile
	BaselineUnread []UnreadFile
	// MostlyUnread are the window's files of which records were read, but
	// more of whose lines were bad than read.
	MostlyUnread []UnreadFile
	// warnUnread: the verdict is warn for input that went unread alone,
	// no finding.
	warnUnread bool
	// Breakdown is where each request class's time goes (breakdown.go);
	// Triage, the verdict's paragraph (triage.go), nil with no data.
	Breakdown []aggregate.ClassMeans
	Triage    *Triage
	// TimeHints are the flags that may give the records their time,
	// when records were read but not one carries a time (timehints.go).
	TimeHints []Hint
	// Clocks are the files whose time was a time of day alone, each with
	// the name that held it (ingest.FileStats.Clocks): their records
	// were read without a time, which is unknown.
	Clocks []Clock
	// StatusHints are the flags that may give the records their status,
	// when records were read but not one carries a status and a file
	// carried a name that looks like one (statushints.go); warnStatus:
	// the verdict is warn for them alone, no finding.
	StatusHints []Hint
	warnStatus  bool
	// UnitHints are the flags that may read the request times in the
	// unit they are most likely written in (unithints.go); warnUnit: the
	// verdict is warn for them alone, no finding.
	UnitHints []Hint
	warnUnit  bool
}

// TableKeys is how many keys of a dimension the Markdown and HTML tables
// show; the rest are summarised in one "other" row (DimLatency.Rest).
const TableKeys = 10

// ChartRegions is how many regions the p99-over-time chart draws.
const ChartRegions = 8

// RegionSeries is one region's p99 request_time over time.
type RegionSeries struct {
	Region string
	Points []Point
}

// Point is one bucket of a series.
type Point struct {
	Time  time.Time
	Count int64
	P99   float64 // ms
}

// Span is a time range; a zero end is open (not known).
type Span struct {
	From, To time.Time
}

// in is s with its ends in loc; nil for nil.
func (s *Span) in(loc *time.Location) *Span {
	if s == nil {
		return nil
	}
	w := *s
	if !w.From.IsZero() {
		w.From = w.From.In(loc)
	}
	if !w.To.IsZero() {
		w.To = w.To.In(loc)
	}
	return &w
}

// Input says what was read.
type Input struct {
	Records    int64
	BadLines   int64
	Files      []ingest.FileStats
	Problems   []ingest.Problem
	Incomplete bool
	// OutsideWindow counts records read but outside --since/--until.
	OutsideWindow int64
	// Fields are the canonical fields the window's records carry, with
	// how many carry each (coverage.go).
	Fields []FieldCount
	// UnreadValues are the fields some records held a value of that could
	// not be read, with how many (the records are kept without it), in
	// canonical order; ValueProblems are samples of those records.
	UnreadValues  []FieldCount
	ValueProblems []ingest.Problem
}

// Quantiles are one sketch's summary, in milliseconds.
type Quantiles struct {
	Key   string
	Count int64
	// Missing, when not 0, is how many more records the key may have
	// had: stored hours merged, some of which folded it into other
	// (sketch.Entry.Missing). Count and the quantiles are then those of
	// the records the hours kept for it.
	Missing int64
	P50     float64
	P95     float64
	P99     float64
	Mean    float64
	Max     float64
}

// DimLatency is one dimension's rows for one metric, largest count first.
type DimLatency struct {
	Dim  string
	Rows []Quantiles
	// Other summarises the keys folded beyond the cap; nil when none were.
	Other      *Quantiles
	FoldedKeys int64
	// FoldedUpper says FoldedKeys is an upper bound: stored hours'
	// folded keys summed, some perhaps the same.
	FoldedUpper bool
	// KeyShare is the share of the dimension's keys the kept ones were
	// chosen from (sketch.Dim.KeyShare): below 1, FoldedKeys is an
	// estimate and the kept keys are the heaviest of a hash sample.
	KeyShare float64
	// Rest summarises every key past the first TableKeys rows together
	// with the folded ones (their sketches merged); nil when there are
	// none. RestKeys is how many keys it holds.
	Rest     *Quantiles
	RestKeys int64
}

// MetricLatency is one metric over the whole input and per dimension.
type MetricLatency struct {
	Metric string
	All    Quantiles
	By     []DimLatency // in aggregate dimension order
}

// StatusCount is how many responses had one status.
type StatusCount struct {
	Status int
	Count  int64
}

// Minute is one point of the time line: a bucket of Report.TimelineStep
// from Time, a minute unless the span is long.
type Minute struct {
	Time     time.Time
	Requests int64
	N429     int64
	N5xx     int64
	P99      float64 // request_time, ms; 0 with no values
}

// HistBin is one bar of a histogram.
type HistBin struct {
	Lower, Upper float64 // ms
	Count        int64
}

// Histogram is a metric's distribution in coarse bins.
type Histogram struct {
	Metric string
	Bins   []HistBin
}

// BuildInput is everything a report is built from.
type BuildInput struct {
	// Aggregate is the window's merged aggregate; Read is what ingest
	// read of the window's logs.
	Aggregate *aggregate.Accumulator
	Read      *ingest.Result
	// Findings and NotEvaluated are what the rules made of Aggregate.
	Findings     []rules.Finding
	NotEvaluated []rules.NotEvaluated
	// Location is the zone every time is shown in; nil means UTC.
	Location *time.Location
	// Since and Until, where not nil, are the window's bounds instead of
	// the span of the records' times.
	Since, Until *time.Time
	// Requested and StateFrom are the report's (Report).
	Requested *Span
	StateFrom time.Time
	// Baseline is what ingest read of the baseline's logs, or nil: its
	// problems follow the window's, its unread files are
	// Report.BaselineUnread.
	Baseline *ingest.Result
	// Problems follow those of ingest: state files skipped, hours not
	// kept.
	Problems []ingest.Problem
	// References are the periods the window is compared with, in the
	// report's order (compare.go).
	References []Reference
}

// Build makes the finished view model.
func Build(in BuildInput) *Report {
	acc, read, loc := in.Aggregate, in.Read, in.Location
	if loc == nil {
		loc = time.UTC
	}
	r := &Report{
		Input: Input{
			Records:    read.Records(),
			BadLines:   read.BadLines(),
			Files:      read.Files,
			Problems:   slices.Clip(read.Problems), // appended to below
			Incomplete: read.Incomplete(),

			OutsideWindow: acc.Skipped,
			Fields:        fieldCoverage(acc),
			UnreadValues:  unreadValues(read.Files),
			ValueProblems: read.ValueProblems,
		},
		Findings:     in.Findings,
		NotEvaluated: in.NotEvaluated,
		Verdict:      rules.Verdict(in.Findings),
		Window:       window(acc, in.Since, in.Until, loc),
		Requested:    in.Requested.in(loc),
		StateFrom:    in.StateFrom,
		Location:     loc,
		Sketches:     acc.Set,
		NoData:       noData(acc, read),
		Unread:       unreadFiles(read),
		MostlyUnread: mostlyUnread(read),
		TimeHints:    timeHints(acc, read.Files),
		Clocks:       clocks(read.Files),
		StatusHints:  statusHints(acc, read.Files),
		UnitHints:    unitHints(read.Files),
	}
	if r.Verdict == rules.OK && (len(r.Unread) > 0 || len(r.MostlyUnread) > 0) {
		// Never OK about what was not read: a script that reads the
		// verdict alone is told to look.
		r.Verdict, r.warnUnread = rules.Warn, true
	}
	if r.Verdict == rules.OK && len(r.StatusHints) > 0 {
		// Nor about statuses a file carried and none were read: its
		// 429s and 5xx may be there.
		r.Verdict, r.warnStatus = rules.Warn, true
	}
	if r.Verdict == rules.OK && len(r.UnitHints) > 0 {
		// Nor about request times most likely read 1000 times too
		// short: their percentiles are no request's.
		r.Verdict, r.warnUnit = rules.Warn, true
	}
	if in.Baseline != nil {
		r.Input.Problems = append(r.Input.Problems, in.Baseline.Problems...)
		r.BaselineUnread = unreadFiles(in.Baseline)
	}
	r.Input.Problems = append(r.Input.Problems, in.Problems...)
	for m := 0; m < aggregate.NumMetrics; m++ {
		r.Latency = append(r.Latency, metricLatency(acc.Set, m))
		r.Histograms = append(r.Histograms, histogram(aggregate.MetricNames[m], acc.Set.All.Metric(m)))
	}
	statuses := acc.Status()
	for code, n := range statuses {
		r.Status = append(r.Status, StatusCount{code, n})
	}
	sort.Slice(r.Status, func(i, j int) bool { return r.Status[i].Status < r.Status[j].Status })
	r.TimelineStep = time.Duration(acc.Timeline.Width) * time.Second
	for _, b := range acc.Timeline.Buckets() {
		p := Minute{Time: time.Unix(b.Start, 0).In(loc), Requests: b.Requests, N429: b.N429, N5xx: b.N5xx}
		if b.RT != nil && b.RT.Count() > 0 {
			p.P99 = round3(b.RT.Quantile(0.99))
		}
		r.Timeline = append(r.Timeline, p)
	}
	r.regionSeries(acc)
	r.Breakdown = acc.Breakdown.Means()
	if r.NoData == nil {
		r.Triage = triage(r.Breakdown, acc.Set, statuses)
	}
	for _, ref := range in.References {
		r.Comparisons = append(r.Comparisons, ref.compare(acc.Set))
	}
	return r
}

// window is the span of the records' times, each end replaced by since
// or until where given; nil when there is neither.
func window(acc *aggregate.Accumulator, since, until *time.Time, loc *time.Location) *Span {
	var w *Span
	if acc.HasTime {
		w = &Span{From: time.Unix(0, acc.MinTime).In(loc), To: time.Unix(0, acc.MaxTime).In(loc)}
	}
	if since == nil && until == nil {
		return w
	}
	if w == nil {
		w = &Span{}
	}
	if since != nil {
		w.From = since.In(loc)
	}
	if until != nil {
		w.To = until.In(loc)
	}
	return w
}

// metricLatency is metric m over the whole input and per dimension.
func metricLatency(set *sketch.Set, m int) MetricLatency {
	ml := MetricLatency{Metric: aggregate.MetricNames[m], All: summarize("all", set.All.Metric(m), set.All.Count)}
	for _, d := range set.Dims {
		dl := DimLatency{Dim: d.Name, Rows: []Quantiles{}}
		for _, ke := range d.Sorted() {
			if s := ke.Metric(m); s != nil && s.Count() > 0 {
				q := summarize(ke.Key, s, ke.Count)
				q.Missing = ke.Missing
				dl.Rows = append(dl.Rows, q)
			}
		}
		sort.SliceStable(dl.Rows, func(i, j int) bool {
			if dl.Rows[i].Count != dl.Rows[j].Count {
				return dl.Rows[i].Count > dl.Rows[j].Count
			}
			return dl.Rows[i].Key < dl.Rows[j].Key
		})
		if o := d.Other(); o != nil && o.Metric(m) != nil {
			q := summarize("other", o.Metric(m), o.Count)
			dl.Other = &q
			dl.FoldedKeys = d.Folded()
			dl.FoldedUpper = d.FoldedUpper()
			dl.KeyShare = d.KeyShare()
		}
		dl.Rest, dl.RestKeys = rest(set, d, m, dl.Rows, dl.FoldedKeys)
		ml.By = append(ml.By, dl)
	}
	return ml
}

// rest merges the sketches of the rows past TableKeys and of the folded
// keys into one summary.
func rest(set *sketch.Set, d *sketch.Dim, m int, rows []Quantiles, folded int64) (*Quantiles, int64) {
	if len(rows) <= TableKeys && d.Other() == nil {
		return nil, 0
	}
	merged := sketch.New(set.Mapping())
	n := folded
	for _, q := range rows[min(TableKeys, len(rows)):] {
		merged.Merge(d.Get(q.Key).Metric(m))
		n++
	}
	if o := d.Other(); o != nil {
		merged.Merge(o.Metric(m))
	}
	if merged.Count() == 0 {
		return nil, 0
	}
	q := summarize("other", merged, merged.Count())
	return &q, n
}

// regionSeries fills RegionP99 for the busiest regions that have a
// series, in order of their request count.
func (r *Report) regionSeries(acc *aggregate.Accumulator) {
	tl := &acc.Timeline
	if len(tl.Regions()) == 0 {
		return
	}
	r.RegionStep = time.Duration(tl.Width) * time.Second
	has := map[string]bool{}
	for _, reg := range tl.Regions() {
		has[reg] = true
	}
	for _, ke := range acc.Set.Dims[aggregate.DimRegion].Sorted() {
		if len(r.RegionP99) == ChartRegions {
			break
		}
		if !has[ke.Key] {
			continue
		}
		rs := RegionSeries{Region: ke.Key}
		tl.Series(ke.Key, func(start int64, s *sketch.Sketch) {
			rs.Points = append(rs.Points, Point{Time: time.Unix(start, 0).In(r.Location), Count: s.Count(), P99: round3(s.Quantile(0.99))})
		})
		r.RegionP99 = append(r.RegionP99, rs)
	}
}

func summarize(key string, s *sketch.Sketch, records int64) Quantiles {
	q := Quantiles{Key: key}
	if s == nil || s.Count() == 0 {
		return q
	}
	q.Count = s.Count()
	q.P50 = round3(s.Quantile(0.50))
	q.P95 = round3(s.Quantile(0.95))
	q.P99 = round3(s.Quantile(0.99))
	q.Mean = round3(s.Mean())
	q.Max = round3(s.Max())
	return q
}

// hasLatency reports whether some metric has values.
func (r *Report) hasLatency() bool {
	for _, ml := range r.Latency {
		if ml.All.Count > 0 {
			return true
		}
	}
	return false
}

// quantileDefinition is how every report defines its quantiles, with
// the sketches' accuracy.
func (r *Report) quantileDefinition(m printer) string {
	acc := sketch.DefaultAccuracy
	if r.Sketches != nil {
		acc = r.Sketches.Mapping().Accuracy()
	}
	return m.f("quantiles", strconv.FormatFloat(100*acc, 'g', 3, 64))
}

// round3 rounds to three decimals, so that reports have fixed precision.
func round3(v float64) float64 {
	return math.Round(v*1000) / 1000
}

// histogram groups a sketch's bins into about 4 bins per power of ten.
func histogram(metric string, s *sketch.Sketch) Histogram {
	h := Histogram{Metric: metric}
	if s == nil {
		return h
	}
	const perDecade = 4
	bucket := func(v float64) int {
		if v <= 0 {
			return math.MinInt32
		}
		return int(math.Floor(math.Log10(v) * perDecade))
	}
	idx := map[int]int{}
	s.Bins(func(lower, upper float64, count int64) {
		b := bucket(lower)
		i, ok := idx[b]
		if !ok {
			lo, hi := 0.0, 0.0
			if b != math.MinInt32 {
				lo = math.Pow(10, float64(b)/perDecade)
				hi = math.Pow(10, float64(b+1)/perDecade)
			}
			h.Bins = append(h.Bins, HistBin{Lower: round3(lo), Upper: round3(hi)})
			i = len(h.Bins) - 1
			idx[b] = i
		}
		h.Bins[i].Count += count
	})
	return h
}

// statusKey formats a status code.
func statusKey(code int) string { return strconv.Itoa(code) }

// severityCounts counts the findings by severity, for the verdict lines.
func (r *Report) severityCounts() (crit, warn int) {
	for _, f := range r.Findings {
		switch f.Severity {
		case rules.Crit:
			crit++
		case rules.Warn:
			warn++
		}
	}
	return crit, warn
}

// inputNotes splits the input's problems: those of line 0, of the run or
// a file as a whole (a record outside the window for its date, the
// hours kept), are notes, not bad lines.
func (r *Report) inputNotes() (notes, bad []ingest.Problem) {
	for _, p := range r.Input.Problems {
		if p.Line == 0 {
			notes = append(notes, p)
		} else {
			bad = append(bad, p)
		}
	}
	return notes, bad
}
