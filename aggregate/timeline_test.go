package aggregate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/sketch"
)

type tlPoint struct {
	t      int64 // Unix ns
	region string
	status int64
	v      float64 // ms
}

var tlBase = int64(1_795_000_000) * 1e9

func tlPoints(seed uint64, n int, span int64, regions int) []tlPoint {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]tlPoint, n)
	statuses := []int64{200, 200, 200, 200, 429, 502, 504, 499}
	for i := range out {
		out[i] = tlPoint{
			t:      tlBase + rng.Int64N(span),
			region: "r" + strconv.Itoa(rng.IntN(regions)),
			status: statuses[rng.IntN(len(statuses))],
			v:      math.Exp(rng.NormFloat64()) * 500,
		}
	}
	return out
}

func fill(t *testing.T, m *sketch.Mapping, pts []tlPoint) *Timeline {
	t.Helper()
	tl := &Timeline{}
	for _, p := range pts {
		// The region's number stands for the combination's id, which
		// determines the region, so that the region cache is used.
		combo, _ := strconv.Atoi(p.region[1:])
		tl.add(m, p.t, p.status, true, m.Bin(p.v), []byte(p.region), combo)
	}
	return tl
}

// checkAgainstOracle compares every bucket, of the whole time line and
// of each region, with the exact values that fall in it: the counts
// exactly, p99 within the sketch accuracy.
func checkAgainstOracle(t *testing.T, tl *Timeline, pts []tlPoint) {
	t.Helper()
	type counts struct{ n, n429, n5xx int64 }
	all := map[int64]*counts{}
	exact := map[string]map[int64][]float64{}
	for _, p := range pts {
		start := floorDiv(p.t, 1e9*tl.Width) * tl.Width
		c := all[start]
		if c == nil {
			c = &counts{}
			all[start] = c
		}
		c.n++
		switch {
		case p.status == 429:
			c.n429++
		case p.status >= 500:
			c.n5xx++
		}
		if exact[p.region] == nil {
			exact[p.region] = map[int64][]float64{}
		}
		exact[p.region][start] = append(exact[p.region][start], p.v)
	}
	bs := tl.Buckets()
	if len(bs) != len(all) || len(bs) > MaxTimelineBuckets {
		t.Fatalf("%d buckets, want %d (at most %d)", len(bs), len(all), MaxTimelineBuckets)
	}
	for _, b := range bs {
		c := all[b.Start]
		if c == nil || b.Requests != c.n || b.N429 != c.n429 || b.N5xx != c.n5xx || b.RT.Count() != c.n {
			t.Fatalf("bucket %d: %d requests, %d 429, %d 5xx; want %+v", b.Start, b.Requests, b.N429, b.N5xx, c)
		}
	}
	if got := len(tl.Regions()); got != min(len(exact), maxTimelineRegions) {
		t.Fatalf("%d regions, want %d", got, min(len(exact), maxTimelineRegions))
	}
	for _, region := range tl.Regions() {
		buckets := exact[region]
		seen := 0
		tl.Series(region, func(start int64, s *sketch.Sketch) {
			seen++
			vals := buckets[start]
			if int64(len(vals)) != s.Count() {
				t.Fatalf("%s at %d: count %d, want %d", region, start, s.Count(), len(vals))
			}
			sort.Float64s(vals)
			want := vals[int(math.Floor(0.99*float64(len(vals)-1)))]
			if got := s.Quantile(0.99); math.Abs(got-want) > 0.01*want {
				t.Fatalf("%s at %d: p99 %v, want %v ±1 %%", region, start, got, want)
			}
		})
		if seen != len(buckets) {
			t.Fatalf("%s: %d buckets, want %d", region, seen, len(buckets))
		}
	}
}

func TestTimelineMinutes(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	pts := tlPoints(1, 20000, 90*60e9, 4)
	tl := fill(t, m, pts)
	if tl.Width != 60 {
		t.Fatalf("width %d s for a 90-minute span, want 60", tl.Width)
	}
	checkAgainstOracle(t, tl, pts)
}

