package aggregate

import (
	"maps"
	"slices"
)

// statusCounts counts records by status: the codes below 1000, which
// are every code nginx writes, in an array (an increment per record
// instead of a map's hash and probe), any other in a map.
type statusCounts struct {
	low   [1000]int64
	other map[int]int64
}

func (s *statusCounts) add(code int64, n int64) {
	if uint64(code) < uint64(len(s.low)) {
		s.low[code] += n
		return
	}
	if s.other == nil {
		s.other = map[int]int64{}
	}
	s.other[int(code)] += n
}

func (s *statusCounts) merge(o *statusCounts) {
	for c, n := range o.low {
		s.low[c] += n
	}
	for c, n := range o.other {
		s.add(int64(c), n)
	}
}

// each calls f with each status that has records and its count, the
// codes in increasing order: the others' below 0, the array's, the
// others' from 1000.
func (s *statusCounts) each(f func(code int, n int64)) {
	others := slices.Sorted(maps.Keys(s.other))
	neg, _ := slices.BinarySearch(others, 0)
	for _, c := range others[:neg] {
		f(c, s.other[c])
	}
	for c, n := range s.low {
		if n != 0 {
			f(c, n)
		}
	}
	for _, c := range others[neg:] {
		f(c, s.other[c])
	}
}

// len returns how many statuses have records.
func (s *statusCounts) len() int {
	n := len(s.other)
	for _, k := range s.low {
		if k != 0 {
			n++
		}
	}
	return n
}

// Status returns the records' counts by status code.
func (a *Accumulator) Status() map[int]int64 {
	m := map[int]int64{}
	a.status.each(func(c int, n int64) { m[c] = n })
	return m
}
