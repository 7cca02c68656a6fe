package aggregate

import (
	"sort"

	"loganalyze/sketch"
)

// TimelineWidths are the bucket widths of the time line, in seconds: a
// minute, 5 minutes, an hour, a day, then 10 and 100 days, so that even
// the whole readable range of times (2000–2100) fits. Each divides the
// next and buckets start at multiples of their width from the Unix
// epoch, so a time line can always be re-bucketed to a wider width by
// merging buckets, exactly.
var TimelineWidths = [...]int64{60, 300, 3600, 86400, 864000, 8640000}

// MaxTimelineBuckets bounds the time line (SPEC §4): its width is the
// narrowest at which the span of the records' times holds at most this
// many buckets. A width depends only on the first and the last time, so
// the time line is the same whatever the order of the records and their
// split between workers.
const MaxTimelineBuckets = 2000

// maxTimelineRegions bounds how many regions get a p99 series: those of
// the smallest hash, a choice that does not depend on the split between
// workers. Any further region still counts everywhere else.
const maxTimelineRegions = 32

// WidthFor returns the bucket width, in seconds, of a time line whose
// records span Unix seconds lo to hi.
func WidthFor(lo, hi int64) int64 {
	for _, w := range TimelineWidths {
		if floorDiv(hi, w)-floorDiv(lo, w) < MaxTimelineBuckets {
			return w
		}
	}
	return TimelineWidths[len(TimelineWidths)-1]
}

// TimeBucket is one bucket of the time line.
type TimeBucket struct {
	Start    int64 // Unix seconds
	Requests int64
	N429     int64
	N5xx     int64
	RT       *sketch.Sketch // request_time, ms; nil when no record had one
}

func (b *TimeBucket) merge(o *TimeBucket) {
	b.Requests += o.Requests
	b.N429 += o.N429
	b.N5xx += o.N5xx
	if o.RT != nil {
		if b.RT == nil {
			b.RT = o.RT
		} else {
			b.RT.Merge(o.RT)
		}
	}
}

// Timeline is the time line of SPEC §4: requests, 429 and 5xx responses
// and request_time per bucket, and request_time per bucket of each
// region (for the p99-over-time chart). Buckets are a minute wide until
// the records span more than MaxTimelineBuckets minutes, then wider
// (TimelineWidths), so memory stays bounded whatever the span.
type Timeline struct {
	// Width is the bucket width in seconds (0 before the first record).
	Width      int64
	minS, maxS int64 // the span of the records' times, Unix seconds
	buckets    map[int64]*TimeBucket
	regions    map[string]map[int64]*sketch.Sketch // region → bucket start → request_time
	regionCut  uint64                              // a region hashing above it gets no series
	// last is the bucket the latest record went to, and byCombo the
	// region sketch of each combination's latest bucket: records come
	// in about time order, so most find theirs without a look-up. A
	// widening or a dropped region resets both.
	last    *TimeBucket
	byCombo ComboCache[regionSlot]
	// split says the buckets' RT hold only the records not in a
	// region's series: a record of a region with a series is added to
	// that alone, and join adds the series to the buckets where they are
	// read. A time line decoded or merged is joined, and adds to both.
	split bool
}

// regionSlot is the region sketch a combination's records of the bucket
// from start go to; nil when its region has no series.
type regionSlot struct {
	start int64
	sk    *sketch.Sketch
}

