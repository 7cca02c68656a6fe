package ingest

import (
	"bytes"
	"errors"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// A plain text file is read in place: mapped into memory, its blocks of
// whole lines are slices of the mapping, so that no byte is copied before
// a worker cuts and parses it (a read copies the whole input once, in the
// reader's goroutine). The reader only cuts the file into blocks of a
// size, reading none of it: the workers cut their blocks at line starts
// and count their lines, and a bad line's number in the file is worked
// out after the run (resolve). The workers drop the pages of
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
	// The pages before the first block not done with leave the
	// resident set, dropBatch bytes or more at a time: no block reads
	// them again (dropped while one still did, a page would be faulted
	// back with the pages around it, the kernel mapping a fault's
	// neighbours too), and a drop per block would cost a call and the
	// other cores' TLB flush each.
	mu      sync.Mutex
	ends    []int  // of each block sent (by seq), its end
	isDone  []bool // by seq
	next    int    // the first block not done
	dropped int    // the offset up to which pages are dropped
}

// dropBatch is the least a drop takes out of the resident set, but at
// the end of the file.
const dropBatch = 8 << 20

func newFileMap(data []byte) *fileMap { return &fileMap{data: data} }

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

// send notes the next block, ending at end, and holds the mapping for it,
// before the reader sends it; it returns the block's number.
func (m *fileMap) send(end int) int {
	m.hold()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ends, m.isDone = append(m.ends, end), append(m.isDone, false)
	return len(m.ends) - 1
}

// done is called by a worker when it is done with block seq: the pages
// before the first block not done with leave the resident set (they stay
// in the page cache) once they are dropBatch bytes or the file's end.
func (m *fileMap) done(seq int) {
	m.mu.Lock()
	m.isDone[seq] = true
	for m.next < len(m.isDone) && m.isDone[m.next] {
		m.next++
	}
	lo, hi := m.dropped, m.dropped
	if m.next > 0 {
		hi = m.ends[m.next-1]
	}
	if hi < len(m.data) && hi > 0 {
		// The page holding byte hi−1 stays: the next block reads that
		// byte to find its first line's start (lines). Dropped, it was
		// faulted back, and the kernel maps a fault's neighbours too, a
		// whole large folio of the page cache (up to a block), which no
		// later drop took out again: one worker's resident set grew by a
		// block every dropBatch bytes.
		hi = (hi - 1) &^ (pageSize - 1)
	}
	if hi-lo >= dropBatch || hi == len(m.data) && hi > lo {
		m.dropped = hi
	} else {
		hi = lo
	}
	m.mu.Unlock()
	if hi > lo {
		dropPages(m.data, lo, hi-lo)
	}
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
// the file is not mapped (smaller than two blocks, or it cannot be):
// then nothing was sent. A fault in the mapping, the file cut shorter,
// is found by the workers, and reported after the run (afterMapped).
func (p *pipeline) readMapped(fs *fileState, f *os.File, start, pos, line int64) bool {
	if !canMap {
		return false
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(int(st.Size())) {
		return false
	}
	// A file of a block or two is mostly in the detection's buffer
	// already: mapping it would cost more calls and faults than the
	// rest of its read.
	if st.Size()-start < int64(2*p.blocks.size) {
		return false
	}
	data, err := mapFile(f, int(st.Size()))
	if err != nil {
		return false
	}
	m := newFileMap(data)
	m.hold() // the reader's
	fs.mapped = m
	defer m.release()
	p.sendMapped(fs, m, int(start), pos, line)
	return true
}

// sendMapped sends the file's blocks from offset pos, blockSize bytes
// each but the last: the reader does not read the mapping, so that its
// pages are faulted in and read from memory once, by the worker that
// parses them. A worker cuts its block at line starts (fileMap.lines):
// a block's lines are those that begin in it.
func (p *pipeline) sendMapped(fs *fileState, m *fileMap, pos int, counted, line int64) {
	data, size := m.data, p.blocks.size
	fs.mapFirst = line
	// The progress counts the file's bytes to where the reads got.
	read := p.opts.Progress.BytesRead.Load()
	base := read - counted
	for first := true; pos < len(data); first = false {
		end := min(pos+size, len(data))
		seq := m.send(end)
		// Its lines are counted by the worker that reads it, not by a
		// pass of the reader's over the whole file: line is the block's
		// own, and resolve numbers them in the file after the run.
		p.work <- unit{file: fs, line: 1, data: data[pos:end:end], mapped: m, off: pos, seq: seq, atLine: first}
		pos = end
		if n := base + int64(end); n > read {
			p.opts.Progress.BytesRead.Add(n - read)
			read = n
		}
	}
}

// lines returns the lines of the mapping that begin in [from, to): from
// the first line start at or after from (from itself when atLine, the
// file's first block, which the detection ended at a line's start)
// through the end of the line that holds byte to−1. Every line begins
// in one block: a line longer than a block is its first block's, and
// the blocks it covers after that have no line.
func (m *fileMap) lines(from, to int, atLine bool) []byte {
	data := m.data
	if !atLine && data[from-1] != '\n' {
		i := bytes.IndexByte(data[from:to], '\n')
		if i < 0 || from+i+1 == to {
			return nil
		}
		from += i + 1
	}
	if to < len(data) && data[to-1] != '\n' {
		if i := bytes.IndexByte(data[to:], '\n'); i >= 0 {
			to += i + 1
		} else {
			to = len(data)
		}
	}
	return data[from:to:to]
}

// mappedLines runs the worker's lines over a unit of a mapping, turning a
// fault in it into the file's being read in part.
func (p *pipeline) mappedLines(u *unit, lp lineParser, f *feed, t *tally) {
	old := debug.SetPanicOnFault(true)
	t.unit = u.seq + 1
	defer func() {
		debug.SetPanicOnFault(old)
		t.unit = 0
		if v := recover(); v != nil {
			u.mapped.faultIn(v)
		}
		u.mapped.done(u.seq)
	}()
	u.data = u.mapped.lines(u.off, u.off+len(u.data), u.atLine)
	if len(u.data) > 0 {
		// The block's pages mapped in one call, not a fault at each
		// folio its lines reach: 4–7 % of the CPU of a JSON-lines run.
		populate(u.mapped.data, int(dataAddr(u.data)-dataAddr(u.mapped.data)), len(u.data))
	}
	t.unitLines(u.file.index, u.seq, p.lines(u, lp, f, t))
}

// afterMapped completes, after the run, what the workers read of a file
// read in place: its problems' lines (resolve), and a fault one met in
// its mapping.
func (fs *fileState) afterMapped(tallies []*tally) {
	if fs.mapped == nil {
		return
	}
	resolve(fs.index, fs.mapFirst, tallies)
	if fs.mapped.faulted.Load() && !fs.incomplete {
		fs.incomplete, fs.reason = true, errChanged.Error()
	}
}
