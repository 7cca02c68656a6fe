package sketch

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Bounds of a decoded set, checked before anything is allocated.
const (
	maxSetMetrics = 64      // metrics per entry (a bit mask says which are present)
	maxSetDims    = 64      // dimensions
	maxKeyLen     = 1 << 16 // bytes of one key
	// maxSetSpan caps the bins all the sketches of one decoded set may
	// span together (a dense store allocates its whole span): 2^25 bins
	// are 256 MiB. A set may also span at most spanPerByte bins per byte
	// of its encoding, so a small crafted input cannot claim much memory.
	maxSetSpan  = 1 << 25
	spanPerByte = 64
)

// AppendEncode appends the set to dst: its shape (metric and dimension
// counts), the "all" entry, then per dimension its keys, heaviest first,
// each with its entry, the count of folded keys and their entry (a flag
// before it: 0 none, 1 the kept keys are the heaviest of all, 2 the
// heaviest of a hash sample, whose level follows in a byte). An entry
// is its record count, a bit mask of the metrics that have a sketch, and
// those sketches (Sketch.AppendEncode). Names are the caller's to record.
func (s *Set) AppendEncode(dst []byte) []byte {
	if s.metrics > maxSetMetrics || len(s.Dims) > maxSetDims {
		panic("BUG: set too wide to encode")
	}
	s.expand()
	dst = binary.AppendUvarint(dst, uint64(s.metrics))
	dst = binary.AppendUvarint(dst, uint64(len(s.Dims)))
	dst = appendEntry(dst, s.All)
	for _, d := range s.Dims {
		sorted := d.Sorted()
		dst = binary.AppendUvarint(dst, uint64(len(sorted)))
		for _, ke := range sorted {
			dst = binary.AppendUvarint(dst, uint64(len(ke.Key)))
			dst = append(dst, ke.Key...)
			dst = appendEntry(dst, ke.Entry)
		}
		dst = binary.AppendUvarint(dst, uint64(d.folded))
		switch {
		case d.other == nil:
			dst = append(dst, 0)
		case d.sampled > 0:
			dst = append(dst, 2, d.sampled)
			dst = appendEntry(dst, d.other)
		default:
			dst = append(dst, 1)
			dst = appendEntry(dst, d.other)
		}
	}
	return dst
}

func appendEntry(dst []byte, e *Entry) []byte {
	e.flush()
	dst = binary.AppendUvarint(dst, uint64(e.Count))
	var mask uint64
	for i, s := range e.Metrics {
		if s != nil && s.Count() > 0 {
			mask |= 1 << i
		}
	}
	dst = binary.AppendUvarint(dst, mask)
	for i, s := range e.Metrics {
		if mask&(1<<i) != 0 {
			dst = s.AppendEncode(dst)
		}
	}
	return dst
}

// setDecoder reads one encoded set, keeping the bin budget.
type setDecoder struct {
	m      *Mapping
	set    *Set
	b      []byte
	budget int64 // bins the sketches still may span
}

// DecodeSet reads a set written by Set.AppendEncode. It must have
// exactly metrics metrics and len(dims) dimensions; the dimensions get
// the given names and the set folds each down to top keys. Every size
// is checked against the bytes left before it is used, so damaged or
// crafted input gives an error, never a panic or a large allocation.
func DecodeSet(m *Mapping, metrics int, dims []string, top int, b []byte) (*Set, error) {
	d := &setDecoder{m: m, b: b, budget: min(maxSetSpan, spanPerByte*int64(len(b))+1<<16)}
	nm, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	nd, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if nm != uint64(metrics) || nd != uint64(len(dims)) {
		return nil, fmt.Errorf("%w: %d metrics × %d dimensions, want %d × %d", errCorrupt, nm, nd, metrics, len(dims))
	}
	d.set = NewSet(m, metrics, dims, top)
	if err := d.entry(d.set.All); err != nil {
		return nil, err
	}
	for _, dim := range d.set.Dims {
		n, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		if n > uint64(len(d.b))/3 { // a key takes at least 3 bytes
			return nil, fmt.Errorf("%w: %d keys in %d bytes", errCorrupt, n, len(d.b))
		}
		for range n {
			kl, err := d.uvarint()
			if err != nil {
				return nil, err
			}
			if kl > maxKeyLen || kl > uint64(len(d.b)) {
				return nil, fmt.Errorf("%w: key of %d bytes", errCorrupt, kl)
			}
			key := string(d.b[:kl])
			d.b = d.b[kl:]
			if _, dup := dim.keys[key]; dup {
				return nil, fmt.Errorf("%w: key %q twice in dimension %q", errCorrupt, key, dim.Name)
			}
			e := d.set.newEntry()
			if err := d.entry(e); err != nil {
				return nil, err
			}
			dim.keys[key] = e
		}
		folded, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		if folded > math.MaxInt64/2 {
			return nil, fmt.Errorf("%w: bad folded count", errCorrupt)
		}
		if len(d.b) < 1 || d.b[0] > 2 {
			return nil, fmt.Errorf("%w: bad folded flag", errCorrupt)
		}
		hasOther := d.b[0] >= 1
		if d.b[0] == 2 {
			if len(d.b) < 2 || d.b[1] == 0 || d.b[1] > maxLevel {
				return nil, fmt.Errorf("%w: bad sample level", errCorrupt)
			}
			dim.sampled = d.b[1]
			d.b = d.b[1:]
		}
		d.b = d.b[1:]
		if hasOther {
			dim.other = d.set.newEntry()
			if err := d.entry(dim.other); err != nil {
				return nil, err
			}
			dim.folded = int64(folded)
			dim.bound = decodedBound(dim)
		} else if folded != 0 {
			return nil, fmt.Errorf("%w: folded keys without their entry", errCorrupt)
		}
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the set", errCorrupt, len(d.b))
	}
	// Finished at the width it was written with, when that is wider
	// than top: a set folded now, before the sets it is merged with,
	// would fold each key by its count in this one alone (a report of
	// many hours with a smaller --top than they were written with kept
	// keys that are heavy in one hour, and lost the records others had
	// in the hours where they were not). The merged set folds to top.
	wide := top
	for _, dim := range d.set.Dims {
		wide = max(wide, len(dim.keys))
	}
	d.set.top = wide
	d.set.Finish()
	d.set.top = top
	return d.set, nil
}

