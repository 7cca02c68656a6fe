package aggregate

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"

	"loganalyze/sketch"
)

type tlPoint struct {
	t      int64 // Unix ns
	region string
	v      float64 // ms
}

func tlPoints(seed uint64, n int, span int64, regions int) []tlPoint {
	rng := rand.New(rand.NewPCG(seed, 7))
	base := int64(1_795_000_000) * 1e9
	out := make([]tlPoint, n)
	for i := range out {
		out[i] = tlPoint{
			t:      base + rng.Int64N(span),
			region: "r" + strconv.Itoa(rng.IntN(regions)),
			v:      math.Exp(rng.NormFloat64()) * 500,
		}
	}
	return out
}

func fill(t *testing.T, m *sketch.Mapping, pts []tlPoint) *RegionTimeline {
	t.Helper()
	tl := &RegionTimeline{}
	for _, p := range pts {
		tl.add(m, p.t, []byte(p.region), m.Bin(p.v))
	}
	return tl
}

// checkAgainstOracle compares every bucket with the exact values that
// fall in it: the count exactly, p99 within the sketch accuracy.
func checkAgainstOracle(t *testing.T, tl *RegionTimeline, pts []tlPoint) {
	t.Helper()
	exact := map[string]map[int64][]float64{}
	for _, p := range pts {
		start := floorDiv(p.t, 1e9*tl.Width) * tl.Width
		if exact[p.region] == nil {
			exact[p.region] = map[int64][]float64{}
		}
		exact[p.region][start] = append(exact[p.region][start], p.v)
	}
	if got := len(tl.Regions()); got != len(exact) {
		t.Fatalf("%d regions, want %d", got, len(exact))
	}
	for region, buckets := range exact {
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

func TestRegionTimelineMinutes(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	pts := tlPoints(1, 20000, 90*60e9, 4)
	tl := fill(t, m, pts)
	if tl.Width != 60 {
		t.Fatalf("width %d s for a 90-minute span, want 60", tl.Width)
	}
	checkAgainstOracle(t, tl, pts)
}

func TestRegionTimelineCoarsens(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	pts := tlPoints(2, 20000, 3*86400e9, 3)
	tl := fill(t, m, pts)
	if tl.Width != 300 {
		t.Fatalf("width %d s for a 3-day span, want 300", tl.Width)
	}
	for _, r := range tl.Regions() {
		n := 0
		tl.Series(r, func(int64, *sketch.Sketch) { n++ })
		if n > maxTimelineBuckets {
			t.Fatalf("%s: %d buckets, more than %d", r, n, maxTimelineBuckets)
		}
	}
	checkAgainstOracle(t, tl, pts)

	// A year of timestamps still stays under the bucket bound.
	year := tlPoints(3, 5000, 365*86400e9, 2)
	ty := fill(t, m, year)
	if ty.Width < 86400 {
		t.Fatalf("width %d s for a one-year span, want at least a day", ty.Width)
	}
	checkAgainstOracle(t, ty, year)
}

func TestRegionTimelineMergeMatchesOnePass(t *testing.T) {
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

func TestRegionTimelineBoundsRegions(t *testing.T) {
	m, _ := sketch.NewMapping(0.01)
	tl := &RegionTimeline{}
	for i := range 100 {
		tl.add(m, int64(i)*1e9, []byte("region-"+strconv.Itoa(i)), m.Bin(10))
	}
	tl.add(m, 0, nil, m.Bin(10))
	if got := len(tl.Regions()); got != maxTimelineRegions {
		t.Fatalf("%d regions kept, want %d", got, maxTimelineRegions)
	}
}
