package aggregate

import (
	"math"
	"regexp"
	"sort"

	"loganalyze/ingest"
	"loganalyze/sketch"
)

// DefaultTokenURI matches the URIs of token-endpoint calls (SPEC §5).
const DefaultTokenURI = `(?i)token`

// Bounds of the rule statistics. Every map is bounded whatever the key
// count of the input: past its limit the lightest keys are dropped (the
// heavy keys are the ones rules fire on). The storm and burst state has
// its own bounds (minutes.go, buckets.go).
const (
	// maxTokenCache bounds the URI → token-endpoint memo.
	maxTokenCache = 4096
)

// ModelStream is the traffic of one model with one stream setting.
type ModelStream struct {
	Model  string
	Stream bool
	Count  int64
	TTFT   *sketch.Sketch // ms
	RT     *sketch.Sketch // request_time, ms
}

// ClientStats is what one caller did, for the keep-alive and token rules.
type ClientStats struct {
	Client   string
	Requests int64
	// ConnKnown records carried connection_requests; NewConn of them
	// had connection_requests = 1.
	ConnKnown, NewConn int64
	// SSLKnown records carried ssl_handshake_time; FullTLS of them had a
	// full handshake (> 0), taking HandshakeMs in all.
	SSLKnown, FullTLS int64
	HandshakeMs       Total
	// RTTKnown records carried tcpinfo_rtt, RTTMs in all.
	RTTKnown int64
	RTTMs    Total
	// URIKnown records carried a uri: Token of them token-endpoint
	// calls (taking TokenMs of request_time in all), Other the rest.
	URIKnown, Token, Other int64
	TokenMs                Total
}

// ClientRegion is the network path of one caller from one client_region
// (empty when absent) to one region: who is on a cross-region route, and
// the inferred cross-region check when client_region is absent.
type ClientRegion struct {
	Client, From, Region string
	Count                int64
	Network              *sketch.Sketch // request_time − upstream_response_time, ms
	RTT                  *sketch.Sketch // tcpinfo_rtt, ms
}

// RuleStats is the aggregation the rules of SPEC §5 need beyond the
// latency sketches. It is gathered in the same pass and merged like them.
type RuleStats struct {
	m     *sketch.Mapping
	top   int
	token *regexp.Regexp
	memo  map[string]bool

	ModelStream   map[string]*ModelStream
	Clients       map[string]*ClientStats
	ClientRegions map[string]*ClientRegion
	// Minutes is what the storm and burst rules need (minutes.go).
	Minutes *MinuteStats
	// Dropped counts the keys dropped to bound memory, per map.
	DroppedClients, DroppedClientRegions int64

	key []byte
}

// keyHash is FNV-1a: fixed, so that the same input keeps the same
// retry samples in every run.
func keyHash[T string | []byte](k T) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(k); i++ {
		h ^= uint64(k[i])
		h *= 1099511628211
	}
	return h
}

func newRuleStats(m *sketch.Mapping, top int, token *regexp.Regexp) *RuleStats {
	if token == nil {
		token = regexp.MustCompile(DefaultTokenURI)
	}
	if top < 1 {
		top = 1000
	}
	return &RuleStats{
		m: m, top: top, token: token, memo: map[string]bool{},
		ModelStream:   map[string]*ModelStream{},
		Clients:       map[string]*ClientStats{},
		ClientRegions: map[string]*ClientRegion{},
		Minutes:       newMinuteStats(top),
	}
}

// IsTokenURI reports whether a URI is a token-endpoint call.
func (s *RuleStats) IsTokenURI(uri []byte) bool {
	p := Path(uri)
	if v, ok := s.memo[string(p)]; ok {
		return v
	}
	v := s.token.Match(p)
	if len(s.memo) < maxTokenCache {
		s.memo[string(p)] = v
	}
	return v
}

// add adds one record; bins are its metric bins from Accumulator.Add.
func (s *RuleStats) add(r *ingest.Record, bins *[NumMetrics]sketch.Bin, has *[NumMetrics]bool) {
	model := r.Text(ingest.FModel)
	region := r.Text(ingest.FRegion)
	client := r.Text(ingest.FClient)
	rt, okRT := r.Float(ingest.FRequestTime)

	if stream, ok := r.Bool(ingest.FStream); ok && model != nil {
		s.key = append(append(s.key[:0], model...), 0, boolByte(stream))
		ms := s.ModelStream[string(s.key)]
		if ms == nil {
			s.foldModels()
			ms = &ModelStream{Model: string(model), Stream: stream, TTFT: sketch.New(s.m), RT: sketch.New(s.m)}
			s.ModelStream[string(s.key)] = ms
		}
		ms.Count++
		if has[TTFT] {
			ms.TTFT.AddBin(bins[TTFT])
		}
		if has[RequestTime] {
			ms.RT.AddBin(bins[RequestTime])
		}
	}

	if client != nil {
		c := s.Clients[string(client)]
		if c == nil {
			s.foldClients()
			c = &ClientStats{Client: string(client)}
			s.Clients[c.Client] = c
		}
		c.Requests++
		if n, ok := r.Int(ingest.FConnectionRequests); ok {
			c.ConnKnown++
			if n == 1 {
				c.NewConn++
			}
		}
		if v, ok := r.Float(ingest.FSSLHandshakeTime); ok {
			c.SSLKnown++
			if v > 0 {
				c.FullTLS++
				c.HandshakeMs.Add(v * 1000)
			}
		}
		if v, ok := r.Float(ingest.FTCPInfoRTT); ok {
			c.RTTKnown++
			c.RTTMs.Add(v / 1000)
		}
		if u := r.Text(ingest.FURI); u != nil {
			c.URIKnown++
			if s.IsTokenURI(u) {
				c.Token++
				if okRT {
					c.TokenMs.Add(rt * 1000)
				}
			} else {
				c.Other++
			}
		}
		if region != nil {
			from := r.Text(ingest.FClientRegion)
			s.key = append(append(append(append(append(s.key[:0], client...), 0), from...), 0), region...)
			cr := s.ClientRegions[string(s.key)]
			if cr == nil {
				s.foldClientRegions()
				cr = &ClientRegion{Client: string(client), From: string(from), Region: string(region)}
				s.ClientRegions[string(s.key)] = cr
			}
			cr.Count++
			if has[NetworkTime] {
				if cr.Network == nil {
					cr.Network = sketch.New(s.m)
				}
				cr.Network.AddBin(bins[NetworkTime])
			}
			if v, ok := r.Float(ingest.FTCPInfoRTT); ok {
				if cr.RTT == nil {
					cr.RTT = sketch.New(s.m)
				}
				cr.RTT.Add(v / 1000)
			}
		}
	}

	if r.Has(ingest.FTime) {
		s.Minutes.add(r, rt, okRT)
	}
}

