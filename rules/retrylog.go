package rules

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"loganalyze/ingest"
)

// retryLog is one worker's retry samples as its records gave them, not
// yet made into samples: each request's sample (a caller, a key, a
// minute: a head) and time, appended to a buffer; sorted by head a
// buffer at a time into chunks, which are merged now and then, each
// head's times cut to the bound of a sample. A sample is made
// (samples) only where one is read: the few
// the storm rule reads, or all of them for an hour file or a bound to
// keep. Making a sample for each caller, key and minute as its first
// record came (a map entry, a struct, its times grown as they came),
// most of them never read, took a tenth of a run.
//
// The samples made are the ones the records would have made one by
// one: the same times and 429s, cut to the same bounds (the times and
// 429s of smallest hash, whatever the order), the same keys kept past
// the bound on samples (admit).
type retryLog struct {
	pairs  []logPair
	pairOf map[string]int32 // by client, 0 and key hash (appendPairKey)
	heads  []logHead
	// buf holds a request a word: its head << 32 | its offset in its
	// minute (µs, as retrySample.Requests).
	buf    []uint64
	chunks []logChunk
	// fresh counts the times in the chunks sorted since they were last
	// consolidated into one; held that of the consolidated chunk.
	fresh, held int
	// dropped counts, about, the times of heads dropped (lower) since
	// the last consolidation: a lowered cut drops many samples' times at
	// once, which a consolidation lets go.
	dropped     int
	limited     []logLimited
	limitedKept int // len(limited) when it was last cut
	// The bound on samples: as capped's, by keyHash of the sample's key
	// (retrySample's: client, 0, cellBytes). live counts the heads under
	// the cut.
	cut       uint64
	n, live   int
	share     *retryShare
	nextPrune int
	key       []byte
	tmp       []uint64
}

// logPair is a caller and key: its client, the key's hash, its heads by
// minute (in order: a log in time order appends them) and the head of
// the minute found last (cur, of minute curMinute), which its other
// combinations then find without a search.
type logPair struct {
	client    string
	h         uint64
	minutes   []pairMinute
	curMinute int64
	cur       int32
}

// pairMinute is a pair's head of a minute (−1: not kept).
type pairMinute struct {
	minute int64
	head   int32
}

// logHead is a sample: its pair and minute, and its key's hash.
type logHead struct {
	pair   int32
	minute int64
	hash   uint64
}

// logChunk is a buffer sorted, or chunks merged: its heads in order,
// each with its times offs[ends[i-1]:ends[i]] (at most maxRequestTimes
// once merged).
type logChunk struct {
	heads []int32
	ends  []int32
	offs  []uint32
}

// logLimited is a 429 response of head.
type logLimited struct {
	head int32
	l    Limited
}

// logBuffer is how many requests a log holds before it sorts them: 512
// KB, within a core's cache as they are sorted. (A variable, so that a
// test can sort and consolidate small logs.)
var logBuffer = 1 << 16

func newRetryLog(n int, share *retryShare) *retryLog {
	l := &retryLog{pairOf: map[string]int32{}, cut: math.MaxUint64, n: n, share: share}
	if share != nil {
		l.nextPrune = share.minPrune()
	}
	return l
}

// empty reports whether the log holds no sample.
func (l *retryLog) empty() bool { return len(l.heads) == 0 }

// appendSampleKey appends the key of client's sample of cell c: the key
// capped keeps a retry sample by, whose keyHash bounds the samples.
func appendSampleKey[T ~string | ~[]byte](b []byte, client T, c cell) []byte {
	return cellBytes(append(append(b, client...), 0), c)
}

// find returns the pair of client and the key of c, and its head of c's
// minute; −1 for both when the sample is not kept (above the cut).
func (l *retryLog) find(client []byte, c cell) (pair, head int32) {
	l.key = appendPairKey(l.key[:0], client, c.h)
	if p, ok := l.pairOf[string(l.key)]; ok {
		return p, l.head(p, c.minute)
	}
	l.key = appendSampleKey(l.key[:0], client, c)
	hash := keyHash(l.key)
	if !l.admit(hash) {
		return -1, -1
	}
	p := int32(len(l.pairs))
	id := int32(len(l.heads))
	l.heads = append(l.heads, logHead{pair: p, minute: c.minute, hash: hash})
	l.pairs = append(l.pairs, logPair{client: string(client), h: c.h,
		minutes: []pairMinute{{c.minute, id}}, curMinute: c.minute, cur: id})
	l.pairOf[string(appendPairKey(l.key[:0], client, c.h))] = p
	return p, id
}

