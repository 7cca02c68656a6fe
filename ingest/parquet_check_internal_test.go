package ingest

import (
	"bytes"
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
