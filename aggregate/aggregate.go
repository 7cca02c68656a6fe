// Package aggregate gathers, in one pass over the records, what every
// report needs: latency sketches per metric and dimension, status counts,
// the time line, the hour sets; and feeds the collectors the rules plug
// in (Collector). Each ingest worker fills its own Accumulator; they are
// merged at the end.
package aggregate

import (
	"math"
	"math/bits"
	"regexp"
	"strconv"
	"sync"

	"loganalyze/ingest"
	"loganalyze/sketch"
)

// Metrics, in the order of their sketches. All are in milliseconds.
const (
	RequestTime = iota
	UpstreamResponseTime
	NetworkTime
	TTFT
	// TimePerOutputToken is the generation speed, ms per token after the
	// first: (request_time − ttft) ÷ (completion_tokens − 1), for records
	// not known to be non-streaming with ttft and at least 2 tokens.
	TimePerOutputToken
	NumMetrics
)

// MetricNames are the metrics' names in reports, by index.
var MetricNames = [NumMetrics]string{"request_time", "upstream_response_time", "network_time", "ttft", "time_per_output_token"}

// Dimensions, in the order of the set's Dims.
const (
	DimRegion = iota
	DimModel
	DimStatus
	DimClient
	DimClientRegion
	DimRoute
	DimStream
	DimURI
	NumDims
)

// DimNames are the dimensions' names in reports, by index.
var DimNames = []string{"region", "model", "status", "client", "client_region", "route", "stream", "uri"}

// Options configure an accumulator.
type Options struct {
	Mapping *sketch.Mapping
	Top     int // keys kept exactly per dimension
	// Records outside [Since, Until) are skipped (each bound only when
	// its Has flag is set); so are records without a time when a bound is.
	Since, Until       int64
	HasSince, HasUntil bool
	// Latest, when not 0, skips the records dated at or after it too,
	// counted in Future as well as Skipped: a window without --until
	// ends a day past the run's start, so that one record dated years
	// ahead (a client's clock set wrong) cannot move the window and
	// stretch its time line. Records without a time are kept.
	Latest int64
	// HoldStrays holds aside the records that may be strays, dated long
	// before the others (strays.go), until SettleStrays: a window
	// without --since, which a clock reset to 2001 would otherwise
	// start in 2001.
	HoldStrays bool
	// Collectors, when set, makes the collectors of one accumulator
	// (one worker): what the rules gather beside the sketches.
	// HourCollectors makes those of each hour's accumulator (Hourly).
	Collectors, HourCollectors func() []Collector
	// OptionalCollectors, for Decode: a collector the file's writer did
	// not keep is left nil rather than an error (an earlier hour read
	// for what some rule compares with).
	OptionalCollectors bool
	// Stored are spans of hours (Unix nanoseconds, by the hour's start in
	// Unix seconds) whose records the state directory holds already: a
	// record in one goes to the window, not to its hour's accumulator,
	// which adds to the stored hour only what it lacks (an hourly cron
	// run whose window began seconds into an hour the run before it
	// stored the start of).
	Stored map[int64][][2]int64
	// Hourly keeps an accumulator per hour of log time (Hours), for the
	// state directory; the window is then their sum (MergeAll).
	Hourly bool
	// TokenURI matches the paths of token-endpoint calls, a class of the
	// breakdown; nil: none is.
	TokenURI *regexp.Regexp
	// Admission, when set, is shared by the sets of every accumulator
	// made with these options (sketch.Admission): the workers of one
	// input track the limit of keys per dimension between them, not each.
	// The hours' sets do not share it.
	Admission *sketch.Admission
}

