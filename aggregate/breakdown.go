package aggregate

import (
	"encoding/binary"
	"math/bits"
	"regexp"
	"sort"

	"loganalyze/ingest"
	"loganalyze/sketch"
)

// Request classes of the breakdown (SPEC §4 "Breakdown").
const (
	ClassToken         = iota // uri matches the token endpoint
	ClassStreaming            // inference, stream=true
	ClassNonStreaming         // inference, stream=false
	ClassUnknownStream        // inference without a stream field
	NumClasses
)

// ClassNames are the classes' names in reports, by index.
var ClassNames = [NumClasses]string{"token", "streaming", "non_streaming", "unknown_stream"}

// Phases of a request, in the order they claim its time (phasesOf).
const (
	PhaseDNS = iota
	PhaseTCPConnect
	PhaseTLS
	PhaseNetwork
	PhaseGeneration
	PhaseUpstreamConnect
	PhaseUpstreamHeaderWait
	PhaseFirstToken
	// PhaseUpstreamBody is the upstream's time after its response headers
	// (upstream_response_time − upstream_header_time) of a record without
	// ttft: a streamed answer's tokens, or a large body. It comes last in
	// the index order, after the phases hour files of older builds hold.
	PhaseUpstreamBody
	NumPhases
)

// PhaseNames are the phases' names in reports (JSON keys), by index.
var PhaseNames = [NumPhases]string{"dns_ms", "tcp_connect_ms", "tls_ms", "network_ms", "generation_ms",
	"upstream_connect_ms", "upstream_header_wait_ms", "first_token_ms", "upstream_body_ms"}

// maxTokenMemo bounds the paths whose token-endpoint match is memoised.
const maxTokenMemo = 4096

// sum128 is an exact sum of non-negative microseconds: whatever the
// order of the records and the split between workers, the same total.
type sum128 = sketch.Uint128

// ClassPhases is one class's exact sums: request_time and each phase
// in microseconds, and how many of its requests carried each phase.
type ClassPhases struct {
	Count       int64
	RequestTime sum128
	Phases      [NumPhases]sum128
	Carried     [NumPhases]int64
	Unknown     sum128
}

// Breakdown is where the time of each request class goes: exact sums,
// mergeable, the same whatever the worker split.
type Breakdown struct {
	Classes [NumClasses]ClassPhases
}

// recordPhases is one record's share of the breakdown (Values).
type recordPhases struct {
	ok      bool
	class   int
	rt      uint64
	phases  [NumPhases]uint64
	carried uint32 // bit i: the record carries phase i
	unknown uint64
}

// carried holds a bit for every phase (a compile-time check).
const _ uint32 = 1 << (NumPhases - 1)

// micros converts a time in the given unit to whole microseconds, 0
// for a negative one.
func micros(v, perSecond float64) uint64 {
	us := v * 1e6 / perSecond
	if !(us > 0) {
		return 0
	}
	if us >= 1<<62 {
		return 1 << 62
	}
	return sketch.RoundPositive(us)
}

