package aggregate

import (
	"sort"

	"loganalyze/sketch"
)

// maxTimelineBuckets bounds how many time buckets a region's series
// holds: past it the buckets are coarsened to the next width.
const maxTimelineBuckets = 1440

// maxTimelineRegions bounds how many regions get a series; the records
// of any further region are left out of the per-region time line (they
// still count everywhere else).
const maxTimelineRegions = 32

// bucketWidths are the widths, in seconds, a time line is coarsened
// through; each divides the next, so coarsening in any order gives the
// same buckets. Past the last, widths grow tenfold.
var bucketWidths = []int64{60, 300, 900, 3600, 6 * 3600, 86400}

// RegionTimeline is request_time (ms) per time bucket and region, for the
// p99-over-time chart. Buckets are one minute wide until the records span
// more than maxTimelineBuckets minutes, then 5 minutes, 15 minutes, an
// hour and so on, so memory stays bounded whatever the span.
type RegionTimeline struct {
	// Width is the bucket width in seconds (0 before the first record).
	Width  int64
	series map[string]map[int64]*sketch.Sketch // region → bucket start (Unix s) → sketch
	minB   int64
	maxB   int64
}

// add adds one request_time bin at Unix nanoseconds t for region; a
// record without a region is left out.
func (tl *RegionTimeline) add(m *sketch.Mapping, t int64, region []byte, b sketch.Bin) {
	if region == nil {
		return
	}
	if tl.series == nil {
		tl.series = map[string]map[int64]*sketch.Sketch{}
		tl.Width = bucketWidths[0]
		start := floorDiv(t, 1e9*tl.Width) * tl.Width
		tl.minB, tl.maxB = start, start
	}
	s, ok := tl.series[string(region)]
	if !ok {
		if len(tl.series) >= maxTimelineRegions {
			return
		}
		s = map[int64]*sketch.Sketch{}
		tl.series[string(region)] = s
	}
	start := floorDiv(t, 1e9*tl.Width) * tl.Width
	if start < tl.minB || start > tl.maxB {
		tl.minB, tl.maxB = min(tl.minB, start), max(tl.maxB, start)
		if tl.coarsen() {
			start = floorDiv(t, 1e9*tl.Width) * tl.Width
			s = tl.series[string(region)]
		}
	}
	sk := s[start]
	if sk == nil {
		sk = sketch.New(m)
		s[start] = sk
	}
	sk.AddBin(b)
}

// nextWidth returns the width after w.
func nextWidth(w int64) int64 {
	for _, x := range bucketWidths {
		if x > w {
			return x
		}
	}
	return w * 10
}

// coarsen widens the buckets until the span fits; it reports whether the
// width changed.
func (tl *RegionTimeline) coarsen() bool {
	w := tl.Width
	for (tl.maxB-tl.minB)/w >= maxTimelineBuckets {
		w = nextWidth(w)
		tl.minB = floorDiv(tl.minB, w) * w
		tl.maxB = floorDiv(tl.maxB, w) * w
	}
	if w == tl.Width {
		return false
	}
	tl.rebucket(w)
	return true
}

// rebucket merges every series into buckets of width w, a multiple of
// the current width.
func (tl *RegionTimeline) rebucket(w int64) {
	for region, s := range tl.series {
		ns := make(map[int64]*sketch.Sketch, len(s))
		for _, start := range sortedStarts(s) {
			k := floorDiv(start, w) * w
			if d := ns[k]; d != nil {
				d.Merge(s[start])
			} else {
				ns[k] = s[start]
			}
		}
		tl.series[region] = ns
	}
	tl.Width = w
}

// merge adds o into tl.
func (tl *RegionTimeline) merge(o *RegionTimeline) {
	if o.series == nil {
		return
	}
	if tl.series == nil {
		*tl = *o
		return
	}
	if o.Width > tl.Width {
		tl.rebucket(o.Width)
		tl.minB = floorDiv(tl.minB, o.Width) * o.Width
		tl.maxB = floorDiv(tl.maxB, o.Width) * o.Width
	} else if o.Width < tl.Width {
		o.rebucket(tl.Width)
	}
	tl.minB, tl.maxB = min(tl.minB, floorDiv(o.minB, tl.Width)*tl.Width), max(tl.maxB, floorDiv(o.maxB, tl.Width)*tl.Width)
	for _, region := range o.Regions() {
		os := o.series[region]
		s, ok := tl.series[region]
		if !ok {
			if len(tl.series) >= maxTimelineRegions {
				continue
			}
			s = map[int64]*sketch.Sketch{}
			tl.series[region] = s
		}
		for _, start := range sortedStarts(os) {
			if d := s[start]; d != nil {
				d.Merge(os[start])
			} else {
				s[start] = os[start]
			}
		}
	}
	tl.coarsen()
}

// Regions returns the regions that have a series, sorted.
func (tl *RegionTimeline) Regions() []string {
	out := make([]string, 0, len(tl.series))
	for r := range tl.series {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// Series calls f for each bucket of region in time order with the
// bucket's start (Unix seconds) and its request_time sketch.
func (tl *RegionTimeline) Series(region string, f func(start int64, s *sketch.Sketch)) {
	s := tl.series[region]
	for _, start := range sortedStarts(s) {
		f(start, s[start])
	}
}

func sortedStarts(s map[int64]*sketch.Sketch) []int64 {
	keys := make([]int64, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}