// Accumulator is one worker's aggregate. It implements ingest.Sink.
type Accumulator struct {
	opts    Options
	Set     *sketch.Set
	Records int64
	// Skipped counts the records outside the --since/--until window.
	Skipped int64
	// Future counts those of Skipped dated at or after Options.Latest;
	// FirstFuture is the earliest of their times.
	Future, FirstFuture int64
	// Past counts those of Skipped that SettleStrays found strays;
	// FirstPast and LastPast are the earliest and latest of their times.
	Past, FirstPast, LastPast int64
	// MinTime and MaxTime bound the records' times (Unix ns); HasTime is
	// false when no record had one.
	MinTime, MaxTime int64
	HasTime          bool
	// status counts the records by status (Status).
	status statusCounts
	// Timeline is the time line, and request_time over time per region
	// (timeline.go).
	Timeline Timeline
	// present counts the records that carried each canonical field
	// (Present) but those of the latest run of records with the same
	// fields: presentRun records of presentMask's fields, added when a
	// record of other fields comes or present is read.
	present     [ingest.NumFields]int64
	presentMask uint64
	presentRun  int64
	// Breakdown is where each request class's time goes (breakdown.go).
	Breakdown Breakdown
	// Collectors are the rules' collectors (Options.Collectors), in the
	// order their constructor returned them; a nil one gathers nothing.
	// A ComboCollector holds the records of the set's combinations once
	// the set is expanded (MergeAll, AppendBinary and Set.Expand do it).
	Collectors []Collector
	// Hours is the accumulator of each hour (by its Unix second), when
	// Options.Hourly: the latest MaxHours, their sets finished, their
	// collectors not (an hour file keeps them mergeable); HoursFrom,
	// when not zero, is the first hour kept of a log that had more.
	// History is what the state directory holds (hours.go).
	Hours     map[int64]*Accumulator
	HoursFrom int64
	History   *History
	hourCut   int64 // the latest hour dropped; valid when HoursFrom != 0
	hoursCut  bool
	// With Hours, the window is the sum of its hours (hours.go): a
	// record of a kept hour is added to that hour alone, and MergeAll
	// adds the hours to the window. windowOnly marks the collectors the
	// hours do not have, which see every record; they are given the
	// record's combination as a window id (windowCombo). windowHooks
	// are the AddCombo of those that are ComboCollectors, which every
	// hour's set calls as well as the window's.
	windowOnly  []bool
	windowHooks []func(sketch.ComboKeys, *sketch.Entry)
	// active are the collectors add gives every record: the non-nil
	// ones but the window's own (New; Collectors are set once).
	// activeCombo marks the ComboCollectors among them, which AddBatch
	// gives only the records not Fed.
	active      []Collector
	activeCombo []bool
	activeBatch []BatchCollector // those that add a batch themselves (nil: not)
	winCombos   int              // window ids given
	winIDs      []int32          // of an accumulator's own combinations: window id + 1

	keyBuf []byte
	// byDictKey is the combination of the records of each DictKey met
	// (a columnar file's), valid while the set's epoch is dictEpoch:
	// such a record's combination is neither built nor looked up.
	byDictKey dictTable
	dictEpoch int
	vals      Values
	// states is, per collector of an hour's accumulator, its state
	// encoded before MergeAll gave the collector to the window's: what
	// the hour file holds (AppendBinary).
	states [][]byte
	batch  []Values // AddBatch's, one per record
	kept   []int32  // AddBatch's records inside the window
	run    []int32  // AddBatch's records of one hour
	tokens tokenMatcher
	strays strays // Options.HoldStrays
}

