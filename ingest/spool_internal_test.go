package ingest

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// fullFile is a temporary file on a disk that fills after limit bytes.
type fullFile struct {
	buf   bytes.Buffer
	limit int
}

func (f *fullFile) Write(b []byte) (int, error) {
	room := f.limit - f.buf.Len()
	if room >= len(b) {
		return f.buf.Write(b)
	}
	f.buf.Write(b[:max(room, 0)])
	return max(room, 0), errors.New("no space left on device")
}

func (f *fullFile) ReadAt(b []byte, off int64) (int, error) {
	return bytes.NewReader(f.buf.Bytes()).ReadAt(b, off)
}
func (f *fullFile) Close() error { return nil }
func (f *fullFile) Name() string { return "" }

// TestSpoolFullDisk: a temporary copy that cannot be written whole (a
// full disk), at once or part way, or that cannot be made, loses nothing:
// spool gives every byte the reader gave, in order, from memory.
func TestSpoolFullDisk(t *testing.T) {
	data := make([]byte, 300<<10)
	for i := range data {
		data[i] = byte(rand.N(256))
	}
	defer func(f func() (spoolFile, error)) { createTemp = f }(createTemp)
	for _, c := range []struct {
		name string
		make func() (spoolFile, error)
	}{
		{"full at once", func() (spoolFile, error) { return &fullFile{limit: 0}, nil }},
		{"full part way", func() (spoolFile, error) { return &fullFile{limit: 100<<10 + 7}, nil }},
		{"room for all", func() (spoolFile, error) { return &fullFile{limit: 1 << 20}, nil }},
		{"none made", func() (spoolFile, error) { return nil, errors.New("read-only file system") }},
	} {
		createTemp = c.make
		src, size, done, err := spool(bytes.NewReader(data))
		if err != nil || size != int64(len(data)) {
			t.Fatalf("%s: size %d, error %v; want %d", c.name, size, err, len(data))
		}
		got := make([]byte, size)
		if _, err := src.ReadAt(got, 0); err != nil && err != io.EOF {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s: the bytes read back differ from those given", c.name)
		}
		done()
	}
}
