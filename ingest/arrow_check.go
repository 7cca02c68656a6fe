package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The Arrow IPC reader trusts the flatbuffers it reads: a vector length
// or message length in a damaged file becomes an allocation of gigabytes.
// scanArrow walks the messages first, checking every length that the
// reader would allocate by against the bytes that hold it, and tells how
// far the input is sound.

// arrowMsg is one sound message: where it starts and its total length.
type arrowMsg struct{ off, len int64 }

// scanArrowMessages checks the messages of a stream held in [start, end)
// and returns them; end is where the last sound one ends (start of the
// damage when err is not nil).
func scanArrowMessages(src io.ReaderAt, start, end int64) (msgs []arrowMsg, sound int64, err error) {
	pos := start
	var hdr [8]byte
	for pos < end {
		if end-pos < 4 {
			return msgs, pos, errors.New("message header cut short")
		}
		n := min(8, end-pos)
		if _, err := src.ReadAt(hdr[:n], pos); err != nil && err != io.EOF {
			return msgs, pos, err
		}
		skip := int64(4)
		metaLen := int64(int32(binary.LittleEndian.Uint32(hdr[:4])))
		if metaLen == -1 { // continuation marker
			if n < 8 {
				return msgs, pos, errors.New("message header cut short")
			}
			skip, metaLen = 8, int64(int32(binary.LittleEndian.Uint32(hdr[4:8])))
		}
		if metaLen == 0 { // end of stream
			return msgs, pos, nil
		}
		if metaLen < 0 || metaLen > end-pos-skip {
			return msgs, pos, fmt.Errorf("message of %d bytes at byte %d, %d left", metaLen, pos, end-pos-skip)
		}
		meta := make([]byte, metaLen)
		if _, err := src.ReadAt(meta, pos+skip); err != nil {
			return msgs, pos, err
		}
		v := fbVerifier{b: meta}
		body, err := v.message()
		if err != nil {
			return msgs, pos, fmt.Errorf("message at byte %d: %w", pos, err)
		}
		total := skip + metaLen + body
		if body < 0 || body > end-pos-skip-metaLen {
			return msgs, pos, fmt.Errorf("message body of %d bytes at byte %d, %d left", body, pos, end-pos-skip-metaLen)
		}
		msgs = append(msgs, arrowMsg{pos, total})
		pos += total
	}
	return msgs, pos, nil
}

// checkArrowFooter checks an IPC file's footer and that each record and
// dictionary block it lists is a message the scan found sound.
func checkArrowFooter(src io.ReaderAt, size int64) error {
	if size < 8+10 {
		return errors.New("file too small")
	}
	var tail [10]byte
	if _, err := src.ReadAt(tail[:], size-10); err != nil {
		return err
	}
	if string(tail[4:]) != "ARROW1" {
		return errors.New("missing ARROW1 magic number at the end")
	}
	flen := int64(int32(binary.LittleEndian.Uint32(tail[:4])))
	fstart := size - 10 - flen
	if flen <= 0 || fstart < 8 {
		return fmt.Errorf("footer of %d bytes in a file of %d", flen, size)
	}
	footer := make([]byte, flen)
	if _, err := src.ReadAt(footer, fstart); err != nil {
		return err
	}
	v := fbVerifier{b: footer}
	blocks, err := v.footer()
	if err != nil {
		return fmt.Errorf("footer: %w", err)
	}
	msgs, _, err := scanArrowMessages(src, 8, fstart)
	if err != nil {
		return err
	}
	sound := make(map[int64]int64, len(msgs))
	for _, m := range msgs {
		sound[m.off] = m.len
	}
	for _, b := range blocks {
		if l, ok := sound[b.off]; !ok || b.len != l {
			return fmt.Errorf("footer lists a block at byte %d that is not a sound message", b.off)
		}
	}
	return nil
}