// New returns an empty accumulator.
func New(opts Options) *Accumulator {
	a := &Accumulator{
		opts:    opts,
		tokens:  tokenMatcher{re: opts.TokenURI},
		Set:     newSet(opts),
		MinTime: math.MaxInt64,
		MaxTime: math.MinInt64,
		strays:  strays{addedMin: math.MaxInt64, addedMax: math.MinInt64, firstMax: math.MinInt64, latest: math.MinInt64},
	}
	if opts.Admission != nil {
		a.Set.Share(opts.Admission)
	}
	if opts.Collectors != nil {
		a.Collectors = opts.Collectors()
	}
	if opts.Hourly {
		a.Hours = map[int64]*Accumulator{}
		a.windowOnly = windowOnly(a.Collectors, opts.HourCollectors)
	}
	for i, c := range a.Collectors {
		if cc, ok := c.(ComboCollector); ok && a.windowOnly != nil && a.windowOnly[i] {
			// The window's own set and every hour's (hourOf) bring it
			// their combinations: a record is in one of them.
			a.Set.OnExpand(cc.AddCombo)
			a.windowHooks = append(a.windowHooks, cc.AddCombo)
		}
		if c != nil && (a.windowOnly == nil || !a.windowOnly[i]) {
			a.active = append(a.active, c)
			cc, combo := c.(ComboCollector)
			a.activeCombo = append(a.activeCombo, combo)
			bc, _ := c.(BatchCollector)
			if combo {
				bc = nil
			}
			a.activeBatch = append(a.activeBatch, bc)
			if combo {
				a.Set.OnExpand(cc.AddCombo)
			}
			if _, ok := c.(RTTCollector); ok {
				a.Set.ComboOnly(ComboRTT + 1 - NumMetrics)
			}
		}
	}
	return a
}

// newSet returns an accumulator's empty set. A route is its client
// region, "→" and its region, joined from theirs (sketch.Set.Join).
func newSet(opts Options) *sketch.Set {
	s := sketch.NewSet(opts.Mapping, NumMetrics, DimNames, opts.Top)
	s.Join(DimRoute, DimClientRegion, DimRegion, "→")
	s.Wide(DimClient)
	return s
}

// windowOnly marks the collectors of the window that the hours' do not
// have; nil when there is none.
func windowOnly(window []Collector, hours func() []Collector) []bool {
	var hc []Collector
	if hours != nil {
		hc = hours()
	}
	var only []bool
	for i, c := range window {
		if c != nil && (i >= len(hc) || hc[i] == nil) {
			if only == nil {
				only = make([]bool, len(window))
			}
			only[i] = true
		}
	}
	return only
}

// addToSet adds a record's metric bins to set: to the combination of the
// dimension keys the record has, which the set expands into the whole
// input's entry and each key's. The window's set and the per-hour sets are
// filled by this one function, so their keys agree.
func (a *Accumulator) addToSet(set *sketch.Set, r *ingest.Record, v *Values) int {
	// The combination is built in a slice of the function's own, whose
	// length stays in a register, then handed to the set.
	t := set.Tuple()
	if k := r.Text(ingest.FRegion); k != nil {
		t = sketch.AppendKey(t, DimRegion, k)
	}
	if k := r.Text(ingest.FModel); k != nil {
		t = sketch.AppendKey(t, DimModel, k)
	}
	if status, ok := r.Int(ingest.FStatus); ok {
		if uint64(status) < uint64(len(statusKeys)) {
			t = sketch.AppendKey(t, DimStatus, statusKeys[status])
		} else {
			a.keyBuf = strconv.AppendInt(a.keyBuf[:0], status, 10)
			t = sketch.AppendKey(t, DimStatus, a.keyBuf)
		}
	}
	if k := r.Text(ingest.FClient); k != nil {
		t = sketch.AppendKey(t, DimClient, k)
	}
	if cr := r.Text(ingest.FClientRegion); cr != nil {
		t = sketch.AppendKey(t, DimClientRegion, cr) // and the route: newSet's Join
	}
	if s, ok := r.Bool(ingest.FStream); ok {
		t = sketch.AppendKey(t, DimStream, StreamKey(s))
	}
	if u := r.Text(ingest.FURI); u != nil {
		t = sketch.AppendKey(t, DimURI, v.uriPath) // Path(u), found once by Add
	}
	return set.AddTupleOf(t, v.Bins[:], v.Has[:])
}

