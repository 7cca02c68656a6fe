package sketch

import (
	"math"
	"sync"

	"github.com/DataDog/sketches-go/ddsketch/mapping"
)

// indexTable finds a value's bin without a logarithm. The values of each
// binary octave in its range are cut into 2^bits cells by the top bits of
// their mantissa; a cell spans less than one bin, so it holds at most two
// bins' values: those below the cell's threshold are in its base bin, the
// rest in the next. The thresholds are found with the mapping's own
// Index, so the table gives exactly the bins Index does; a value outside
// the table's range is left to Index.
type indexTable struct {
	bits  uint
	loExp int // biased exponent of the first octave
	// shift and first find a value's cell from its bits (index):
	// 52−bits, and the first octave's first cell as the bits give it.
	shift    uint
	first    int
	cells    []indexCell
	min, max float64 // the range the table covers: [min, max)
}

type indexCell struct {
	threshold float64 // the least value of the cell in bin base+1; +Inf if none
	base      int
}

// The octaves a table covers: 2^-20 to 2^44 (about 1 ns to 550 years in
// ms, or a token count of 1.7·10^13).
const (
	tableLoExp = -20
	tableHiExp = 44
)

// newIndexTable returns the table for m, or nil when its bins are too
// narrow for cells of at most 4,096 per octave to hold two at most.
func newIndexTable(m *mapping.LogarithmicMapping) *indexTable {
	a := m.RelativeAccuracy()
	gamma := (1 + a) / (1 - a)
	b := uint(0)
	for ; b <= 12 && 1+math.Ldexp(1, -int(b)) >= gamma; b++ {
	}
	if b > 12 {
		return nil
	}
	t := &indexTable{bits: b, loExp: tableLoExp + 1023, min: math.Ldexp(1, tableLoExp), max: math.Ldexp(1, tableHiExp)}
	t.shift, t.first = 52-b, t.loExp<<b
	n := (tableHiExp - tableLoExp) << b
	t.cells = make([]indexCell, n)
	for c := range t.cells {
		lo := t.cellStart(c)
		hi := math.Float64frombits(math.Float64bits(lo) + 1<<(52-b)) // the next cell's start
		last := math.Float64frombits(math.Float64bits(hi) - 1)
		base, top := m.Index(lo), m.Index(last)
		cell := indexCell{threshold: math.Inf(1), base: base}
		switch {
		case top == base:
		case top == base+1:
			cell.threshold = firstAbove(m, base, lo, last)
		default:
			return nil // wider than a bin: cannot be
		}
		t.cells[c] = cell
	}
	return t
}

// firstAbove returns the least value in [lo, last] whose bin is above
// base, given that lo's is base and last's base+1. The search runs over
// the values' bits, which order as the values do: from the bin's lower
// bound by the mapping's formula, which Index's own rounding puts a few
// bits off at most, outward by doubling steps until the bin changes,
// then by bisection. A few logarithms a cell, where bisection over the
// whole cell took some 46: the table of a run is built before its
// workers start.
func firstAbove(m *mapping.LogarithmicMapping, base int, lo, last float64) float64 {
	l, h := math.Float64bits(lo), math.Float64bits(last) // bin(l) ≤ base < bin(h)
	above := func(u uint64) bool { return m.Index(math.Float64frombits(u)) > base }
	g := math.Float64bits(min(max(m.LowerBound(base+1), lo), last))
	if above(g) {
		h = g
		for step := uint64(1); h-l > step; step *= 2 {
			if c := h - step; above(c) {
				h = c
			} else {
				l = c
				break
			}
		}
	} else {
		l = g
		for step := uint64(1); h-l > step; step *= 2 {
			if c := l + step; above(c) {
				h = c
				break
			} else {
				l = c
			}
		}
	}
	for h-l > 1 {
		if mid := l + (h-l)/2; above(mid) {
			h = mid
		} else {
			l = mid
		}
	}
	return math.Float64frombits(h)
}

// cellStart returns the least value of cell c.
func (t *indexTable) cellStart(c int) float64 {
	exp := uint64(t.loExp + c>>t.bits)
	sub := uint64(c & (1<<t.bits - 1))
	return math.Float64frombits(exp<<52 | sub<<(52-t.bits))
}

// index returns v's bin when v is in [t.min, t.max).
func (t *indexTable) index(v float64) int {
	u := math.Float64bits(v)
	c := int(u>>t.shift) - t.first
	cell := &t.cells[c]
	if v >= cell.threshold {
		return cell.base + 1
	}
	return cell.base
}

// tables holds the table of each accuracy asked for, built once: a run
// makes one mapping, the tests many.
var tables sync.Map // float64 → *indexTable

func tableFor(accuracy float64, m *mapping.LogarithmicMapping) *indexTable {
	if t, ok := tables.Load(accuracy); ok {
		return t.(*indexTable)
	}
	t, _ := tables.LoadOrStore(accuracy, newIndexTable(m))
	return t.(*indexTable)
}
