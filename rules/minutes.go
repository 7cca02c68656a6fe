package rules

import (
	"encoding/binary"
	"math"
	"sort"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// keyKind says which fields key the per-minute buckets of the storm and
// burst rules (SPEC §5): region and model when the record has both, else
// the first of upstream_addr, host and uri it has, else the whole input.
// Each record is bucketed under the best key it has.
type keyKind uint8

// Key kinds, best first.
const (
	keyRegionModel keyKind = iota
	keyUpstream
	keyHost
	keyURI
	keyAll
	numKeyKinds
)

var keyFields = [numKeyKinds][]string{
	keyRegionModel: {"region", "model"},
	keyUpstream:    {"upstream_addr"},
	keyHost:        {"host"},
	keyURI:         {"uri"},
	keyAll:         {"all"},
}

// Fields returns the names of the fields k keys by, in the order of a
// bucket's Key; keyAll's one name is "all", with the value "".
func (k keyKind) Fields() []string { return keyFields[k] }

// bucketKey returns the best key of r and its values: the last address
// of an upstream list ("10.0.0.1:80, 10.0.0.2:80" is the second, the one
// that answered), the uri without its query.
func bucketKey(r *ingest.Record) (keyKind, []byte, []byte) {
	if region, model := r.Text(ingest.FRegion), r.Text(ingest.FModel); region != nil && model != nil {
		return keyRegionModel, region, model
	}
	if a := r.Text(ingest.FUpstreamAddr); a != nil {
		return keyUpstream, lastListItem(a), nil
	}
	if h := r.Text(ingest.FHost); h != nil {
		return keyHost, h, nil
	}
	if u := r.Text(ingest.FURI); u != nil {
		return keyURI, path(u), nil
	}
	return keyAll, nil, nil
}

// appendKey appends the bytes a key is hashed from.
func appendKey(b []byte, kind keyKind, k0, k1 []byte) []byte {
	return append(append(append(append(b, byte(kind)), k0...), 0), k1...)
}

// lastListItem returns the last item of a comma-separated list, trimmed.
func lastListItem(b []byte) []byte {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == ',' {
			b = b[i+1:]
			break
		}
	}
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// Bounds of the per-minute state, per key of --top (at the default of
// 1000): 512 Ki key × minutes counted (35 region × model pairs for ten
// days; 1000 for eight and a half hours), 64 Ki of them with 429 or
// error details. Past a bound the oldest key × minutes are dropped:
// which ones depends only on the records' times and keys, so the
// buckets that remain are exact whatever the split between workers, and
// minuteStats.JudgedFrom says from when.
const (
	cellsPerTop   = 512
	bucketsPerTop = 64
)

// cell is one key × minute: the key's hash and the Unix minute. Cells
// are ordered by minute, then hash; "latest" is largest.
type cell struct {
	h      uint64
	minute int64
}

func (a cell) less(b cell) bool {
	if a.minute != b.minute {
		return a.minute < b.minute
	}
	return a.h < b.h
}

// minuteStats is what the storm and burst rules need: per key and minute,
// the responses, and for the minutes with a 429 or an error response the
// details their evidence shows; and samples of who retried when.
type minuteStats struct {
	// Buckets, after the merge, are the key × minutes that had a 429 or
	// an error response, sorted by kind, key and minute.
	Buckets []*minuteBucket
	// Records counts the records bucketed under each kind of key.
	Records [numKeyKinds]int64
	// JudgedFrom, when not zero, is the Unix minute from which every key
	// × minute was kept: the log held more than the bound, and earlier
	// minutes were dropped (some keys of JudgedFrom − 1 too).
	JudgedFrom int64
	// log holds the samples of each caller's requests per key and
	// minute as the records give them; logs are the logs of the minutes
	// merged into these, kept apart until read (mergeRetries).
	log  *retryLog
	logs []*retryLog
	// samples are the samples made, by client, key hash and minute
	// (capped): an hour file's, and the logs' once joined; pending are
	// those of the minutes merged into these, kept apart until read.
	samples capped[*retrySample]
	pending []*capped[*retrySample]

	cells              map[cell]*int64
	buckets            map[cell]*minuteBucket
	cellCut, bucketCut cell // the latest cell dropped, when capped
	cellsCapped        bool
	bucketsCapped      bool
	maxCells           int
	maxBuckets         int
	key                []byte
	// byCombo keeps, per combination of the records' keys, the cell and
	// retry sample of its latest minute, when its key is its region and
	// model: Reset whenever a cell is dropped.
	byCombo aggregate.ComboCache[minuteSlot]
}

// minuteSlot is what a record of a cell counts into: the cell's count
// (nil when the cell is not kept) and its caller's retry sample, a head
// of the log (−1 when none is kept), of its pair (the caller and key;
// −1 when none), which the next minute's head is found by.
type minuteSlot struct {
	c          cell
	n          *int64
	pair, head int32
}

// newMinuteStats returns the minutes of a collector at --top top, its
// retry samples bounded with share's (nil: alone).
func newMinuteStats(top int, share *retryShare) *minuteStats {
	return &minuteStats{
		log:        newRetryLog(retryKeysFor(top), share),
		samples:    newCapped[*retrySample](retryKeysFor(top), share),
		cells:      map[cell]*int64{},
		buckets:    map[cell]*minuteBucket{},
		maxCells:   cellsPerTop * top,
		maxBuckets: bucketsPerTop * top,
	}
}

// AddRecords adds records rs[idx] (aggregate.BatchCollector).
func (s *minuteStats) AddRecords(rs []ingest.Record, idx []int32, vs []aggregate.Values) {
	for _, i := range idx {
		s.Add(&rs[i], &vs[i])
	}
}

// Add adds a record that has a time (aggregate.Collector).
func (s *minuteStats) Add(r *ingest.Record, v *aggregate.Values) {
	if r.Has(ingest.FTime) {
		s.add(r, v)
	}
}

// Merge adds another worker's minutes (aggregate.Collector).
func (s *minuteStats) Merge(o aggregate.Collector) {
	s.byCombo.Reset()
	s.merge(o.(*minuteStats))
}

// Finish bounds and sorts the minutes (aggregate.Collector).
func (s *minuteStats) Finish() { s.finish() }

// minutesCollector is the collector the storm and burst rules share.
func minutesCollector() (string, func(collectEnv) aggregate.Collector) {
	return "minutes", func(e collectEnv) aggregate.Collector {
		return newMinuteStats(e.top, e.shared.of(func(b *sharedBounds) *retryShare { return b.retries }))
	}
}

// retriesPruned says whether retry samples were dropped to bound memory.
func (s *minuteStats) retriesPruned() bool {
	cut := s.samples.cut
	s.eachLog(func(l *retryLog) { cut = min(cut, l.cut) })
	return cut != math.MaxUint64
}

// partly says what part of the input the storm and burst rules could not
// judge, or "": only the latest minutes of a log with more key × minutes
// than their bound.
func (s *minuteStats) partly() string {
	if s.JudgedFrom == 0 {
		return ""
	}
	return "partly: minutes before " + time.Unix(s.JudgedFrom*60, 0).UTC().Format(time.RFC3339) +
		" were not judged, the log holding more key × minute buckets than kept (the latest are)"
}

// add adds a record that has a time. A record of the same combination
// and minute as the one before it of its combination counts into what
// that one found.
func (s *minuteStats) add(r *ingest.Record, v *aggregate.Values) {
	kind, k0, k1 := bucketKey(r)
	s.Records[kind]++
	minute := floorDiv(r.TimeNS, 60e9)
	var slot *minuteSlot
	if kind == keyRegionModel { // a key of the combination's fields
		var hit bool
		if slot, hit = s.byCombo.Get(v.Combo); hit {
			if slot.c.minute != minute {
				// The minute turned: the same key and caller.
				turned := minuteSlot{c: cell{h: slot.c.h, minute: minute}, pair: slot.pair, head: -1}
				turned.pair, turned.head = s.sampleOf(r, turned.pair, turned.c)
				turned.n = s.cell(turned.c)
				*slot = turned // invalid if the cell cut the cells, as below
			}
			s.count(r, v, slot, kind, k0, k1)
			return
		}
	}
	s.key = appendKey(s.key[:0], kind, k0, k1)
	found := minuteSlot{c: cell{h: keyHash(s.key), minute: minute}}
	found.pair, found.head = s.sampleOf(r, -1, found.c)
	found.n = s.cell(found.c)
	if slot != nil {
		// A cut since Get left the slot invalid: the next record looks
		// up again.
		*slot = found
	}
	s.count(r, v, &found, kind, k0, k1)
}

// sampleOf returns the pair and head of r's sample of cell c, by pair
// when it is known (not −1), else by r's client; −1 for both when the
// sample is not kept or r has no client.
func (s *minuteStats) sampleOf(r *ingest.Record, pair int32, c cell) (int32, int32) {
	if pair >= 0 {
		return pair, s.log.head(pair, c.minute)
	}
	if client := r.Text(ingest.FClient); client != nil {
		return s.log.find(client, c)
	}
	return -1, -1
}

// cell returns the count of c, starting it; nil when c is too old to be
// kept.
func (s *minuteStats) cell(c cell) *int64 {
	if s.cellsCapped && !s.cellCut.less(c) {
		return nil
	}
	n := s.cells[c]
	if n == nil {
		n = new(int64)
		s.cells[c] = n
		if len(s.cells) > s.maxCells+s.maxCells/4 {
			s.cutCells(keepLatest(s.cells, s.maxCells))
			s.byCombo.Clear()
		}
	}
	return n
}

// count counts a record into its cell, retry sample and bucket.
func (s *minuteStats) count(r *ingest.Record, v *aggregate.Values, sl *minuteSlot, kind keyKind, k0, k1 []byte) {
	status, okStatus := r.Int(ingest.FStatus)
	if sl.head >= 0 {
		s.log.add(sl.head, uint32((r.TimeNS-sl.c.minute*60e9)/1000), r, okStatus && status == 429)
	}
	if sl.n == nil {
		return
	}
	*sl.n++
	if okStatus && (status == 429 || isError(status)) {
		if b := s.bucket(sl.c, kind, k0, k1); b != nil {
			b.add(r, status, v.RequestTime, v.HasRequestTime)
		}
	}
}

// bucket returns the bucket of c, starting it; nil when c is too old to
// be kept.
func (s *minuteStats) bucket(c cell, kind keyKind, k0, k1 []byte) *minuteBucket {
	if b := s.buckets[c]; b != nil {
		return b
	}
	if s.bucketsCapped && !s.bucketCut.less(c) {
		return nil
	}
	b := &minuteBucket{Kind: kind, Key: [2]string{string(k0), string(k1)}, Minute: c.minute}
	s.buckets[c] = b
	if len(s.buckets) > s.maxBuckets+s.maxBuckets/4 {
		s.cutBuckets(keepLatest(s.buckets, s.maxBuckets))
	}
	return s.buckets[c]
}

// keepLatest keeps the n latest cells of m and returns the latest one it
// dropped, and whether it dropped any.
func keepLatest[V any](m map[cell]V, n int) (cell, bool) {
	if len(m) <= n {
		return cell{}, false
	}
	cs := make([]cell, 0, len(m))
	for c := range m {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[j].less(cs[i]) })
	for _, c := range cs[n:] {
		delete(m, c)
	}
	return cs[n], true
}

