package ingest

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// TestSkimHeaderSizes holds the sizes skimHeader reads from a page
// header against those parquet-go's thrift decoder gives, on headers
// encoded by parquet-go: of each kind of page, with statistics between
// the fields, with sizes past a byte's varint and negative ones; and on
// the same bytes with each field header in its long form (an explicit
// id, not a delta), which a writer may use.
func TestSkimHeaderSizes(t *testing.T) {
	stats := format.Statistics{MinValue: []byte("a"), MaxValue: []byte("zz"), NullCount: 3}
	headers := []format.PageHeader{
		{Type: format.DataPage, UncompressedPageSize: 81920, CompressedPageSize: 40321, CRC: 7,
			DataPageHeader: thrift.New(format.DataPageHeader{NumValues: 10240, Encoding: format.Plain, Statistics: stats})},
		{Type: format.DictionaryPage, UncompressedPageSize: 12, CompressedPageSize: 30,
			DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: 3, Encoding: format.Plain})},
		{Type: format.DataPageV2, UncompressedPageSize: 1 << 30, CompressedPageSize: 5,
			DataPageHeaderV2: thrift.New(format.DataPageHeaderV2{NumValues: 9, NumRows: 9, Encoding: format.RLEDictionary, Statistics: stats})},
		{Type: format.DataPage, UncompressedPageSize: -4, CompressedPageSize: -1 << 31},
		{},
	}
	for i, h := range headers {
		b, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
		if err != nil {
			t.Fatal(err)
		}
		var want format.PageHeader
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), b, &want); err != nil {
			t.Fatal(err)
		}
		for _, form := range []struct {
			name string
			b    []byte
		}{{"short", b}, {"long", longFieldIDs(t, b)}} {
			in := append(append([]byte(nil), form.b...), 0xde, 0xad) // what follows the header
			n, got, err := skimHeader(in)
			if err != nil {
				t.Fatalf("header %d, %s form: %v", i, form.name, err)
			}
			if n != len(form.b) {
				t.Errorf("header %d, %s form: length %d, want %d", i, form.name, n, len(form.b))
			}
			if got[1] != int32(want.Type) || got[2] != want.UncompressedPageSize || got[3] != want.CompressedPageSize {
				t.Errorf("header %d, %s form: type %d, sizes %d and %d; want %d, %d and %d", i, form.name,
					got[1], got[2], got[3], want.Type, want.UncompressedPageSize, want.CompressedPageSize)
			}
		}
	}
	// Field 3 as a string: not a page header's size.
	if _, _, err := skimHeader([]byte{0x15, 0x02, 0x28, 0x01, 'x', 0x00}); err == nil {
		t.Error("a string for field 3: no error")
	}
	// The footer's fields 1 to 3 are of other types: skimThrift takes them.
	if _, err := skimThrift([]byte{0x15, 0x02, 0x19, 0x0c, 0x16, 0x04, 0x00}); err != nil {
		t.Errorf("a footer's fields: %v", err)
	}
}

// longFieldIDs rewrites the outer struct of compact thrift b with every
// field header in its long form: the type, then the id as a zigzag
// varint. Nested values are copied as they are.
func longFieldIDs(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	id := int64(0)
	for i := 0; ; {
		h := b[i]
		if h == 0 {
			return append(out.Bytes(), b[i:]...)
		}
		if h>>4 == 0 {
			t.Fatal("already in the long form")
		}
		id += int64(h >> 4)
		out.WriteByte(h & 0x0f)
		v := uint64(id<<1) ^ uint64(id>>63)
		for ; v >= 0x80; v >>= 7 {
			out.WriteByte(byte(v) | 0x80)
		}
		out.WriteByte(byte(v))
		s := skimmer{b: b, i: i + 1}
		if err := s.value(h&0x0f, 1); err != nil {
			t.Fatal(err)
		}
		out.Write(b[i+1 : s.i])
		i = s.i
	}
}

// TestChunkWindow reads a file of random bytes through a chunkWindow at
// random offsets and lengths (within the window, across its end, longer
// than it) and holds each read against the file's own: the same bytes
// and count, and no error. Reads within the chunk, as parquet-go makes
// them, never fill the window past the chunk's end; reads past it and
// past the file's end are answered as the file answers them.
func TestChunkWindow(t *testing.T) {
	data := make([]byte, 5*checkWindow+123)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	src := bytes.NewReader(data)
	end := int64(len(data) - 3*checkWindow/2) // the chunk's end
	w := &chunkWindow{src: src, buf: make([]byte, checkWindow), end: end}
	for i := range 10000 {
		inChunk := i < 5000
		limit := int64(len(data)) + 10
		if inChunk {
			limit = end
		}
		off := rng.Int64N(limit)
		n := rng.IntN(checkWindow / 8)
		switch rng.IntN(4) {
		case 0:
			n = rng.IntN(2 * checkWindow)
		case 1:
			off = max(w.at+int64(w.n)-int64(rng.IntN(64)), 0) // across the window's end
		}
		if inChunk {
			off = min(off, end-1)
			n = int(min(int64(n), end-off))
		}
		got, want := make([]byte, n), make([]byte, n)
		gn, gerr := w.ReadAt(got, off)
		wn, werr := src.ReadAt(want, off)
		if gn != wn || !bytes.Equal(got[:gn], want[:wn]) || (gerr == nil) != (werr == nil) {
			t.Fatalf("read of %d at %d: %d bytes (%v), the file's %d (%v)", n, off, gn, gerr, wn, werr)
		}
		if inChunk && w.at+int64(w.n) > end {
			t.Fatalf("read of %d at %d: the window holds [%d, %d), past the chunk's end %d", n, off, w.at, w.at+int64(w.n), end)
		}
	}
}
