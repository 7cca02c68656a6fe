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

// TestComboCacheFind checks that Find looks up once per combination
// until a Reset, and every time for a combination not cached.
func TestComboCacheFind(t *testing.T) {
	var c ComboCache[int]
	calls := 0
	find := func() int { calls++; return 40 + calls }
	for range 3 {
		if got := c.Find(3, find); got != 41 {
			t.Fatalf("Find(3) = %d, want 41 from the first look-up", got)
		}
	}
	c.Reset()
	if got := c.Find(3, find); got != 42 || calls != 2 {
		t.Errorf("after Reset Find(3) = %d with %d look-ups, want 42 and 2", got, calls)
	}
	c.Find(-1, find)
	c.Find(-1, find)
	if calls != 4 {
		t.Errorf("%d look-ups, want 4: an id that is not cached looks up every time", calls)
	}
}

// TestComboCacheClear requires Clear to drop every slot's validity, as
// Reset does, and its value too.
func TestComboCacheClear(t *testing.T) {
	var c ComboCache[*int]
	x := 7
	for combo := range 100 {
		slot, _ := c.Get(combo)
		*slot = &x
	}
	c.Clear()
	for combo := range 100 {
		if slot, hit := c.Get(combo); hit || *slot != nil {
			t.Fatalf("combo %d after Clear: hit %v, value %v", combo, hit, *slot)
		}
	}
}