// Add adds one record.
func (a *Accumulator) Add(r *ingest.Record) {
	if a.outside(r) {
		a.Skipped++
		return
	}
	if a.opts.HoldStrays && a.holds(r) {
		if a.strays.released != nil {
			a.release()
		}
		return
	}
	// The values live in the accumulator: passed to the collectors
	// through an interface, a local would escape, once per record.
	v := &a.vals
	a.values(r, v)
	if a.Hours != nil && r.Has(ingest.FTime) {
		if hour := a.hourOf(r); hour != nil {
			hour.add(r, v)
			a.addWindowOnly(r, v, hour)
			return
		}
	}
	a.add(r, v)
}

// AddBatch adds records as Add adds each, a step at a time over all of
// them (ingest.BatchSink): their values, then their combinations and
// counts, then each collector's turn, then the time line. Every table
// sees the records in their order, so the result is Add's. With hours,
// each run of records of one hour is added so to that hour's
// accumulator.
func (a *Accumulator) AddBatch(rs []ingest.Record) {
	a.addBatch(rs)
	if a.strays.released != nil {
		a.release()
	}
}

// addBatch is AddBatch but for the records it releases.
func (a *Accumulator) addBatch(rs []ingest.Record) {
	if a.batch == nil {
		a.batch = make([]Values, ingest.BatchSize)
		a.kept = make([]int32, 0, ingest.BatchSize)
		a.run = make([]int32, 0, ingest.BatchSize)
	}
	kept, vs := a.kept[:0], a.batch
	for i := range rs {
		if a.outside(&rs[i]) {
			a.Skipped++
			continue
		}
		if a.opts.HoldStrays && a.holds(&rs[i]) {
			continue
		}
		a.values(&rs[i], &vs[i])
		kept = append(kept, int32(i))
	}
	a.kept = kept
	if a.Hours == nil {
		a.addSteps(rs, kept, vs)
		return
	}
	// A record's hour is looked up (hourOf, which may start an hour and
	// drop the earliest into the window) only once the records before
	// it, of another hour, are added: as Add does, one at a time.
	run, hour, start := a.run[:0], (*Accumulator)(nil), int64(0)
	for _, i := range kept {
		r := &rs[i]
		if hour != nil && r.Has(ingest.FTime) && hourStart(r) == start && !a.stored(r) {
			run = append(run, i)
			continue
		}
		a.addRun(rs, run, vs, hour)
		run, hour = run[:0], nil
		if r.Has(ingest.FTime) {
			hour, start = a.hourOf(r), hourStart(r)
		}
		if hour == nil {
			a.add(r, &vs[i]) // no time, or an hour dropped: the window's
			continue
		}
		run = append(run, i)
	}
	a.addRun(rs, run, vs, hour)
	a.run = run
}

// addRun adds records rs[run] of one hour to its accumulator, and to the
// window's own collectors.
func (a *Accumulator) addRun(rs []ingest.Record, run []int32, vs []Values, hour *Accumulator) {
	if len(run) == 0 {
		return
	}
	hour.addSteps(rs, run, vs)
	for _, i := range run {
		a.addWindowOnly(&rs[i], &vs[i], hour)
	}
}

// addSteps adds records rs[idx], whose values are vs[idx], as add adds
// each, a step at a time over all of them.
func (a *Accumulator) addSteps(rs []ingest.Record, idx []int32, vs []Values) {
	for _, i := range idx {
		a.addCombo(&rs[i], &vs[i])
	}
	for j, c := range a.active {
		if bc := a.activeBatch[j]; bc != nil {
			bc.AddRecords(rs, idx, vs)
			continue
		}
		if a.activeCombo[j] { // its Add counts no Fed record
			for _, i := range idx {
				if !vs[i].Fed {
					c.Add(&rs[i], &vs[i])
				}
			}
			continue
		}
		for _, i := range idx {
			c.Add(&rs[i], &vs[i])
		}
	}
	for _, i := range idx {
		a.addTime(&rs[i], &vs[i])
	}
	if a.windowOnly != nil {
		for _, i := range idx {
			a.addWindowOnly(&rs[i], &vs[i], a)
		}
	}
}

