package aggregate

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// TestStatusCounts counts random codes, common and not (negative, 1000
// and over), into two counters that are then merged, against a map; the
// codes come out in increasing order.
func TestStatusCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var a, b statusCounts
	want := map[int]int64{}
	for i := range 20_000 {
		var c int64
		switch rng.IntN(10) {
		case 0:
			c = -rng.Int64N(50)
		case 1:
			c = 999 + rng.Int64N(3)
		case 2:
			c = 1000 + rng.Int64N(1<<40)
		default:
			c = []int64{0, 200, 429, 499, 502, 504}[rng.IntN(6)]
		}
		n := int64(1 + rng.IntN(3))
		if i%2 == 0 {
			a.add(c, n)
		} else {
			b.add(c, n)
		}
		want[int(c)] += n
	}
	a.merge(&b)
	got := map[int]int64{}
	var order []int
	a.each(func(c int, n int64) {
		got[c] = n
		order = append(order, c)
	})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("counts differ from the map's: %d codes, want %d", len(got), len(want))
	}
	if !sort.IntsAreSorted(order) || len(order) != len(want) {
		t.Errorf("codes not in increasing order, or repeated")
	}
}