// phasesOf decomposes a record's request_time R (µs) into phases that
// never overlap, each claiming from what the earlier ones left:
//
//   - network (needs upstream_response_time U): R − U, the time outside
//     the upstream; client-side dns_time, tcp_connect_time and tls_time
//     claim from it first (from R when U is absent) and network_ms is
//     what they leave.
//   - the upstream part, R − network (R when U is absent), in turn:
//     generation (needs ttft) R − ttft, the time after the first token;
//     upstream_connect_time; upstream_header_time − upstream_connect_time
//     (the header wait; a 504 without ttft or header time waited all
//     of upstream_response_time for headers that never came); first_token (needs ttft): the rest of the
//     upstream part before the first token; without ttft, the upstream
//     body (needs upstream_response_time and upstream_header_time):
//     upstream_response_time − upstream_header_time, the upstream's
//     time after its headers, which generation would otherwise hold.
//   - unknown: what no phase claimed (the whole request when it carries
//     nothing, or what the fields leave between them).
//
// Each phase is clamped to what is left, so the phases and unknown add
// up to R exactly. The phases are read by carried alone (Breakdown.add):
// those not carried are not cleared.
func (p *recordPhases) of(r *ingest.Record, class int, rtS float64) {
	p.ok, p.class, p.rt, p.carried, p.unknown = true, class, micros(rtS, 1), 0, 0
	left := p.rt
	claim := func(ph int, v uint64, budget *uint64) {
		v = min(v, *budget)
		p.phases[ph] = v
		p.carried |= 1 << ph
		*budget -= v
	}
	net := left
	u, hasU := r.Float(ingest.FUpstreamResponseTime)
	if hasU {
		net = min(left, p.rt-min(p.rt, micros(u, 1)))
	}
	for i, f := range [...]ingest.Field{ingest.FDNSTime, ingest.FTCPConnectTime, ingest.FTLSTime} {
		if v, ok := r.Float(f); ok {
			before := net
			claim(PhaseDNS+i, micros(v, 1000), &net)
			left -= before - net
		}
	}
	if hasU {
		claim(PhaseNetwork, net, &left)
	}
	ttft, hasTTFT := r.Float(ingest.FTTFT)
	if hasTTFT {
		claim(PhaseGeneration, p.rt-min(p.rt, micros(ttft, 1000)), &left)
	}
	c, hasC := r.Float(ingest.FUpstreamConnectTime)
	if hasC {
		claim(PhaseUpstreamConnect, micros(c, 1), &left)
	}
	h, hasH := r.Float(ingest.FUpstreamHeaderTime)
	// A gateway's time-out (504) that carries the upstream's time but no
	// header time: the headers never came, the upstream's time was all
	// the wait for them.
	timedOut := false
	if !hasH && hasU && !hasTTFT {
		if st, ok := r.Int(ingest.FStatus); ok && st == 504 {
			h, hasH, timedOut = u, true, true
		}
	}
	if hasH {
		cu := uint64(0)
		if hasC {
			cu = micros(c, 1)
		}
		hu := micros(h, 1)
		claim(PhaseUpstreamHeaderWait, hu-min(hu, cu), &left)
	}
	if hasTTFT {
		claim(PhaseFirstToken, left, &left)
	} else if hasU && hasH && !timedOut {
		uu, hu := micros(u, 1), micros(h, 1)
		claim(PhaseUpstreamBody, uu-min(uu, hu), &left)
	}
	p.unknown = left
}

func (b *Breakdown) add(p *recordPhases) {
	if !p.ok {
		return
	}
	c := &b.Classes[p.class]
	c.Count++
	c.RequestTime.Add(p.rt)
	for m := p.carried; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		c.Phases[i].Add(p.phases[i])
		c.Carried[i]++
	}
	c.Unknown.Add(p.unknown)
}

func (b *Breakdown) merge(o *Breakdown) {
	for i := range b.Classes {
		c, oc := &b.Classes[i], &o.Classes[i]
		c.Count += oc.Count
		c.RequestTime.Merge(oc.RequestTime)
		for j := range c.Phases {
			c.Phases[j].Merge(oc.Phases[j])
			c.Carried[j] += oc.Carried[j]
		}
		c.Unknown.Merge(oc.Unknown)
	}
}

// ClassMeans is one class's mean times in microseconds: the phases some
// request of the class carried (Has), and Unknown; they add up to
// RequestTime exactly.
type ClassMeans struct {
	Class       string
	Count       int64
	RequestTime int64
	Phases      [NumPhases]int64
	Has         [NumPhases]bool
	Unknown     int64
}

// Means are the classes that have requests, in class order. The mean
// request time is rounded to the microsecond, and the parts' means are
// rounded down and then, by largest remainder, raised by a microsecond
// until they add up to it.
func (b *Breakdown) Means() []ClassMeans {
	var out []ClassMeans
	for i := range b.Classes {
		c := &b.Classes[i]
		if c.Count <= 0 {
			continue
		}
		n := uint64(c.Count)
		m := ClassMeans{Class: ClassNames[i], Count: c.Count}
		q, r := c.RequestTime.DivMod(n)
		if 2*r >= n {
			q++
		}
		m.RequestTime = int64(q)
		type part struct {
			idx  int // NumPhases: unknown
			rem  uint64
			mean int64
		}
		parts := make([]part, 0, NumPhases+1)
		for j := range c.Phases {
			if c.Carried[j] > 0 {
				q, r := c.Phases[j].DivMod(n)
				parts = append(parts, part{j, r, int64(q)})
			}
		}
		q, r = c.Unknown.DivMod(n)
		parts = append(parts, part{NumPhases, r, int64(q)})
		short := m.RequestTime
		for _, p := range parts {
			short -= p.mean
		}
		order := make([]int, len(parts))
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(x, y int) bool { return parts[order[x]].rem > parts[order[y]].rem })
		for k := 0; short > 0 && k < len(order); k++ {
			parts[order[k]].mean++
			short--
		}
		for _, p := range parts {
			if p.idx == NumPhases {
				m.Unknown = p.mean
			} else {
				m.Phases[p.idx], m.Has[p.idx] = p.mean, true
			}
		}
		out = append(out, m)
	}
	return out
}

