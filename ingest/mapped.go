package ingest

import (
	"bytes"
	"math"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// A plain regular file may be read in place: mapped into memory, its
// units of whole lines are slices of the mapping, so that no byte is
// copied into the workers' blocks. The reader cuts the mapping exactly
// where readBlocks would cut the same bytes read (the last line end
// before each block's worth from where the lines start), so the units,
// and with them the report, are the same either way. It reads no byte
// but those it cuts at: the workers count their units' lines, and a
// problem's line in the file is worked out after the run
// (resolveMapped).
//
// Which way is faster depends on the machine. Where a page entering the
// process's page tables is cheap (a kernel that maps the page cache's
// large folios in one fault, a hypervisor with nested paging), mapping
// saves the copy: on the harness's 1.3 GB of JSON lines the read's copy
// was a tenth of the run's CPU. Under a hypervisor that shadows the page
// tables, a mapped page costs several times the copy. So the reader
// times the two on the first blocks of the run's first file of two
// blocks or more (probeMap), and maps that file and the later ones only
// where touching a block's pages took less than twice the read of the
// next block.
//
// A mapped file is read as it was when opened: lines written to it
// after that are not read. A file cut shorter while mapped
// (logrotate's copytruncate) makes the pages past its new end fault;
// the goroutines reading a mapping turn such a fault into a panic
// (debug.SetPanicOnFault), which they recover: the file is then
// reported read in part, as a read file cut shorter is.

// mapMode says whether plain text files are mapped (Options.mapping).
type mapMode int8

const (
	mapAuto  mapMode = iota // where the first blocks say mapping is faster
	mapNever                // always read
	mapAlways
)

// fileMap is one file mapped into memory, unmapped when the reader and
// every unit sent from it are done.
type fileMap struct {
	data    []byte
	refs    atomic.Int64
	faulted atomic.Bool // a page of it faulted: the file shrank
	// The pages before the first unit not done with leave the
	// resident set, dropBatch bytes or more at a time: no unit reads
	// them again, and a drop per unit would cost a call and the other
	// cores' TLB flush each.
	mu      sync.Mutex
	ends    []int  // of each unit sent (by seq), its end
	isDone  []bool // by seq
	next    int    // the first unit not done
	dropped int    // the offset up to which pages are dropped
}

// dropBatch is the least a drop takes out of the resident set, but at
// the end of the file.
const dropBatch = 8 << 20

// pageSize is the unit in which pages leave the resident set.
var pageSize = os.Getpagesize()

func (m *fileMap) hold() { m.refs.Add(1) }

// release drops a reference, unmapping at the last.
func (m *fileMap) release() {
	if m.refs.Add(-1) == 0 {
		unmap(m.data)
	}
}

// send notes the next unit, ending at end, and holds the mapping for
// it, before the reader sends it; it returns the unit's number.
func (m *fileMap) send(end int) int {
	m.hold()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ends, m.isDone = append(m.ends, end), append(m.isDone, false)
	return len(m.ends) - 1
}

// done is called by a worker when it is done with unit seq: the pages
// before the first unit not done with leave the resident set (they stay
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
		// The page holding byte hi−1 holds the next unit's first bytes
		// too: dropped before that unit is read, it would be faulted
		// back, with the large folio around it, past what a later drop
		// takes out.
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

// guard runs f, which reads m, and returns true; false when a page of m
// faulted under it (the file was cut shorter), which it notes. The
// goroutine's faults are panics meanwhile (debug.SetPanicOnFault); a
// panic that is no fault in m goes on.
func (m *fileMap) guard(f func()) (ok bool) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if v := recover(); v != nil {
			m.faultIn(v)
			ok = false
		}
	}()
	f()
	return true
}

// contains says whether addr is in the mapping.
func (m *fileMap) contains(addr uintptr) bool {
	return len(m.data) > 0 && addr >= dataAddr(m.data) && addr < dataAddr(m.data)+uintptr(len(m.data))
}

// faultIn notes a fault in a page of m, the panic value v that
// debug.SetPanicOnFault made of it; any other panic goes on.
func (m *fileMap) faultIn(v any) {
	if e, ok := v.(interface{ Addr() uintptr }); ok && m.contains(e.Addr()) {
		m.faulted.Store(true)
		return
	}
	panic(v)
}

// mapSource is a plain regular file being read, and the offset of the
// first byte its line reader has not given out.
type mapSource struct {
	f     *os.File
	start int64
	read  int64 // how far the reads got: the progress counted that much
}

// readMapped reads the lines of ms's file from its start offset, line
// being the number of the line there, by mapping it, and returns true;
// false, having sent nothing, when it is not mapped: too small for a
// mapping to pay (two blocks), mapping refused, or slower (probeMap).
func (p *pipeline) readMapped(fs *fileState, ms mapSource, line int64, w3c *w3cTracker) (bool, error) {
	if !canMap || p.opts.mapping == mapNever || fs.cfg.envelope == EnvCRI || fs.cfg.envelope == EnvDocker {
		return false, nil // a container runtime's parts are held together by readBlocks (holdParts)
	}
	st, err := ms.f.Stat()
	size := p.blocks.size
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(int(st.Size())) || st.Size()-ms.start < int64(2*size) {
		return false, nil
	}
	data, err := mapFile(ms.f, int(st.Size()))
	if err != nil {
		return false, nil
	}
	m := &fileMap{data: data}
	if p.opts.mapping == mapAuto && p.probed == mapAuto {
		// Once a run: the machine is the same for every file, and the
		// probe's copy of a block is a few per cent of a file of three.
		p.probed = mapNever
		if p.probeSafely(m, ms) {
			p.probed = mapAlways
		} else if m.faulted.Load() {
			p.probed = mapAuto // cut shorter under the probe: the next file probes
		}
	}
	if p.opts.mapping == mapAuto && p.probed != mapAlways {
		unmap(data)
		return false, nil
	}
	m.hold() // the reader's
	fs.mapped = m
	defer m.release()
	return true, p.sendMapped(fs, m, ms, line, w3c)
}

