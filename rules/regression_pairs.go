package rules

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// regressionPairs is latency_regression's collector: per pair of a
// cause key (a region or a model) and a key of another dimension, the
// requests they share and their metrics' bin counts — the joint data that
// says whether a key's requests are mostly a region's, and what the key
// measured without them. A region × model pair is kept once, under the
// region. At most about twice --top pairs are kept between folds, the
// lightest dropped: a pair that is not kept explains nothing.
//
// A pair is a projection of a combination of keys, so the collector
// takes its records from the combinations of the sets they were added
// to, the window's and each hour's, when those expand (AddCombo: a
// combination's pairs once, not a record's pairs for each record), and
// in Add only the records past a set's bound of combinations.
type regressionPairs struct {
	env    collectEnv
	causes [len(causeDims)]map[string]*causePairs
	n      int // pairs kept
	folded int64
	keys   [aggregate.NumDims][]byte
	has    [aggregate.NumDims]bool
	// status and route are the buffers of the keys a record or a
	// combination does not hold as such.
	status, route []byte
	found         []*pairStats
	bins          []sketch.BinCount // AddCombo's list of a metric's bins
}

// causePairs are one cause key's pairs, by dimension and key.
type causePairs struct {
	byDim [aggregate.NumDims]map[string]*pairStats
}

// pairStats is what one pair's requests measured.
type pairStats struct {
	count   int64
	metrics [aggregate.NumMetrics]*sketch.Counts
}

func (r *regressionRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return RuleRegression, func(e collectEnv) aggregate.Collector {
		if !e.history {
			return nil // nothing to compare with: nothing to explain
		}
		c := &regressionPairs{env: e}
		for i := range c.causes {
			c.causes[i] = map[string]*causePairs{}
		}
		return c
	}
}

// causeDims are the dimensions whose keys can explain others: where a
// request is served (region) and what serves it (model); and the stream
// flag, whose pairs say what a key's non-streaming calls measured (a
// key's mix, mixExplains), never a cause of explain's (isCause).
var causeDims = [...]int{aggregate.DimRegion, aggregate.DimModel, aggregate.DimStream}

// pairs says whether cause dimension cd keeps pairs with dimension d.
// A region's pair with a route is its pair with the route's client
// region (the route X→R is the requests of R from X), so it is not kept.
func pairs(cd, d int) bool {
	switch {
	case d == cd:
		return false
	case cd == aggregate.DimModel && d == aggregate.DimRegion:
		return false
	case cd == aggregate.DimRegion && d == aggregate.DimRoute:
		return false
	case cd == aggregate.DimStream && (d == aggregate.DimRegion || d == aggregate.DimModel):
		return false // kept under the region and the model
	}
	return true
}

// dimKeys sets the record's key in each dimension, as the accumulator
// keys its sketches.
func (c *regressionPairs) dimKeys(r *ingest.Record) {
	set := func(d int, k []byte) {
		// The record's own bytes: valid for this Add, not kept.
		c.keys[d], c.has[d] = k, k != nil
	}
	reg, cr := r.Text(ingest.FRegion), r.Text(ingest.FClientRegion)
	set(aggregate.DimRegion, reg)
	set(aggregate.DimModel, r.Text(ingest.FModel))
	c.has[aggregate.DimStatus] = false
	if st, ok := r.Int(ingest.FStatus); ok {
		c.status = strconv.AppendInt(c.status[:0], st, 10)
		c.keys[aggregate.DimStatus] = c.status
		c.has[aggregate.DimStatus] = true
	}
	set(aggregate.DimClient, r.Text(ingest.FClient))
	set(aggregate.DimClientRegion, cr)
	c.has[aggregate.DimRoute] = cr != nil && reg != nil
	if cr != nil && reg != nil {
		c.route = append(append(append(c.route[:0], cr...), "→"...), reg...)
		c.keys[aggregate.DimRoute] = c.route
	}
	c.has[aggregate.DimStream] = false
	if s, ok := r.Bool(ingest.FStream); ok {
		c.keys[aggregate.DimStream] = aggregate.StreamKey(s)
		c.has[aggregate.DimStream] = true
	}
	var uri []byte
	if u := r.Text(ingest.FURI); u != nil {
		uri = aggregate.Path(u)
	}
	set(aggregate.DimURI, uri)
}

