package aggregate

// dictTable maps a record's DictKey (never 0) to its combination's id:
// open addressing over keys that are small integers' codes, probed
// linearly from a multiplicative hash. comboOf looks one up for every
// record of a columnar file; Go's map spent most of that lookup hashing
// and matching its control bytes.
type dictTable struct {
	keys []uint64 // 0: an empty slot
	ids  []int32
	n    int
}

// dictTableBits sizes the table: twice maxDictKeys, so that a probe
// stays short when it is full.
const dictTableBits = 13

func (t *dictTable) slot(k uint64) uint64 {
	return (k * 0x9E3779B97F4A7C15) >> (64 - dictTableBits)
}

// get returns the id of k, false when it has none.
func (t *dictTable) get(k uint64) (int32, bool) {
	if t.keys == nil {
		return 0, false
	}
	const mask = 1<<dictTableBits - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.ids[i], true
		case 0:
			return 0, false
		}
	}
}

// put sets the id of k (not 0); the table holds at most maxDictKeys
// keys (the caller clears it at that).
func (t *dictTable) put(k uint64, id int32) {
	if t.keys == nil {
		t.keys, t.ids = make([]uint64, 1<<dictTableBits), make([]int32, 1<<dictTableBits)
	}
	const mask = 1<<dictTableBits - 1
	i := t.slot(k)
	for t.keys[i] != 0 && t.keys[i] != k {
		i = (i + 1) & mask
	}
	if t.keys[i] == 0 {
		t.n++
	}
	t.keys[i], t.ids[i] = k, id
}

// clear empties the table.
func (t *dictTable) clear() {
	if t.n > 0 {
		clear(t.keys)
		t.n = 0
	}
}