// probeMap says whether mapping the file is faster than reading it:
// whether the first touch of the pages of a block took less than twice
// the read of the block after it. Two such pairs are timed from
// ms.start (one where the file holds fewer than four blocks) and the
// least of each kind compared: a single touch was seen to take 16 times
// its usual time, once in eighteen runs. The touch is what the mapped
// units cost the workers: a fault, a trap into the kernel (and under a
// hypervisor, perhaps out of the machine), for each page or each large
// folio of the page cache a fault maps.
func (p *pipeline) probeMap(ms mapSource, data []byte) bool {
	timed := p.timed
	if timed == nil {
		timed = timeOf
	}
	size := int64(p.blocks.size)
	buf := p.blocks.get(0)
	defer p.blocks.put(buf)
	mapped, read := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for at := ms.start; at == ms.start || at+2*size <= int64(len(data)) && at < ms.start+4*size; at += 2 * size {
		mapped = min(mapped, timed(false, func() { touch(data[at : at+size]) }))
		var err error
		read = min(read, timed(true, func() { _, err = ms.f.ReadAt((*buf)[:size], at+size) }))
		if err != nil {
			return false
		}
	}
	return mapped < 2*read
}

// probeSafely is probeMap, false when the file was cut shorter under
// it (its touch faulted): then it is read, and the read finds it cut.
func (p *pipeline) probeSafely(m *fileMap, ms mapSource) bool {
	faster := false
	return m.guard(func() { faster = p.probeMap(ms, m.data) }) && faster
}

// timeOf returns how long f took (pipeline.timed); read says whether f
// reads or touches.
func timeOf(read bool, f func()) time.Duration {
	t := time.Now()
	f()
	return time.Since(t)
}

// touched keeps what touch read, so that the reads are made.
var touched atomic.Uint32

// touch reads a byte of each page of b, which faults each in.
func touch(b []byte) {
	var sum byte
	for i := 0; i < len(b); i += pageSize {
		sum |= b[i]
	}
	touched.Store(uint32(sum))
}

// sendMapped sends the units of m from ms.start, cut as readBlocks cuts
// what it reads a block at a time: at the last line end before each
// block's worth of bytes, a partial line longer than MaxLine counted
// bad and passed over, the last line whole at the end. A fault in the
// mapping (the file cut shorter) ends it with errChanged.
func (p *pipeline) sendMapped(fs *fileState, m *fileMap, ms mapSource, line int64, w3c *w3cTracker) error {
	if !m.guard(func() { p.cutMapped(fs, m, ms, line, w3c) }) {
		return errChanged
	}
	return nil
}

// cutMapped is sendMapped's work, unguarded.
func (p *pipeline) cutMapped(fs *fileState, m *fileMap, ms mapSource, line int64, w3c *w3cTracker) {
	data, size := m.data, p.blocks.size
	n := len(data)
	counted := int(ms.read) // the progress has counted the bytes before it
	// A unit's lines are numbered from 1: the workers count them
	// (resolveMapped).
	fs.mapFirst = line
	sent := 0 // the units sent
	send := func(from, end int) {
		seq := m.send(end)
		u := data[from:end:end]
		p.work <- unit{file: fs, line: 1, data: u, mapped: m, seq: seq, fields: w3c.next(u)}
		sent = seq + 1
	}
	from, skipping := int(ms.start), false
	for win := from; win < n; win += size {
		lim := min(win+size, n)
		if lim > counted {
			p.opts.Progress.BytesRead.Add(int64(lim - counted))
			counted = lim
		}
		if skipping {
			i := bytes.IndexByte(data[win:lim], '\n')
			if i < 0 {
				continue
			}
			from, skipping = win+i+1, false
		}
		if lim < win+size { // the end: the rest, whatever it holds
			break
		}
		// The bytes before win, the partial line carried, hold no
		// line end.
		end, at := from, max(from, win)
		if i := bytes.LastIndexByte(data[at:lim], '\n'); i >= 0 {
			end = at + i + 1
		}
		if lim-end > MaxLine {
			skipping = true
		}
		if end > from {
			send(from, end)
		}
		if skipping {
			for len(fs.mapSkips) <= sent {
				fs.mapSkips = append(fs.mapSkips, 0)
			}
			fs.mapSkips[sent]++
			p.reader.passedOver(fs, sent, fs.mapSkips[sent])
		}
		from = end
	}
	if !skipping && from < n {
		send(from, n)
	}
}

// mappedLines runs the worker's lines over a unit of a mapping, turning
// a fault in it into the file's being read in part.
func (p *pipeline) mappedLines(u *unit, lp lineParser, f *feed, t *tally) {
	t.unit = u.seq + 1
	var n int64
	if !u.mapped.guard(func() { n = p.lines(u, lp, f, t) }) {
		f.flush() // the records before the fault: their bytes were read
	}
	t.unit = 0
	// A unit that faulted counts no line: the file was cut shorter
	// under it, and the units after it fault too, but for one another
	// worker read before the cut, whose problems are then numbered
	// short by this unit's lines read.
	t.unitLines(u.file.index, u.seq, n)
	u.mapped.done(u.seq)
}
