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
	// size is a regular file's size when it was opened, when sized.
	size  int64
	sized bool
	eof   bool
}

// Read reads from r; once r has reported its end, the end again without
// a call to the system: each look further ahead at a small file's start
// (the magic bytes, the head, the first block) read its end anew, five
// reads of nothing per file. A regular file is at its end, too, when a
// read gives less than asked once its size at opening is read: the
// read of nothing that would tell so was one of a small file's two.
func (c *countingReader) Read(p []byte) (int, error) {
	if c.eof {
		return 0, io.EOF
	}
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	c.read += int64(n)
	c.eof = err == io.EOF || err == nil && c.sized && n < len(p) && c.read >= c.size
	if c.eof && n == 0 {
		return 0, io.EOF
	}
	return n, err
}
