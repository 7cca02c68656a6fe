package aggregate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"loganalyze/sketch"
)

// Encoder appends the parts of a mergeable state: what an accumulator
// and the collectors write into hour files. B is the bytes so far.
type Encoder struct{ B []byte }

// Uint appends an unsigned varint.
func (e *Encoder) Uint(v uint64) { e.B = binary.AppendUvarint(e.B, v) }

// Int appends a signed varint.
func (e *Encoder) Int(v int64) { e.B = binary.AppendVarint(e.B, v) }

// Float appends a float64, little endian.
func (e *Encoder) Float(v float64) { e.B = binary.LittleEndian.AppendUint64(e.B, math.Float64bits(v)) }

// Bool appends one byte, 0 or 1.
func (e *Encoder) Bool(v bool) {
	if v {
		e.B = append(e.B, 1)
	} else {
		e.B = append(e.B, 0)
	}
}

// Str appends a length and the bytes.
func (e *Encoder) Str(s string) {
	e.Uint(uint64(len(s)))
	e.B = append(e.B, s...)
}

// Bytes appends a length and the bytes.
func (e *Encoder) Bytes(b []byte) {
	e.Uint(uint64(len(b)))
	e.B = append(e.B, b...)
}

// Counts appends optional bin counts: a presence byte, then the counts.
func (e *Encoder) Counts(c *sketch.Counts) {
	e.Bool(c != nil)
	if c != nil {
		e.B = c.AppendEncode(e.B)
	}
}

// Sketch appends an optional sketch: a presence byte, then the sketch.
func (e *Encoder) Sketch(s *sketch.Sketch) {
	e.Bool(s != nil)
	if s != nil {
		e.B = s.AppendEncode(e.B)
	}
}

// maxString bounds one decoded string (a key, a client).
const maxString = 1 << 16

// Decoder reads what an Encoder wrote. The first error sticks: later
// reads return zero values, so a reader checks Err between loops and
// Done at its end. Every count is checked against the bytes left, and
// every sketch's bins are charged to a budget of the input's size, so
// damaged or crafted input gives an error, never a panic or a large
// allocation.
type Decoder struct {
	b      []byte
	m      *sketch.Mapping
	budget *sketch.Budget
	what   error
	err    error
}

// NewDecoder reads b, its sketches of mapping m; its errors wrap what.
func NewDecoder(m *sketch.Mapping, b []byte, what error) *Decoder {
	return &Decoder{b: b, m: m, budget: sketch.NewBudget(len(b)), what: what}
}

// Fail records an error, unless one is recorded, and stops reading.
func (d *Decoder) Fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", d.what, fmt.Sprintf(format, args...))
	}
	d.b = nil
}

// Err is the first error.
func (d *Decoder) Err() error { return d.err }

// Done is the first error, or one for bytes left over.
func (d *Decoder) Done() error {
	if d.err == nil && len(d.b) != 0 {
		d.Fail("%d bytes left over", len(d.b))
	}
	return d.err
}

// Marked reports whether the next unsigned varint is mark, and reads it
// when it is: a field added at the front of an encoding is announced by
// a mark that no older encoding begins with.
func (d *Decoder) Marked(mark uint64) bool {
	if d.err != nil {
		return false
	}
	if v, k := binary.Uvarint(d.b); k > 0 && v == mark {
		d.b = d.b[k:]
		return true
	}
	return false
}

// Uint reads an unsigned varint.
func (d *Decoder) Uint() uint64 {
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.Fail("bad number")
		return 0
	}
	d.b = d.b[k:]
	return v
}

// Int reads a signed varint.
func (d *Decoder) Int() int64 {
	v, k := binary.Varint(d.b)
	if k <= 0 {
		d.Fail("bad number")
		return 0
	}
	d.b = d.b[k:]
	return v
}

// Count reads a count: an unsigned varint that fits an int64 with room
// to add.
func (d *Decoder) Count() int64 {
	v := d.Uint()
	if v > math.MaxInt64/2 {
		d.Fail("count %d out of range", v)
		return 0
	}
	return int64(v)
}

// Items reads how many items follow, each taking at least minBytes.
func (d *Decoder) Items(minBytes int) int {
	n := d.Uint()
	if n > uint64(len(d.b)/minBytes) {
		d.Fail("%d items in %d bytes", n, len(d.b))
		return 0
	}
	return int(n)
}

// Float reads a finite float64.
func (d *Decoder) Float() float64 {
	if len(d.b) < 8 {
		d.Fail("short")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	if math.IsNaN(v) || math.IsInf(v, 0) {
		d.Fail("a number that is not finite")
		return 0
	}
	return v
}

// Bool reads one byte, 0 or 1.
func (d *Decoder) Bool() bool {
	if len(d.b) < 1 || d.b[0] > 1 {
		d.Fail("bad flag")
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

// Bytes reads a length and that many bytes (valid while the input is).
func (d *Decoder) Bytes() []byte {
	n := d.Uint()
	if n > uint64(len(d.b)) {
		d.Fail("%d bytes where %d are left", n, len(d.b))
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

// Str reads a string of at most 64 KiB.
func (d *Decoder) Str() string {
	b := d.Bytes()
	if len(b) > maxString {
		d.Fail("string of %d bytes", len(b))
		return ""
	}
	return string(b)
}

// Counts reads optional bin counts (Encoder.Counts), charged to the
// input's budget as a sketch is.
func (d *Decoder) Counts() *sketch.Counts {
	if !d.Bool() {
		return nil
	}
	c, rest, err := sketch.DecodeCountsWithin(d.m, d.b, d.budget)
	if err != nil {
		d.Fail("%v", err)
		return nil
	}
	d.b = rest
	return c
}

// Sketch reads an optional sketch.
func (d *Decoder) Sketch() *sketch.Sketch {
	if !d.Bool() {
		return nil
	}
	s, rest, err := sketch.DecodeWithin(d.m, d.b, d.budget)
	if err != nil {
		d.Fail("%v", err)
		return nil
	}
	d.b = rest
	return s
}

// errDamaged is wrapped by every error decoding an accumulator.
var errDamaged = errors.New("damaged aggregate")
