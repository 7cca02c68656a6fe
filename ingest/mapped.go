package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// A plain text file is read in place: mapped into memory, its blocks of
// whole lines are slices of the mapping, so that no byte is copied before
// a worker cuts and parses it (a read copies the whole input once, in the
// reader's goroutine). The reader only finds where blocks end: the
// workers count their blocks' lines, and a bad line's number in the file
// is worked out after the run (resolve). The workers drop the pages of
// each block from the process once done with it, so that the mapping
// adds one block per worker to the resident set, not the file.
//
// A file cut shorter while mapped (logrotate's copytruncate) makes the
// pages past its new end fault. The goroutines reading a mapping turn
// such a fault into a panic (debug.SetPanicOnFault), which they recover:
// the file is then reported as read in part.

// errChanged is the reason for a file cut shorter while it was read.
var errChanged = errors.New("the file was cut shorter while it was read")

// fileMap is one file mapped into memory, unmapped when the reader and
// every unit sent from it are done.
type fileMap struct {
	data    []byte
	refs    atomic.Int64
	faulted atomic.Bool // a page of it faulted: the file shrank
	// users counts, of each page that blocks share (one ends in it,
	// the next begins), the blocks not done with it, and the reader
	// while the block to begin in it is not sent: the page is dropped
	// at the last. Dropped while a neighbour still read it, it would
	// be faulted back with the pages around it (the kernel maps a
	// fault's neighbours too), those of a block already done with.
	mu    sync.Mutex
	users map[int]int
}

func newFileMap(data []byte) *fileMap { return &fileMap{data: data, users: map[int]int{}} }

// pageSize is the unit in which pages leave the resident set.
var pageSize = os.Getpagesize()

// hold adds a reference, for one unit sent.
func (m *fileMap) hold() { m.refs.Add(1) }

// release drops a reference, unmapping at the last.
func (m *fileMap) release() {
	if m.refs.Add(-1) == 0 {
		unmap(m.data)
	}
}

// edges returns the pages a block of [off, end) shares with the blocks
// before and after it, -1 for none: those it begins or ends inside of.
func (m *fileMap) edges(off, end int) (first, last int) {
	first, last = -1, -1
	if off%pageSize != 0 {
		first = off / pageSize
	}
	if end%pageSize != 0 && end < len(m.data) {
		last = end / pageSize
	}
	if last == first {
		last = -1
	}
	return first, last
}

// share counts one more user of pages a and b, those of them ≥ 0.
func (m *fileMap) share(a, b int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a >= 0 {
		m.users[a]++
	}
	if b >= 0 {
		m.users[b]++
	}
}

// unuse drops a user of a shared page (pg ≥ 0), dropping the page at the
// last.
func (m *fileMap) unuse(pg int) {
	if pg < 0 {
		return
	}
	m.mu.Lock()
	m.users[pg]--
	last := m.users[pg] == 0
	if last {
		delete(m.users, pg)
	}
	m.mu.Unlock()
	if last {
		dropPages(m.data, pg*pageSize, pageSize)
	}
}

// done is called by a worker when it is done with the block of the
// mapping at [off, off+n): the pages it alone read leave the resident set
// (they stay in the page cache), and those it shares once their other
// blocks are done too.
func (m *fileMap) done(off, n int) {
	end := off + n
	first, last := m.edges(off, end)
	lo, hi := off, end
	if first >= 0 {
		lo = (first + 1) * pageSize
	}
	if last >= 0 {
		hi = last * pageSize
	}
	if lo < hi {
		dropPages(m.data, lo, hi-lo)
	}
	m.unuse(first)
	m.unuse(last)
	m.release()
}

// contains says whether addr is in the mapping.
func (m *fileMap) contains(addr uintptr) bool {
	return len(m.data) > 0 && addr >= dataAddr(m.data) && addr < dataAddr(m.data)+uintptr(len(m.data))
}