// The width grows with the span as SPEC §4 says: a minute up to 2,000
// minutes, then 5 minutes, an hour, a day.
func TestTimelineWidthBySpan(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	minute := int64(60e9)
	start := tlBase - tlBase%(8640000*1e9) // on a bucket boundary of every width
	for _, c := range []struct {
		name  string
		span  int64 // ns from the first to the last record
		width int64
	}{
		{"2,000 minutes", 1999*minute + 59e9, 60},
		{"2,001 minutes", 2000 * minute, 300},
		{"3 days", 3 * 86400e9, 300},
		{"a week", 7 * 86400e9, 3600},
		{"a year", 365 * 86400e9, 86400},
		{"two years", 2 * 365 * 86400e9, 86400},
		{"2000–2100", 100 * 365 * 86400e9, 8640000},
	} {
		pts := tlPoints(11, 3000, c.span, 3)
		for i := range pts {
			pts[i].t += start - tlBase
		}
		pts[0].t, pts[1].t = start, start+c.span
		tl := fill(t, m, pts)
		if tl.Width != c.width {
			t.Errorf("%s: width %d s, want %d", c.name, tl.Width, c.width)
			continue
		}
		checkAgainstOracle(t, tl, pts)
	}
}

func TestTimelineMergeMatchesOnePass(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	// One part spans 20 hours (minute buckets), the other 3 days (coarser):
	// merged in either order they must equal one pass over all points.
	a := tlPoints(4, 8000, 20*3600e9, 3)
	b := tlPoints(5, 8000, 3*86400e9, 4)
	all := append(append([]tlPoint{}, a...), b...)
	for _, order := range [][2][]tlPoint{{a, b}, {b, a}} {
		x := fill(t, m, order[0])
		x.merge(fill(t, m, order[1]))
		if x.Width != 300 {
			t.Fatalf("merged width %d s, want 300", x.Width)
		}
		checkAgainstOracle(t, x, all)
	}
	// Two parts that each fit in minute buckets but together do not.
	c := tlPoints(6, 3000, 20*3600e9, 2)
	d := tlPoints(7, 3000, 20*3600e9, 2)
	for i := range d {
		d[i].t += 20 * 3600e9
	}
	x := fill(t, m, c)
	x.merge(fill(t, m, d))
	if x.Width != 300 {
		t.Fatalf("merged width %d s over 40 hours, want 300", x.Width)
	}
	checkAgainstOracle(t, x, append(append([]tlPoint{}, c...), d...))
}

// dumpTimeline writes everything a time line holds, sketches bin by bin,
// so that two time lines can be compared for identity.
func dumpTimeline(tl *Timeline) string {
	var b strings.Builder
	sk := func(s *sketch.Sketch) {
		if s == nil {
			b.WriteString(" -")
			return
		}
		fmt.Fprintf(&b, " n=%d sum=%v min=%v max=%v", s.Count(), s.Sum(), s.Min(), s.Max())
		s.Bins(func(lo, hi float64, n int64) { fmt.Fprintf(&b, " [%v %d]", lo, n) })
	}
	fmt.Fprintf(&b, "width %d\n", tl.Width)
	for _, x := range tl.Buckets() {
		fmt.Fprintf(&b, "%d %d %d %d", x.Start, x.Requests, x.N429, x.N5xx)
		sk(x.RT)
		b.WriteByte('\n')
	}
	for _, r := range tl.Regions() {
		tl.Series(r, func(start int64, s *sketch.Sketch) {
			fmt.Fprintf(&b, "%s %d", r, start)
			sk(s)
			b.WriteByte('\n')
		})
	}
	return b.String()
}