// Latest is Options.Latest: the date from which records are skipped as
// Future (0 for none).
func (a *Accumulator) Latest() int64 { return a.opts.Latest }

// outside reports whether a record is outside the --since/--until
// window.
func (a *Accumulator) outside(r *ingest.Record) bool {
	if a.opts.Latest != 0 && r.TimeNS >= a.opts.Latest && r.Has(ingest.FTime) {
		if a.Future == 0 || r.TimeNS < a.FirstFuture {
			a.FirstFuture = r.TimeNS
		}
		a.Future++
		return true
	}
	if !a.opts.HasSince && !a.opts.HasUntil {
		return false
	}
	return !r.Has(ingest.FTime) ||
		a.opts.HasSince && r.TimeNS < a.opts.Since ||
		a.opts.HasUntil && r.TimeNS >= a.opts.Until
}

// values sets v to the values of record r. A metric's bin is set only
// when the record has it (Has), and the breakdown's phases only when it
// has a request_time (phases.ok): the rest of v is cleared, field by
// field (clear), without the two arrays, which no one reads unset.
func (a *Accumulator) values(r *ingest.Record, v *Values) {
	v.clear()
	m := a.opts.Mapping
	bins, has := &v.Bins, &v.Has
	rt, okRT := r.Float(ingest.FRequestTime)
	v.RequestTime, v.HasRequestTime = rt, okRT
	if u := r.Text(ingest.FURI); u != nil {
		v.uriPath, v.TokenCall = a.tokens.match(u)
	}
	urt, okURT := r.Float(ingest.FUpstreamResponseTime)
	if okRT {
		bins[RequestTime], has[RequestTime] = m.Bin(rt*1000), true
		v.phases.of(r, classOf(r, v.TokenCall), rt)
	}
	if okURT {
		bins[UpstreamResponseTime], has[UpstreamResponseTime] = m.Bin(urt*1000), true
	}
	if okRT && okURT {
		bins[NetworkTime], has[NetworkTime] = m.Bin((rt-urt)*1000), true
	}
	if x, ok := r.Float(ingest.FTTFT); ok {
		bins[TTFT], has[TTFT] = m.Bin(x), true
		if tpot, ok := timePerOutputToken(r, rt, okRT, x); ok {
			bins[TimePerOutputToken], has[TimePerOutputToken] = m.Bin(tpot), true
		}
	}
}

// clear clears v for values, but its bins and phases. (A line of its
// own in values: the command's profile knows values' calls by their
// lines.)
func (v *Values) clear() {
	v.Has = [NumMetrics]bool{}
	v.RequestTime, v.HasRequestTime, v.TokenCall = 0, false, false
	v.Combo, v.Fed, v.uriPath = 0, false, nil
	v.phases.ok = false
}

// maxWindowCombos bounds the window ids given to combinations, as a set
// bounds its own (past it, a record's combination is −1: not cached).
const maxWindowCombos = 1 << 12

// addWindowOnly adds a record to the window's own collectors. Its
// combination v.Combo is from's (an hour's, or the window's own set's);
// they are given it as a window id, the same for every record of the
// combination in from, never given twice by the window. v.Fed stays
// from's: from's set brings the record's combination to those that are
// ComboCollectors too (windowHooks).
func (a *Accumulator) addWindowOnly(r *ingest.Record, v *Values, from *Accumulator) {
	if a.windowOnly == nil {
		return
	}
	v.Combo = a.windowCombo(from, v.Combo)
	for i, only := range a.windowOnly {
		if only {
			a.Collectors[i].Add(r, v)
		}
	}
}

