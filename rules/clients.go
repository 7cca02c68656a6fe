package rules

import (
	"sort"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// callerStats is what one caller did, for the keep-alive and token rules.
type callerStats struct {
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

// callers is the collector the missing_keepalive and token_cache_miss
// rules share: per caller, its connections and its token calls; the
// callers of the smallest hashes past the bound (capped).
type callers struct {
	env     collectEnv
	clients capped[*callerStats]
	byCombo aggregate.ComboCache[*callerStats]
}

// callersCollector is the collector the keep-alive and token rules share.
func callersCollector() (string, func(collectEnv) aggregate.Collector) {
	return "callers", func(e collectEnv) aggregate.Collector {
		s := &callers{env: e, clients: newCapped[*callerStats](cappedKeys(e.top), e.shared.of(func(b *sharedBounds) *retryShare { return b.callers }))}
		s.clients.dropped = s.byCombo.Clear
		return s
	}
}

// AddRecords adds records rs[idx] (aggregate.BatchCollector).
func (s *callers) AddRecords(rs []ingest.Record, idx []int32, vs []aggregate.Values) {
	for _, i := range idx {
		s.Add(&rs[i], &vs[i])
	}
}

// Add adds a record that has a client.
func (s *callers) Add(r *ingest.Record, v *aggregate.Values) {
	client := r.Text(ingest.FClient)
	if client == nil {
		return
	}
	c := s.byCombo.Find(v.Combo, func() *callerStats { return s.caller(client) })
	if c == nil {
		return // not kept
	}
	c.Requests++
	if n, ok := r.Int(ingest.FConnectionRequests); ok {
		c.ConnKnown++
		if n == 1 {
			c.NewConn++
		}
	}
	if x, ok := r.Float(ingest.FSSLHandshakeTime); ok {
		c.SSLKnown++
		if x > 0 {
			c.FullTLS++
			c.HandshakeMs.Add(x * 1000)
		}
	}
	if x, ok := r.Float(ingest.FTCPInfoRTT); ok {
		c.RTTKnown++
		c.RTTMs.Add(x / 1000)
	}
	if u := r.Text(ingest.FURI); u != nil {
		c.URIKnown++
		if v.TokenCall {
			c.Token++
			if v.HasRequestTime {
				c.TokenMs.Add(v.RequestTime * 1000)
			}
		} else {
			c.Other++
		}
	}
}

// Merge adds another worker's callers.
func (s *callers) Merge(oc aggregate.Collector) {
	o := oc.(*callers)
	s.byCombo.Reset()
	s.clients.merge(&o.clients, func(c, oc *callerStats) {
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
	})
}

// Finish bounds the callers.
func (s *callers) Finish() { s.clients.finish() }

// caller returns a caller's counts, starting them; nil when the caller
// is not kept.
func (s *callers) caller(client []byte) *callerStats {
	c, _ := s.clients.get(client, func() *callerStats { return &callerStats{Client: string(client)} })
	return c
}

// sorted returns the callers by name.
func (s *callers) sorted() []*callerStats {
	out := make([]*callerStats, 0, len(s.clients.m))
	for _, c := range s.clients.m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Client < out[j].Client })
	return out
}

// AppendBinary appends the callers, for an hour file.
func (s *callers) AppendBinary(b []byte) []byte {
	e := &encoder{B: b}
	s.clients.appendCut(e)
	e.Uint(0) // once the callers folded away; none are
	encodeMap(e, s.clients.m, func(_ string, c *callerStats) {
		for _, v := range c.counts() {
			e.Uint(uint64(*v))
		}
	})
	return e.B
}

// UnmarshalBinary replaces the callers with what AppendBinary wrote.
func (s *callers) UnmarshalBinary(b []byte) error {
	d := newDecoder(s.env.m, b)
	s.clients.readCut(d)
	d.Count() // the callers once folded away
	s.clients.m = decodeMap(d, 14, func(k string) *callerStats {
		c := &callerStats{Client: k}
		for _, v := range c.counts() {
			*v = d.Count()
		}
		return c
	})
	return d.Done()
}

// counts are the caller's numbers, in the order of its encoding.
func (c *callerStats) counts() []*int64 {
	return []*int64{&c.Requests, &c.ConnKnown, &c.NewConn, &c.SSLKnown, &c.FullTLS, (*int64)(&c.HandshakeMs),
		&c.RTTKnown, (*int64)(&c.RTTMs), &c.URIKnown, &c.Token, &c.Other, (*int64)(&c.TokenMs)}
}