// tokenMatcher tells token-endpoint calls by their path, memoised; the
// last path and its answer are kept apart, since records of one path
// mostly follow each other: a comparison instead of a map's hash.
type tokenMatcher struct {
	re     *regexp.Regexp
	memo   map[string]bool
	last   []byte
	lastOK bool // last holds a path
	lastIs bool // its answer
	// uri is the latest uri matched, when uriOK: its path is
	// uri[from:to], and uriIs the answer. A record of the same uri as
	// the one before it (a columnar file's, from one dictionary entry,
	// or a run of one endpoint's calls) is answered without cutting
	// its path again.
	uri      []byte
	from, to int
	uriOK    bool
	uriIs    bool
}

// match returns a uri's path (Path), which the accumulator keys the set
// by too, and whether it is a token-endpoint call.
func (t *tokenMatcher) match(uri []byte) ([]byte, bool) {
	if t.uriOK && string(uri) == string(t.uri) {
		return uri[t.from:t.to:t.to], t.uriIs
	}
	p := Path(uri)
	v := t.answer(p)
	t.uriOK = false
	if off := cap(uri) - cap(p); len(uri) <= maxTokenLast && len(p) > 0 && off >= 0 && off+len(p) <= len(uri) && &uri[off] == &p[0] {
		// The path is within the uri (not the root path of a URL
		// that names none): kept by its place.
		t.uri, t.from, t.to, t.uriOK, t.uriIs = append(t.uri[:0], uri...), off, off+len(p), true, v
	}
	return p, v
}

// answer says whether path p is a token-endpoint call.
func (t *tokenMatcher) answer(p []byte) bool {
	if t.re == nil {
		return false
	}
	if t.lastOK && string(p) == string(t.last) {
		return t.lastIs
	}
	v, ok := t.memo[string(p)]
	if !ok {
		v = t.re.Match(p)
		if t.memo == nil {
			t.memo = map[string]bool{}
		}
		if len(t.memo) < maxTokenMemo {
			t.memo[string(p)] = v
		}
	}
	if len(p) <= maxTokenLast {
		t.last, t.lastOK, t.lastIs = append(t.last[:0], p...), true, v
	}
	return v
}

// maxTokenLast bounds the last path kept: a hostile one is not copied.
const maxTokenLast = 256

// classOf is a record's request class; token says it is a
// token-endpoint call.
func classOf(r *ingest.Record, token bool) int {
	if token {
		return ClassToken
	}
	s, ok := r.Bool(ingest.FStream)
	switch {
	case !ok:
		return ClassUnknownStream
	case s:
		return ClassStreaming
	}
	return ClassNonStreaming
}

func (b *Breakdown) appendBinary(out []byte) []byte {
	out = binary.AppendUvarint(out, NumClasses)
	out = binary.AppendUvarint(out, NumPhases)
	sum := func(s sum128) {
		out = binary.AppendUvarint(out, s.Hi)
		out = binary.AppendUvarint(out, s.Lo)
	}
	for i := range b.Classes {
		c := &b.Classes[i]
		out = binary.AppendUvarint(out, uint64(c.Count))
		sum(c.RequestTime)
		for j := range c.Phases {
			sum(c.Phases[j])
			out = binary.AppendUvarint(out, uint64(c.Carried[j]))
		}
		sum(c.Unknown)
	}
	return out
}

func (b *Breakdown) decode(d *Decoder) {
	// An older build's hour holds fewer phases, the first ones of the
	// index order (phases are only added at its end): those it lacks
	// were not carried by its records, whose time is in their unknown.
	nc, np := d.Uint(), d.Uint()
	if d.Err() == nil && (nc != NumClasses || np == 0 || np > NumPhases) {
		d.Fail("breakdown of %d classes and %d phases, this build has %d and %d", nc, np, NumClasses, NumPhases)
		return
	}
	sum := func() sum128 { return sum128{Hi: d.Uint(), Lo: d.Uint()} }
	for i := range b.Classes {
		c := &b.Classes[i]
		c.Count = d.Count()
		c.RequestTime = sum()
		for j := range c.Phases[:min(np, NumPhases)] {
			c.Phases[j] = sum()
			c.Carried[j] = d.Count()
			if c.Carried[j] > c.Count {
				d.Fail("breakdown phase carried by more requests than its class has")
			}
		}
		c.Unknown = sum()
		if c.RequestTime.Hi >= uint64(max(c.Count, 1)) {
			d.Fail("breakdown sum out of range")
		}
	}
}