func (s *minuteStats) cutCells(c cell, dropped bool) {
	if dropped && (!s.cellsCapped || s.cellCut.less(c)) {
		s.cellCut, s.cellsCapped = c, true
	}
}

func (s *minuteStats) cutBuckets(c cell, dropped bool) {
	if dropped && (!s.bucketsCapped || s.bucketCut.less(c)) {
		s.bucketCut, s.bucketsCapped = c, true
	}
}

// merge adds o into s.
func (s *minuteStats) merge(o *minuteStats) {
	for i, n := range o.Records {
		s.Records[i] += n
	}
	s.cutCells(o.cellCut, o.cellsCapped)
	s.cutBuckets(o.bucketCut, o.bucketsCapped)
	for c, n := range o.cells {
		if sn := s.cells[c]; sn != nil {
			*sn += *n
		} else {
			s.cells[c] = n
		}
	}
	for c, ob := range o.buckets {
		if b := s.buckets[c]; b != nil {
			b.merge(ob)
		} else {
			s.buckets[c] = ob
		}
	}
	s.applyCuts()
	if len(s.cells) > s.maxCells+s.maxCells/4 {
		s.cutCells(keepLatest(s.cells, s.maxCells))
	}
	if len(s.buckets) > s.maxBuckets+s.maxBuckets/4 {
		s.cutBuckets(keepLatest(s.buckets, s.maxBuckets))
	}
	s.mergeRetries(o)
}