func boolByte(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// merge adds o into s.
func (s *RuleStats) merge(o *RuleStats) {
	for _, k := range sortedKeys(o.ModelStream) {
		om := o.ModelStream[k]
		if ms := s.ModelStream[k]; ms != nil {
			ms.Count += om.Count
			ms.TTFT.Merge(om.TTFT)
			ms.RT.Merge(om.RT)
		} else {
			s.foldModels()
			s.ModelStream[k] = om
		}
	}
	for _, k := range sortedKeys(o.Clients) {
		oc := o.Clients[k]
		c := s.Clients[k]
		if c == nil {
			s.foldClients()
			s.Clients[k] = oc
			continue
		}
		c.Requests += oc.Requests
		c.ConnKnown += oc.ConnKnown
		c.NewConn += oc.NewConn
		c.SSLKnown += oc.SSLKnown
		c.FullTLS += oc.FullTLS
		c.HandshakeMs.Merge(oc.HandshakeMs)
		c.RTTKnown += oc.RTTKnown
		c.RTTMs.Merge(oc.RTTMs)
		c.URIKnown += oc.URIKnown
		c.Token += oc.Token
		c.Other += oc.Other
		c.TokenMs.Merge(oc.TokenMs)
	}
	for _, k := range sortedKeys(o.ClientRegions) {
		ocr := o.ClientRegions[k]
		cr := s.ClientRegions[k]
		if cr == nil {
			s.foldClientRegions()
			s.ClientRegions[k] = ocr
			continue
		}
		cr.Count += ocr.Count
		cr.Network = mergeSketch(s.m, cr.Network, ocr.Network)
		cr.RTT = mergeSketch(s.m, cr.RTT, ocr.RTT)
	}
	s.Minutes.merge(o.Minutes)
	s.DroppedClients += o.DroppedClients
	s.DroppedClientRegions += o.DroppedClientRegions
}

func mergeSketch(m *sketch.Mapping, a, b *sketch.Sketch) *sketch.Sketch {
	if b == nil {
		return a
	}
	if a == nil {
		a = sketch.New(m)
	}
	a.Merge(b)
	return a
}

// finish bounds every map to its cap. Call it once, after the last merge.
func (s *RuleStats) finish() {
	s.Minutes.finish()
}

// limit is how many keys a map holds before it is folded to its cap.
func (s *RuleStats) limit() int { return 2 * s.top }

func (s *RuleStats) foldModels() {
	if len(s.ModelStream) >= s.limit() {
		foldByCount(s.ModelStream, s.top, func(m *ModelStream) int64 { return m.Count })
	}
}

func (s *RuleStats) foldClients() {
	if len(s.Clients) >= s.limit() {
		s.DroppedClients += foldByCount(s.Clients, s.top, func(c *ClientStats) int64 { return c.Requests })
	}
}

func (s *RuleStats) foldClientRegions() {
	if len(s.ClientRegions) >= s.limit() {
		s.DroppedClientRegions += foldByCount(s.ClientRegions, s.top, func(c *ClientRegion) int64 { return c.Count })
	}
}

// foldByCount keeps the n heaviest entries of m (ties by key) and returns
// how many it dropped.
func foldByCount[V any](m map[string]V, n int, count func(V) int64) int64 {
	keys := sortedKeys(m)
	sort.SliceStable(keys, func(i, j int) bool { return count(m[keys[i]]) > count(m[keys[j]]) })
	for _, k := range keys[n:] {
		delete(m, k)
	}
	return int64(len(keys) - n)
}

// Total is a non-negative sum kept in fixed point (thousandths of its
// unit), so that it does not depend on the order values are added or
// workers merged. It saturates at the int64 bound (9.2e15 units: 292,000
// years of milliseconds) rather than wrap, whatever the values; a
// negative, NaN or infinite value adds nothing.
type Total int64

// Add adds v.
func (t *Total) Add(v float64) {
	x := math.Round(v * 1000)
	if !(x > 0) {
		return
	}
	if x >= math.MaxInt64 {
		*t = math.MaxInt64
		return
	}
	t.Merge(Total(x))
}

// Merge adds another sum.
func (t *Total) Merge(o Total) {
	if o > math.MaxInt64-*t {
		*t = math.MaxInt64
		return
	}
	*t += o
}

// Float returns the sum.
func (t Total) Float() float64 { return float64(t) / 1000 }
