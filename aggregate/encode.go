package aggregate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"

	"loganalyze/sketch"
)

// errDamaged is wrapped by every error decoding an accumulator.
var errDamaged = errors.New("damaged aggregate")

// maxStatuses bounds the status codes of a decoded accumulator.
const maxStatuses = 1 << 16

// AppendBinary appends what an hour file keeps of a, mergeable: the
// record counts, the time bounds, the status counts, the fields' counts,
// the time line, the breakdown's sums, the set, and each collector's state (before Finish;
// absent for a nil one). The same state gives the same bytes.
func (a *Accumulator) AppendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(a.Records))
	b = binary.AppendUvarint(b, uint64(a.Skipped))
	b = appendBool(b, a.HasTime)
	b = binary.AppendVarint(b, a.MinTime)
	b = binary.AppendVarint(b, a.MaxTime)
	codes := make([]int, 0, len(a.Status))
	for c := range a.Status {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	b = binary.AppendUvarint(b, uint64(len(codes)))
	for _, c := range codes {
		b = binary.AppendVarint(b, int64(c))
		b = binary.AppendUvarint(b, uint64(a.Status[c]))
	}
	b = binary.AppendUvarint(b, uint64(len(a.Present)))
	for _, n := range a.Present {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = a.Timeline.appendBinary(b)
	b = a.Breakdown.appendBinary(b)
	set := a.Set.AppendEncode(nil)
	b = binary.AppendUvarint(b, uint64(len(set)))
	b = append(b, set...)
	b = binary.AppendUvarint(b, uint64(len(a.Collectors)))
	for _, c := range a.Collectors {
		b = appendBool(b, c != nil)
		if c != nil {
			state := c.AppendBinary(nil)
			b = binary.AppendUvarint(b, uint64(len(state)))
			b = append(b, state...)
		}
	}
	return b
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// Decode reads what AppendBinary wrote into a new accumulator made with
// opts, whose Collectors must make the layout the writer had; without
// Collectors, the collectors' states are skipped. A
// collector the reader needs that the writer did not keep (nil there)
// is an error naming its slot; one the reader does not need is skipped.
// Every size is checked against the bytes left, so damaged or crafted
// input gives an error, never a panic or a large allocation.
func Decode(opts Options, b []byte) (*Accumulator, error) {
	opts.Hourly = false
	a := New(opts)
	d := &decoder{b: b, budget: sketch.NewBudget(len(b))}
	a.Records, a.Skipped = d.count(), d.count()
	a.HasTime, a.MinTime, a.MaxTime = d.bool(), d.int(), d.int()
	if a.HasTime && a.MinTime > a.MaxTime {
		d.fail("time bounds out of order")
	}
	n := d.items(2)
	if n > maxStatuses {
		d.fail("%d status codes", n)
	}
	for range n {
		c, k := d.int(), d.count()
		if c < math.MinInt32 || c > math.MaxInt32 {
			d.fail("status %d", c)
		}
		a.Status[int(c)] += k
	}
	if np := d.uint(); np != uint64(len(a.Present)) && d.err == nil {
		d.fail("%d fields, this build has %d", np, len(a.Present))
	}
	for i := range a.Present {
		a.Present[i] = d.count()
	}
	a.Timeline.decode(d, opts.Mapping)
	a.Breakdown.decode(d)
	if set := d.bytes(); d.err == nil {
		s, err := sketch.DecodeSet(opts.Mapping, NumMetrics, DimNames, opts.Top, set)
		if err != nil {
			d.fail("%v", err)
		} else {
			a.Set = s
		}
	}
	nc := d.uint()
	if opts.Collectors == nil {
		// The caller wants what every report shows, not the rules'
		// statistics: skip them.
		for i := uint64(0); i < nc && d.err == nil; i++ {
			if d.bool() {
				d.bytes()
			}
		}
		nc = 0
	} else if nc != uint64(len(a.Collectors)) && d.err == nil {
		d.fail("%d rule collectors, this build has %d", nc, len(a.Collectors))
	}
	for i, c := range a.Collectors {
		kept := d.bool()
		if d.err != nil {
			break
		}
		switch {
		case kept:
			state := d.bytes()
			if c != nil && d.err == nil {
				if err := c.UnmarshalBinary(state); err != nil {
					d.fail("collector %d: %v", i, err)
				}
			}
		case c != nil:
			d.fail("collector %d was not kept when the file was written", i)
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes left over", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return a, nil
}

func (tl *Timeline) appendBinary(b []byte) []byte {
	b = binary.AppendVarint(b, tl.Width)
	if tl.Width == 0 {
		return b
	}
	b = binary.AppendVarint(b, tl.minS)
	b = binary.AppendVarint(b, tl.maxS)
	b = binary.AppendUvarint(b, tl.regionCut)
	starts := sortedStarts(tl.buckets)
	b = binary.AppendUvarint(b, uint64(len(starts)))
	for _, s := range starts {
		bk := tl.buckets[s]
		b = binary.AppendVarint(b, s)
		b = binary.AppendUvarint(b, uint64(bk.Requests))
		b = binary.AppendUvarint(b, uint64(bk.N429))
		b = binary.AppendUvarint(b, uint64(bk.N5xx))
		b = appendSketch(b, bk.RT)
	}
	regions := tl.Regions()
	b = binary.AppendUvarint(b, uint64(len(regions)))
	for _, r := range regions {
		b = binary.AppendUvarint(b, uint64(len(r)))
		b = append(b, r...)
		ss := tl.regions[r]
		starts := sortedStarts(ss)
		b = binary.AppendUvarint(b, uint64(len(starts)))
		for _, s := range starts {
			b = binary.AppendVarint(b, s)
			b = appendSketch(b, ss[s])
		}
	}
	return b
}

func appendSketch(b []byte, s *sketch.Sketch) []byte {
	b = appendBool(b, s != nil)
	if s != nil {
		b = s.AppendEncode(b)
	}
	return b
}

func (tl *Timeline) decode(d *decoder, m *sketch.Mapping) {
	w := d.int()
	if w == 0 || d.err != nil {
		return
	}
	known := false
	for _, x := range TimelineWidths {
		known = known || x == w
	}
	if !known {
		d.fail("time line width %d", w)
		return
	}
	tl.Width, tl.minS, tl.maxS, tl.regionCut = w, d.int(), d.int(), d.uint()
	if tl.minS > tl.maxS {
		d.fail("time line bounds out of order")
	}
	tl.buckets = map[int64]*TimeBucket{}
	tl.regions = map[string]map[int64]*sketch.Sketch{}
	for range d.items(5) {
		bk := &TimeBucket{Start: d.int(), Requests: d.count(), N429: d.count(), N5xx: d.count(), RT: d.sketch(m)}
		if d.err != nil {
			return
		}
		if bk.Start%w != 0 || tl.buckets[bk.Start] != nil {
			d.fail("time line bucket %d", bk.Start)
			return
		}
		tl.buckets[bk.Start] = bk
	}
	n := d.items(3)
	if n > maxTimelineRegions {
		d.fail("%d time line regions", n)
	}
	for range n {
		name := string(d.bytes())
		ss := map[int64]*sketch.Sketch{}
		for range d.items(2) {
			s := d.int()
			if sk := d.sketch(m); sk != nil {
				ss[s] = sk
			}
		}
		if d.err != nil {
			return
		}
		if tl.regions[name] != nil {
			d.fail("time line region %q twice", name)
			return
		}
		tl.regions[name] = ss
	}
}

// decoder reads an encoded accumulator; the first error sticks.
type decoder struct {
	b      []byte
	budget *sketch.Budget
	err    error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", errDamaged, fmt.Sprintf(format, args...))
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *decoder) int() int64 {
	v, k := binary.Varint(d.b)
	if k <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[k:]
	return v
}

func (d *decoder) count() int64 {
	v := d.uint()
	if v > math.MaxInt64/2 {
		d.fail("count %d out of range", v)
		return 0
	}
	return int64(v)
}

func (d *decoder) items(minBytes int) int {
	n := d.uint()
	if n > uint64(len(d.b)/minBytes) {
		d.fail("%d items in %d bytes", n, len(d.b))
		return 0
	}
	return int(n)
}

func (d *decoder) bool() bool {
	if len(d.b) < 1 || d.b[0] > 1 {
		d.fail("bad flag")
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

// bytes reads a length and that many bytes.
func (d *decoder) bytes() []byte {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail("%d bytes where %d are left", n, len(d.b))
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) sketch(m *sketch.Mapping) *sketch.Sketch {
	if !d.bool() {
		return nil
	}
	s, rest, err := sketch.DecodeWithin(m, d.b, d.budget)
	if err != nil {
		d.fail("%v", err)
		return nil
	}
	d.b = rest
	return s
}
