package rules

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"loganalyze/ingest"
)

// Bounds of the retry samples: they keep a fixed share of keys chosen by
// a hash, so that what is kept does not depend on how the records were
// split between workers.
const (
	// minRetryKeys is the least number of client × key × minute retry
	// samples kept (64 × --top when that is larger).
	minRetryKeys = 1 << 16
	// maxLimitedTimes and maxRequestTimes bound one retry sample.
	maxLimitedTimes = 32
	maxRequestTimes = 64
	// maxBucketUpstreams bounds the upstream_addr split of one bucket.
	maxBucketUpstreams = 16
)

// retryKeysFor is how many retry samples are kept at --top top.
func retryKeysFor(top int) int { return max(minRetryKeys, 64*top) }

// setRetryKeys sets the bound on the retry samples to n.
func (s *minuteStats) setRetryKeys(n int) { s.samples.n, s.log.n = n, n }

// minuteBucket is one minute of one key that had a 429 or an error response:
// the counts the storm and burst rules need, and the splits their
// evidence shows.
type minuteBucket struct {
	Kind   keyKind
	Key    [2]string // the key's values, in the order of Kind.Fields()
	Minute int64     // Unix minute
	Total  int64     // every response of the key in the minute
	N429   int64
	N5xx   int64
	N499   int64
	N504   int64
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

// KeyHash returns the hash that identifies the bucket's key in the
// retry samples.
func (b *minuteBucket) KeyHash() uint64 {
	return keyHash(appendKey(nil, b.Kind, []byte(b.Key[0]), []byte(b.Key[1])))
}

// isError reports whether a status counts for the error-burst rule.
func isError(status int64) bool { return status >= 500 && status < 600 || status == 499 }

// add adds a 429 or error response with its request_time (s, when okRT).
func (b *minuteBucket) add(r *ingest.Record, status int64, rt float64, okRT bool) {
	b.count(int(status))
	if status == 429 {
		b.N429++
		if v, ok := r.Float(ingest.FRetryAfter); ok {
			b.RetryAfterN++
			b.RetryAfterS.Add(v)
		}
		return
	}
	if status == 499 {
		b.N499++
	} else {
		b.N5xx++
	}
	if status == 504 {
		b.N504++
	}
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

var dashKey = []byte("-")

func (b *minuteBucket) count(status int) {
	if b.Status == nil {
		b.Status = map[int]int64{}
	}
	b.Status[status]++
}

func (b *minuteBucket) upstream(addr []byte, n int64) {
	if b.Upstream == nil {
		b.Upstream = map[string]int64{}
	}
	if _, ok := b.Upstream[string(addr)]; !ok && len(b.Upstream) >= maxBucketUpstreams {
		addr = otherKey
	}
	b.Upstream[string(addr)] += n
}

var otherKey = []byte("other")

func (b *minuteBucket) merge(o *minuteBucket) {
	b.N429 += o.N429
	b.N5xx += o.N5xx
	b.N499 += o.N499
	b.N504 += o.N504
	b.RetryAfterN += o.RetryAfterN
	b.RetryAfterS.Merge(o.RetryAfterS)
	b.ErrMs.Merge(o.ErrMs)
	b.TimeoutMs.Merge(o.TimeoutMs)
	b.ErrUpN += o.ErrUpN
	b.ErrUpMs.Merge(o.ErrUpMs)
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

// Limited is one 429 response: its time and Retry-After (s; 0 when absent).
type Limited struct {
	T          int64
	RetryAfter float64
}

// retrySample is what one caller sent to one key in one minute: its 429
// responses and a sample of its request times (every request up to a
// bound, then the ones with the smallest hash), so that the gap between
// a 429 and the caller's next request can be measured after the workers
// are merged.
type retrySample struct {
	Client string
	// KeyHash is the hash of the bucket key (minuteBucket.KeyHash): a sample
	// does not copy the key.
	KeyHash uint64
	Minute  int64
	Limited []Limited
	// Requests are the request times kept, as microseconds after the
	// start of Minute (requestTimes gives them in ns): 4 bytes a time,
	// where tens of thousands of samples hold dozens each. A time is
	// kept to the microsecond; it is hashed and cut as that.
	Requests []uint32
	// more are the request times of the same minute that merges gave
	// the sample, kept as the other samples held them: most samples are
	// never read (only a storm's are), so their times are joined to
	// Requests (flatten) only where they are read or cut.
	more [][]uint32
}

// timeKey orders times as pruneTimes keeps them: by hash, then time.
type timeKey struct {
	h uint64
	t int64
}

func (a timeKey) less(b timeKey) bool { return a.h < b.h || a.h == b.h && a.t < b.t }

// pruneRequests keeps the n request times of smallest hash.
func (rs *retrySample) pruneRequests(n int) {
	rs.flatten()
	rs.Requests = pruneTimes(rs.Requests, rs.Minute*60e9, n)
}

// flatten joins the times merges gave the sample to its own, in a new
// array: those of more are another sample's, which is not written to.
func (rs *retrySample) flatten() {
	if len(rs.more) == 0 {
		return
	}
	all := make([]uint32, 0, rs.requests())
	all = append(all, rs.Requests...)
	for _, m := range rs.more {
		all = append(all, m...)
	}
	rs.Requests, rs.more = all, nil
}

// requests is how many request times the sample holds.
func (rs *retrySample) requests() int {
	n := len(rs.Requests)
	for _, m := range rs.more {
		n += len(m)
	}
	return n
}

// timeAt is the time of a request kept as off.
func (rs *retrySample) timeAt(off uint32) int64 { return rs.Minute*60e9 + int64(off)*1000 }

// offsetOf is how a time t of the sample's minute is kept (timeAt).
func (rs *retrySample) offsetOf(t int64) uint32 { return uint32((t - rs.Minute*60e9) / 1000) }

// requestTimes appends the request times kept, in ns, to dst.
func (rs *retrySample) requestTimes(dst []int64) []int64 {
	rs.flatten()
	for _, off := range rs.Requests {
		dst = append(dst, rs.timeAt(off))
	}
	return dst
}

// mergeRetries adds o's retry samples to s's. Most samples are never
// read (only a storm's are), so o's are kept beside s's, not joined to
// them: joinRetries joins them where the samples are read whole (an
// hour file, a bound to keep), and the storm rule joins the few it
// reads (retrySamplesOf). Joining the maps' tens of thousands of
// samples was the longest of the merges after the workers.
func (s *minuteStats) mergeRetries(o *minuteStats) {
	if !o.log.empty() {
		s.logs = append(s.logs, o.log)
		o.log = newRetryLog(o.log.n, o.log.share)
	}
	s.logs = append(s.logs, o.logs...)
	o.logs = nil
	if len(o.samples.m) > 0 || o.samples.cut != math.MaxUint64 {
		kept := o.samples // its map, not o's field: o may be given others
		s.pending = append(s.pending, &kept)
	}
	s.pending = append(s.pending, o.pending...)
	o.pending = nil
}

// joinRetries makes the samples of the logs and joins them, and the
// samples merges kept beside s's, to s's.
func (s *minuteStats) joinRetries() {
	s.eachLog(func(l *retryLog) {
		if !l.empty() {
			s.pending = append(s.pending, l.capped())
		}
	})
	s.log, s.logs = newRetryLog(s.log.n, s.log.share), nil
	for _, p := range s.pending {
		s.samples.merge(p, mergeSample)
	}
	s.pending = nil
}

// mergeSample adds ors, of the same client, key and minute, to rs.
func mergeSample(rs, ors *retrySample) {
	// The finish (or an hour file's settle) cuts the times, on
	// every core; a merge cuts only what many workers' times pile.
	rs.Limited = append(rs.Limited, ors.Limited...)
	if len(rs.Limited) > mergeSlack*maxLimitedTimes {
		rs.Limited = pruneLimited(rs.Limited, maxLimitedTimes)
	}
	// Of the same minute, joined where read or cut (flatten).
	if len(ors.Requests) > 0 {
		rs.more = append(rs.more, ors.Requests)
	}
	rs.more = append(rs.more, ors.more...)
	if rs.requests() > mergeSlack*maxRequestTimes {
		rs.pruneRequests(maxRequestTimes)
	}
}

// clone returns a copy of rs that a merge into it leaves rs as it is
// (the arrays of more are never written to).
func (rs *retrySample) clone() *retrySample {
	c := *rs
	c.Limited = slices.Clone(rs.Limited)
	c.Requests = slices.Clone(rs.Requests)
	c.more = slices.Clone(rs.more)
	return &c
}

// finishRetries bounds the retry samples to their cap. The samples are
// settled where they are read (the storm rule's few, an hour file's all),
// not here: most are of minutes that hold no storm. Those merges kept
// apart stay so unless together they pass the bound, or one side
// dropped keys: then they are joined, and the keys beyond the bound
// dropped, as the merges did.
func (s *minuteStats) finishRetries() {
	s.samples.sync()
	n, cut := len(s.samples.m), s.samples.cut
	for _, p := range s.pending {
		p.sync()
		n, cut = n+len(p.m), min(cut, p.cut)
	}
	s.eachLog(func(l *retryLog) {
		l.sync()
		n, cut = n+l.live, min(cut, l.cut)
	})
	if s.apart() && (n > s.samples.n || cut != math.MaxUint64) {
		s.joinRetries()
	}
	s.samples.finish()
}

// eachLog calls f with each of the minutes' logs, its own first.
func (s *minuteStats) eachLog(f func(*retryLog)) {
	f(s.log)
	for _, l := range s.logs {
		f(l)
	}
}

// apart reports whether samples are kept apart from s.samples: merged
// maps, or logs not yet made into samples.
func (s *minuteStats) apart() bool { return len(s.pending) > 0 || len(s.logs) > 0 || !s.log.empty() }

// retrySamplesOf returns, settled, the retry samples of key hash h whose
// minute starts in [from, to]: those merges kept apart joined, on copies,
// as joinRetries would join them.
func (s *minuteStats) retrySamplesOf(h uint64, from, to int64) []*retrySample {
	in := func(kh uint64, minute int64) bool {
		return kh == h && minute*60e9 >= from && minute*60e9 <= to
	}
	// Kept apart only while none dropped keys, as finishRetries leaves
	// them.
	joined := false
	for _, p := range s.pending {
		joined = joined || p.cut != s.samples.cut
	}
	s.eachLog(func(l *retryLog) {
		l.sync()
		joined = joined || l.cut != s.samples.cut
	})
	if joined {
		s.joinRetries()
	}
	var out []*retrySample
	if !s.apart() {
		for _, rs := range s.samples.m {
			if in(rs.KeyHash, rs.Minute) {
				rs.settle()
				out = append(out, rs)
			}
		}
		return out
	}
	maps := append([]*capped[*retrySample]{&s.samples}, s.pending...)
	made := len(maps) // the logs' samples, made here, are not copied
	s.eachLog(func(l *retryLog) {
		if !l.empty() {
			maps = append(maps, &capped[*retrySample]{m: l.samples(func(_ string, kh uint64, minute int64) bool { return in(kh, minute) })})
		}
	})
	byKey, copied := map[string]*retrySample{}, map[string]bool{}
	for i, m := range maps {
		for k, rs := range m.m {
			if !in(rs.KeyHash, rs.Minute) {
				continue
			}
			have, ok := byKey[k]
			if !ok {
				byKey[k], copied[k] = rs, i >= made
				continue
			}
			if !copied[k] {
				have, copied[k] = have.clone(), true
				byKey[k] = have
			}
			mergeSample(have, rs)
		}
	}
	for _, rs := range byKey {
		rs.settle()
		out = append(out, rs)
	}
	return out
}

// mergeSlack is how many times its bound a sample's times may pile to
// in a merge before they are cut.
const mergeSlack = 4

// settle bounds a sample's times to what a merge keeps of them and
// sorts them: the same sample, however its records arrived.
func (rs *retrySample) settle() {
	rs.flatten()
	if len(rs.Limited) > maxLimitedTimes {
		rs.Limited = pruneLimited(rs.Limited, maxLimitedTimes)
	}
	if len(rs.Requests) > maxRequestTimes {
		rs.pruneRequests(maxRequestTimes)
	}
	slices.SortFunc(rs.Limited, func(a, b Limited) int {
		if a.T != b.T {
			return cmp.Compare(a.T, b.T)
		}
		return cmp.Compare(a.RetryAfter, b.RetryAfter)
	})
	slices.Sort(rs.Requests)
}

func timeHash(t int64) uint64 {
	x := uint64(t) * 0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	return x ^ x>>29
}

// pruneTimes keeps the n times of smallest hash: the same n whatever the
// order and grouping in which the times were added (n ≥ 1, fewer than
// len(offs)). The times are microseconds after base (ns), as a sample
// keeps them, and hashed in ns. It returns them, in no order. Each time
// is hashed once, and the n found by counting the hashes' leading bits,
// not by comparing them: busy callers' times are cut every buffer of
// the log, and a selection's comparisons of random hashes were a branch
// mispredicted in two.
func pruneTimes(offs []uint32, base int64, n int) []uint32 {
	var room [2 * maxRequestTimes]uint64 // most cuts; a merge's may need more
	hs := room[:0]
	if len(offs) > len(room) {
		hs = make([]uint64, 0, len(offs))
	}
	var top uint64
	for _, off := range offs {
		h := timeHash(base + int64(off)*1000)
		top |= h
		hs = append(hs, h)
	}
	shift, b, _ := nthBucket(hs, top, n)
	var edgeRoom [16]timeKey
	edge, w := edgeRoom[:0], 0
	for i, off := range offs {
		switch kb := hs[i] << shift >> 58; {
		case kb < b:
			offs[w] = off
			w++
		case kb == b:
			edge = append(edge, timeKey{hs[i], base + int64(off)*1000})
		}
	}
	for i := 1; i < len(edge); i++ { // few: an insertion sort
		for j := i; j > 0 && edge[j].less(edge[j-1]); j-- {
			edge[j], edge[j-1] = edge[j-1], edge[j]
		}
	}
	edge = edge[:n-w] // every key of a lower bucket is smaller
	for _, k := range edge {
		offs[w] = uint32((k.t - base) / 1000)
		w++
	}
	return offs[:n]
}

// nthBucket finds the bucket of the n-th smallest of hashes hs (n ≥ 1,
// at most len(hs)), whose bits together are top: a hash h is in bucket
// h<<shift>>58, by the 6 bits below the highest any has, and every hash
// of a lower bucket is smaller than every hash of b. upTo counts the
// hashes of b and below. The hashes are uniform: the n-th shares its
// bucket with a few others at most. (When every hash is 0, shift is 64
// and all are in bucket 0.)
func nthBucket(hs []uint64, top uint64, n int) (shift int, b uint64, upTo int) {
	shift = bits.LeadingZeros64(top)
	var count [64]int32
	for _, h := range hs {
		count[h<<shift>>58]++
	}
	below := 0
	for below+int(count[b]) < n {
		below += int(count[b])
		b++
	}
	return shift, b, below + int(count[b])
}

// pruneLimited keeps the n 429 responses of smallest time hash (ties by
// time, then Retry-After): the same n whatever the order and grouping
// in which they were added. It returns them in that order, in ls.
func pruneLimited(ls []Limited, n int) []Limited {
	if len(ls) <= n {
		for i, k := range sortLimited(keyLimited(ls, nil)) {
			ls[i] = k.l
		}
		return ls
	}
	// Each time hashed once, and the n found as pruneTimes finds its:
	// by the 6 bits below the highest any hash has, then the few keys
	// of the edge's bucket compared. A sort of them all that hashed
	// each time at each comparison was a third of the storm rule's time
	// (perf, a Parquet run).
	var room [4 * mergeSlack * maxLimitedTimes]uint64
	hs := room[:0]
	if len(ls) > len(room) {
		hs = make([]uint64, 0, len(ls))
	}
	var top uint64
	for _, l := range ls {
		h := timeHash(l.T)
		top |= h
		hs = append(hs, h)
	}
	shift, b, upTo := nthBucket(hs, top, n)
	keys := make([]limitedKey, 0, upTo)
	for i, l := range ls {
		if hs[i]<<shift>>58 <= b {
			keys = append(keys, limitedKey{hs[i], l})
		}
	}
	sortLimited(keys)
	for i := range n {
		ls[i] = keys[i].l
	}
	return ls[:n]
}

// limitedKey is a 429 response with the hash of its time.
type limitedKey struct {
	h uint64
	l Limited
}

// keyLimited returns the keys of ls, appended to dst.
func keyLimited(ls []Limited, dst []limitedKey) []limitedKey {
	for _, l := range ls {
		dst = append(dst, limitedKey{timeHash(l.T), l})
	}
	return dst
}

// sortLimited sorts keys by hash, time and Retry-After, the order whose
// first n pruneLimited keeps.
func sortLimited(keys []limitedKey) []limitedKey {
	slices.SortFunc(keys, func(a, b limitedKey) int {
		if a.h != b.h {
			return cmp.Compare(a.h, b.h)
		}
		if a.l.T != b.l.T {
			return cmp.Compare(a.l.T, b.l.T)
		}
		return cmp.Compare(a.l.RetryAfter, b.l.RetryAfter)
	})
	return keys
}
