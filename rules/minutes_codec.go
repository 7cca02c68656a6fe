package rules

import (
	"fmt"
	"sort"
)

// AppendBinary appends the minutes' mergeable state, for an hour file:
// the counts per kind, the cuts, every key × minute count, the buckets
// of the minutes with a 429 or an error, and the retry samples.
func (s *minuteStats) AppendBinary(b []byte) []byte {
	e := &encoder{b: b}
	for _, n := range s.Records {
		e.uint(uint64(n))
	}
	for _, c := range []struct {
		c   cell
		cut bool
	}{{s.cellCut, s.cellsCapped}, {s.bucketCut, s.bucketsCapped}} {
		e.bool(c.cut)
		e.uint(c.c.h)
		e.int(c.c.minute)
	}
	cells := sortedCells(s.cells)
	e.uint(uint64(len(cells)))
	for _, c := range cells {
		e.uint(c.h)
		e.int(c.minute)
		e.uint(uint64(s.cells[c]))
	}
	buckets := sortedCells(s.buckets)
	e.uint(uint64(len(buckets)))
	for _, c := range buckets {
		e.uint(c.h)
		e.int(c.minute)
		s.buckets[c].encode(e)
	}
	e.uint(s.retryCut)
	encodeMap(e, s.Retries, func(_ string, rs *retrySample) {
		e.str(rs.Client)
		e.uint(rs.KeyHash)
		e.int(rs.Minute)
		e.uint(uint64(len(rs.Limited)))
		for _, l := range rs.Limited {
			e.int(l.T)
			e.float(l.RetryAfter)
		}
		e.uint(uint64(len(rs.Requests)))
		for _, t := range rs.Requests {
			e.int(t)
		}
	})
	return e.b
}

// UnmarshalBinary replaces the minutes' state with what AppendBinary
// wrote; the bounds are this run's (its --top).
func (s *minuteStats) UnmarshalBinary(b []byte) error {
	d := newDecoder(nil, b)
	fresh := newMinuteStats(1)
	fresh.maxCells, fresh.maxBuckets, fresh.retryKeys = s.maxCells, s.maxBuckets, s.retryKeys
	*s = *fresh
	for i := range s.Records {
		s.Records[i] = d.count()
	}
	s.cellsCapped, s.cellCut = d.bool(), cell{h: d.uint(), minute: d.int()}
	s.bucketsCapped, s.bucketCut = d.bool(), cell{h: d.uint(), minute: d.int()}
	for range d.items(3) {
		c := cell{h: d.uint(), minute: d.int()}
		n := d.count()
		if _, dup := s.cells[c]; dup && d.err == nil {
			d.fail("a key × minute twice")
		}
		s.cells[c] = n
	}
	for range d.items(8) {
		c := cell{h: d.uint(), minute: d.int()}
		bk := &minuteBucket{Minute: c.minute}
		bk.decode(d)
		if _, dup := s.buckets[c]; dup && d.err == nil {
			d.fail("a bucket twice")
		}
		s.buckets[c] = bk
	}
	s.retryCut = d.uint()
	s.Retries = decodeMap(d, 5, func(string) *retrySample {
		rs := &retrySample{Client: d.str(), KeyHash: d.uint(), Minute: d.int()}
		n := d.items(9)
		if n > 2*maxLimitedTimes {
			d.fail("%d limited times in a sample", n)
		}
		for range n {
			rs.Limited = append(rs.Limited, Limited{T: d.int(), RetryAfter: d.float()})
		}
		n = d.items(1)
		if n > 2*maxRequestTimes {
			d.fail("%d request times in a sample", n)
		}
		for range n {
			rs.Requests = append(rs.Requests, d.int())
		}
		return rs
	})
	if err := d.done(); err != nil {
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
	e.uint(uint64(b.Kind))
	e.str(b.Key[0])
	e.str(b.Key[1])
	for _, v := range b.counts() {
		e.uint(uint64(*v))
	}
	encodeIntMap(e, b.Status)
	encodeMap(e, b.Upstream, func(_ string, n int64) { e.uint(uint64(n)) })
	encodeIntMap(e, b.UpstreamStatus)
}

func (b *minuteBucket) decode(d *decoder) {
	kind := d.uint()
	if kind >= uint64(numKeyKinds) {
		d.fail("key kind %d", kind)
		return
	}
	b.Kind = keyKind(kind)
	b.Key = [2]string{d.str(), d.str()}
	for _, v := range b.counts() {
		*v = d.count()
	}
	b.Status = decodeIntMap(d)
	b.Upstream = decodeMap(d, 2, func(string) int64 { return d.count() })
	if len(b.Upstream) > maxBucketUpstreams+1 {
		d.fail("%d upstreams in a bucket", len(b.Upstream))
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
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		e.int(int64(k))
		e.uint(uint64(m[k]))
	}
}

func decodeIntMap(d *decoder) map[int]int64 {
	n := d.items(2)
	if n == 0 {
		return nil
	}
	m := make(map[int]int64, n)
	for range n {
		k, v := d.int(), d.count()
		if k < -1<<31 || k > 1<<31 {
			d.fail("status %d", k)
			return m
		}
		if _, dup := m[int(k)]; dup {
			d.fail("%s twice", fmt.Sprint(k))
			return m
		}
		m[int(k)] = v
	}
	return m
}