// The same records give the same time line whatever their order and
// their split between workers, at every width.
func TestTimelineSameWhateverTheSplit(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	for _, span := range []int64{90 * 60e9, 2000 * 60e9, 3 * 86400e9, 2 * 365 * 86400e9} {
		// Sorted by time, as a log is: the first worker's span is short
		// and it widens late, or never.
		pts := tlPoints(uint64(span%1000), 20000, span, 40)
		sort.Slice(pts, func(i, j int) bool { return pts[i].t < pts[j].t })
		want := dumpTimeline(fill(t, m, pts))
		shuffled := append([]tlPoint(nil), pts...)
		rand.New(rand.NewPCG(3, 3)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, in := range [][]tlPoint{pts, shuffled} {
			for _, workers := range []int{1, 2, 7} {
				// Contiguous runs, as the pipeline hands out chunks.
				parts := make([][]tlPoint, workers)
				for i, p := range in {
					w := i * workers / len(in)
					parts[w] = append(parts[w], p)
				}
				tls := make([]*Timeline, workers)
				for i := range parts {
					tls[i] = fill(t, m, parts[i])
				}
				for i := len(tls) - 1; i > 0; i-- { // merged in reverse, for good measure
					tls[i-1].merge(tls[i])
				}
				if got := dumpTimeline(tls[0]); got != want {
					t.Fatalf("span %v, %d workers: time line differs from one pass", span, workers)
				}
			}
		}
		one := fill(t, m, pts)
		if n := len(one.Regions()); n != maxTimelineRegions {
			t.Fatalf("%d region series, want %d", n, maxTimelineRegions)
		}
		checkAgainstOracle(t, one, pts)
	}
}

func TestTimelineBoundsRegions(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	tl := &Timeline{}
	var regions []string
	for i := range 100 {
		r := "region-" + strconv.Itoa(i)
		regions = append(regions, r)
		tl.add(m, tlBase+int64(i)*1e9, 200, true, m.Bin(10), []byte(r), i)
	}
	tl.add(m, tlBase, 200, true, m.Bin(10), nil, -1)
	sort.Slice(regions, func(i, j int) bool { return KeyHash(regions[i]) < KeyHash(regions[j]) })
	want := regions[:maxTimelineRegions]
	sort.Strings(want)
	if got := tl.Regions(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("regions kept %v, want the %d of smallest hash %v", got, maxTimelineRegions, want)
	}
}

// TestTimelineRegionCache fills one time line with each record's
// combination (a region's own id) and one without, over more regions
// than get a series and a span that widens the buckets: every region's
// series must be the same, count for count.
func TestTimelineRegionCache(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	cached, plain := &Timeline{}, &Timeline{}
	rng := rand.New(rand.NewPCG(41, 42))
	for i := range 20000 {
		k := rng.IntN(3 * maxTimelineRegions)
		region := []byte("region-" + strconv.Itoa(k))
		at := tlBase + int64(i)*int64(10*time.Second) // 55 hours: widens
		b := m.Bin(math.Exp(rng.NormFloat64()) * 300)
		cached.add(m, at, 200, true, b, region, k)
		plain.add(m, at, 200, true, b, region, -1)
	}
	if a, b := strings.Join(cached.Regions(), ","), strings.Join(plain.Regions(), ","); a != b {
		t.Fatalf("regions %s, without the cache %s", a, b)
	}
	for _, region := range plain.Regions() {
		want := map[int64]int64{}
		plain.Series(region, func(start int64, s *sketch.Sketch) { want[start] = s.Count() })
		got := map[int64]int64{}
		cached.Series(region, func(start int64, s *sketch.Sketch) { got[start] = s.Count() })
		if !reflect.DeepEqual(got, want) {
			t.Errorf("region %s: series %v, without the cache %v", region, got, want)
		}
	}
	if cached.Width == TimelineWidths[0] {
		t.Error("the span did not widen the buckets")
	}
}

// BenchmarkTimelineAdd adds records in time order, 50 a second over 20
// regions, as a busy gateway's log holds them.
func BenchmarkTimelineAdd(b *testing.B) {
	m, _ := sketch.NewMapping(0.01)
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 1 << 14
	bins := make([]sketch.Bin, n)
	regions := make([][]byte, 20)
	for i := range regions {
		regions[i] = []byte("region-" + strconv.Itoa(i))
	}
	for i := range bins {
		bins[i] = m.Bin(math.Exp(rng.NormFloat64()) * 300)
	}
	tl := &Timeline{}
	for i := 0; b.Loop(); i++ {
		k := i % len(regions)
		tl.add(m, tlBase+int64(i)*int64(20*time.Millisecond), 200, true, bins[i&(n-1)], regions[k], k)
	}
}

// TestTimelineBucketsHoldEveryRecord holds each bucket's request_time
// against the exact values of all its records: those of regions with a
// series (which the buckets join only when read), of regions dropped
// past maxTimelineRegions, and of records without a region; in one
// pass, after widening, split between workers, and after an hour file's
// round trip, with records added after it.
func TestTimelineBucketsHoldEveryRecord(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	rng := rand.New(rand.NewPCG(8, 9))
	type rec struct {
		at     int64
		region []byte
		v      float64
	}
	var recs []rec
	for i := range 30000 {
		var region []byte
		if k := rng.IntN(2*maxTimelineRegions + 5); k < 2*maxTimelineRegions {
			region = []byte("region-" + strconv.Itoa(k))
		}
		// 42 hours in time order: widens to 5 minutes on the way.
		recs = append(recs, rec{tlBase + int64(i)*int64(5*time.Second), region, math.Exp(rng.NormFloat64()) * 300})
	}
	comboOf := func(region []byte) int {
		if region == nil {
			return -1
		}
		k, _ := strconv.Atoi(string(region[len("region-"):]))
		return k
	}
	add := func(tl *Timeline, rs []rec) {
		for _, r := range rs {
			tl.add(m, r.at, 200, true, m.Bin(r.v), r.region, comboOf(r.region))
		}
	}
	check := func(name string, tl *Timeline) {
		t.Helper()
		exact := map[int64][]float64{}
		for _, r := range recs {
			start := floorDiv(r.at, 1e9*tl.Width) * tl.Width
			exact[start] = append(exact[start], r.v)
		}
		bs := tl.Buckets()
		if len(bs) != len(exact) {
			t.Fatalf("%s: %d buckets, want %d", name, len(bs), len(exact))
		}
		for _, b := range bs {
			vals := exact[b.Start]
			sort.Float64s(vals)
			sum := 0.0
			for _, v := range vals {
				sum += v
			}
			if b.RT.Count() != int64(len(vals)) || math.Abs(b.RT.Sum()-sum) > 1e-6*sum ||
				b.RT.Min() != vals[0] || b.RT.Max() != vals[len(vals)-1] {
				t.Fatalf("%s: bucket %d: n %d sum %v min %v max %v; want %d, %v, %v, %v",
					name, b.Start, b.RT.Count(), b.RT.Sum(), b.RT.Min(), b.RT.Max(), len(vals), sum, vals[0], vals[len(vals)-1])
			}
			for _, q := range []float64{0.5, 0.99} {
				want := vals[int(math.Floor(q*float64(len(vals)-1)))]
				if got := b.RT.Quantile(q); math.Abs(got-want) > 0.01*want {
					t.Fatalf("%s: bucket %d: p%v %v, want %v ±1 %%", name, b.Start, 100*q, got, want)
				}
			}
		}
	}
	one := &Timeline{}
	add(one, recs)
	if one.Width == TimelineWidths[0] || len(one.Regions()) != maxTimelineRegions {
		t.Fatalf("width %d s, %d regions: the test wants a widening and regions dropped", one.Width, len(one.Regions()))
	}
	check("one pass", one)

	a, b := &Timeline{}, &Timeline{}
	add(a, recs[:len(recs)/3])
	add(b, recs[len(recs)/3:])
	a.merge(b)
	check("two workers", a)
	if dumpTimeline(a) != dumpTimeline(one) {
		t.Fatal("two workers: time line differs from one pass")
	}

	// An hour file of the first half, read back, then the second half.
	half := &Timeline{}
	add(half, recs[:len(recs)/2])
	d := NewDecoder(m, half.appendBinary(nil), errDamaged)
	back := &Timeline{}
	back.decode(d)
	if d.Err() != nil {
		t.Fatal(d.Err())
	}
	add(back, recs[len(recs)/2:])
	check("read back", back)
}