// add adds one record at Unix nanoseconds t: its status when known
// (status 0 is none) and, when hasRT, its request_time bin and region (nil
// when absent).
func (tl *Timeline) add(m *sketch.Mapping, t int64, status int64, hasRT bool, rt sketch.Bin, region []byte, combo int) {
	sec := floorDiv(t, 1e9)
	if tl.Width == 0 {
		tl.Width, tl.minS, tl.maxS = TimelineWidths[0], sec, sec
		tl.buckets = map[int64]*TimeBucket{}
		tl.regions = map[string]map[int64]*sketch.Sketch{}
		tl.regionCut = ^uint64(0)
		tl.split = true
	}
	if sec < tl.minS || sec > tl.maxS {
		tl.minS, tl.maxS = min(tl.minS, sec), max(tl.maxS, sec)
		if w := WidthFor(tl.minS, tl.maxS); w > tl.Width {
			tl.widen(w)
		}
	}
	// A record in the bucket of the one before it (the log's order)
	// needs no division by the width to find it.
	b := tl.last
	if b == nil || sec < b.Start || sec-b.Start >= tl.Width {
		start := floorDiv(sec, tl.Width) * tl.Width
		if b = tl.buckets[start]; b == nil {
			b = &TimeBucket{Start: start}
			tl.buckets[start] = b
		}
		tl.last = b
	}
	start := b.Start
	b.Requests++
	switch {
	case status == 429:
		b.N429++
	case status >= 500 && status < 600:
		b.N5xx++
	}
	if !hasRT {
		return
	}
	var sk *sketch.Sketch
	if region != nil {
		slot, hit := tl.byCombo.Get(combo)
		if hit && slot.start == start {
			sk = slot.sk
		} else {
			sk = tl.regionSketch(m, region, start)
			if slot != nil {
				// A region dropped since Get left the slot invalid.
				*slot = regionSlot{start, sk}
			}
		}
	}
	if sk != nil {
		sk.AddBin(rt)
		if tl.split {
			return
		}
	}
	if b.RT == nil {
		var like *sketch.Sketch
		if before := tl.buckets[start-tl.Width]; before != nil {
			like = before.RT
		}
		b.RT = sketch.NewLike(m, like)
	}
	b.RT.AddBin(rt)
}

// join adds the regions' series to the buckets' RT, which until then
// hold only the records of no series (split).
func (tl *Timeline) join() {
	if !tl.split {
		return
	}
	for _, region := range tl.Regions() {
		tl.joinRegion(tl.regions[region])
	}
	tl.split = false
}

// joinRegion adds a region's series to the buckets' RT.
func (tl *Timeline) joinRegion(s map[int64]*sketch.Sketch) {
	for _, start := range sortedStarts(s) {
		b := tl.buckets[start]
		if b == nil { // a series' bucket always has its records
			b = &TimeBucket{Start: start}
			tl.buckets[start] = b
		}
		if b.RT == nil {
			b.RT = sketch.New(s[start].Mapping())
		}
		b.RT.Merge(s[start])
	}
}

// regionSketch returns region's sketch of the bucket from start,
// starting it; nil when the region has no series.
func (tl *Timeline) regionSketch(m *sketch.Mapping, region []byte, start int64) *sketch.Sketch {
	s := tl.regions[string(region)]
	if s == nil {
		if s = tl.newRegion(string(region)); s == nil {
			return nil
		}
	}
	sk := s[start]
	if sk == nil {
		sk = sketch.NewLike(m, s[start-tl.Width]) // sized as the bucket before
		s[start] = sk
	}
	return sk
}

// newRegion starts the series of a region, unless the region's hash is
// above the cut; past maxTimelineRegions, the region of the largest hash
// is dropped and the cut lowered below it.
func (tl *Timeline) newRegion(region string) map[int64]*sketch.Sketch {
	if KeyHash(region) > tl.regionCut {
		return nil
	}
	s := map[int64]*sketch.Sketch{}
	tl.regions[region] = s
	tl.boundRegions()
	return tl.regions[region]
}

// boundRegions keeps the maxTimelineRegions regions of smallest hash.
func (tl *Timeline) boundRegions() {
	for len(tl.regions) > maxTimelineRegions {
		worst, wh := "", uint64(0)
		for r := range tl.regions {
			if h := KeyHash(r); h > wh || h == wh && r > worst {
				worst, wh = r, h
			}
		}
		if tl.split { // its records stay in the buckets
			tl.joinRegion(tl.regions[worst])
		}
		delete(tl.regions, worst)
		tl.regionCut = wh - 1
		tl.byCombo.Clear()
	}
}