// fbVerifier checks the flatbuffers of Arrow's Message and Footer tables:
// tables, strings and vectors inside the buffer, nesting bounded.
type fbVerifier struct {
	b     []byte
	depth int
}

var errFlatbuffer = errors.New("damaged flatbuffer")

func (v *fbVerifier) u32(p int) (int, error) {
	if p < 0 || p+4 > len(v.b) {
		return 0, errFlatbuffer
	}
	return int(binary.LittleEndian.Uint32(v.b[p:])), nil
}

func (v *fbVerifier) u16(p int) (int, error) {
	if p < 0 || p+2 > len(v.b) {
		return 0, errFlatbuffer
	}
	return int(binary.LittleEndian.Uint16(v.b[p:])), nil
}

// root returns the root table's position.
func (v *fbVerifier) root() (int, error) { return v.u32(0) }

// table checks the table at t and its vtable.
func (v *fbVerifier) table(t int) error {
	so, err := v.u32(t)
	if err != nil {
		return err
	}
	vt := t - int(int32(so))
	vlen, err := v.u16(vt)
	if err != nil || vlen < 4 || vlen&1 != 0 || vt+vlen > len(v.b) {
		return errFlatbuffer
	}
	tlen, err := v.u16(vt + 2)
	if err != nil || t+tlen > len(v.b) {
		return errFlatbuffer
	}
	return nil
}

// field returns the position of a table's field in slot i, or -1.
func (v *fbVerifier) field(t, i int) (int, error) {
	so, _ := v.u32(t)
	vt := t - int(int32(so))
	vlen, _ := v.u16(vt)
	if 4+2*i >= vlen {
		return -1, nil
	}
	off, err := v.u16(vt + 4 + 2*i)
	if err != nil || off == 0 {
		return -1, err
	}
	if t+off+4 > len(v.b) {
		return 0, errFlatbuffer
	}
	return t + off, nil
}

// ref follows the offset stored in field slot i of table t: -1 when absent.
func (v *fbVerifier) ref(t, i int) (int, error) {
	p, err := v.field(t, i)
	if err != nil || p < 0 {
		return -1, err
	}
	o, err := v.u32(p)
	if err != nil {
		return 0, err
	}
	if p+o >= len(v.b) {
		return 0, errFlatbuffer
	}
	return p + o, nil
}

// vector checks the vector at slot i of t with elements of size elem
// and returns its length and where its elements start.
func (v *fbVerifier) vector(t, i, elem int) (n, start int, err error) {
	p, err := v.ref(t, i)
	if err != nil || p < 0 {
		return 0, 0, err
	}
	n, err = v.u32(p)
	if err != nil || n > (len(v.b)-p-4)/elem {
		return 0, 0, errFlatbuffer
	}
	return n, p + 4, nil
}

// subtable checks the table referenced at slot i of t; -1 when absent.
func (v *fbVerifier) subtable(t, i int) (int, error) {
	s, err := v.ref(t, i)
	if err != nil || s < 0 {
		return s, err
	}
	return s, v.table(s)
}

// tables checks a vector of tables at slot i of t with check.
func (v *fbVerifier) tables(t, i int, check func(int) error) error {
	n, start, err := v.vector(t, i, 4)
	if err != nil {
		return err
	}
	v.depth++
	defer func() { v.depth-- }()
	if v.depth > 64 {
		return errors.New("flatbuffer nesting too deep")
	}
	for k := range n {
		p := start + 4*k
		o, err := v.u32(p)
		if err != nil || p+o >= len(v.b) {
			return errFlatbuffer
		}
		if err := v.table(p + o); err != nil {
			return err
		}
		if err := check(p + o); err != nil {
			return err
		}
	}
	return nil
}

func (v *fbVerifier) keyValue(t int) error {
	if _, _, err := v.vector(t, 0, 1); err != nil {
		return err
	}
	_, _, err := v.vector(t, 1, 1)
	return err
}