// decodedBound is the most records a key a decoded dimension does not
// list may have in its Other: no more than the lightest key it kept,
// which Finish kept for being heavier (none more than Other holds); all
// of Other when the kept keys were those of a hash sample, or when it
// kept none.
func decodedBound(dim *Dim) int64 {
	b := dim.other.Count
	if dim.sampled > 0 {
		return b
	}
	for _, e := range dim.keys {
		b = min(b, e.Count)
	}
	return b
}

func (d *setDecoder) uvarint() (uint64, error) {
	v, rest, err := uvarint(d.b)
	if err != nil {
		return 0, err
	}
	d.b = rest
	return v, nil
}

func (d *setDecoder) entry(e *Entry) error {
	count, err := d.uvarint()
	if err != nil {
		return err
	}
	if count > 1<<53 {
		return fmt.Errorf("%w: bad record count", errCorrupt)
	}
	e.Count = int64(count)
	mask, err := d.uvarint()
	if err != nil {
		return err
	}
	if mask>>uint(e.shape.metrics) != 0 {
		return fmt.Errorf("%w: bad metric mask", errCorrupt)
	}
	if mask != 0 {
		e.flush()
	}
	for i := range e.Metrics {
		if mask&(1<<i) == 0 {
			continue
		}
		span, err := encodedSpan(d.b)
		if err != nil {
			return err
		}
		if d.budget -= span; d.budget < 0 {
			return fmt.Errorf("%w: sketches span too many bins for their size", errCorrupt)
		}
		s, rest, err := Decode(d.m, d.b)
		if err != nil {
			return err
		}
		d.b = rest
		e.Metrics[i] = s
	}
	return nil
}

// encodedSpan returns how many bins the sketch encoded at the start of b
// spans, without decoding it; errors are left to Decode except those
// that would stop the scan.
func encodedSpan(b []byte) (int64, error) {
	if len(b) < 1 {
		return 0, fmt.Errorf("%w: short", errCorrupt)
	}
	_, b, err := uvarint(b[1:])
	if err != nil {
		return 0, err
	}
	if len(b) < 32 {
		return 0, fmt.Errorf("%w: short", errCorrupt)
	}
	n, b, err := uvarint(b[32:])
	if err != nil {
		return 0, err
	}
	if n > uint64(len(b))/2 {
		return 0, fmt.Errorf("%w: %d bins in %d bytes", errCorrupt, n, len(b))
	}
	var span int64
	for i := uint64(0); i < n; i++ {
		if i == 0 {
			_, k := binary.Varint(b)
			if k <= 0 {
				return 0, fmt.Errorf("%w: bad index", errCorrupt)
			}
			b = b[k:]
			span = 1
		} else {
			var dlt uint64
			if dlt, b, err = uvarint(b); err != nil {
				return 0, err
			}
			if dlt > maxIndexSpan {
				return 0, fmt.Errorf("%w: index span too wide", errCorrupt)
			}
			span += int64(dlt)
		}
		if _, b, err = uvarint(b); err != nil {
			return 0, err
		}
	}
	return span, nil
}
