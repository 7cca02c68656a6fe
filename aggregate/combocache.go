package aggregate

// maxCachedCombos bounds the combination ids a ComboCache keeps slots
// for. A set gives at most a few thousand at a time (sketch's table
// bound); ids past this are not cached.
const maxCachedCombos = 1 << 16

// ComboCache keeps a value per combination of dimension keys
// (Values.Combo): what a collector looked up for a combination's first
// record, so that the rest skip building the key and the map lookup.
// Reset drops every value, when the collector drops or moves what they
// point to. The zero value is empty and ready.
type ComboCache[T any] struct {
	gen   uint32 // a slot is valid when its gen is this; 0 before the first Get
	slots []comboSlot[T]
}

type comboSlot[T any] struct {
	gen uint32
	v   T
}

// Get returns combo's slot, and whether it holds what was stored for
// combo since the last Reset. When it does not, the slot is combo's from
// now on, still holding what it held before (which the caller may need
// to put away), and the caller fills it. Get returns nil for a combo
// that is not cached (−1, or an id past the bound).
func (c *ComboCache[T]) Get(combo int) (*T, bool) {
	if uint(combo) < uint(len(c.slots)) { // gen is set once there are slots
		s := &c.slots[combo]
		if s.gen == c.gen {
			return &s.v, true
		}
		s.gen = c.gen
		return &s.v, false
	}
	return c.grow(combo)
}

// grow is Get of a combo past the slots: it makes them, and gives the
// new slot; nil for a combo that is not cached. (Apart from Get, which
// every record of a collector calls, so that Get is inlined.)
func (c *ComboCache[T]) grow(combo int) (*T, bool) {
	if uint(combo) >= maxCachedCombos {
		return nil, false
	}
	if c.gen == 0 {
		c.gen = 1
	}
	n := min(maxCachedCombos, max(64, 2*len(c.slots), combo+1))
	c.slots = append(c.slots, make([]comboSlot[T], n-len(c.slots))...)
	s := &c.slots[combo]
	s.gen = c.gen
	return &s.v, false
}

// Find returns what combo's slot holds since the last Reset, or else
// find's result, which it keeps there (when combo is cached). find may
// Reset the cache: the slot it fills is then no longer valid, and the
// next Get finds again.
func (c *ComboCache[T]) Find(combo int, find func() T) T {
	slot, hit := c.Get(combo)
	if hit {
		return *slot
	}
	v := find()
	if slot != nil {
		*slot = v
	}
	return v
}

// Each calls f with every slot's value, valid or not.
func (c *ComboCache[T]) Each(f func(*T)) {
	for i := range c.slots {
		f(&c.slots[i].v)
	}
}

// Reset drops every slot's validity; the values stay until refilled.
func (c *ComboCache[T]) Reset() {
	c.gen++
	if c.gen == 0 { // wrapped: no slot may look valid
		for i := range c.slots {
			c.slots[i].gen = 0
		}
		c.gen = 1
	}
}

// Clear is Reset that also lets go of every value, for a collector whose
// values point at what it just dropped: a slot's stale value would keep
// it alive until the slot is filled again.
func (c *ComboCache[T]) Clear() {
	var zero T
	for i := range c.slots {
		c.slots[i].v = zero
	}
	c.Reset()
}
