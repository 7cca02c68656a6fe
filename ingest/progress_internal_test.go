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
