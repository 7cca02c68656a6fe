package rules

import (
	"fmt"
	"sort"
	"strings"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// crossRegionRule is cross_region (SPEC §5): calls whose client_region
// is not the endpoint's region, or, without client_region, callers whose
// network time is far above their region's same-region level.
type crossRegionRule struct {
	enabled
	MinRequests      int64   // requests on a cross-region route
	CritNetworkP95Ms float64 // crit at or above this network_time p95
	// InferredExcessMs flags a client whose p50 is this much above its
	// region's same-region level, when client_region is absent.
	InferredExcessMs float64
}

func newCrossRegion() rule {
	return &crossRegionRule{enabled: enabled{true}, MinRequests: 50, CritNetworkP95Ms: 100, InferredExcessMs: 20}
}

func (*crossRegionRule) id() string { return RuleCrossRegion }

func (r *crossRegionRule) params() []param {
	return []param{enabledP(&r.Enabled), intP("min_requests", &r.MinRequests),
		floatP("crit_network_p95_ms", &r.CritNetworkP95Ms), floatP("inferred_excess_ms", &r.InferredExcessMs)}
}

func (*crossRegionRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return RuleCrossRegion, func(e collectEnv) aggregate.Collector {
		s := &pathStats{env: e, paths: newCapped[*clientPath](cappedKeys(e.top), e.shared.of(func(b *sharedBounds) *retryShare { return b.paths }))}
		s.paths.dropped = s.byCombo.Clear
		return s
	}
}

func (*crossRegionRule) needs(acc *aggregate.Accumulator) string { return crossRegionNeeds(acc) }

func (r *crossRegionRule) evaluate(acc *aggregate.Accumulator, col aggregate.Collector, _ *Config) ([]Finding, string) {
	ps := col.(*pathStats)
	if acc.Present()[ingest.FClientRegion] == 0 {
		return inferredCrossRegion(ps, r), ps.paths.partly("paths")
	}
	return crossRegion(acc, ps, r), ps.paths.partly("paths")
}

// clientPath is the network path of one caller from one client_region
// (empty when absent) to one region: who is on a cross-region route, and
// the inferred cross-region check when client_region is absent.
type clientPath struct {
	Client, From, Region string
	Count                int64
	Network              *sketch.Sketch // request_time − upstream_response_time, ms
	RTT                  *sketch.Sketch // tcpinfo_rtt, ms
	// net and rtt gather the values Add adds, listed while there are
	// few (a caller of one request costs no sketch); settle moves them
	// into Network and RTT.
	net, rtt sketch.Light
}

// settle moves the values gathered into Network and RTT.
func (p *clientPath) settle(m *sketch.Mapping) {
	p.Network = p.net.MergeInto(m, p.Network)
	p.RTT = p.rtt.MergeInto(m, p.RTT)
}

// pathStats is cross_region's collector: the paths of the callers; the
// paths of the smallest hashes past the bound (capped).
type pathStats struct {
	env     collectEnv
	paths   capped[*clientPath]
	key     []byte
	byCombo aggregate.ComboCache[*clientPath]
}

// Add adds a record that has a client and a region, when its
// combination does not bring it (AddCombo): its count, network time and
// tcpinfo_rtt.
func (s *pathStats) Add(r *ingest.Record, v *aggregate.Values) {
	if v.Fed {
		return
	}
	client, region := r.Text(ingest.FClient), r.Text(ingest.FRegion)
	if client == nil || region == nil {
		return
	}
	cr := s.byCombo.Find(v.Combo, func() *clientPath { return s.path(client, r.Text(ingest.FClientRegion), region) })
	if cr == nil {
		return // not kept
	}
	cr.Count++
	if v.Has[aggregate.NetworkTime] {
		cr.net.AddBin(s.env.m, v.Bins[aggregate.NetworkTime])
	}
	if x, ok := aggregate.RTTMs(r); ok {
		cr.rtt.AddBin(s.env.m, s.env.m.Bin(x))
	}
}

// TakesComboRTT says AddCombo takes tcpinfo_rtt from the combinations
// (aggregate.RTTCollector).
func (*pathStats) TakesComboRTT() {}

// AddCombo adds the count, network times and tcpinfo_rtt of a
// combination of keys that has a client and a region
// (aggregate.RTTCollector): a path is a projection of the combination,
// network_time one of its metrics, tcpinfo_rtt one of its own.
func (s *pathStats) AddCombo(keys sketch.ComboKeys, e *sketch.Entry) {
	client, region := keys.Key(aggregate.DimClient), keys.Key(aggregate.DimRegion)
	if client == nil || region == nil {
		return
	}
	cr := s.path(client, keys.Key(aggregate.DimClientRegion), region)
	if cr == nil {
		return // not kept
	}
	cr.Count += e.Count
	cr.net.AddMetric(s.env.m, e, aggregate.NetworkTime)
	cr.rtt.AddMetric(s.env.m, e, aggregate.ComboRTT)
}

// path returns the path of a caller, starting it; nil when it is not
// kept.
func (s *pathStats) path(client, from, region []byte) *clientPath {
	s.key = append(append(append(append(append(s.key[:0], client...), 0), from...), 0), region...)
	cr, _ := s.paths.get(s.key, func() *clientPath {
		return &clientPath{Client: string(client), From: string(from), Region: string(region)}
	})
	return cr
}

// Merge adds another worker's paths.
func (s *pathStats) Merge(oc aggregate.Collector) {
	o := oc.(*pathStats)
	s.byCombo.Reset()
	s.settle()
	o.settle()
	s.paths.merge(&o.paths, func(cr, ocr *clientPath) {
		cr.Count += ocr.Count
		cr.Network = mergeSketch(s.env.m, cr.Network, ocr.Network)
		cr.RTT = mergeSketch(s.env.m, cr.RTT, ocr.RTT)
	})
}

// Finish bounds the paths and settles their values.
func (s *pathStats) Finish() {
	s.paths.finish()
	s.settle()
}

// settle moves every path's values gathered into its sketches.
func (s *pathStats) settle() {
	for _, p := range s.paths.m {
		p.settle(s.env.m)
	}
}

func crossRegionNeeds(acc *aggregate.Accumulator) string {
	if why := absent(acc, ingest.FRegion); why != "" {
		return why
	}
	if acc.Present()[ingest.FClientRegion] > 0 {
		return ""
	}
	// Inferred from the network time: needs the caller and a measure of
	// the path.
	if acc.Present()[ingest.FClient] == 0 {
		return missing("client_region", "client")
	}
	hasNet := acc.Present()[ingest.FRequestTime] > 0 && acc.Present()[ingest.FUpstreamResponseTime] > 0
	if !hasNet && acc.Present()[ingest.FTCPInfoRTT] == 0 {
		return "fields client_region, upstream_response_time (for network_time) and tcpinfo_rtt are absent from every record"
	}
	return ""
}

const routeSep = "→"

// crossRegion flags routes client_region → region with client_region ≠
// region and enough requests; without client_region, clients whose
// network time is far above their region's same-region level.
func crossRegion(acc *aggregate.Accumulator, ps *pathStats, cfg *crossRegionRule) []Finding {
	m := acc.Set.Mapping()
	routes := acc.Set.Dims[aggregate.DimRoute].Sorted()
	// Same-region network level per region, and over all same-region routes.
	same := map[string]*sketch.Sketch{}
	allSame := sketch.New(m)
	for _, r := range routes {
		from, to, ok := strings.Cut(r.Key, routeSep)
		if ok && from == to {
			if s := r.Metric(aggregate.NetworkTime); s != nil {
				same[to] = s
				allSame.Merge(s)
			}
		}
	}
	var out []Finding
	for _, r := range routes {
		from, to, ok := strings.Cut(r.Key, routeSep)
		if !ok || from == to || r.Count < cfg.MinRequests {
			continue
		}
		f := Finding{
			Rule:     RuleCrossRegion,
			Severity: Warn,
			Key:      Fields{{"client_region", from}, {"region", to}},
			Title:    fmt.Sprintf("Cross-region calls from %s to %s", from, to),
		}
		ev := Fields{{"requests", r.Count}}
		net := r.Metric(aggregate.NetworkTime)
		base, baseFrom := same[to], "same-region calls to "+to
		if base == nil && allSame.Count() > 0 {
			base, baseFrom = allSame, "same-region calls"
		}
		// Impact: each call on the route pays its network time (request_time
		// − upstream_response_time) minus what a caller inside the region
		// pays: the route's p50 minus the same-region p50.
		lost := 0.0
		if net != nil && net.Count() > 0 {
			p50, p95 := net.Quantile(0.5), net.Quantile(0.95)
			ev = append(ev, Field{"network_p50_ms", round(p50, 1)}, Field{"network_p95_ms", round(p95, 1)})
			if p95 >= cfg.CritNetworkP95Ms {
				f.Severity = Crit
			}
			lost = p50
			if base != nil {
				b50 := base.Quantile(0.5)
				ev = append(ev, Field{"same_region_p50_ms", round(b50, 1)})
				lost -= b50
			}
		}
		callers := ps.routeCallers(from, to)
		ev = append(ev, Field{"callers", topNames(callers, 5)})
		f.Evidence = ev
		f.Impact = impact(lost, r.Count)
		names := topKeys(callers, 3)
		f.Advice = fmt.Sprintf("Deploy the callers on this route (%s) in %s, or point them at the %s endpoint nearest to them (edge / CDN); "+
			"they lose ~%.0f ms of network time per call against %s.",
			strings.Join(names, ", "), to, to, max(0, lost), baseFrom)
		out = append(out, f)
	}
	return out
}

// routeCallers counts the requests of each client on a route.
func (s *pathStats) routeCallers(from, to string) map[string]int64 {
	out := map[string]int64{}
	for _, cr := range s.paths.m {
		if cr.From == from && cr.Region == to {
			out[cr.Client] += cr.Count
		}
	}
	return out
}

// topKeys returns up to n keys by count, largest first.
func topKeys(counts map[string]int64, n int) []string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	return keys
}