// widen re-buckets the time line to width w, a multiple of its width.
func (tl *Timeline) widen(w int64) {
	tl.last = nil
	tl.byCombo.Clear()
	nb := make(map[int64]*TimeBucket, len(tl.buckets))
	for _, start := range sortedStarts(tl.buckets) {
		b := tl.buckets[start]
		k := floorDiv(start, w) * w
		if d := nb[k]; d != nil {
			d.merge(b)
		} else {
			b.Start = k
			nb[k] = b
		}
	}
	tl.buckets = nb
	for region, s := range tl.regions {
		tl.regions[region] = rebucket(s, w)
	}
	tl.Width = w
}

func rebucket(s map[int64]*sketch.Sketch, w int64) map[int64]*sketch.Sketch {
	ns := make(map[int64]*sketch.Sketch, len(s))
	for _, start := range sortedStarts(s) {
		k := floorDiv(start, w) * w
		if d := ns[k]; d != nil {
			d.Merge(s[start])
		} else {
			ns[k] = s[start]
		}
	}
	return ns
}

// merge adds o into tl; o is left unusable. The width is the one the
// merged span calls for, at least either side's.
func (tl *Timeline) merge(o *Timeline) {
	if o.Width == 0 {
		return
	}
	// What either cached is of its own records' combinations.
	defer func() { tl.last, tl.byCombo = nil, ComboCache[regionSlot]{} }()
	tl.join()
	o.join()
	if tl.Width == 0 {
		*tl = *o
		return
	}
	tl.minS, tl.maxS = min(tl.minS, o.minS), max(tl.maxS, o.maxS)
	w := max(tl.Width, o.Width, WidthFor(tl.minS, tl.maxS))
	if w > tl.Width {
		tl.widen(w)
	}
	if w > o.Width {
		o.widen(w)
	}
	for _, start := range sortedStarts(o.buckets) {
		if b := tl.buckets[start]; b != nil {
			b.merge(o.buckets[start])
		} else {
			tl.buckets[start] = o.buckets[start]
		}
	}
	tl.regionCut = min(tl.regionCut, o.regionCut)
	for _, region := range o.Regions() {
		if KeyHash(region) > tl.regionCut {
			continue
		}
		s := tl.regions[region]
		if s == nil {
			tl.regions[region] = o.regions[region]
			continue
		}
		for start, sk := range o.regions[region] {
			if d := s[start]; d != nil {
				d.Merge(sk)
			} else {
				s[start] = sk
			}
		}
	}
	for region := range tl.regions {
		if KeyHash(region) > tl.regionCut {
			delete(tl.regions, region)
		}
	}
	tl.boundRegions()
}

// Buckets returns the buckets in time order; a bucket without records is
// not there.
func (tl *Timeline) Buckets() []*TimeBucket {
	tl.join()
	out := make([]*TimeBucket, 0, len(tl.buckets))
	for _, start := range sortedStarts(tl.buckets) {
		out = append(out, tl.buckets[start])
	}
	return out
}

// Regions returns the regions that have a p99 series, sorted.
func (tl *Timeline) Regions() []string {
	out := make([]string, 0, len(tl.regions))
	for r := range tl.regions {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// Series calls f for each bucket of region in time order with the
// bucket's start (Unix seconds) and its request_time sketch.
func (tl *Timeline) Series(region string, f func(start int64, s *sketch.Sketch)) {
	s := tl.regions[region]
	for _, start := range sortedStarts(s) {
		f(start, s[start])
	}
}

func sortedStarts[V any](s map[int64]V) []int64 {
	keys := make([]int64, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// KeyHash is FNV-1a: fixed, so that the same input keeps the same keys
// in every run.
func KeyHash[T string | []byte](k T) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(k); i++ {
		h ^= uint64(k[i])
		h *= 1099511628211
	}
	return h
}