func appendPairKey(b, client []byte, h uint64) []byte {
	b = append(append(b, client...), 0)
	return append(b, byte(h>>56), byte(h>>48), byte(h>>40), byte(h>>32), byte(h>>24), byte(h>>16), byte(h>>8), byte(h))
}

// head returns pair p's head of minute, starting it; −1 when it is not
// kept.
func (l *retryLog) head(p int32, minute int64) int32 {
	pp := &l.pairs[p]
	if pp.curMinute == minute {
		return pp.cur
	}
	ms := pp.minutes
	i := len(ms)
	if i > 0 && ms[i-1].minute >= minute { // out of time order: search
		i, _ = slices.BinarySearchFunc(ms, minute, func(m pairMinute, t int64) int { return cmp.Compare(m.minute, t) })
	}
	var id int32
	if i < len(ms) && ms[i].minute == minute {
		id = ms[i].head
	} else {
		id = -1
		l.key = appendSampleKey(l.key[:0], pp.client, cell{h: pp.h, minute: minute})
		if hash := keyHash(l.key); l.admit(hash) {
			id = int32(len(l.heads))
			l.heads = append(l.heads, logHead{pair: p, minute: minute, hash: hash})
		}
		// A sample not kept is not kept later either: the cut only
		// falls.
		pp = &l.pairs[p]
		pp.minutes = slices.Insert(pp.minutes, i, pairMinute{minute, id})
	}
	pp.curMinute, pp.cur = minute, id
	return id
}

// admit reports whether a sample of key hash hash is kept, counting it
// in the bound, as capped.get does a key it starts: alone, the n
// smallest hashes are kept (a quarter more held before the cut); shared,
// the workers' bound decides.
func (l *retryLog) admit(hash uint64) bool {
	if hash > l.cut {
		return false
	}
	if l.share != nil {
		if hash > l.share.cut.Load() || !l.share.admit(hash) {
			return false
		}
		l.live++
		if l.live > l.nextPrune {
			l.sync()
			l.nextPrune = max(l.share.minPrune(), 2*l.live)
		}
		return hash <= l.cut
	}
	l.live++
	if l.live > l.n+l.n/4 {
		l.prune()
	}
	return hash <= l.cut
}

// sync lowers the cut to the shared one.
func (l *retryLog) sync() {
	if l.share == nil {
		return
	}
	if cut := l.share.cut.Load(); cut < l.cut {
		l.lower(cut)
	}
}

// prune keeps the n heads of smallest hash.
func (l *retryLog) prune() {
	hs := make([]uint64, 0, l.live)
	for _, h := range l.heads {
		if h.hash <= l.cut {
			hs = append(hs, h.hash)
		}
	}
	if len(hs) <= l.n {
		return
	}
	slices.Sort(hs)
	l.lower(hs[l.n-1])
}

// lower lowers the cut: the heads above it are dropped, their pairs
// forget them, and their times and 429s are dropped as the log is next
// sorted.
func (l *retryLog) lower(cut uint64) {
	l.cut = cut
	was := l.live
	l.live = 0
	for _, h := range l.heads {
		if h.hash <= cut {
			l.live++
		}
	}
	if was > 0 { // their share of the times held, about
		l.dropped += (l.held + l.fresh) * (was - l.live) / was
	}
	for i := range l.pairs {
		if p := &l.pairs[i]; p.cur >= 0 && l.heads[p.cur].hash > cut {
			p.cur = -1
		}
	}
}

// kept reports whether head id is under the cut.
func (l *retryLog) kept(id int32) bool { return l.heads[id].hash <= l.cut }