func (a *Accumulator) windowCombo(from *Accumulator, combo int) int {
	if uint(combo) >= maxCachedCombos {
		return -1
	}
	if combo >= len(from.winIDs) {
		from.winIDs = append(from.winIDs, make([]int32, combo+1-len(from.winIDs))...)
	}
	if from.winIDs[combo] == 0 {
		if a.winCombos >= maxWindowCombos {
			return -1
		}
		a.winCombos++
		from.winIDs[combo] = int32(a.winCombos)
	}
	return int(from.winIDs[combo]) - 1
}

// add adds a record of the window with its values: to the window, or,
// for an hour's accumulator, to the hour. AddBatch takes its steps in
// turn over a batch of records.
func (a *Accumulator) add(r *ingest.Record, v *Values) {
	a.addCombo(r, v)
	for _, c := range a.active {
		c.Add(r, v)
	}
	a.addTime(r, v)
	a.addWindowOnly(r, v, a)
}

// addCombo counts a record, and adds it to its combination (v.Combo),
// the breakdown and the status counts.
func (a *Accumulator) addCombo(r *ingest.Record, v *Values) {
	a.Records++
	if a.presentRun++; r.Fields() != a.presentMask {
		a.startPresent(r.Fields()) // a log's lines mostly carry the same fields
	}
	if r.DictKey == 0 {
		v.Combo = a.addToSet(a.Set, r, v)
	} else {
		v.Combo = a.comboOf(r, v)
	}
	v.Fed = v.Combo >= 0
	a.addComboRTT(r)
	a.Breakdown.add(&v.phases)
	if status, ok := r.Int(ingest.FStatus); ok {
		a.status.add(status, 1)
	}
}

// maxDictKeys bounds byDictKey: past it, it starts again empty.
const maxDictKeys = 1 << 12

// comboOf adds a record with a DictKey to its combination in the set
// and returns the combination's id, as addToSet does: by the id alone
// when a record of the same DictKey met it.
func (a *Accumulator) comboOf(r *ingest.Record, v *Values) int {
	k := r.DictKey
	if a.dictEpoch != a.Set.Epoch() || a.byDictKey.n >= maxDictKeys {
		a.byDictKey.clear()
		a.dictEpoch = a.Set.Epoch()
	}
	id, ok := a.byDictKey.get(k)
	if ok && a.Set.AddCombo(int(id), v.Bins[:], v.Has[:]) {
		return int(id)
	}
	got := a.addToSet(a.Set, r, v)
	if got >= 0 && got <= math.MaxInt32 {
		a.byDictKey.put(k, int32(got))
	}
	return got
}

// addTime adds a record's time to the time line.
func (a *Accumulator) addTime(r *ingest.Record, v *Values) {
	if !r.Has(ingest.FTime) {
		return
	}
	t := r.TimeNS
	a.HasTime = true
	a.MinTime = min(a.MinTime, t)
	a.MaxTime = max(a.MaxTime, t)
	status, _ := r.Int(ingest.FStatus)
	a.Timeline.add(a.opts.Mapping, t, status, v.Has[RequestTime], v.Bins[RequestTime], r.Text(ingest.FRegion), v.Combo)
}

// addComboRTT adds a record's tcpinfo_rtt to the combination addToSet
// gave it just before (ComboRTT), when the set keeps that metric.
func (a *Accumulator) addComboRTT(r *ingest.Record) {
	if x, ok := RTTMs(r); ok {
		a.Set.AddComboOnly(ComboRTT, a.opts.Mapping.Bin(x))
	}
}

// RTTMs is a record's tcpinfo_rtt (µs) in ms, its value of metric
// ComboRTT; false when it has none.
func RTTMs(r *ingest.Record) (float64, bool) {
	x, ok := r.Float(ingest.FTCPInfoRTT)
	return x / 1000, ok && !math.IsNaN(x)
}

// Present returns how many records carried each canonical field.
func (a *Accumulator) Present() *[ingest.NumFields]int64 {
	a.flushPresent()
	return &a.present
}

// startPresent counts the run of records before the latest one, which
// starts a run of fields f.
func (a *Accumulator) startPresent(f uint64) {
	a.presentRun--
	a.flushPresent()
	a.presentMask, a.presentRun = f, 1
}

