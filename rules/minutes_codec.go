package rules

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
)

// AppendBinary appends the minutes' mergeable state, for an hour file:
// the counts per kind, the cuts, every key × minute count, the buckets
// of the minutes with a 429 or an error, and the retry samples.
func (s *minuteStats) AppendBinary(b []byte) []byte {
	s.joinRetries()
	s.samples.sync()
	e := &encoder{B: b}
	for _, n := range s.Records {
		e.Uint(uint64(n))
	}
	for _, c := range []struct {
		c   cell
		cut bool
	}{{s.cellCut, s.cellsCapped}, {s.bucketCut, s.bucketsCapped}} {
		e.Bool(c.cut)
		e.Uint(c.c.h)
		e.Int(c.c.minute)
	}
	cells := sortedCells(s.cells)
	e.Uint(uint64(len(cells)))
	for _, c := range cells {
		e.Uint(c.h)
		e.Int(c.minute)
		e.Uint(uint64(*s.cells[c]))
	}
	buckets := sortedCells(s.buckets)
	e.Uint(uint64(len(buckets)))
	for _, c := range buckets {
		e.Uint(c.h)
		e.Int(c.minute)
		s.buckets[c].encode(e)
	}
	e.Uint(s.samples.cut)
	// As encodeMap writes a map: the count, then each key and its sample
	// in key order. The samples, most of an hour file's bytes, each
	// settled first, are written in parts on every core, then joined.
	keys := sortedKeys(s.samples.m)
	e.Uint(uint64(len(keys)))
	parts := make([][]byte, min(runtime.GOMAXPROCS(0), (len(keys)+samplesPerPart-1)/samplesPerPart))
	var wg sync.WaitGroup
	for p := range parts {
		part := keys[p*len(keys)/len(parts) : (p+1)*len(keys)/len(parts)]
		wg.Go(func() {
			n := 0
			for _, k := range part {
				n += len(k) + s.samples.m[k].encodedMax()
			}
			pe := &encoder{B: make([]byte, 0, n)}
			for _, k := range part {
				pe.Str(k)
				s.samples.m[k].encode(pe)
			}
			parts[p] = pe.B
		})
	}
	wg.Wait()
	n := 0
	for _, b := range parts {
		n += len(b)
	}
	e.B = slices.Grow(e.B, n)
	for _, b := range parts {
		e.B = append(e.B, b...)
	}
	return e.B
}

// encodedMax bounds the bytes of the sample's encoding, and of the
// varint of its key's length: a part's buffer is made once.
func (rs *retrySample) encodedMax() int {
	const varint = binary.MaxVarintLen64
	return 6*varint + len(rs.Client) + min(len(rs.Limited), maxLimitedTimes)*(varint+8) +
		min(rs.requests(), maxRequestTimes)*varint
}

// samplesPerPart is the least count of retry samples worth a goroutine
// of AppendBinary's.
const samplesPerPart = 4096

// encode settles the sample (its bytes do not depend on the records'
// order) and writes it.
func (rs *retrySample) encode(e *encoder) {
	rs.settle()
	e.Str(rs.Client)
	e.Uint(rs.KeyHash)
	e.Int(rs.Minute)
	e.Uint(uint64(len(rs.Limited)))
	for _, l := range rs.Limited {
		e.Int(l.T)
		e.Float(l.RetryAfter)
	}
	e.Uint(uint64(len(rs.Requests)))
	for _, off := range rs.Requests {
		e.Int(rs.timeAt(off))
	}
}