// inferredCrossRegion compares each client's network time to a region
// (or tcpinfo_rtt when the region has no network time) with the region's
// same-region level: the lower quartile of its clients' p50s, so that up
// to three quarters of a region's callers may be remote without raising
// the level they are measured against.
func inferredCrossRegion(ps *pathStats, cfg *crossRegionRule) []Finding {
	byRegion := map[string][]*clientPath{}
	for _, cr := range ps.paths.m {
		byRegion[cr.Region] = append(byRegion[cr.Region], cr)
	}
	var out []Finding
	for _, region := range sortedRegions(byRegion) {
		crs := byRegion[region]
		metric, pick := "network_time", func(cr *clientPath) *sketch.Sketch { return cr.Network }
		hasNet := false
		for _, cr := range crs {
			hasNet = hasNet || cr.Network != nil && cr.Network.Count() > 0
		}
		if !hasNet {
			metric, pick = "tcpinfo_rtt", func(cr *clientPath) *sketch.Sketch { return cr.RTT }
		}
		var p50s []float64
		for _, cr := range crs {
			if s := pick(cr); s != nil && s.Count() > 0 {
				p50s = append(p50s, s.Quantile(0.5))
			}
		}
		if len(p50s) < 2 {
			continue // no level to compare with
		}
		sort.Float64s(p50s)
		level := p50s[(len(p50s)-1)/4]
		sort.Slice(crs, func(i, j int) bool { return crs[i].Client < crs[j].Client })
		for _, cr := range crs {
			s := pick(cr)
			if s == nil || s.Count() < cfg.MinRequests {
				continue
			}
			p50, p95 := s.Quantile(0.5), s.Quantile(0.95)
			if p50 < level+cfg.InferredExcessMs {
				continue
			}
			sev := Warn
			if p95 >= cfg.CritNetworkP95Ms {
				sev = Crit
			}
			out = append(out, Finding{
				Rule:     RuleCrossRegion,
				Severity: sev,
				Key:      Fields{{"client", cr.Client}, {"region", region}, {"inferred", true}},
				Title:    fmt.Sprintf("%s calls %s from far away (inferred from %s)", cr.Client, region, metric),
				Evidence: Fields{{"requests", s.Count()}, {"metric", metric}, {"p50_ms", round(p50, 1)}, {"p95_ms", round(p95, 1)},
					{"same_region_level_ms", round(level, 1)}, {"region_clients", int64(len(p50s))}},
				// Impact: the client's p50 minus its region's same-region level.
				Impact: impact(p50-level, s.Count()),
				Advice: fmt.Sprintf("Check where %s runs: its %s p50 is %.0f ms against %.1f ms for callers in %s's region. "+
					"Deploy it in %s or use the nearest edge / CDN endpoint; log client_region to confirm.",
					cr.Client, metric, p50, level, region, region),
			})
		}
	}
	return out
}

func sortedRegions(m map[string][]*clientPath) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// AppendBinary appends the paths, for an hour file.
func (s *pathStats) AppendBinary(b []byte) []byte {
	s.settle()
	e := &encoder{B: b}
	s.paths.appendCut(e)
	e.Uint(0) // once the callers folded away; none are
	encodeMap(e, s.paths.m, func(_ string, p *clientPath) {
		e.Str(p.Client)
		e.Str(p.From)
		e.Str(p.Region)
		e.Uint(uint64(p.Count))
		e.Sketch(p.Network)
		e.Sketch(p.RTT)
	})
	return e.B
}

// UnmarshalBinary replaces the paths with what AppendBinary wrote.
func (s *pathStats) UnmarshalBinary(b []byte) error {
	d := newDecoder(s.env.m, b)
	s.paths.readCut(d)
	d.Count() // the callers once folded away
	s.paths.m = decodeMap(d, 8, func(string) *clientPath {
		return &clientPath{Client: d.Str(), From: d.Str(), Region: d.Str(), Count: d.Count(), Network: d.Sketch(), RTT: d.Sketch()}
	})
	return d.Done()
}