// flushPresent adds the current run of records to present.
func (a *Accumulator) flushPresent() {
	if a.presentRun == 0 {
		return
	}
	for set := a.presentMask; set != 0; set &= set - 1 {
		a.present[bits.TrailingZeros64(set)] += a.presentRun
	}
	a.presentRun = 0
}

// timePerOutputToken is a record's ms per output token after the
// first (SPEC §4), given its request_time (s) and ttft (ms).
func timePerOutputToken(r *ingest.Record, rt float64, okRT bool, ttft float64) (float64, bool) {
	if !okRT {
		return 0, false
	}
	if s, ok := r.Bool(ingest.FStream); ok && !s {
		return 0, false
	}
	n, ok := r.Int(ingest.FCompletionTokens)
	if !ok || n < 2 {
		return 0, false
	}
	return max(0, rt*1000-ttft) / float64(n-1), true
}

// statusKeys are the status dimension's keys of the statuses below 1000,
// written once rather than once per record.
var statusKeys = func() [][]byte {
	// In one array (10 + 90×2 + 900×3 bytes): made when the program
	// starts, a thousand allocations of their own took 0.18 ms of it.
	keys, all := make([][]byte, 1000), make([]byte, 0, 2890)
	for i := range keys {
		start := len(all)
		all = strconv.AppendInt(all, int64(i), 10)
		keys[i] = all[start:len(all):len(all)]
	}
	return keys
}()

var (
	trueKey  = []byte("true")
	falseKey = []byte("false")
)

// StreamKey is the stream dimension's key of a stream setting.
func StreamKey(stream bool) []byte {
	if stream {
		return trueKey
	}
	return falseKey
}

// Path returns a URI without its query string.
func Path(u []byte) []byte { return ingest.URIPath(u) }

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// Merge adds o into a.
func (a *Accumulator) Merge(o *Accumulator) {
	a.Set.Merge(o.Set)
	for i, c := range a.Collectors {
		if c != nil {
			c.Merge(o.Collectors[i])
		}
	}
	a.mergeRest(o)
}

// mergeRest adds what of o is neither the set nor a collector into a.
func (a *Accumulator) mergeRest(o *Accumulator) {
	a.mergeCounts(o)
	a.mergeHours(o)
}

// mergeCounts adds the counts, the time line and the breakdown of o into
// a. The time line takes o's parts over.
func (a *Accumulator) mergeCounts(o *Accumulator) {
	a.Records += o.Records
	a.Skipped += o.Skipped
	if o.Future > 0 && (a.Future == 0 || o.FirstFuture < a.FirstFuture) {
		a.FirstFuture = o.FirstFuture
	}
	a.Future += o.Future
	if o.Past > 0 {
		if a.Past == 0 || o.FirstPast < a.FirstPast {
			a.FirstPast = o.FirstPast
		}
		a.LastPast = max(a.LastPast, o.LastPast)
	}
	a.Past += o.Past
	if o.HasTime {
		a.HasTime = true
		a.MinTime = min(a.MinTime, o.MinTime)
		a.MaxTime = max(a.MaxTime, o.MaxTime)
	}
	a.status.merge(&o.status)
	a.Timeline.merge(&o.Timeline)
	a.Breakdown.merge(&o.Breakdown)
	a.flushPresent()
	o.flushPresent()
	for i := range a.present {
		a.present[i] += o.present[i]
	}
}