// applyCuts drops the cells and buckets at or before the cuts.
func (s *minuteStats) applyCuts() {
	if s.cellsCapped {
		for c := range s.cells {
			if !s.cellCut.less(c) {
				delete(s.cells, c)
			}
		}
	}
	if s.bucketsCapped {
		for c := range s.buckets {
			if !s.bucketCut.less(c) {
				delete(s.buckets, c)
			}
		}
	}
}

// finish bounds the state to its caps, gives each bucket its minute's
// responses and sorts the buckets. Call it once, after the last merge.
func (s *minuteStats) finish() {
	s.cutCells(keepLatest(s.cells, s.maxCells))
	s.cutBuckets(keepLatest(s.buckets, s.maxBuckets))
	if s.cellsCapped || s.bucketsCapped {
		cut := s.cellCut
		if s.bucketsCapped && (!s.cellsCapped || cut.less(s.bucketCut)) {
			cut = s.bucketCut
		}
		s.JudgedFrom = cut.minute + 1
	}
	s.Buckets = s.Buckets[:0]
	for c, b := range s.buckets {
		// A bucket whose minute's count was dropped is older than
		// JudgedFrom: it cannot be judged.
		if n, ok := s.cells[c]; ok {
			b.Total = *n
			s.Buckets = append(s.Buckets, b)
		}
	}
	sort.Slice(s.Buckets, func(i, j int) bool { return s.Buckets[i].before(s.Buckets[j]) })
	s.cells, s.buckets = nil, nil
	s.finishRetries()
}

// before orders buckets by kind, key and minute.
func (b *minuteBucket) before(o *minuteBucket) bool {
	if b.Kind != o.Kind {
		return b.Kind < o.Kind
	}
	if b.Key != o.Key {
		return b.Key[0] < o.Key[0] || b.Key[0] == o.Key[0] && b.Key[1] < o.Key[1]
	}
	return b.Minute < o.Minute
}

// cellBytes appends c to b, for the key of a retry sample.
func cellBytes(b []byte, c cell) []byte {
	b = binary.BigEndian.AppendUint64(b, c.h)
	return binary.BigEndian.AppendUint64(b, uint64(c.minute))
}