func (v *fbVerifier) field1(t int) error {
	if _, _, err := v.vector(t, 0, 1); err != nil { // name
		return err
	}
	typ, err := v.subtable(t, 3)
	if err != nil {
		return err
	}
	if typ >= 0 {
		if p, _ := v.field(t, 2); p >= 0 && v.b[p] == 14 { // Union: typeIds
			if _, _, err := v.vector(typ, 1, 4); err != nil {
				return err
			}
		}
		if p, _ := v.field(t, 2); p >= 0 && (v.b[p] == 10) { // Timestamp: timezone
			if _, _, err := v.vector(typ, 1, 1); err != nil {
				return err
			}
		}
	}
	dict, err := v.subtable(t, 4)
	if err != nil {
		return err
	}
	if dict >= 0 {
		if _, err := v.subtable(dict, 1); err != nil { // indexType
			return err
		}
	}
	if err := v.tables(t, 5, v.field1); err != nil { // children
		return err
	}
	return v.tables(t, 6, v.keyValue)
}

func (v *fbVerifier) schema(t int) error {
	if err := v.tables(t, 1, v.field1); err != nil {
		return err
	}
	if err := v.tables(t, 2, v.keyValue); err != nil {
		return err
	}
	_, _, err := v.vector(t, 3, 8)
	return err
}

func (v *fbVerifier) recordBatch(t int) error {
	if _, _, err := v.vector(t, 1, 16); err != nil { // nodes
		return err
	}
	if _, _, err := v.vector(t, 2, 16); err != nil { // buffers
		return err
	}
	if _, err := v.subtable(t, 3); err != nil { // compression
		return err
	}
	_, _, err := v.vector(t, 4, 8)
	return err
}

// message checks a Message and returns its body length.
func (v *fbVerifier) message() (int64, error) {
	t, err := v.root()
	if err != nil {
		return 0, err
	}
	if err := v.table(t); err != nil {
		return 0, err
	}
	var body int64
	if p, err := v.field(t, 3); err != nil {
		return 0, err
	} else if p >= 0 {
		if p+8 > len(v.b) {
			return 0, errFlatbuffer
		}
		body = int64(binary.LittleEndian.Uint64(v.b[p:]))
	}
	if err := v.tables(t, 4, v.keyValue); err != nil {
		return 0, err
	}
	h, err := v.subtable(t, 2)
	if err != nil || h < 0 {
		return body, err
	}
	var kind byte
	if p, _ := v.field(t, 1); p >= 0 {
		kind = v.b[p]
	}
	switch kind {
	case 1:
		err = v.schema(h)
	case 2:
		var rb int
		if rb, err = v.subtable(h, 1); err == nil && rb >= 0 {
			err = v.recordBatch(rb)
		}
	case 3:
		err = v.recordBatch(h)
	default:
		err = fmt.Errorf("message type %d is not read", kind)
	}
	return body, err
}

// footer checks a Footer and returns its record and dictionary blocks.
func (v *fbVerifier) footer() ([]arrowMsg, error) {
	t, err := v.root()
	if err != nil {
		return nil, err
	}
	if err := v.table(t); err != nil {
		return nil, err
	}
	s, err := v.subtable(t, 1)
	if err != nil {
		return nil, err
	}
	if s >= 0 {
		if err := v.schema(s); err != nil {
			return nil, err
		}
	}
	if err := v.tables(t, 4, v.keyValue); err != nil {
		return nil, err
	}
	var blocks []arrowMsg
	for _, slot := range []int{2, 3} {
		n, start, err := v.vector(t, slot, 24)
		if err != nil {
			return nil, err
		}
		for k := range n {
			p := start + 24*k
			off := int64(binary.LittleEndian.Uint64(v.b[p:]))
			meta := int64(int32(binary.LittleEndian.Uint32(v.b[p+8:])))
			body := int64(binary.LittleEndian.Uint64(v.b[p+16:]))
			blocks = append(blocks, arrowMsg{off, meta + body})
		}
	}
	return blocks, nil
}
