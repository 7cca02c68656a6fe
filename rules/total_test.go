package rules

import (
	"math"
	"testing"
)

// A Total saturates instead of wrapping, and ignores what is not a
// non-negative number, so no value can turn a sum negative or NaN.
func TestTotalSaturates(t *testing.T) {
	var a Total
	a.Add(1e10 * 1000) // the longest request_time, in ms
	a.Add(math.NaN())
	a.Add(math.Inf(1))
	if a != math.MaxInt64 {
		t.Errorf("after +Inf: %d, want the bound", a)
	}
	var b Total
	b.Add(-5)
	b.Add(1.5)
	if b.Float() != 1.5 {
		t.Errorf("sum %v, want 1.5", b.Float())
	}
	for range 2000 {
		b.Add(1e13) // 1e16 thousandths each: wraps past 922
	}
	if b != math.MaxInt64 || math.IsInf(b.Float(), 0) {
		t.Errorf("sum %d, want the bound", b)
	}
	c := Total(math.MaxInt64 - 1)
	c.Merge(b)
	if c != math.MaxInt64 {
		t.Errorf("merged %d, want the bound", c)
	}
}