// MergeAll merges accumulators into the first and finishes it. The set,
// each collector and the rest share nothing, so each is merged and
// finished on its own goroutine: the workers' tail is not one core's.
// With hours, they are merged first (the window is their sum), and
// added to the window leaving them as they are, for their hour files.
func MergeAll(accs []*Accumulator) *Accumulator {
	a := accs[0]
	var wg sync.WaitGroup
	// The sets' combinations go to their collectors (ComboCollector)
	// before those are merged on goroutines of their own; the others
	// take nothing from the sets, and without hours (whose merge adds
	// to their collectors first) they are merged while the sets expand:
	// the merge of the largest, the storm rule's, no longer waits for
	// the expansion.
	early := make([]bool, len(a.Collectors))
	if a.Hours == nil {
		for i, c := range a.Collectors {
			if _, combo := c.(ComboCollector); c != nil && !combo {
				early[i] = true
				wg.Go(func() { mergeCollector(c, i, accs, nil) })
			}
		}
	}
	// The other workers' combinations are merged into the first's
	// tables, the window's and each hour's, so that each is expanded
	// once, not once per worker that met it (without hours, the other
	// core merges the collectors meanwhile; an hour the first worker
	// did not meet is left to its worker).
	for _, o := range accs[1:] {
		a.Set.MergeCombos(o.Set)
		for h, oh := range o.Hours {
			if ah := a.Hours[h]; ah != nil {
				ah.Set.MergeCombos(oh.Set)
			}
		}
	}
	// Half the combinations, whole groups of them, are expanded on the
	// second worker's set, beside the first's: the collectors' merges
	// that once kept the other core busy meanwhile are short now.
	if len(accs) > 1 && a.Hours == nil {
		a.Set.SplitCombos(accs[1].Set)
	}
	expandAll(accs)
	var hours []*Accumulator
	if a.Hours != nil {
		for _, o := range accs[1:] {
			a.mergeRest(o)
		}
		for _, hour := range a.SortedHours() {
			h := a.Hours[hour]
			h.states = make([][]byte, len(h.Collectors))
			hours = append(hours, h)
		}
	}
	wg.Go(func() {
		for _, o := range accs[1:] {
			a.Set.Merge(o.Set)
		}
		for _, h := range hours {
			a.Set.Merge(h.Set) // copies: h's set stays its own
		}
		a.Set.Finish()
	})
	for i, c := range a.Collectors {
		if c == nil || early[i] {
			continue
		}
		wg.Go(func() { mergeCollector(c, i, accs, hours) })
	}
	if a.Hours == nil {
		for _, o := range accs[1:] {
			a.mergeRest(o)
		}
	}
	for _, h := range hours {
		a.mergeCounts(copyCounts(a.opts.Mapping, h))
	}
	wg.Wait()
	a.finishHours()
	return a
}

// mergeCollector merges collector i of accs[1:] and of hours into c, the
// first accumulator's, and finishes it. An hour's collector, which a
// merge takes the parts of, is first encoded for its hour file (states).
func mergeCollector(c Collector, i int, accs, hours []*Accumulator) {
	for _, o := range accs[1:] {
		c.Merge(o.Collectors[i])
	}
	for _, h := range hours {
		if i < len(h.Collectors) && h.Collectors[i] != nil {
			h.states[i] = h.Collectors[i].AppendBinary(nil)
			c.Merge(h.Collectors[i])
		}
	}
	c.Finish()
}

// expandAll expands the sets of accs and of their hours, each on a
// goroutine (the workers' sets share nothing but their Admission, which
// the workers share as they read).
func expandAll(accs []*Accumulator) {
	var wg sync.WaitGroup
	for _, o := range accs {
		wg.Go(func() {
			o.Set.Expand()
			for _, h := range o.Hours {
				h.Set.Expand()
			}
		})
	}
	wg.Wait()
}

// copyCounts returns an accumulator holding h's counts, time line and
// breakdown, for mergeCounts, which takes the time line's parts over.
func copyCounts(m *sketch.Mapping, h *Accumulator) *Accumulator {
	c := *h
	c.Timeline = Timeline{}
	d := NewDecoder(m, h.Timeline.appendBinary(nil), errDamaged)
	c.Timeline.decode(d)
	if err := d.Done(); err != nil {
		panic("BUG: a time line cannot read its own state: " + err.Error())
	}
	return &c
}
