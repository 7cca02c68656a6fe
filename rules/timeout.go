package rules

import (
	"fmt"
	"math"
	"sort"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// timeoutRule is timeout_ceiling (SPEC §5): many requests that end at
// the same request_time, the group's largest and at least a second —
// calls cut by a client or gateway time-out. A long tail has few
// requests at its maximum and more just below it; a ceiling piles them
// up at one value.
type timeoutRule struct {
	enabled
	MinRequests int64   // requests within 1 % of the ceiling
	MinCeilMs   float64 // the least ceiling, ms
	// MinPileRatio is how many times more requests end within 1 % of
	// the ceiling than in the 1 % below that: a pile, not a slope.
	MinPileRatio float64
	// CritShare makes the finding crit when the cut requests are at
	// least this share of the group's requests.
	CritShare float64
}

func newTimeout() rule {
	return &timeoutRule{enabled: enabled{true}, MinRequests: 20, MinCeilMs: 1000, MinPileRatio: 2, CritShare: 0.05}
}

// RuleTimeout is timeout_ceiling's ID.
const RuleTimeout = "timeout_ceiling"

func (*timeoutRule) id() string { return RuleTimeout }

func (r *timeoutRule) params() []param {
	return []param{enabledP(&r.Enabled), intP("min_requests", &r.MinRequests), floatP("min_ceiling_ms", &r.MinCeilMs),
		floatP("min_pile_ratio", &r.MinPileRatio), shareP("crit_share", &r.CritShare)}
}

func (r *timeoutRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return RuleTimeout, func(e collectEnv) aggregate.Collector {
		c := &ceilings{env: e, minMs: r.MinCeilMs,
			clients: newCapped[*ceilGroup](cappedKeys(e.top), e.shared.of(func(b *sharedBounds) *retryShare { return b.ceilings }))}
		c.clients.dropped = c.byCombo.Clear
		return c
	}
}

func (*timeoutRule) needs(acc *aggregate.Accumulator) string {
	return absent(acc, ingest.FRequestTime)
}

// Buckets of the ceilings: 0.1 % wide on a log scale, so "within 1 %
// of the ceiling" is the ceiling's bucket and the nine below it. A group
// keeps the buckets of its top 2 %: the ceiling's 1 % and the 1 % below,
// which tells a pile from a slope.
const (
	ceilBucketWidth = 1.001
	ceilWithin      = 10 // buckets: 1.001^10 ≈ 1.01
	ceilKept        = 2 * ceilWithin
)

var ceilLogWidth = math.Log(ceilBucketWidth)

// ceilGroup is the top of one group's request times: the buckets of
// its top 2 %, at most ceilKept of them, each with its statuses. The
// buckets are listed, not slotted by index, so that a caller of a few
// requests costs a few buckets (thousands are kept); one that falls out
// of the top keeps its place and statuses for the next, so that adding
// allocates little once warm.
type ceilGroup struct {
	total int64 // requests added, kept or not
	top   int32
	has   bool
	slots []ceilBucket // the buckets in the top; past len, spare ones
	// below is a time (ms) under which a request's bucket is surely
	// below the top kept, when it is of belowTop: so that most requests
	// skip the logarithm of their bucket.
	below    float64
	belowTop int32
	belowSet bool
}

// noCeilIndex is a request's bucket not yet computed (addMs).
const noCeilIndex = math.MinInt32

// ceilIndex is the bucket of a request time in ms (> 0).
func ceilIndex(ms float64) int32 { return int32(math.Floor(math.Log(ms) / ceilLogWidth)) }

// addMs adds one request of ms and status, as add does with its bucket,
// which it computes into *i (noCeilIndex until then) only when the
// request may be in the top.
func (g *ceilGroup) addMs(ms float64, status int64, i *int32) {
	if g.has {
		if !g.belowSet || g.belowTop != g.top {
			// The least time of bucket top−ceilKept+1, less a margin
			// far above the rounding of ceilIndex's logarithm.
			g.below = math.Exp(float64(g.top-ceilKept+1)*ceilLogWidth) * (1 - 1e-9)
			g.belowTop, g.belowSet = g.top, true
		}
		if ms < g.below {
			g.total++
			return
		}
	}
	if *i == noCeilIndex {
		*i = ceilIndex(ms)
	}
	g.add(*i, status, 1)
}

type ceilBucket struct {
	idx    int32
	n      int64
	status []statusCount
}

type statusCount struct{ status, n int64 } // status 0 when absent

func (g *ceilGroup) add(i int32, status int64, n int64) {
	g.total += n
	if !g.has {
		g.top, g.has = i, true
	}
	if i <= g.top-ceilKept {
		return
	}
	if i > g.top {
		g.top = i
		k := 0
		for j := range g.slots {
			if g.slots[j].idx > g.top-ceilKept {
				g.slots[k], g.slots[j] = g.slots[j], g.slots[k]
				k++
			}
		}
		g.slots = g.slots[:k]
	}
	b := g.bucket(i)
	b.n += n
	for k := range b.status {
		if b.status[k].status == status {
			b.status[k].n += n
			return
		}
	}
	b.status = append(b.status, statusCount{status, n})
}

// bucket returns bucket i, starting it in a spare place when there is
// one.
func (g *ceilGroup) bucket(i int32) *ceilBucket {
	for j := range g.slots {
		if g.slots[j].idx == i {
			return &g.slots[j]
		}
	}
	if len(g.slots) < cap(g.slots) {
		g.slots = g.slots[:len(g.slots)+1]
	} else {
		g.slots = append(g.slots, ceilBucket{})
	}
	b := &g.slots[len(g.slots)-1]
	b.idx, b.n, b.status = i, 0, b.status[:0]
	return b
}

// merge adds o: what either kept within the merged top's range is all
// there is there, so the result does not depend on the split.
func (g *ceilGroup) merge(o *ceilGroup) {
	if !o.has {
		return
	}
	kept := int64(0)
	for lo := o.top - ceilKept + 1; lo <= o.top; lo++ {
		for _, b := range o.slots {
			if b.n > 0 && b.idx == lo {
				for _, sc := range b.status {
					g.add(b.idx, sc.status, sc.n)
					kept += sc.n
				}
			}
		}
	}
	g.total += o.total - kept
}

// count returns the requests in the buckets from index lo to hi, hi
// excluded.
func (g *ceilGroup) count(lo, hi int32) (n int64) {
	for _, b := range g.slots {
		if b.n > 0 && b.idx >= lo && b.idx < hi {
			n += b.n
		}
	}
	return n
}

// ceilings is timeout_ceiling's collector: the top request times of
// all requests and of each caller's (capped).
type ceilings struct {
	env     collectEnv
	minMs   float64
	all     ceilGroup
	clients capped[*ceilGroup] // the callers' (capped)
	// byCombo keeps the caller's group of a combination of the
	// records' keys (nil when not kept): emptied when callers are
	// dropped (Clear), reset on a merge.
	byCombo aggregate.ComboCache[*ceilGroup]
}

// AddRecords adds records rs[idx] (aggregate.BatchCollector).
func (c *ceilings) AddRecords(rs []ingest.Record, idx []int32, vs []aggregate.Values) {
	for _, i := range idx {
		c.Add(&rs[i], &vs[i])
	}
}

// Add adds a record whose request_time is at least the least ceiling.
func (c *ceilings) Add(r *ingest.Record, v *aggregate.Values) {
	ms := v.RequestTime * 1000
	if !v.HasRequestTime || ms < c.minMs || ms <= 0 || math.IsInf(ms, 0) {
		return
	}
	i := int32(noCeilIndex)
	status, _ := r.Int(ingest.FStatus)
	c.all.addMs(ms, status, &i)
	if client := r.Text(ingest.FClient); client != nil {
		g := c.byCombo.Find(v.Combo, func() *ceilGroup {
			g, _ := c.clients.get(client, func() *ceilGroup { return &ceilGroup{} })
			return g
		})
		if g != nil {
			g.addMs(ms, status, &i)
		}
	}
}

// Merge adds another worker's ceilings.
func (c *ceilings) Merge(oc aggregate.Collector) {
	o := oc.(*ceilings)
	c.byCombo.Reset()
	c.all.merge(&o.all)
	c.clients.merge(&o.clients, func(g, og *ceilGroup) { g.merge(og) })
}

// Finish bounds the callers.
func (c *ceilings) Finish() { c.clients.finish() }

// ceiling is a group's ceiling, when it has one.
type ceiling struct {
	ms        float64 // the ceiling bucket's lower bound
	n, below  int64   // requests within 1 % of it, in the 1 % below
	statuses  map[int64]int64
	requests  int64 // the group's requests
	keyFields Fields
	who       string
}

// find returns g's ceiling when it meets the settings.
func (r *timeoutRule) find(g *ceilGroup) (ceiling, bool) {
	if g == nil || !g.has {
		return ceiling{}, false
	}
	c := ceiling{ms: math.Pow(ceilBucketWidth, float64(g.top)), statuses: map[int64]int64{}}
	c.n, c.below = g.count(g.top-ceilWithin+1, g.top+1), g.count(g.top-ceilKept+1, g.top-ceilWithin+1)
	if c.n < r.MinRequests || c.ms < r.MinCeilMs || float64(c.n) < r.MinPileRatio*float64(c.below) {
		return ceiling{}, false
	}
	for _, b := range g.slots {
		if b.n > 0 && b.idx > g.top-ceilWithin {
			for _, sc := range b.status {
				c.statuses[sc.status] += sc.n
			}
		}
	}
	return c, true
}

// evaluate reports the ceiling of all requests, with the callers cut at
// it; and each caller's own ceiling where it differs (one cause, one
// finding: a caller cut at the common ceiling is part of it).
func (r *timeoutRule) evaluate(acc *aggregate.Accumulator, col aggregate.Collector, _ *Config) ([]Finding, string) {
	cs := col.(*ceilings)
	var out []Finding
	all, hasAll := r.find(&cs.all)
	clientCounts := map[string]int64{}
	for _, e := range acc.Set.Dims[aggregate.DimClient].Sorted() {
		clientCounts[e.Key] = e.Count
	}
	if hasAll {
		all.requests, all.keyFields, all.who = acc.Set.All.Count, Fields{{"all", ""}}, "all requests"
		cut := map[string]int64{}
		for k, g := range cs.clients.m {
			if n := g.count(cs.all.top-ceilWithin+1, cs.all.top+1); n > 0 {
				cut[k] = n
			}
		}
		out = append(out, r.finding(all, cut))
	}
	for _, k := range sortedKeys(cs.clients.m) {
		g := cs.clients.m[k]
		c, ok := r.find(g)
		if !ok || hasAll && g.top > cs.all.top-ceilWithin {
			continue
		}
		c.requests, c.keyFields, c.who = clientCounts[k], Fields{{"client", k}}, k
		out = append(out, r.finding(c, map[string]int64{k: c.n}))
	}
	return out, cs.clients.partly("callers")
}

func (r *timeoutRule) finding(c ceiling, callers map[string]int64) Finding {
	sev := Warn
	share := 0.0
	if c.requests > 0 {
		share = float64(c.n) / float64(c.requests)
	}
	if share >= r.CritShare {
		sev = Crit
	}
	var statuses Fields
	for _, st := range sortedInt64s(c.statuses) {
		name := "-"
		if st != 0 {
			name = fmt.Sprint(st)
		}
		statuses = append(statuses, Field{name, c.statuses[st]})
	}
	ceilS := seconds(c.ms / 1000)
	return Finding{
		Rule:     RuleTimeout,
		Severity: sev,
		Key:      c.keyFields,
		Title:    fmt.Sprintf("Requests of %s cut at %s: a time-out", c.who, ceilS),
		Evidence: Fields{{"ceiling_ms", round(c.ms, 1)}, {"requests_at_ceiling", c.n}, {"requests", c.requests},
			{"share", round(share, 3)}, {"requests_1pct_below", c.below}, {"callers", topNames(callers, 5)}, {"statuses", statuses}},
		// Impact: a cut request waited the whole ceiling for no answer.
		Impact: impact(c.ms, c.n),
		Advice: fmt.Sprintf("%d requests of %s end at %s, the longest any of them took: a client or gateway time-out cuts them. "+
			"Raise that limit above what complete calls need, stream the response so the first token arrives within it, "+
			"or find why these calls take so long (upstream capacity, long answers).", c.n, c.who, ceilS),
	}
}

func sortedInt64s(m map[int64]int64) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// AppendBinary appends the ceilings, for an hour file.
func (c *ceilings) AppendBinary(b []byte) []byte {
	e := &encoder{B: b}
	c.clients.appendCut(e)
	c.all.encode(e)
	encodeMap(e, c.clients.m, func(_ string, g *ceilGroup) { g.encode(e) })
	return e.B
}

// UnmarshalBinary replaces the ceilings with what AppendBinary wrote.
func (c *ceilings) UnmarshalBinary(b []byte) error {
	c.byCombo.Reset()
	d := newDecoder(c.env.m, b)
	c.clients.readCut(d)
	c.all = ceilGroup{}
	c.all.decode(d)
	c.clients.m = decodeMap(d, 3, func(string) *ceilGroup {
		g := &ceilGroup{}
		g.decode(d)
		return g
	})
	return d.Done()
}

func (g *ceilGroup) encode(e *encoder) {
	e.Uint(uint64(g.total))
	e.Bool(g.has)
	if !g.has {
		return
	}
	e.Int(int64(g.top))
	var kept []ceilBucket
	for _, b := range g.slots {
		if b.n > 0 {
			kept = append(kept, b)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].idx < kept[j].idx })
	e.Uint(uint64(len(kept)))
	for _, b := range kept {
		e.Int(int64(b.idx))
		e.Uint(uint64(len(b.status)))
		for _, sc := range b.status {
			e.Int(sc.status)
			e.Uint(uint64(sc.n))
		}
	}
}

// decode reads a group through add, so that the slots are where add puts
// them whatever the bytes say.
func (g *ceilGroup) decode(d *decoder) {
	total := d.Count()
	if !d.Bool() {
		g.total = total
		return
	}
	top := d.Int()
	if top < math.MinInt32 || top > math.MaxInt32 {
		d.Fail("bucket %d out of range", top)
		return
	}
	g.top, g.has = int32(top), true
	kept := int64(0)
	for range d.Items(2) {
		idx := d.Int()
		if idx > top || idx <= top-ceilKept {
			d.Fail("bucket %d outside the top %d", idx, top)
			return
		}
		for range d.Items(2) {
			st, n := d.Int(), d.Count()
			if d.Err() != nil {
				return
			}
			g.add(int32(idx), st, n)
			kept += n
		}
	}
	if kept > total {
		d.Fail("%d requests kept of %d", kept, total)
		return
	}
	g.total = total
}
