package ingest

import (
	"io"
	"strings"
	"sync/atomic"
	"testing"
)

// callCounter counts the reads asked of its reader.
type callCounter struct {
	r     io.Reader
	calls int
}

func (c *callCounter) Read(p []byte) (int, error) {
	c.calls++
	return c.r.Read(p)
}

// TestCountingReaderEndOnce: once a file has given its end, reads give it
// again without reading the file, and every byte is counted once.
func TestCountingReaderEndOnce(t *testing.T) {
	src := &callCounter{r: strings.NewReader("abc\n")}
	var total atomic.Int64
	c := &countingReader{r: src, n: &total}
	buf := make([]byte, 2)
	var got []byte
	for range 8 {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil && err != io.EOF {
			t.Fatal(err)
		}
	}
	if string(got) != "abc\n" || c.read != 4 || total.Load() != 4 {
		t.Errorf("read %q, counted %d and %d, want \"abc\\n\", 4", got, c.read, total.Load())
	}
	if src.calls != 3 { // two of two bytes, then the end
		t.Errorf("%d reads of the file, want 3", src.calls)
	}
}

// TestCountingReaderShortRead: a regular file whose size is read gives
// its end at a read shorter than asked, without reading the file again;
// a short read before its size is read (a network file system's) does
// not end it, nor does one of a file of unknown size.
func TestCountingReaderShortRead(t *testing.T) {
	for _, c := range []struct {
		name  string
		size  int64
		sized bool
		calls int
	}{
		{"sized", 6, true, 1},         // 6 bytes at once: the end
		{"grown", 4, true, 1},         // grown past its size since: as much as one read gives
		{"short early", 9, true, 2},   // less than its size: read on to the end
		{"unknown size", 0, false, 2}, // read on to the end
	} {
		src := &callCounter{r: strings.NewReader("abcdef")}
		var total atomic.Int64
		r := &countingReader{r: src, n: &total, size: c.size, sized: c.sized}
		got, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil || string(got) != "abcdef" || src.calls != c.calls {
			t.Errorf("%s: read %q (%v) in %d reads of the file, want \"abcdef\" in %d", c.name, got, err, src.calls, c.calls)
		}
	}
}
