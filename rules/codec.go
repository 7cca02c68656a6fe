package rules

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"

	"loganalyze/sketch"
)

// The collectors' state is kept in hour files (aggregate.Collector's
// AppendBinary and UnmarshalBinary) so that a report from stored hours
// judges what one run over the logs would. The encoding is the state
// before Finish, mergeable; maps are written in key order, so the same
// state gives the same bytes.

// errCollector is wrapped by every decoding error of a collector.
var errCollector = errors.New("damaged rule statistics")

// maxCodecString bounds one decoded string (a key, a client).
const maxCodecString = 1 << 16

type encoder struct{ b []byte }

func (e *encoder) uint(v uint64)   { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)     { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) float(v float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// sketch writes an optional sketch: a presence byte, then the sketch.
func (e *encoder) sketch(s *sketch.Sketch) {
	e.bool(s != nil)
	if s != nil {
		e.b = s.AppendEncode(e.b)
	}
}

// decoder reads what encoder wrote. The first error sticks: later reads
// return zero values, so a decoding function checks err once at its end
// and between loops. Every count is checked against the bytes left.
type decoder struct {
	b      []byte
	m      *sketch.Mapping
	budget *sketch.Budget
	err    error
}

func newDecoder(m *sketch.Mapping, b []byte) *decoder {
	return &decoder{b: b, m: m, budget: sketch.NewBudget(len(b))}
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", errCollector, fmt.Sprintf(format, args...))
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

// count reads a count of non-negative int64 range.
func (d *decoder) count() int64 {
	v := d.uint()
	if v > math.MaxInt64/2 {
		d.fail("count %d out of range", v)
		return 0
	}
	return int64(v)
}

// items reads how many items follow, each taking at least minBytes.
func (d *decoder) items(minBytes int) int {
	n := d.uint()
	if n > uint64(len(d.b)/minBytes) {
		d.fail("%d items in %d bytes", n, len(d.b))
		return 0
	}
	return int(n)
}

func (d *decoder) float() float64 {
	if len(d.b) < 8 {
		d.fail("short")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	if math.IsNaN(v) || math.IsInf(v, 0) {
		d.fail("a number that is not finite")
		return 0
	}
	return v
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

func (d *decoder) str() string {
	n := d.uint()
	if n > maxCodecString || n > uint64(len(d.b)) {
		d.fail("string of %d bytes", n)
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) sketch() *sketch.Sketch {
	if !d.bool() {
		return nil
	}
	s, rest, err := sketch.DecodeWithin(d.m, d.b, d.budget)
	if err != nil {
		d.fail("%v", err)
		return nil
	}
	d.b = rest
	return s
}

// done is the decoding's error, or one for bytes left over.
func (d *decoder) done() error {
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes left over", len(d.b))
	}
	return d.err
}

// encodeMap writes m's entries in key order, each by put.
func encodeMap[V any](e *encoder, m map[string]V, put func(k string, v V)) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		e.str(k)
		put(k, m[k])
	}
}

// decodeMap reads what encodeMap wrote; get reads one value. A key given
// twice is damage.
func decodeMap[V any](d *decoder, minBytes int, get func(k string) V) map[string]V {
	n := d.items(minBytes)
	m := make(map[string]V, n)
	for range n {
		k := d.str()
		if d.err != nil {
			return m
		}
		if _, dup := m[k]; dup {
			d.fail("key %q twice", k)
			return m
		}
		m[k] = get(k)
	}
	return m
}
