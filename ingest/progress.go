package ingest

import (
	"io"
	"sync/atomic"
)

// Progress is how far a run has got, updated while it runs and safe to
// read from another goroutine.
type Progress struct {
	// TotalBytes is the size of the input files (0 when unknown, as for
	// stdin); BytesRead how much of them has been read.
	TotalBytes atomic.Int64
	BytesRead  atomic.Int64
	// Records and BadLines are counted as workers finish chunks.
	Records  atomic.Int64
	BadLines atomic.Int64
	// Files is how many inputs were opened so far, of FileCount.
	Files     atomic.Int64
	FileCount atomic.Int64
}

// countingReader adds what it reads to a progress counter, and counts
// it as its own: the bytes read of one file.
type countingReader struct {
	r    io.Reader
	n    *atomic.Int64
	read int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	c.read += int64(n)
	return n, err
}
