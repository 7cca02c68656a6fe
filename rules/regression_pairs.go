package rules

import (
	"strconv"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// regressionPairs is latency_regression's collector: per pair of a
// cause key (a region or a model) and a key of another dimension, the
// requests they share and their metrics' sketches — the joint data that
// says whether a key's requests are mostly a region's, and what the key
// measured without them. A region × model pair is kept once, under the
// region. At most twice --top pairs are kept between folds, the
// lightest dropped: a pair that is not kept explains nothing.
type regressionPairs struct {
	env    collectEnv
	pairs  map[string]*pairStats
	folded int64
	buf    []byte
	keys   [aggregate.NumDims][]byte
	has    [aggregate.NumDims]bool
}

// pairStats is what one pair's requests measured.
type pairStats struct {
	count   int64
	metrics [aggregate.NumMetrics]*sketch.Sketch
}

func (r *regressionRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return RuleRegression, func(e collectEnv) aggregate.Collector {
		return &regressionPairs{env: e, pairs: map[string]*pairStats{}}
	}
}

// causeDims are the dimensions whose keys can explain others: where a
// request is served (region) and what serves it (model).
var causeDims = [...]int{aggregate.DimRegion, aggregate.DimModel}

// pairKey appends the map key of a cause key and another dimension's key.
func pairKey(dst []byte, causeDim int, cause []byte, dim int, key []byte) []byte {
	dst = append(dst, byte('0'+causeDim))
	dst = append(dst, cause...)
	dst = append(dst, 0, byte('0'+dim))
	return append(dst, key...)
}

// dimKeys sets the record's key in each dimension, as the accumulator
// keys its sketches.
func (c *regressionPairs) dimKeys(r *ingest.Record) {
	set := func(d int, k []byte) {
		c.has[d] = k != nil
		if k != nil {
			c.keys[d] = append(c.keys[d][:0], k...)
		}
	}
	reg, cr := r.Text(ingest.FRegion), r.Text(ingest.FClientRegion)
	set(aggregate.DimRegion, reg)
	set(aggregate.DimModel, r.Text(ingest.FModel))
	c.has[aggregate.DimStatus] = false
	if st, ok := r.Int(ingest.FStatus); ok {
		c.keys[aggregate.DimStatus] = strconv.AppendInt(c.keys[aggregate.DimStatus][:0], st, 10)
		c.has[aggregate.DimStatus] = true
	}
	set(aggregate.DimClient, r.Text(ingest.FClient))
	set(aggregate.DimClientRegion, cr)
	c.has[aggregate.DimRoute] = cr != nil && reg != nil
	if cr != nil && reg != nil {
		c.keys[aggregate.DimRoute] = append(append(append(c.keys[aggregate.DimRoute][:0], cr...), "→"...), reg...)
	}
	c.has[aggregate.DimStream] = false
	if s, ok := r.Bool(ingest.FStream); ok {
		c.keys[aggregate.DimStream] = append(c.keys[aggregate.DimStream][:0], strconv.FormatBool(s)...)
		c.has[aggregate.DimStream] = true
	}
	var uri []byte
	if u := r.Text(ingest.FURI); u != nil {
		uri = aggregate.Path(u)
	}
	set(aggregate.DimURI, uri)
}

// Add adds a record to each pair of its keys.
func (c *regressionPairs) Add(r *ingest.Record, v *aggregate.Values) {
	c.dimKeys(r)
	for _, cd := range causeDims {
		if !c.has[cd] {
			continue
		}
		for d := range aggregate.NumDims {
			if d == cd || !c.has[d] || cd == aggregate.DimModel && d == aggregate.DimRegion {
				continue
			}
			c.buf = pairKey(c.buf[:0], cd, c.keys[cd], d, c.keys[d])
			p := c.pairs[string(c.buf)]
			if p == nil {
				c.fold()
				p = &pairStats{}
				c.pairs[string(c.buf)] = p
			}
			p.count++
			for i := range v.Has {
				if v.Has[i] {
					if p.metrics[i] == nil {
						p.metrics[i] = sketch.New(c.env.m)
					}
					p.metrics[i].AddBin(v.Bins[i])
				}
			}
		}
	}
}

// Merge adds another worker's pairs.
func (c *regressionPairs) Merge(oc aggregate.Collector) {
	o := oc.(*regressionPairs)
	c.folded += o.folded
	for _, k := range sortedKeys(o.pairs) {
		op := o.pairs[k]
		p := c.pairs[k]
		if p == nil {
			c.fold()
			p = &pairStats{}
			c.pairs[k] = p
		}
		p.count += op.count
		for i, s := range op.metrics {
			p.metrics[i] = mergeSketch(c.env.m, p.metrics[i], s)
		}
	}
}

// Finish does nothing: the map is bounded as it grows.
func (c *regressionPairs) Finish() {}

func (c *regressionPairs) fold() {
	if len(c.pairs) >= c.env.limit() {
		c.folded += foldByCount(c.pairs, c.env.top, func(p *pairStats) int64 { return p.count })
	}
}

// get returns the pair of a cause key and another dimension's key, or
// nil when it was not kept.
func (c *regressionPairs) get(causeDim int, cause string, dim int, key string) *pairStats {
	if causeDim == aggregate.DimModel && dim == aggregate.DimRegion {
		causeDim, cause, dim, key = dim, key, causeDim, cause
	}
	return c.pairs[string(pairKey(nil, causeDim, []byte(cause), dim, []byte(key)))]
}