// UnmarshalBinary replaces the minutes' state with what AppendBinary
// wrote; the bounds are this run's (its --top).
func (s *minuteStats) UnmarshalBinary(b []byte) error {
	d := newDecoder(nil, b)
	maxCells, maxBuckets, retryKeys := s.maxCells, s.maxBuckets, s.samples.n
	*s = *newMinuteStats(1, nil)
	s.maxCells, s.maxBuckets = maxCells, maxBuckets
	s.setRetryKeys(retryKeys)
	for i := range s.Records {
		s.Records[i] = d.Count()
	}
	s.cellsCapped, s.cellCut = d.Bool(), cell{h: d.Uint(), minute: d.Int()}
	s.bucketsCapped, s.bucketCut = d.Bool(), cell{h: d.Uint(), minute: d.Int()}
	for range d.Items(3) {
		c := cell{h: d.Uint(), minute: d.Int()}
		n := d.Count()
		if _, dup := s.cells[c]; dup && d.Err() == nil {
			d.Fail("a key × minute twice")
		}
		s.cells[c] = &n
	}
	for range d.Items(8) {
		c := cell{h: d.Uint(), minute: d.Int()}
		bk := &minuteBucket{Minute: c.minute}
		bk.decode(d)
		if _, dup := s.buckets[c]; dup && d.Err() == nil {
			d.Fail("a bucket twice")
		}
		s.buckets[c] = bk
	}
	s.samples.cut, s.samples.swept = d.Uint(), false
	s.samples.m = decodeMap(d, 5, func(string) *retrySample {
		rs := &retrySample{Client: d.Str(), KeyHash: d.Uint(), Minute: d.Int()}
		if rs.Minute > math.MaxInt64/minuteNS-1 || rs.Minute < math.MinInt64/minuteNS {
			d.Fail("a sample's minute out of range")
		}
		n := d.Items(9)
		if n > 2*maxLimitedTimes {
			d.Fail("%d limited times in a sample", n)
		}
		for range n {
			rs.Limited = append(rs.Limited, Limited{T: d.Int(), RetryAfter: d.Float()})
		}
		n = d.Items(1)
		if n > 2*maxRequestTimes {
			d.Fail("%d request times in a sample", n)
		}
		for range n {
			t := d.Int()
			if t < rs.Minute*60e9 || t >= (rs.Minute+1)*60e9 {
				d.Fail("a request time outside its sample's minute")
				break
			}
			rs.Requests = append(rs.Requests, rs.offsetOf(t))
		}
		return rs
	})
	if err := d.Done(); err != nil {
		return err
	}
	s.applyCuts()
	return nil
}

func sortedCells[V any](m map[cell]V) []cell {
	out := make([]cell, 0, len(m))
	for c := range m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].less(out[j]) })
	return out
}

func (b *minuteBucket) encode(e *encoder) {
	e.Uint(uint64(b.Kind))
	e.Str(b.Key[0])
	e.Str(b.Key[1])
	for _, v := range b.counts() {
		e.Uint(uint64(*v))
	}
	encodeIntMap(e, b.Status)
	encodeMap(e, b.Upstream, func(_ string, n int64) { e.Uint(uint64(n)) })
	encodeIntMap(e, b.UpstreamStatus)
}

func (b *minuteBucket) decode(d *decoder) {
	kind := d.Uint()
	if kind >= uint64(numKeyKinds) {
		d.Fail("key kind %d", kind)
		return
	}
	b.Kind = keyKind(kind)
	b.Key = [2]string{d.Str(), d.Str()}
	for _, v := range b.counts() {
		*v = d.Count()
	}
	b.Status = decodeIntMap(d)
	b.Upstream = decodeMap(d, 2, func(string) int64 { return d.Count() })
	if len(b.Upstream) > maxBucketUpstreams+1 {
		d.Fail("%d upstreams in a bucket", len(b.Upstream))
	}
	b.UpstreamStatus = decodeIntMap(d)
}

// counts are the bucket's numbers in the order of its encoding (Total is
// given by Finish, from the cells).
func (b *minuteBucket) counts() []*int64 {
	return []*int64{&b.N429, &b.N5xx, &b.N499, &b.N504, &b.RetryAfterN, (*int64)(&b.RetryAfterS),
		(*int64)(&b.ErrMs), (*int64)(&b.TimeoutMs), &b.ErrUpN, (*int64)(&b.ErrUpMs)}
}

func encodeIntMap(e *encoder, m map[int]int64) {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	e.Uint(uint64(len(keys)))
	for _, k := range keys {
		e.Int(int64(k))
		e.Uint(uint64(m[k]))
	}
}

func decodeIntMap(d *decoder) map[int]int64 {
	n := d.Items(2)
	if n == 0 {
		return nil
	}
	m := make(map[int]int64, n)
	for range n {
		k, v := d.Int(), d.Count()
		if k < -1<<31 || k > 1<<31 {
			d.Fail("status %d", k)
			return m
		}
		if _, dup := m[int(k)]; dup {
			d.Fail("%s twice", fmt.Sprint(k))
			return m
		}
		m[int(k)] = v
	}
	return m
}

// minuteNS is a minute in ns.
const minuteNS int64 = 60e9
