package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/format"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	lz4block "github.com/pierrec/lz4/v4"
)

// parquet-go trusts the sizes a file claims: it allocates the footer
// length, every thrift list length and every page size it reads before it
// knows whether the bytes are there. On damaged input that is gigabytes.
// The checks here bound those sizes first, so a damaged file fails with an
// error instead of exhausting memory.

// checkParquetFooter checks the magic numbers, that the footer fits in
// the file and that its thrift encoding claims no more than it holds.
func checkParquetFooter(src io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes is too short for a parquet file", size)
	}
	var head, tail [8]byte
	if _, err := src.ReadAt(head[:4], 0); err != nil {
		return err
	}
	if _, err := src.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(head[:4]) != "PAR1" || string(tail[4:]) != "PAR1" {
		return errors.New("missing PAR1 magic number")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Errorf("footer of %d bytes in a file of %d", n, size)
	}
	footer := make([]byte, n)
	if _, err := src.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	if _, err := skimThrift(footer); err != nil {
		return fmt.Errorf("footer: %w", err)
	}
	return nil
}

// maxPageSize bounds the size a page header may claim. Writers make pages
// of a megabyte or so.
const maxPageSize = 128 << 20

// checkWindow is how much of a column chunk read from the file
// checkParquetChunk, and parquet-go through a chunkWindow, read at a
// time: most chunks of a log (tens of kilobytes) in one read each, where
// reads of 4 KB made two reads a page. pqReadBuffer is parquet-go's own
// buffer, from which it decodes the page headers: a page's bytes past it
// are read straight into the page, from a chunk in memory or a window,
// not copied through it (64 KB buffers copied each chunk twice).
const (
	checkWindow  = 64 << 10
	pqReadBuffer = 4 << 10
)

// checkParquetChunk checks, before parquet-go reads a column chunk, that
// the chunk lies inside the file, that its codec is one whose decoder
// stays bounded on damaged data, and that every page header is sound and
// claims sizes that fit. The headers are read into *buf, grown as they
// need: the caller's, reused from chunk to chunk.
func checkParquetChunk(src io.ReaderAt, size int64, cols []format.ColumnChunk, c int, buf *[]byte) error {
	start, end, err := chunkRange(cols, c, size)
	if err != nil {
		return err
	}
	lz4 := cols[c].MetaData.Codec == format.Lz4Raw
	// The chunk is read a window of checkWindow bytes at a time, or of a
	// header's size when larger: a read per window, not per page.
	var win []byte
	var at int64 // the chunk byte win starts at
	if m, ok := src.(*memChunk); ok && start >= m.at && end-m.at <= int64(len(m.b)) {
		win, at = m.b[start-m.at:end-m.at], start // the whole chunk, in memory
	}
	for pos := start; pos < end; {
		var hdr []byte
		var used int
		var h [4]int32
		for n := int64(4 << 10); ; n *= 16 {
			m := min(n, end-pos)
			if pos < at || pos+m > at+int64(len(win)) {
				w := int(min(max(m, checkWindow), end-pos))
				if cap(*buf) < w {
					*buf = make([]byte, w)
				}
				win, at = (*buf)[:w], pos
				k, err := src.ReadAt(win, pos)
				if err != nil && err != io.EOF {
					return err
				}
				clear(win[k:]) // as a new buffer's: no byte of an earlier header
			}
			hdr = win[pos-at : pos-at+m]
			var err error
			if used, h, err = skimHeader(hdr); err == nil {
				break
			}
			if !errors.Is(err, errThriftShort) || int64(len(hdr)) < n || n >= 1<<20 {
				return fmt.Errorf("page header at byte %d: %w", pos, err)
			}
		}
		// Fields 2 and 3, the sizes: parquet-go decodes the header again.
		unzipped, zipped := h[2], h[3]
		pos += int64(used)
		if zipped < 0 || int64(zipped) > end-pos {
			return fmt.Errorf("page at byte %d claims %d bytes, the chunk has %d left", pos, zipped, end-pos)
		}
		if unzipped < 0 || unzipped > maxPageSize {
			return fmt.Errorf("page at byte %d claims %d bytes uncompressed", pos, unzipped)
		}
		if lz4 {
			var body []byte
			if pos >= at && pos+int64(zipped) <= at+int64(len(win)) {
				body = win[pos-at : pos-at+int64(zipped)]
			} else {
				body = make([]byte, zipped)
				if k, err := src.ReadAt(body, pos); k < len(body) {
					return fmt.Errorf("page at byte %d: %w", pos, err)
				}
			}
			if err := checkLZ4Page(hdr[:used], body, int(unzipped)); err != nil {
				return fmt.Errorf("page at byte %d: %w", pos, err)
			}
		}
		pos += int64(zipped)
	}
	return nil
}

// checkLZ4Page checks that the LZ4 block of a page (its header, its body
// of the size the header claims) decompresses to the size the header
// claims: parquet-go's LZ4 decoder doubles its buffer for as long as a
// block does not decompress, without limit on a damaged one. A page of
// format v2 holds its levels before the block, not compressed, and may
// hold its values not compressed either.
func checkLZ4Page(header, body []byte, unzipped int) error {
	var ph format.PageHeader
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), header, &ph); err != nil {
		return err
	}
	levels := 0
	if v2, ok := ph.DataPageHeaderV2.Get(); ok {
		levels = int(v2.RepetitionLevelsByteLength) + int(v2.DefinitionLevelsByteLength)
		if levels < 0 || levels > len(body) || levels > unzipped {
			return fmt.Errorf("levels of %d bytes in a page of %d", levels, len(body))
		}
		if compressed, ok := v2.IsCompressed.Get(); ok && !compressed {
			return nil
		}
	}
	// One byte more than claimed: a block that fills it says more than
	// its header does.
	out := make([]byte, unzipped-levels+1)
	if n, err := lz4block.UncompressBlock(body[levels:], out); err != nil || n != unzipped-levels {
		return errors.New("its LZ4 block does not decompress to the size its header claims")
	}
	return nil
}