// faultIn recovers a fault in a page of m, the panic the goroutine's
// debug.SetPanicOnFault makes of it, and notes it; any other panic goes
// on. Called deferred.
func (m *fileMap) faultIn(v any) {
	if e, ok := v.(interface{ Addr() uintptr }); ok && m.contains(e.Addr()) {
		m.faulted.Store(true)
		return
	}
	panic(v)
}

// readMapped reads the lines of a plain regular file by mapping it, from
// offset start, what the format's detection consumed (its reads got to
// pos); line is the number of the line at start. It returns false when
// the file cannot be mapped: then nothing was sent.
func (p *pipeline) readMapped(fs *fileState, f *os.File, start, pos, line int64) (bool, error) {
	if !canMap {
		return false, nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() <= start || st.Size() != int64(int(st.Size())) {
		return false, nil
	}
	data, err := mapFile(f, int(st.Size()))
	if err != nil {
		return false, nil
	}
	m := newFileMap(data)
	m.hold() // the reader's
	fs.mapped = m
	defer m.release()
	return true, p.sendMapped(fs, m, int(start), pos, line)
}

// sendMapped sends the file's blocks of whole lines from offset pos: a
// block ends at the last line end in blockSize bytes, or at the first
// after them when a line is longer (the workers count a line over MaxLine
// bad, as they do those of a read), or at the end of the file.
func (p *pipeline) sendMapped(fs *fileState, m *fileMap, pos int, counted, line int64) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if v := recover(); v != nil {
			m.faultIn(v)
			err = errChanged
		}
	}()
	data, size := m.data, p.blocks.size
	held := -1 // the shared page the reader holds (fileMap.users)
	seq := 0
	fs.mapFirst = line
	defer func() { m.unuse(held) }()
	// The progress counts the file's bytes to where the reads got.
	read := p.opts.Progress.BytesRead.Load()
	base := read - counted
	for pos < len(data) {
		end := len(data)
		if pos+size < len(data) {
			if i := bytes.LastIndexByte(data[pos:pos+size], '\n'); i >= 0 {
				end = pos + i + 1
			} else if i := bytes.IndexByte(data[pos+size:], '\n'); i >= 0 {
				end = pos + size + i + 1
			}
		}
		m.hold()
		m.share(m.edges(pos, end))
		// The page the next block begins in is held until it is sent.
		next := -1
		if end%pageSize != 0 && end < len(data) {
			next = end / pageSize
		}
		m.share(next, -1)
		m.unuse(held)
		held = next
		// Its lines are counted by the worker that reads it, not by a
		// pass of the reader's over the whole file: line is the block's
		// own, and resolve numbers them in the file after the run.
		p.work <- unit{file: fs, line: 1, data: data[pos:end:end], mapped: m, off: pos, seq: seq}
		seq++
		pos = end
		if n := base + int64(end); n > read {
			p.opts.Progress.BytesRead.Add(n - read)
			read = n
		}
	}
	if m.faulted.Load() {
		return errChanged
	}
	return nil
}

// mappedLines runs the worker's lines over a unit of a mapping, turning a
// fault in it into the file's being read in part.
func (p *pipeline) mappedLines(u *unit, lp lineParser, sink Sink, t *tally, rec *Record) {
	old := debug.SetPanicOnFault(true)
	t.unit = u.seq + 1
	defer func() {
		debug.SetPanicOnFault(old)
		t.unit = 0
		if v := recover(); v != nil {
			u.mapped.faultIn(v)
		}
		u.mapped.done(u.off, len(u.data))
	}()
	t.unitLines(u.file.index, u.seq, p.lines(u, lp, sink, t, rec))
}

// changedWhileRead notes on fs a fault a worker met in its mapping.
func (fs *fileState) changedWhileRead() {
	if fs.mapped == nil {
		return
	}
	if fs.mapped != nil && fs.mapped.faulted.Load() && !fs.incomplete {
		fs.incomplete, fs.reason = true, fmt.Sprint(errChanged)
	}
}