// add adds a request of head id at off µs into its minute; limited when
// it was answered 429.
func (l *retryLog) add(id int32, off uint32, r *ingest.Record, limited bool) {
	if limited {
		ra, ok := r.Float(ingest.FRetryAfter)
		if !ok {
			ra = 0 // absent, as Limited says: not NaN
		}
		l.limited = append(l.limited, logLimited{head: id, l: Limited{T: r.TimeNS, RetryAfter: ra}})
	}
	if l.buf == nil {
		l.buf = make([]uint64, 0, logBuffer)
	}
	l.buf = append(l.buf, uint64(id)<<32|uint64(off))
	if len(l.buf) == cap(l.buf) {
		l.sortBuffer()
	}
}

// sortBuffer sorts the buffer into a chunk, and consolidates the chunks
// once those sorted since the last time hold more times than it kept,
// and many (consolidate): each time is consolidated a bounded number of
// times over, and a log in time order, whose samples each span a chunk
// or two, seldom is.
func (l *retryLog) sortBuffer() {
	if len(l.buf) > 0 {
		c := l.chunkOf(l.buf)
		l.buf = l.buf[:0]
		l.chunks = append(l.chunks, c)
		l.fresh += len(c.offs)
	}
	if l.fresh > max(l.held, consolidateAfter*logBuffer) || l.dropped > l.held/2+logBuffer {
		l.consolidate()
	}
	if len(l.limited) > 2*l.limitedKept+logBuffer {
		l.cutLimited()
	}
}

// consolidateAfter is how many buffers of times the chunks sorted since
// the last consolidation hold at least before the next: 8 MB.
const consolidateAfter = 32

// consolidate joins the chunks into one, cutting each head's times to
// the bound again: a log out of time order (many hosts' files of the
// same hours) meets a sample in many chunks. The chunks are merged by
// head, each sorted by head.
func (l *retryLog) consolidate() {
	n := 0
	for _, c := range l.chunks {
		n += len(c.offs)
	}
	var out logChunk
	out.offs = make([]uint32, 0, n)
	at := make([]int, len(l.chunks)) // each chunk's next head
	for {
		id := int32(-1)
		for i, c := range l.chunks {
			if at[i] < len(c.heads) && (id < 0 || c.heads[at[i]] < id) {
				id = c.heads[at[i]]
			}
		}
		if id < 0 {
			break
		}
		start := len(out.offs)
		for i, c := range l.chunks {
			if j := at[i]; j < len(c.heads) && c.heads[j] == id {
				from := int32(0)
				if j > 0 {
					from = c.ends[j-1]
				}
				out.offs = append(out.offs, c.offs[from:c.ends[j]]...)
				at[i]++
			}
		}
		if !l.kept(id) {
			out.offs = out.offs[:start]
			continue
		}
		if len(out.offs)-start > maxRequestTimes {
			kept := pruneTimes(out.offs[start:], l.heads[id].minute*60e9, maxRequestTimes)
			out.offs = out.offs[:start+len(kept)]
		}
		out.heads = append(out.heads, id)
		out.ends = append(out.ends, int32(len(out.offs)))
	}
	l.chunks = append(l.chunks[:0], out)
	l.fresh, l.held, l.dropped = 0, len(out.offs), 0
}

// chunkOf sorts words (head << 32 | offset) by head and makes the chunk,
// the heads above the cut dropped. A head's times are cut to the bound
// when chunks are consolidated: most heads of a log in time order have
// their times in one chunk or two, and cutting each chunk's was 1.2 %
// of a Parquet run's cycles (perf).
func (l *retryLog) chunkOf(words []uint64) logChunk {
	words = l.sortByHead(words)
	var c logChunk
	c.offs = make([]uint32, 0, len(words))
	for i := 0; i < len(words); {
		id := int32(words[i] >> 32)
		j := i + 1
		for j < len(words) && int32(words[j]>>32) == id {
			j++
		}
		if l.kept(id) {
			for _, w := range words[i:j] {
				c.offs = append(c.offs, uint32(w))
			}
			c.heads = append(c.heads, id)
			c.ends = append(c.ends, int32(len(c.offs)))
		}
		i = j
	}
	c.offs = slices.Clip(c.offs)
	return c
}

