package aggregate

import (
	"encoding/binary"
	"math"

	"loganalyze/sketch"
)

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
	b = binary.AppendUvarint(b, uint64(a.status.len()))
	a.status.each(func(c int, n int64) {
		b = binary.AppendVarint(b, int64(c))
		b = binary.AppendUvarint(b, uint64(n))
	})
	b = binary.AppendUvarint(b, uint64(len(a.present)))
	for _, n := range a.Present() {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = a.Timeline.appendBinary(b)
	b = a.Breakdown.appendBinary(b)
	set := a.Set.AppendEncode(nil)
	b = binary.AppendUvarint(b, uint64(len(set)))
	b = append(b, set...)
	b = binary.AppendUvarint(b, uint64(len(a.Collectors)))
	for i, c := range a.Collectors {
		b = appendBool(b, c != nil)
		if c != nil {
			var state []byte
			if i < len(a.states) && a.states[i] != nil {
				state = a.states[i]
			} else {
				state = c.AppendBinary(nil)
			}
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
	d := NewDecoder(opts.Mapping, b, errDamaged)
	a.Records, a.Skipped = d.Count(), d.Count()
	a.HasTime, a.MinTime, a.MaxTime = d.Bool(), d.Int(), d.Int()
	if a.HasTime && a.MinTime > a.MaxTime {
		d.Fail("time bounds out of order")
	}
	n := d.Items(2)
	if n > maxStatuses {
		d.Fail("%d status codes", n)
	}
	for range n {
		c, k := d.Int(), d.Count()
		if c < math.MinInt32 || c > math.MaxInt32 {
			d.Fail("status %d", c)
		}
		a.status.add(c, k)
	}
	if np := d.Uint(); np != uint64(len(a.present)) && d.Err() == nil {
		d.Fail("%d fields, this build has %d", np, len(a.present))
	}
	for i := range a.present {
		a.present[i] = d.Count()
	}
	a.Timeline.decode(d)
	a.Breakdown.decode(d)
	if set := d.Bytes(); d.Err() == nil {
		s, err := sketch.DecodeSet(opts.Mapping, NumMetrics, DimNames, opts.Top, set)
		if err != nil {
			d.Fail("%v", err)
		} else {
			a.Set = s
		}
	}
	nc := d.Uint()
	if opts.Collectors == nil {
		// The caller wants what every report shows, not the rules'
		// statistics: skip them.
		for i := uint64(0); i < nc && d.Err() == nil; i++ {
			if d.Bool() {
				d.Bytes()
			}
		}
		nc = 0
	} else if nc != uint64(len(a.Collectors)) && d.Err() == nil {
		d.Fail("%d rule collectors, this build has %d", nc, len(a.Collectors))
	}
	for i, c := range a.Collectors {
		kept := d.Bool()
		if d.Err() != nil {
			break
		}
		switch {
		case kept:
			state := d.Bytes()
			if c != nil && d.Err() == nil {
				if err := c.UnmarshalBinary(state); err != nil {
					d.Fail("collector %d: %v", i, err)
				}
			}
		case c != nil && opts.OptionalCollectors:
			a.Collectors[i] = nil
		case c != nil:
			d.Fail("collector %d was not kept when the file was written", i)
		}
	}
	if err := d.Done(); err != nil {
		return nil, err
	}
	return a, nil
}

func (tl *Timeline) appendBinary(b []byte) []byte {
	tl.join()
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

func (tl *Timeline) decode(d *Decoder) {
	w := d.Int()
	if w == 0 || d.Err() != nil {
		return
	}
	known := false
	for _, x := range TimelineWidths {
		known = known || x == w
	}
	if !known {
		d.Fail("time line width %d", w)
		return
	}
	tl.Width, tl.minS, tl.maxS, tl.regionCut = w, d.Int(), d.Int(), d.Uint()
	tl.split = false
	if tl.minS > tl.maxS {
		d.Fail("time line bounds out of order")
	}
	tl.buckets = map[int64]*TimeBucket{}
	tl.regions = map[string]map[int64]*sketch.Sketch{}
	for range d.Items(5) {
		bk := &TimeBucket{Start: d.Int(), Requests: d.Count(), N429: d.Count(), N5xx: d.Count(), RT: d.Sketch()}
		if d.Err() != nil {
			return
		}
		if bk.Start%w != 0 || tl.buckets[bk.Start] != nil {
			d.Fail("time line bucket %d", bk.Start)
			return
		}
		tl.buckets[bk.Start] = bk
	}
	n := d.Items(3)
	if n > maxTimelineRegions {
		d.Fail("%d time line regions", n)
	}
	for range n {
		name := string(d.Bytes())
		ss := map[int64]*sketch.Sketch{}
		for range d.Items(2) {
			s := d.Int()
			if sk := d.Sketch(); sk != nil {
				ss[s] = sk
			}
		}
		if d.Err() != nil {
			return
		}
		if tl.regions[name] != nil {
			d.Fail("time line region %q twice", name)
			return
		}
		tl.regions[name] = ss
	}
}
