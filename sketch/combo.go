package sketch

import "encoding/binary"

// maxCombos bounds the combinations a set keeps before it adds records
// to its dimensions directly. Most logs have a few thousand
// combinations of region, model, status, caller, … ; keyed by a million
// IPs they explode, and past the bound each further record of a new
// combination costs what it did without the table.
const maxCombos = 1 << 12

// combos is a set's table of the combinations of dimension keys its
// records carried, one entry per combination: a record adds each
// metric's bin once, to its combination's entry, instead of once per
// dimension and All. The table is expanded into All and the dimensions'
// entries before they are read or merged (All only after Finish or
// Merge); entries merge exactly, so the result is the
// same as adding every record to every dimension.
type combos struct {
	table map[string]*Entry
	tuple []byte // the combination being built: (dim, length, key)…
}

// BeginTuple starts the combination of one record's dimension keys.
func (s *Set) BeginTuple() { s.combos.tuple = s.combos.tuple[:0] }

// TupleKey adds dimension dim's key to the combination being built.
func (s *Set) TupleKey(dim int, key []byte) {
	t := append(s.combos.tuple, byte(dim))
	t = binary.AppendUvarint(t, uint64(len(key)))
	s.combos.tuple = append(t, key...)
}

// TupleEntries appends to dst the entry of the combination built since
// BeginTuple; when the table is full and the combination is new, All
// and the entries of each of its keys instead. The caller adds the
// record to each entry returned.
func (s *Set) TupleEntries(dst []*Entry) []*Entry {
	c := &s.combos
	if e, ok := c.table[string(c.tuple)]; ok {
		return append(dst, e)
	}
	if len(c.table) < maxCombos {
		if c.table == nil {
			c.table = map[string]*Entry{}
		}
		e := s.newEntry()
		c.table[string(c.tuple)] = e
		return append(dst, e)
	}
	dst = append(dst, s.All)
	eachKey(c.tuple, func(dim int, key []byte) { dst = append(dst, s.Dims[dim].Entry(key)) })
	return dst
}

// expand adds every combination's entry to All and to the entry of each
// of its keys, and empties the table.
func (s *Set) expand() {
	c := &s.combos
	if len(c.table) == 0 {
		return
	}
	table := c.table
	c.table = nil
	for t, e := range table {
		s.All.merge(s.m, e)
		eachKey([]byte(t), func(dim int, key []byte) { s.Dims[dim].Entry(key).merge(s.m, e) })
	}
}

// eachKey calls f with each dimension key of a combination.
func eachKey(t []byte, f func(dim int, key []byte)) {
	for len(t) > 0 {
		dim := int(t[0])
		n, k := binary.Uvarint(t[1:])
		t = t[1+k:]
		f(dim, t[:n])
		t = t[n:]
	}
}