// comboKeys sets the keys of a combination in each dimension, as
// dimKeys sets a record's: the route, which is no part of a
// combination, from its client region and region.
func (c *regressionPairs) comboKeys(keys sketch.ComboKeys) {
	for d := range aggregate.NumDims {
		c.keys[d] = keys.Key(d)
		c.has[d] = c.keys[d] != nil
	}
	reg, cr := c.keys[aggregate.DimRegion], c.keys[aggregate.DimClientRegion]
	c.keys[aggregate.DimRoute], c.has[aggregate.DimRoute] = nil, cr != nil && reg != nil
	if cr != nil && reg != nil {
		c.route = append(append(append(c.route[:0], cr...), "→"...), reg...)
		c.keys[aggregate.DimRoute] = c.route
	}
}

// Add adds a record to each pair of its keys, when its combination does
// not bring it (AddCombo).
func (c *regressionPairs) Add(r *ingest.Record, v *aggregate.Values) {
	if v.Fed {
		return
	}
	c.fold()
	c.dimKeys(r)
	c.found = c.pairsOf(c.found[:0])
	for _, p := range c.found {
		p.count++
		for i := range v.Has {
			if v.Has[i] {
				if p.metrics[i] == nil {
					p.metrics[i] = sketch.NewCounts(c.env.m)
				}
				p.metrics[i].AddBin(v.Bins[i])
			}
		}
	}
}

// AddCombo adds a combination of keys, with its entry, to each of its
// pairs (aggregate.ComboCollector). A heavy combination's bins are
// listed once per metric, then added to each pair's counts.
func (c *regressionPairs) AddCombo(keys sketch.ComboKeys, e *sketch.Entry) {
	c.fold()
	c.comboKeys(keys)
	c.found = c.pairsOf(c.found[:0])
	for _, p := range c.found {
		p.count += e.Count
	}
	for i := range aggregate.NumMetrics {
		if e.Metrics == nil { // light: its few values one by one
			for _, p := range c.found {
				p.metrics[i] = p.metrics[i].AddMetric(c.env.m, e, i)
			}
			continue
		}
		var zero uint32
		if c.bins, zero = e.AppendCounts(i, c.bins[:0]); len(c.bins) == 0 && zero == 0 {
			continue
		}
		for _, p := range c.found {
			if p.metrics[i] == nil {
				p.metrics[i] = sketch.NewCounts(c.env.m)
			}
			p.metrics[i].AddCounts(c.bins, zero)
		}
	}
}

// pairsOf appends to dst the pairs of the keys dimKeys or comboKeys set,
// starting them.
func (c *regressionPairs) pairsOf(dst []*pairStats) []*pairStats {
	for ci, cd := range causeDims {
		if !c.has[cd] {
			continue
		}
		cp := c.causes[ci][string(c.keys[cd])]
		if cp == nil {
			cp = &causePairs{}
			c.causes[ci][string(c.keys[cd])] = cp
		}
		for d := range aggregate.NumDims {
			if c.has[d] && pairs(cd, d) {
				dst = append(dst, cp.pair(d, c.keys[d], &c.n))
			}
		}
	}
	return dst
}

// pair returns the pair with key k of dimension d, making it (and
// counting it in n) when it is new.
func (cp *causePairs) pair(d int, k []byte, n *int) *pairStats {
	m := cp.byDim[d]
	if m == nil {
		m = map[string]*pairStats{}
		cp.byDim[d] = m
	}
	p := m[string(k)]
	if p == nil {
		p = &pairStats{}
		m[string(k)] = p
		*n++
	}
	return p
}

// Merge adds another worker's pairs.
func (c *regressionPairs) Merge(oc aggregate.Collector) {
	o := oc.(*regressionPairs)
	c.folded += o.folded
	for ci := range c.causes {
		for _, ck := range sortedKeys(o.causes[ci]) {
			ocp := o.causes[ci][ck]
			for d, om := range ocp.byDim {
				for _, k := range sortedKeys(om) {
					c.fold()
					cp := c.causes[ci][ck]
					if cp == nil {
						cp = &causePairs{}
						c.causes[ci][ck] = cp
					}
					op, p := om[k], cp.pair(d, []byte(k), &c.n)
					p.count += op.count
					for i, s := range op.metrics {
						if s == nil {
							continue
						}
						if p.metrics[i] == nil {
							p.metrics[i] = sketch.NewCounts(c.env.m)
						}
						p.metrics[i].Merge(s)
					}
				}
			}
		}
	}
}

// Finish does nothing: the pairs are bounded as they grow.
func (c *regressionPairs) Finish() {}

// fold keeps the --top heaviest pairs (ties by cause, dimension and
// key) once twice as many are kept.
func (c *regressionPairs) fold() {
	if c.n < c.env.limit() {
		return
	}
	c.foldTo(c.env.top)
}

