package aggregate

import (
	"encoding/binary"
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
// heavy keys are the ones rules fire on), and the retry samples keep a
// fixed share of keys chosen by a hash, so that what is kept does not
// depend on how the records were split between workers.
const (
	// minRetryKeys is the least number of client × region × model ×
	// minute retry samples kept (64 × --top when that is larger).
	minRetryKeys = 1 << 16
	// maxLimitedTimes and maxRequestTimes bound one retry sample.
	maxLimitedTimes = 32
	maxRequestTimes = 64
	// maxBucketUpstreams bounds the upstream_addr split of one bucket.
	maxBucketUpstreams = 16
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

// Bucket is one minute of one region × model: the counts the storm and
// burst rules need, and the splits their evidence shows.
type Bucket struct {
	Region, Model string
	Minute        int64 // Unix minute
	Total         int64
	N429          int64
	N5xx          int64
	N499          int64
	N504          int64
	// RetryAfterN 429 responses carried Retry-After, RetryAfterS in all.
	RetryAfterN int64
	RetryAfterS Total
	// ErrMs is the request_time of the error responses (5xx, 499), ms;
	// TimeoutMs of the 504 and 499 ones.
	ErrMs, TimeoutMs Total
	// ErrUpN error responses had an upstream time, ErrUpMs in all.
	ErrUpN  int64
	ErrUpMs Total
	// Status counts the 429 and error responses by status.
	Status map[int]int64
	// Upstream counts the error responses by upstream_addr ("-" when
	// absent, "other" past a bound); UpstreamStatus by upstream_status
	// (0 when absent).
	Upstream       map[string]int64
	UpstreamStatus map[int]int64
}

// IsError reports whether a status counts for the error-burst rule.
func IsError(status int64) bool { return status >= 500 && status < 600 || status == 499 }

// Limited is one 429 response: its time and Retry-After (s; 0 when absent).
type Limited struct {
	T          int64
	RetryAfter float64
}

// RetrySample is what one caller sent to one region × model in one
// minute: its 429 responses and a sample of its request times (every
// request up to a bound, then the ones with the smallest hash), so that
// the gap between a 429 and the caller's next request can be measured
// after the workers are merged.
type RetrySample struct {
	Client, Region, Model string
	Minute                int64
	Limited               []Limited
	Requests              []int64
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
	Buckets       map[string]*Bucket
	Retries       map[string]*RetrySample
	// Dropped counts the keys dropped to bound memory, per map.
	DroppedClients, DroppedClientRegions, DroppedBuckets int64
	// RetriesPruned is set when retry samples were dropped to bound memory.
	RetriesPruned bool

	retryCut  uint64 // retry keys hashing above it are not kept
	retryKeys int
	key, rkey []byte
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
		Buckets:       map[string]*Bucket{},
		Retries:       map[string]*RetrySample{},
		retryCut:      ^uint64(0),
		retryKeys:     max(minRetryKeys, 64*top),
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
	status, okStatus := r.Int(ingest.FStatus)
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

	if !r.Has(ingest.FTime) || region == nil || model == nil {
		return
	}
	minute := floorDiv(r.TimeNS, 60e9)
	s.key = append(append(append(append(s.key[:0], region...), 0), model...), 0)
	s.key = binary.BigEndian.AppendUint64(s.key, uint64(minute))
	b := s.Buckets[string(s.key)]
	if b == nil {
		s.foldBuckets()
		b = &Bucket{Region: string(region), Model: string(model), Minute: minute}
		s.Buckets[string(s.key)] = b
	}
	b.Total++
	if okStatus {
		switch {
		case status == 429:
			b.N429++
			b.count(int(status))
			if v, ok := r.Float(ingest.FRetryAfter); ok {
				b.RetryAfterN++
				b.RetryAfterS.Add(v)
			}
		case IsError(status):
			if status == 499 {
				b.N499++
			} else {
				b.N5xx++
			}
			if status == 504 {
				b.N504++
			}
			b.count(int(status))
			if okRT {
				b.ErrMs.Add(rt * 1000)
				if status == 504 || status == 499 {
					b.TimeoutMs.Add(rt * 1000)
				}
			}
			if v, ok := r.Float(ingest.FUpstreamResponseTime); ok {
				b.ErrUpN++
				b.ErrUpMs.Add(v * 1000)
			}
			addr := r.Text(ingest.FUpstreamAddr)
			if addr == nil {
				addr = dashKey
			}
			b.upstream(addr, 1)
			us, _ := r.Int(ingest.FUpstreamStatus)
			if b.UpstreamStatus == nil {
				b.UpstreamStatus = map[int]int64{}
			}
			b.UpstreamStatus[int(us)]++
		}
	}

	if client == nil {
		return
	}
	s.rkey = append(append(append(s.rkey[:0], client...), 0), s.key...)
	if keyHash(s.rkey) > s.retryCut {
		return
	}
	rs := s.Retries[string(s.rkey)]
	if rs == nil {
		rs = &RetrySample{Client: string(client), Region: b.Region, Model: b.Model, Minute: minute}
		s.Retries[string(s.rkey)] = rs
		if len(s.Retries) > 2*s.retryKeys {
			s.pruneRetries(s.retryKeys)
		}
	}
	if okStatus && status == 429 {
		ra, _ := r.Float(ingest.FRetryAfter)
		rs.Limited = append(rs.Limited, Limited{T: r.TimeNS, RetryAfter: ra})
		if len(rs.Limited) > 2*maxLimitedTimes {
			rs.Limited = pruneLimited(rs.Limited, maxLimitedTimes)
		}
	}
	rs.Requests = append(rs.Requests, r.TimeNS)
	if len(rs.Requests) > 2*maxRequestTimes {
		rs.Requests = pruneTimes(rs.Requests, maxRequestTimes)
	}
}

var dashKey = []byte("-")

func boolByte(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

func (b *Bucket) count(status int) {
	if b.Status == nil {
		b.Status = map[int]int64{}
	}
	b.Status[status]++
}

func (b *Bucket) upstream(addr []byte, n int64) {
	if b.Upstream == nil {
		b.Upstream = map[string]int64{}
	}
	if _, ok := b.Upstream[string(addr)]; !ok && len(b.Upstream) >= maxBucketUpstreams {
		addr = otherKey
	}
	b.Upstream[string(addr)] += n
}

var otherKey = []byte("other")

func (b *Bucket) merge(o *Bucket) {
	b.Total += o.Total
	b.N429 += o.N429
	b.N5xx += o.N5xx
	b.N499 += o.N499
	b.N504 += o.N504
	b.RetryAfterN += o.RetryAfterN
	b.RetryAfterS += o.RetryAfterS
	b.ErrMs += o.ErrMs
	b.TimeoutMs += o.TimeoutMs
	b.ErrUpN += o.ErrUpN
	b.ErrUpMs += o.ErrUpMs
	for k, v := range o.Status {
		if b.Status == nil {
			b.Status = map[int]int64{}
		}
		b.Status[k] += v
	}
	for _, k := range sortedKeys(o.Upstream) {
		b.upstream([]byte(k), o.Upstream[k])
	}
	for k, v := range o.UpstreamStatus {
		if b.UpstreamStatus == nil {
			b.UpstreamStatus = map[int]int64{}
		}
		b.UpstreamStatus[k] += v
	}
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
		c.HandshakeMs += oc.HandshakeMs
		c.RTTKnown += oc.RTTKnown
		c.RTTMs += oc.RTTMs
		c.URIKnown += oc.URIKnown
		c.Token += oc.Token
		c.Other += oc.Other
		c.TokenMs += oc.TokenMs
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
	for _, k := range sortedKeys(o.Buckets) {
		ob := o.Buckets[k]
		if b := s.Buckets[k]; b != nil {
			b.merge(ob)
		} else {
			s.foldBuckets()
			s.Buckets[k] = ob
		}
	}
	s.retryCut = min(s.retryCut, o.retryCut)
	for _, k := range sortedKeys(o.Retries) {
		if keyHash(k) > s.retryCut {
			continue
		}
		ors := o.Retries[k]
		rs := s.Retries[k]
		if rs == nil {
			s.Retries[k] = ors
			continue
		}
		rs.Limited = append(rs.Limited, ors.Limited...)
		if len(rs.Limited) > 2*maxLimitedTimes {
			rs.Limited = pruneLimited(rs.Limited, maxLimitedTimes)
		}
		rs.Requests = append(rs.Requests, ors.Requests...)
		if len(rs.Requests) > 2*maxRequestTimes {
			rs.Requests = pruneTimes(rs.Requests, maxRequestTimes)
		}
	}
	for k := range s.Retries {
		if keyHash(k) > s.retryCut {
			delete(s.Retries, k)
		}
	}
	if len(s.Retries) > 2*s.retryKeys {
		s.pruneRetries(s.retryKeys)
	}
	s.DroppedClients += o.DroppedClients
	s.DroppedClientRegions += o.DroppedClientRegions
	s.DroppedBuckets += o.DroppedBuckets
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

// finish bounds every map to its cap and sorts the retry samples. Call it
// once, after the last merge.
func (s *RuleStats) finish() {
	s.pruneRetries(s.retryKeys)
	s.RetriesPruned = s.retryCut != ^uint64(0)
	for _, rs := range s.Retries {
		if len(rs.Limited) > maxLimitedTimes {
			rs.Limited = pruneLimited(rs.Limited, maxLimitedTimes)
		}
		if len(rs.Requests) > maxRequestTimes {
			rs.Requests = pruneTimes(rs.Requests, maxRequestTimes)
		}
		sort.Slice(rs.Limited, func(i, j int) bool { return rs.Limited[i].T < rs.Limited[j].T })
		sort.Slice(rs.Requests, func(i, j int) bool { return rs.Requests[i] < rs.Requests[j] })
	}
}

// pruneRetries keeps the n retry keys of smallest hash and lowers the
// cutoff so that a dropped key is never started again. The kept set is
// the n smallest hashes of all keys seen, however the records were split.
func (s *RuleStats) pruneRetries(n int) {
	if len(s.Retries) <= n {
		return
	}
	type kh struct {
		k string
		h uint64
	}
	all := make([]kh, 0, len(s.Retries))
	for k := range s.Retries {
		all = append(all, kh{k, keyHash(k)})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].h < all[j].h })
	for _, x := range all[n:] {
		delete(s.Retries, x.k)
	}
	s.retryCut = all[n-1].h
}

func timeHash(t int64) uint64 {
	x := uint64(t) * 0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	return x ^ x>>29
}

// pruneTimes keeps the n times of smallest hash: the same n whatever the
// order and grouping in which the times were added.
func pruneTimes(ts []int64, n int) []int64 {
	sort.Slice(ts, func(i, j int) bool {
		hi, hj := timeHash(ts[i]), timeHash(ts[j])
		if hi != hj {
			return hi < hj
		}
		return ts[i] < ts[j]
	})
	return ts[:n]
}

func pruneLimited(ls []Limited, n int) []Limited {
	sort.Slice(ls, func(i, j int) bool {
		hi, hj := timeHash(ls[i].T), timeHash(ls[j].T)
		if hi != hj {
			return hi < hj
		}
		if ls[i].T != ls[j].T {
			return ls[i].T < ls[j].T
		}
		return ls[i].RetryAfter < ls[j].RetryAfter
	})
	return ls[:n]
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

// foldBuckets bounds the region × model × minute buckets: 64 per key of
// the cap (an hour of a thousand region × model pairs at --top 1000 is
// kept whole).
func (s *RuleStats) foldBuckets() {
	if len(s.Buckets) >= 128*s.top {
		s.DroppedBuckets += foldByCount(s.Buckets, 64*s.top, func(b *Bucket) int64 { return b.Total })
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

// Total is a sum kept in fixed point (thousandths of its unit), so that it
// does not depend on the order values are added or workers merged.
type Total int64

// Add adds v.
func (t *Total) Add(v float64) { *t += Total(math.Round(v * 1000)) }

// Float returns the sum.
func (t Total) Float() float64 { return float64(t) / 1000 }
