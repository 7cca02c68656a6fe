package sketch

import "hash/maphash"

// comboTable finds a combination's entry by its key's bytes: open
// addressing over the keys' hashes, probed linearly, each slot the top
// half of a hash and the entry's index, the key compared with its
// entry's only where those halves match. A record of a text log finds
// its combination by one lookup here; Go's map of the keys as strings
// took a hash and the matching of its control bytes, then the key's
// own bytes, a cache miss or two a record when thousands of
// combinations are met. The table is at most half full.
type comboTable struct {
	slots []comboSlot // a power of two of them; nil while empty
	n     int
}

// comboSlot is one slot: the top half of its key's hash and its
// entry's index + 1 (0: an empty slot).
type comboSlot struct {
	h uint32
	i int32
}

// comboSeed hashes every set's keys: where a key lands in the table
// changes nothing else.
var comboSeed = maphash.MakeSeed()

// hashKey is the hash of key k, a combination's bytes; hashString the
// same of them as a string.
func hashKey(k []byte) uint64    { return maphash.Bytes(comboSeed, k) }
func hashString(k string) uint64 { return maphash.String(comboSeed, k) }

// len is the number of keys in the table.
func (t *comboTable) len() int { return t.n }

// findCombo returns the index in entries of the entry of key k, whose
// hash is h, in table t; false when none has it.
func findCombo[K string | []byte](t *comboTable, h uint64, k K, entries []comboEntry) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	top := uint32(h >> 32)
	for p := h & mask; ; p = (p + 1) & mask {
		s := t.slots[p]
		if s.i == 0 {
			return 0, false
		}
		if s.h == top && entries[s.i-1].key == string(k) {
			return s.i - 1, true
		}
	}
}

// add adds the key of hash h, not in the table, whose entry is
// entries[i]; entries holds every key of the table, by which it grows.
func (t *comboTable) add(h uint64, i int32, entries []comboEntry) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]comboSlot, max(64, 2*len(old)))
		for _, s := range old {
			if s.i != 0 {
				t.put(hashString(entries[s.i-1].key), s.i-1)
			}
		}
	}
	t.put(h, i)
	t.n++
}

// put puts the key of hash h, whose entry is at index i, in the first
// empty slot from its place.
func (t *comboTable) put(h uint64, i int32) {
	mask := uint64(len(t.slots) - 1)
	p := h & mask
	for t.slots[p].i != 0 {
		p = (p + 1) & mask
	}
	t.slots[p] = comboSlot{h: uint32(h >> 32), i: i + 1}
}
