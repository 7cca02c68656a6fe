package ingest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// mappedCase writes n JSON lines to a file and opens it.
func mappedCase(t *testing.T, n int) (*os.File, string) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"request_time":%d,"pad":"%s"}`+"\n", i, strings.Repeat("x", 200))
	}
	path := filepath.Join(t.TempDir(), "in.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, path
}

func mappedPipeline(units int) *pipeline {
	return &pipeline{opts: Options{Progress: &Progress{}}, work: make(chan unit, units), blocks: newBlocks(4, 16<<10)}
}

// A file cut shorter after its blocks were sent (logrotate's
// copytruncate) makes the workers' reads of them fault: the run goes on,
// and the file is reported read in part, with why.
func TestMappedFileCutShorterUnderTheWorkers(t *testing.T) {
	f, path := mappedCase(t, 4000) // about 0.9 MB: some 55 blocks of 16 KiB
	p := mappedPipeline(100)
	fs := &fileState{path: path, format: JSONL, cfg: parserConfig{schema: mustSchema(t)}}
	if !p.readMapped(fs, f, 0, 0, 1) {
		t.Fatal("readMapped = false; want the file mapped and sent")
	}
	sent := len(p.work)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	close(p.work)
	sink, tl := &timeSink{}, &tally{max: 20, badN: new(atomic.Int64)}
	p.worker(sink, tl)
	fs.afterMapped([]*tally{tl})
	if !fs.incomplete || fs.reason != errChanged.Error() {
		t.Errorf("file incomplete %v, reason %q; want %q", fs.incomplete, fs.reason, errChanged)
	}
	if len(sink.times) != 0 || sent < 50 {
		t.Errorf("%d records read from %d blocks of a file cut to nothing", len(sink.times), sent)
	}
	if n := fs.mapped.refs.Load(); n != 0 {
		t.Errorf("%d references to the mapping left", n)
	}
}

// The reader reads none of a mapping: it cuts the file into blocks of a
// size, which follow one another to the file's end, and no page of the
// mapping is faulted in before a worker reads it. The workers' blocks,
// cut at line starts, hold every line once.
func TestMappedReaderReadsNothing(t *testing.T) {
	f, path := mappedCase(t, 4000)
	st, _ := f.Stat()
	p := mappedPipeline(100)
	p.blocks = newBlocks(4, 16<<10+123) // boundaries inside lines and pages
	fs := &fileState{path: path, format: JSONL}
	if !p.readMapped(fs, f, 0, 0, 1) {
		t.Fatal("readMapped = false; want the file mapped")
	}
	close(p.work)
	m := fs.mapped
	m.hold()
	defer m.release()
	if got := mappedRSS(t, path); got != 0 {
		t.Errorf("%d KiB of the mapping resident after the reader sent its blocks", got>>10)
	}
	var us []unit
	for u := range p.work {
		us = append(us, u)
	}
	var lines []byte
	at := 0
	for i, u := range us {
		if u.off != at || u.atLine != (i == 0) || len(u.data) != min(16<<10+123, int(st.Size())-at) {
			t.Fatalf("block %d at %d (%d bytes, at a line %v), want at %d", i, u.off, len(u.data), u.atLine, at)
		}
		at += len(u.data)
		got := m.lines(u.off, u.off+len(u.data), u.atLine)
		if len(got) > 0 && (got[len(got)-1] != '\n' || i > 0 && m.data[u.off+bytes.Index(m.data[u.off:], got)-1] != '\n') {
			t.Fatalf("block %d cut inside a line", i)
		}
		lines = append(lines, got...)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if at != len(want) || !bytes.Equal(lines, want) {
		t.Errorf("the blocks' lines hold %d bytes of the file's %d, and cover %d", len(lines), len(want), at)
	}
	for _, c := range []struct {
		data     string
		from, to int
		atLine   bool
		want     string
	}{
		{"ab\ncd\nef", 0, 4, true, "ab\ncd\n"},
		{"ab\ncd\nef", 3, 6, false, "cd\n"},
		{"ab\ncd\nef", 4, 6, false, ""},    // cd begins before it
		{"ab\ncd\nef", 2, 3, false, ""},    // the line after it begins at its end
		{"ab\ncd\nef", 5, 8, false, "ef"},  // the last line, without an end
		{"abcdefgh\nx\n", 2, 5, false, ""}, // inside a long line
		{"abcdefgh\nx\n", 0, 2, true, "abcdefgh\n"},
	} {
		fm := &fileMap{data: []byte(c.data)}
		if got := string(fm.lines(c.from, c.to, c.atLine)); got != c.want {
			t.Errorf("lines of %q in [%d, %d) = %q, want %q", c.data, c.from, c.to, got, c.want)
		}
	}
}

// A panic that is not a fault in the mapping is not swallowed.
func TestMappedOtherPanicGoesOn(t *testing.T) {
	m := &fileMap{data: make([]byte, 10)}
	defer func() {
		if v := recover(); v != "boom" {
			t.Errorf("recovered %v, want the panic that was not a fault", v)
		}
	}()
	func() {
		defer func() { m.faultIn(recover()) }()
		panic("boom")
	}()
	t.Error("the panic was swallowed")
}

func mustSchema(t *testing.T) *Schema {
	t.Helper()
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mappedRSS reads the resident size of the process's mappings of path,
// in bytes (/proc/self/smaps).
func mappedRSS(t testing.TB, path string) int64 {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = f[len(f)-1] == path // a mapping's first line ends with its file
			continue
		}
		if rest, ok := strings.CutPrefix(l, "Rss:"); ok && in {
			var kb int64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb)
			total += kb << 10
		}
	}
	return total
}

// Every page of a mapping leaves the resident set once the blocks that
// read it are done, whichever is done first while the other still reads
// (dropped before both are, a page they share would be faulted back for
// the one still at it).
func TestMappedSharedPageDroppedLast(t *testing.T) {
	f, path := mappedCase(t, 36000) // about 8 MB
	p := mappedPipeline(10)
	p.blocks = newBlocks(4, 2<<20+1000) // a block ends inside a page
	fs := &fileState{path: path, format: JSONL}
	if !p.readMapped(fs, f, 0, 0, 1) {
		t.Fatal("readMapped = false; want the file mapped")
	}
	close(p.work)
	var us []unit
	for u := range p.work {
		us = append(us, u)
	}
	for i := range us {
		us[i].data = fs.mapped.lines(us[i].off, us[i].off+len(us[i].data), us[i].atLine) // as the workers cut them
	}
	if len(us) < 3 || us[0].off+len(us[0].data) <= us[1].off || us[1].off%pageSize == 0 {
		t.Fatalf("want blocks, the first two sharing a page; got %d", len(us))
	}
	m := fs.mapped
	m.hold() // keeps the mapping, to look at it after its blocks are done
	defer m.release()
	var sum byte
	for _, u := range us {
		for i := 0; i < len(u.data); i += pageSize { // as the workers read them
			sum += u.data[i]
		}
	}
	if got := mappedRSS(t, path); got < 6<<20 {
		t.Fatalf("%d KiB of the mapping resident after reading it all", got>>10)
	}
	m.done(us[1].seq)
	sum += us[0].data[len(us[0].data)-1] // the earlier block reads on to its last line's end, in the next
	if sum == 0 {
		t.Log("a sum of the bytes read, that keeps the reads") // never: every page holds JSON
	}
	m.done(us[0].seq)
	for _, u := range us[2:] {
		m.done(u.seq)
	}
	if got := mappedRSS(t, path); got != 0 {
		t.Errorf("%d KiB of the mapping still resident after every block was done", got>>10)
	}
}

// One worker does its blocks in order: each one's cut reads the byte
// before it (lines), the last of the block done just before. The page
// holding it must not be dropped while that next block is still to be
// cut: faulted back in, with the neighbours the kernel maps with it, it
// stayed resident to the end, a block's worth per drop.
func TestMappedInOrderLeavesNothingResident(t *testing.T) {
	f, path := mappedCase(t, 80000) // about 17 MB: drops inside the file
	p := mappedPipeline(64)
	p.blocks = newBlocks(4, 1<<20) // page-aligned blocks, as by default
	fs := &fileState{path: path, format: JSONL}
	if !p.readMapped(fs, f, 0, 0, 1) {
		t.Fatal("readMapped = false; want the file mapped")
	}
	close(p.work)
	m := fs.mapped
	m.hold() // keeps the mapping, to look at it after its blocks are done
	defer m.release()
	var sum byte
	blocks, peak := 0, int64(0)
	for u := range p.work {
		data := m.lines(u.off, u.off+len(u.data), u.atLine) // as the worker cuts it
		for i := 0; i < len(data); i += pageSize {
			sum += data[i]
		}
		m.done(u.seq)
		peak = max(peak, mappedRSS(t, path))
		blocks++
	}
	if sum == 0 {
		t.Log("a sum of the bytes read, that keeps the reads") // never: every page holds JSON
	}
	if blocks < 16 {
		t.Fatalf("%d blocks; want more than two drops' worth", blocks)
	}
	if got := mappedRSS(t, path); got != 0 {
		t.Errorf("%d KiB of the mapping still resident after every block was done in order", got>>10)
	}
	if peak > dropBatch+4<<20 {
		t.Errorf("%d KiB of the mapping resident at most; want a drop's batch and a few blocks", peak>>10)
	}
}

// FuzzMappedAsRead reads the same bytes from a file, mapped, and from
// stdin, read, with small blocks: the records, the bad lines and where
// they are, and the file's state must be the same.
func FuzzMappedAsRead(f *testing.F) {
	f.Add([]byte("{\"request_time\":1}\n{\"request_time\":\n\n{\"request_time\":3}\r\n{\"request_time\":4}"), uint8(3))
	f.Add([]byte("request_time,status\n1,200\n2,500\nx,y\n3,200\n"), uint8(1))
	f.Add([]byte("10.0.0.1 - - [29/Nov/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 5 \"-\" \"-\"\n"), uint8(7))
	f.Add([]byte(strings.Repeat("{\"request_time\":2,\"pad\":\"xxxxxxxx\"}\n", 40)), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		path := filepath.Join(t.TempDir(), "in")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opts := Options{Workers: 2, blockSize: 1 + int(size)%64, MaxProblems: 1 << 10}
		run := func(p string, stdin []byte) ([]float64, *Result) {
			o := opts
			o.Stdin = bytes.NewReader(stdin)
			sinks, res, err := Run([]string{p}, o, func() *timeSink { return &timeSink{} })
			if err != nil {
				t.Fatal(err)
			}
			var times []float64
			for _, s := range sinks {
				times = append(times, s.times...)
			}
			slices.Sort(times)
			return times, res
		}
		mt, mres := run(path, nil)
		rt, rres := run("-", data)
		if !slices.Equal(mt, rt) {
			t.Fatalf("mapped read %d request times, the read %d", len(mt), len(rt))
		}
		mf, rf := mres.Files[0], rres.Files[0]
		mf.Path, rf.Path = "", ""
		if fmt.Sprint(mf) != fmt.Sprint(rf) {
			t.Fatalf("mapped: %+v\nread:   %+v", mf, rf)
		}
		if len(mres.Problems) != len(rres.Problems) {
			t.Fatalf("%d problems mapped, %d read", len(mres.Problems), len(rres.Problems))
		}
		for i := range mres.Problems {
			m, r := mres.Problems[i], rres.Problems[i]
			if m.Line != r.Line || m.Reason != r.Reason {
				t.Errorf("problem %d: mapped %v, read %v", i, m, r)
			}
		}
	})
}