// foldTo keeps the top heaviest pairs (ties by cause, dimension and key).
func (c *regressionPairs) foldTo(top int) {
	if c.n <= top {
		return
	}
	type ref struct {
		ci, d int
		ck, k string
		count int64
	}
	var all []ref
	for ci := range c.causes {
		for _, ck := range sortedKeys(c.causes[ci]) {
			for d, m := range c.causes[ci][ck].byDim {
				for _, k := range sortedKeys(m) {
					all = append(all, ref{ci, d, ck, k, m[k].count})
				}
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].count > all[j].count })
	for _, x := range all[top:] {
		cp := c.causes[x.ci][x.ck]
		delete(cp.byDim[x.d], x.k)
		c.n--
		c.folded++
	}
	for ci := range c.causes {
		for ck, cp := range c.causes[ci] {
			empty := true
			for _, m := range cp.byDim {
				empty = empty && len(m) == 0
			}
			if empty {
				delete(c.causes[ci], ck)
			}
		}
	}
}

// get returns the pair of a cause key and another dimension's key, or
// nil when it was not kept.
func (c *regressionPairs) get(causeDim int, cause string, dim int, key string) *pairStats {
	if causeDim == aggregate.DimModel && dim == aggregate.DimRegion ||
		causeDim == aggregate.DimStream && (dim == aggregate.DimRegion || dim == aggregate.DimModel) {
		causeDim, cause, dim, key = dim, key, causeDim, cause
	}
	if causeDim == aggregate.DimRegion && dim == aggregate.DimRoute {
		from, ok := strings.CutSuffix(key, "→"+cause)
		if !ok {
			return nil
		}
		dim, key = aggregate.DimClientRegion, from
	}
	ci := slices.Index(causeDims[:], causeDim)
	if ci < 0 {
		return nil
	}
	cp := c.causes[ci][cause]
	if cp == nil {
		return nil
	}
	return cp.byDim[dim][key]
}

// metric returns metric m's bin counts of the pair of a cause key and
// another dimension's key (get), or nil when the pair was not kept, has
// no value of it, or c is nil (an hour file that kept no pairs).
func (c *regressionPairs) metric(causeDim int, cause string, dim int, key string, m int) *sketch.Counts {
	if c == nil {
		return nil
	}
	if p := c.get(causeDim, cause, dim, key); p != nil {
		return p.metrics[m]
	}
	return nil
}

// AppendBinary writes the pairs, so that the window's explanations can
// take a cause's requests out of the previous hour too (prevWithout):
// the folded count, then per cause dimension its keys, each with, per
// dimension, its pairs' keys, counts and metrics' bin counts, in key
// order. The pairs are first folded to --top.
func (c *regressionPairs) AppendBinary(b []byte) []byte {
	c = c.shallow()
	c.foldTo(c.env.top)
	e := &encoder{B: b}
	e.Uint(uint64(c.folded))
	for ci := range c.causes {
		encodeMap(e, c.causes[ci], func(_ string, cp *causePairs) {
			for _, m := range cp.byDim {
				encodeMap(e, m, func(_ string, p *pairStats) {
					e.Uint(uint64(p.count))
					for _, s := range p.metrics {
						e.Counts(s)
					}
				})
			}
		})
	}
	return e.B
}

// shallow returns a copy of c whose maps are its own and whose pairs are
// c's: one to fold without changing c.
func (c *regressionPairs) shallow() *regressionPairs {
	o := &regressionPairs{env: c.env, n: c.n, folded: c.folded}
	for ci := range c.causes {
		o.causes[ci] = make(map[string]*causePairs, len(c.causes[ci]))
		for ck, cp := range c.causes[ci] {
			ncp := &causePairs{}
			for d, m := range cp.byDim {
				if m != nil {
					ncp.byDim[d] = maps.Clone(m)
				}
			}
			o.causes[ci][ck] = ncp
		}
	}
	return o
}

// UnmarshalBinary reads what AppendBinary wrote; an hour file of a build
// that kept no pairs has none.
func (c *regressionPairs) UnmarshalBinary(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	d := newDecoder(c.env.m, b)
	c.folded = d.Count()
	n := 0
	for ci := range c.causes {
		c.causes[ci] = decodeMap(d, 2, func(string) *causePairs {
			cp := &causePairs{}
			for dim := range cp.byDim {
				m := decodeMap(d, 2+aggregate.NumMetrics, func(string) *pairStats {
					p := &pairStats{count: d.Count()}
					for i := range p.metrics {
						p.metrics[i] = d.Counts()
					}
					return p
				})
				if len(m) > 0 {
					if !pairs(causeDims[ci], dim) {
						d.Fail("pairs of %s with %s", aggregate.DimNames[causeDims[ci]], aggregate.DimNames[dim])
					}
					cp.byDim[dim] = m
					n += len(m)
				}
			}
			return cp
		})
	}
	c.n = n
	return d.Done()
}