// sortByHead sorts words by their high 32 bits (a head), a radix sort
// over the bits in which the buffer's heads differ, 11 at a time: a
// buffer holds the heads of a few minutes, most often a few thousand
// apart.
func (l *retryLog) sortByHead(words []uint64) []uint64 {
	if len(words) < 2 {
		return words
	}
	lo, hi := words[0]>>32, words[0]>>32
	for _, w := range words {
		h := w >> 32
		lo, hi = min(lo, h), max(hi, h)
	}
	if cap(l.tmp) < len(words) {
		l.tmp = make([]uint64, len(words))
	}
	a, b := words, l.tmp[:len(words)]
	const digit = 11
	var count [1 << digit]int32
	for shift := 0; shift < bits.Len64(hi-lo); shift += digit {
		clear(count[:])
		for _, w := range a {
			count[((w>>32)-lo)>>shift&(1<<digit-1)]++
		}
		sum := int32(0)
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, w := range a {
			d := ((w >> 32) - lo) >> shift & (1<<digit - 1)
			b[count[d]] = w
			count[d]++
		}
		a, b = b, a
	}
	if &a[0] != &words[0] {
		copy(words, a)
	}
	return words
}

// cutLimited drops the 429s of heads above the cut and cuts each head's
// to the bound, as a sample's are cut.
func (l *retryLog) cutLimited() {
	slices.SortStableFunc(l.limited, func(a, b logLimited) int { return int(a.head) - int(b.head) })
	out := l.limited[:0]
	for i := 0; i < len(l.limited); {
		j := i + 1
		for j < len(l.limited) && l.limited[j].head == l.limited[i].head {
			j++
		}
		if id := l.limited[i].head; l.kept(id) {
			group := make([]Limited, 0, j-i)
			for _, x := range l.limited[i:j] {
				group = append(group, x.l)
			}
			if len(group) > 2*maxLimitedTimes {
				group = pruneLimited(group, maxLimitedTimes)
			}
			for _, x := range group {
				out = append(out, logLimited{head: id, l: x})
			}
		}
		i = j
	}
	l.limited = out
	l.limitedKept = len(out)
}

// samples makes the samples of the heads want accepts (of those under
// the cut), by their keys, with their times and 429s not yet settled.
func (l *retryLog) samples(want func(pairClient string, h uint64, minute int64) bool) map[string]*retrySample {
	byHead := map[int32]*retrySample{}
	for id, h := range l.heads {
		p := &l.pairs[h.pair]
		if h.hash <= l.cut && want(p.client, p.h, h.minute) {
			byHead[int32(id)] = &retrySample{Client: p.client, KeyHash: p.h, Minute: h.minute}
		}
	}
	out := make(map[string]*retrySample, len(byHead))
	if len(byHead) == 0 {
		return out
	}
	// Each chunk's heads are sorted: the few wanted are searched for.
	for _, c := range l.chunks {
		for id, rs := range byHead {
			if i, ok := slices.BinarySearch(c.heads, id); ok {
				start := int32(0)
				if i > 0 {
					start = c.ends[i-1]
				}
				rs.Requests = append(rs.Requests, c.offs[start:c.ends[i]]...)
			}
		}
	}
	for _, w := range l.buf {
		if rs := byHead[int32(w>>32)]; rs != nil {
			rs.Requests = append(rs.Requests, uint32(w))
		}
	}
	for _, x := range l.limited {
		if rs := byHead[x.head]; rs != nil {
			rs.Limited = append(rs.Limited, x.l)
		}
	}
	var key []byte
	for _, rs := range byHead {
		key = appendSampleKey(key[:0], rs.Client, cell{h: rs.KeyHash, minute: rs.Minute})
		out[string(key)] = rs
	}
	return out
}

// capped returns the log's samples as a capped map with its cut, the
// form merges join (joinRetries).
func (l *retryLog) capped() *capped[*retrySample] {
	l.sync()
	m := l.samples(func(string, uint64, int64) bool { return true })
	return &capped[*retrySample]{m: m, n: l.n, cut: l.cut}
}
