package aggregate

import "testing"

// TestComboCache checks a slot's life: empty until filled, kept, dropped
// by Reset with its value still there, and none for ids that
// are not cached.
func TestComboCache(t *testing.T) {
	var c ComboCache[int]
	if p, ok := c.Get(5); p == nil || ok {
		t.Fatalf("first Get(5) = %v, %v: want a slot to fill", p, ok)
	} else {
		*p = 50
	}
	if p, ok := c.Get(5); !ok || *p != 50 {
		t.Fatalf("Get(5) after filling = %v, %v: want 50, true", p, ok)
	}
	if p, ok := c.Get(300); p == nil || ok { // past the first slots
		t.Fatalf("Get(300) = %v, %v", p, ok)
	} else {
		*p = 3
	}
	c.Reset()
	p, ok := c.Get(5)
	if ok || *p != 50 {
		t.Fatalf("Get(5) after Reset = %d, %v: want the old value, false", *p, ok)
	}
	for _, id := range []int{-1, maxCachedCombos} {
		if p, ok := c.Get(id); p != nil || ok {
			t.Errorf("Get(%d) = %v, %v: want nil, false", id, p, ok)
		}
	}
	c.gen = ^uint32(0)
	c.slots[7].gen = 1
	c.Reset() // wraps: slot 7 must not look valid at the new generation 1
	if _, ok := c.Get(7); ok {
		t.Error("after the generation wrapped, an old slot looks valid")
	}
}