// chunkRange returns the bytes [start, end) of column c's chunk, checking
// that they lie inside the file of size bytes.
func chunkRange(cols []format.ColumnChunk, c int, size int64) (start, end int64, err error) {
	if c >= len(cols) {
		return 0, 0, errors.New("missing from the footer")
	}
	md := &cols[c].MetaData
	start = md.DataPageOffset
	if d := md.DictionaryPageOffset; d > 0 && d < start {
		start = d
	}
	end = start + md.TotalCompressedSize
	if start < 4 || md.TotalCompressedSize < 0 || end > size || end < start {
		return 0, 0, fmt.Errorf("column chunk [%d, %d) outside the file of %d bytes", start, end, size)
	}
	return start, end, nil
}

var errThriftShort = errors.New("thrift data cut short")

// maxThriftDepth bounds the nesting of thrift structures, which the
// decoder follows by recursion.
const maxThriftDepth = 32

// skimThrift walks one thrift compact-protocol struct at the start of b
// without decoding it, checking that every list, map and string claims no
// more elements or bytes than remain and that nesting stays shallow. It
// returns the struct's length.
func skimThrift(b []byte) (int, error) {
	s := skimmer{b: b}
	if err := s.value(12, 0); err != nil {
		return 0, err
	}
	return s.i, nil
}

// skimHeader is skimThrift of a page header, which also returns its
// fields 1 to 3 (i32 each: the page's type, uncompressed size and
// compressed size) by their numbers.
func skimHeader(b []byte) (int, [4]int32, error) {
	s := skimmer{b: b, header: true}
	if err := s.value(12, 0); err != nil {
		return 0, s.i32, err
	}
	return s.i, s.i32, nil
}

type skimmer struct {
	b []byte
	i int
	// header: the struct is a page header, whose fields 1 to 3 (its
	// type and sizes, all i32) i32 holds: zero when absent.
	header bool
	i32    [4]int32
}

// topI32 reads field f (1 to 3) of the outer struct, of compact type t,
// which must be i32.
func (s *skimmer) topI32(f int, t byte) error {
	if t != 5 {
		return fmt.Errorf("thrift field %d of type %d, not i32", f, t)
	}
	v, err := s.varint()
	if err != nil {
		return err
	}
	s.i32[f] = int32(uint32(v>>1) ^ -uint32(v&1))
	return nil
}

func (s *skimmer) byte() (byte, error) {
	if s.i >= len(s.b) {
		return 0, errThriftShort
	}
	c := s.b[s.i]
	s.i++
	return c, nil
}

func (s *skimmer) varint() (uint64, error) {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c, err := s.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("thrift varint too long")
}

func (s *skimmer) skip(n uint64) error {
	if n > uint64(len(s.b)-s.i) {
		return errThriftShort
	}
	s.i += int(n)
	return nil
}

// count reads a list or map size and checks that each element can take a
// byte of what remains.
func (s *skimmer) count(n uint64) (int, error) {
	if n > uint64(len(s.b)-s.i) {
		return 0, fmt.Errorf("thrift list of %d elements in %d bytes: %w", n, len(s.b)-s.i, errThriftShort)
	}
	return int(n), nil
}

// value skips one value of compact type t.
func (s *skimmer) value(t byte, depth int) error {
	if depth > maxThriftDepth {
		return errors.New("thrift nesting too deep")
	}
	switch t {
	case 1, 2: // bool in a struct field header
		return nil
	case 3:
		return s.skip(1)
	case 4, 5, 6:
		_, err := s.varint()
		return err
	case 7:
		return s.skip(8)
	case 8:
		n, err := s.varint()
		if err != nil {
			return err
		}
		return s.skip(n)
	case 9, 10:
		h, err := s.byte()
		if err != nil {
			return err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = s.varint(); err != nil {
				return err
			}
		}
		k, err := s.count(n)
		if err != nil {
			return err
		}
		et := h & 0x0f
		for range k {
			if et == 1 || et == 2 {
				err = s.skip(1) // a bool element is a byte
			} else {
				err = s.value(et, depth+1)
			}
			if err != nil {
				return err
			}
		}
		return nil
	case 11:
		n, err := s.varint()
		if err != nil || n == 0 {
			return err
		}
		k, err := s.count(2 * n)
		if err != nil {
			return err
		}
		kv, err := s.byte()
		if err != nil {
			return err
		}
		for range k / 2 {
			for _, et := range [2]byte{kv >> 4, kv & 0x0f} {
				if et == 1 || et == 2 {
					err = s.skip(1)
				} else {
					err = s.value(et, depth+1)
				}
				if err != nil {
					return err
				}
			}
		}
		return nil
	case 12:
		var id int64 // the field's
		for {
			h, err := s.byte()
			if err != nil {
				return err
			}
			if h == 0 {
				return nil
			}
			if h>>4 == 0 {
				v, err := s.varint() // the id, zigzag-encoded
				if err != nil {
					return err
				}
				id = int64(v>>1) ^ -int64(v&1)
			} else {
				id += int64(h >> 4) // a delta from the last id
			}
			if s.header && depth == 0 && id >= 1 && id <= 3 {
				if err := s.topI32(int(id), h&0x0f); err != nil {
					return err
				}
				continue
			}
			if err := s.value(h&0x0f, depth+1); err != nil {
				return err
			}
		}
	case 13: // uuid
		return s.skip(16)
	}
	return fmt.Errorf("unknown thrift type %d", t)
}
