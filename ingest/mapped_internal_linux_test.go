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
	"time"
)

// mappedCase writes n JSON lines of about 230 bytes to a file and opens it.
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

// mappedData is mappedCase's file, mapped whole: the caller unmaps it.
func mappedData(t *testing.T, n int) (*os.File, string, []byte) {
	t.Helper()
	f, path := mappedCase(t, n)
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	data, err := mapFile(f, int(st.Size()))
	if err != nil {
		t.Fatal(err)
	}
	return f, path, data
}

// mappedPipeline is a pipeline that maps every file it may, with a work
// channel of units and blocks of size bytes.
func mappedPipeline(units, size int) *pipeline {
	return &pipeline{
		opts:   Options{Progress: &Progress{}, mapping: mapAlways},
		work:   make(chan unit, units),
		blocks: newBlocks(4, size),
		reader: &tally{max: 20, badN: new(atomic.Int64)},
	}
}

// runModes runs Run over path with each way of reading a plain file,
// read and mapped, with blocks of size bytes, and returns the request
// times (sorted) and the Result of each.
func runModes(t *testing.T, path string, size int) (times [2][]float64, res [2]*Result) {
	t.Helper()
	for i, mode := range []mapMode{mapNever, mapAlways} {
		sinks, r, err := Run([]string{path}, Options{Workers: 2, blockSize: size, MaxProblems: 1 << 10, mapping: mode},
			func() *timeSink { return &timeSink{} })
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sinks {
			times[i] = append(times[i], s.times...)
		}
		slices.Sort(times[i])
		res[i] = r
	}
	return times, res
}

// sameRuns fails t where the mapped run (1) read otherwise than the
// read one (0): its records, its file's stats, its bad lines and where.
func sameRuns(t *testing.T, times [2][]float64, res [2]*Result) {
	t.Helper()
	if !slices.Equal(times[0], times[1]) {
		t.Fatalf("read %d request times, mapped %d", len(times[0]), len(times[1]))
	}
	rf, mf := res[0].Files[0], res[1].Files[0]
	if fmt.Sprint(rf) != fmt.Sprint(mf) {
		t.Fatalf("read:   %+v\nmapped: %+v", rf, mf)
	}
	if len(res[0].Problems) != len(res[1].Problems) {
		t.Fatalf("%d problems read, %d mapped", len(res[0].Problems), len(res[1].Problems))
	}
	for i := range res[0].Problems {
		r, m := res[0].Problems[i], res[1].Problems[i]
		if m.Line != r.Line || m.Reason != r.Reason {
			t.Errorf("problem %d: read %v, mapped %v", i, r, m)
		}
	}
}

// A file mapped is cut into the units a read cuts: the same records,
// bad lines where they are, whatever the block size, over lines longer
// than a block, a line longer than MaxLine (passed over, counted bad),
// blank lines, CRLF, and a last line without its end.
func TestMappedAsRead(t *testing.T) {
	var b bytes.Buffer
	want := 0
	line := func(s string) { b.WriteString(s) }
	for i := range 3000 {
		switch i % 7 {
		case 0:
			line(fmt.Sprintf(`{"request_time":%d,"pad":"%s"}`+"\n", i, strings.Repeat("y", i%300)))
		case 1:
			line("\n")
			continue
		case 2:
			line(fmt.Sprintf(`{"request_time":%d}`+"\r\n", i))
		case 3:
			line(`{"request_time":` + "\n") // bad
			continue
		default:
			line(fmt.Sprintf(`{"request_time":%d,"status":200}`+"\n", i))
		}
		want++
		if i == 1500 {
			// Too long: the reader passes over it, at every block size,
			// as its part in a block goes past MaxLine.
			line(`{"request_time":1,"pad":"` + strings.Repeat("z", 2*MaxLine+(1<<20)) + "\"}\n")
		}
	}
	line(`{"request_time":7}`) // no line end
	want++
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{333, 4096, 64 << 10, 1 << 20} { // and 1 to 64 in FuzzMappedAsRead
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			times, res := runModes(t, path, size)
			sameRuns(t, times, res)
			if len(times[1]) != want {
				t.Errorf("%d records mapped, want %d", len(times[1]), want)
			}
			long := 0
			for _, p := range res[1].Problems {
				if p.Reason == errLongLine {
					long++
				}
			}
			if long != 1 {
				t.Errorf("%d long lines reported mapped, want 1: %v", long, res[1].Problems)
			}
		})
	}
}

// A file ending in a line longer than MaxLine, without its end, or
// with it, is read mapped as it is read.
func TestMappedLongLastLine(t *testing.T) {
	for _, end := range []string{"", "\n"} {
		path := filepath.Join(t.TempDir(), "in.jsonl")
		body := strings.Repeat(`{"request_time":2}`+"\n", 100) + `{"request_time":3,"pad":"` + strings.Repeat("q", MaxLine+10000) + `"}` + end
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		times, res := runModes(t, path, 4096)
		sameRuns(t, times, res)
		if len(times[1]) != 100 || len(res[1].Problems) != 1 {
			t.Errorf("end %q: %d records, problems %v; want 100 and the long line", end, len(times[1]), res[1].Problems)
		}
	}
}

// A W3C log's #Fields lines are in force in the units mapped as in
// those read: the fields change within the file.
func TestMappedW3CFields(t *testing.T) {
	var b bytes.Buffer
	for part := range 4 {
		if part%2 == 0 {
			b.WriteString("#Fields: date time time-taken sc-status\n")
		} else {
			b.WriteString("#Fields: date time sc-status time-taken\n")
		}
		for i := range 500 {
			if part%2 == 0 {
				fmt.Fprintf(&b, "2026-11-29 10:%02d:00 %d 200\n", i%60, part*1000+i)
			} else {
				fmt.Fprintf(&b, "2026-11-29 10:%02d:00 200 %d\n", i%60, part*1000+i)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "u_ex261129.log")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	times, res := runModes(t, path, 1000)
	sameRuns(t, times, res)
	if res[1].Files[0].Format != W3C || len(times[1]) != 2000 {
		t.Fatalf("mapped: format %v, %d records; want W3C and 2000", res[1].Files[0].Format, len(times[1]))
	}
}

// A CSV file is mapped from past its header, its rows as read.
func TestMappedCSV(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("request_time,status,model\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "%d.25,%d,m%d\n", i, 200+i%3*100, i%5)
	}
	path := filepath.Join(t.TempDir(), "in.csv")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	times, res := runModes(t, path, 999)
	sameRuns(t, times, res)
	if len(times[1]) != 5000 || times[1][0] != 0.25 {
		t.Fatalf("mapped: %d records from %v; want 5000 from 0.25", len(times[1]), times[1][:min(1, len(times[1]))])
	}
}

// A file cut shorter after its units were sent (logrotate's
// copytruncate) makes the workers' reads of them fault: the run goes on,
// and the file is marked read in part; the mapping is let go.
func TestMappedFileCutShorterUnderTheWorkers(t *testing.T) {
	f, path := mappedCase(t, 4000) // about 0.9 MB: some 55 units of 16 KiB
	p := mappedPipeline(100, 16<<10)
	fs := &fileState{path: path, format: JSONL, cfg: parserConfig{schema: mustSchema(t)}}
	mapped, err := p.readMapped(fs, mapSource{f: f}, 1, nil)
	if !mapped || err != nil {
		t.Fatalf("readMapped = %v, %v; want the file mapped and sent", mapped, err)
	}
	sent := len(p.work)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	close(p.work)
	sink, tl := &timeSink{}, &tally{max: 20, badN: new(atomic.Int64)}
	p.worker(sink, tl)
	if !fs.mapped.faulted.Load() {
		t.Error("no fault noted in a mapping of a file cut to nothing")
	}
	if len(sink.times) != 0 || sent < 50 {
		t.Errorf("%d records read from %d units of a file cut to nothing", len(sink.times), sent)
	}
	if n := fs.mapped.refs.Load(); n != 0 {
		t.Errorf("%d references to the mapping left", n)
	}
}

// A file cut shorter before the reader cut it into units ends the
// reading with errChanged, having sent nothing of what is gone.
func TestMappedFileCutShorterUnderTheReader(t *testing.T) {
	f, path, data := mappedData(t, 4000)
	m := &fileMap{data: data}
	m.hold()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	p := mappedPipeline(100, 16<<10)
	fs := &fileState{path: path, format: JSONL}
	if err := p.sendMapped(fs, m, mapSource{f: f}, 1, nil); err != errChanged {
		t.Errorf("sendMapped over a file cut to nothing: %v, want %v", err, errChanged)
	}
	if n := len(p.work); n != 0 || !m.faulted.Load() {
		t.Errorf("%d units sent, fault noted %v; want none and the fault", n, m.faulted.Load())
	}
	m.release()
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

// The reader runs ahead of the workers by the work channel's units, and
// the pages of the units done leave the resident set a batch at a time:
// a file of 24 MB mapped keeps a batch and a few units resident at
// most, and none once every unit is done.
func TestMappedPagesLeave(t *testing.T) {
	f, path := mappedCase(t, 110000) // about 24 MB
	p := mappedPipeline(4, 1<<20)
	fs := &fileState{path: path, format: JSONL}
	errc := make(chan error, 1)
	go func() {
		mapped, err := p.readMapped(fs, mapSource{f: f}, 1, nil)
		if !mapped && err == nil {
			err = fmt.Errorf("not mapped")
		}
		close(p.work)
		errc <- err
	}()
	var sum byte
	units, peak := 0, int64(0)
	var m *fileMap
	for u := range p.work {
		if m == nil {
			m = u.mapped
			m.hold() // keeps the mapping, to look at it after its units are done
		}
		for i := 0; i < len(u.data); i += pageSize { // as a worker reads it
			sum += u.data[i]
		}
		m.done(u.seq)
		peak = max(peak, mappedRSS(t, path))
		units++
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	defer m.release()
	if sum == 0 {
		t.Log("a sum of the bytes read, that keeps the reads") // never: every page holds JSON
	}
	if units < 20 {
		t.Fatalf("%d units; want more than two drops' worth", units)
	}
	if got := mappedRSS(t, path); got != 0 {
		t.Errorf("%d KiB of the mapping still resident after every unit was done in order", got>>10)
	}
	if peak > dropBatch+8<<20 {
		t.Errorf("%d KiB of the mapping resident at most; want a drop's batch and a few units", peak>>10)
	}
}

// FuzzMappedAsRead reads the same bytes from a file, mapped and read,
// with small blocks: the records, the bad lines and where they are, and
// the file's state must be the same.
func FuzzMappedAsRead(f *testing.F) {
	f.Add([]byte("{\"request_time\":1}\n{\"request_time\":\n\n{\"request_time\":3}\r\n{\"request_time\":4}"), uint8(3))
	f.Add([]byte("request_time,status\n1,200\n2,500\nx,y\n3,200\n"), uint8(1))
	f.Add([]byte("10.0.0.1 - - [29/Nov/2026:10:00:00 +0800] \"GET / HTTP/1.1\" 200 5 \"-\" \"-\"\n"), uint8(7))
	f.Add([]byte(strings.Repeat("{\"request_time\":2,\"pad\":\"xxxxxxxx\"}\n", 40)), uint8(0))
	f.Add([]byte("\xef\xbb\xbf{\"request_time\":5}\n\x00\x00{\"request_time\":6}\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		path := filepath.Join(t.TempDir(), "in")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		times, res := runModes(t, path, 1+int(size)%64)
		sameRuns(t, times, res)
	})
}

// The probe maps a file where touching a block took less than twice the
// read of the next, the least of two pairs (one where the file holds
// fewer than four blocks).
func TestProbeMap(t *testing.T) {
	f, _, data := mappedData(t, 200) // about 46 KB
	defer unmap(data)
	const size = 4096
	for _, c := range []struct {
		name   string
		start  int64
		length int   // of the mapping looked at
		touch  []int // each touch's time, in turn
		read   []int
		pairs  int
		want   bool
	}{
		{"touch cheap", 0, 40000, []int{10, 10}, []int{10, 10}, 2, true},
		{"touch dear", 0, 40000, []int{30, 30}, []int{10, 10}, 2, false},
		{"twice the read is too much", 0, 40000, []int{20, 20}, []int{10, 10}, 2, false},
		{"a slow touch passed over", 0, 40000, []int{500, 10}, []int{10, 10}, 2, true},
		{"a slow read passed over", 0, 40000, []int{30, 30}, []int{10, 900}, 2, false},
		{"three blocks: one pair", 100, 100 + 3*size, []int{10}, []int{100}, 1, true},
		{"four blocks: two pairs", 100, 100 + 4*size, []int{10, 10}, []int{100, 100}, 2, true},
	} {
		p := mappedPipeline(1, size)
		var touches, reads int
		p.timed = func(read bool, fn func()) time.Duration {
			fn()
			if read {
				reads++
				return time.Duration(c.read[reads-1])
			}
			touches++
			return time.Duration(c.touch[touches-1])
		}
		got := p.probeMap(mapSource{f: f, start: c.start}, data[:c.length])
		if got != c.want || touches != c.pairs || reads != c.pairs {
			t.Errorf("%s: map %v after %d touches and %d reads, want %v after %d of each", c.name, got, touches, reads, c.want, c.pairs)
		}
	}
}

// A file cut shorter between its mapping and the probe's touch faults
// under the probe: the probe says read, and the process goes on.
func TestProbeOfFileCutShorter(t *testing.T) {
	_, path, data := mappedData(t, 4000)
	defer unmap(data)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	p := mappedPipeline(1, 16<<10)
	m := &fileMap{data: data}
	if p.probeSafely(m, mapSource{f: f}) {
		t.Error("the probe of a file cut to nothing says map it")
	}
	if !m.faulted.Load() {
		t.Error("no fault noted: the probe touched none of the pages gone")
	}
}

// A run probes once: its first file large enough to map is probed, and
// the later ones are mapped, or read, as the probe found.
func TestProbeOncePerRun(t *testing.T) {
	for _, faster := range []bool{true, false} {
		p := mappedPipeline(1000, 16<<10)
		p.opts.mapping = mapAuto
		calls := 0
		p.timed = func(read bool, fn func()) time.Duration {
			fn()
			calls++
			if read == faster {
				return 10 // the read dear (mapping faster), or the touch
			}
			return 1
		}
		for i := range 3 {
			f, path := mappedCase(t, 4000)
			fs := &fileState{path: path, format: JSONL}
			mapped, err := p.readMapped(fs, mapSource{f: f}, 1, nil)
			if mapped != faster || err != nil {
				t.Errorf("mapping faster %v: file %d mapped %v, %v", faster, i, mapped, err)
			}
		}
		if calls != 4 {
			t.Errorf("mapping faster %v: %d timings over three files, want the first file's two pairs", faster, calls)
		}
	}
}

// The problems of a mapped file are numbered in the file, though its
// workers count their units' lines and its reader none: bad lines,
// unreadable values and lines over MaxLine, those two in a row, one
// first and one last without its end, at the lines they were written
// at, whatever the block size and the workers; and with few problems
// kept, the first ones.
func TestMappedNumbersLinesInTheFile(t *testing.T) {
	var b bytes.Buffer
	var bad, unread []int64 // the lines written so, from 1
	n := int64(0)
	line := func(s string) { b.WriteString(s); n++ }
	long := func() {
		line(`{"request_time":1,"pad":"` + strings.Repeat("z", MaxLine+(1<<19)) + "\"}\n")
		bad = append(bad, n)
	}
	long()
	for i := range 4000 {
		switch {
		case i == 1000 || i == 2500:
			long()
			long()
		case i%97 == 5:
			line(`{"request_time":` + "\n")
			bad = append(bad, n)
		case i%89 == 7:
			line(fmt.Sprintf(`{"request_time":%d,"status":"abc"}`+"\n", i))
			unread = append(unread, n)
		default:
			line(fmt.Sprintf(`{"request_time":%d,"status":200,"pad":"%s"}`+"\n", i, strings.Repeat("y", i%200)))
		}
	}
	line(`{"request_time":1,"pad":"` + strings.Repeat("z", MaxLine+10) + `"}`)
	bad = append(bad, n)
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := func(ps []Problem) []int64 {
		var ls []int64
		for _, p := range ps {
			ls = append(ls, p.Line)
		}
		return ls
	}
	for _, size := range []int{4096, 64 << 10, 1 << 20} {
		for _, workers := range []int{1, 2, 3} {
			for _, most := range []int{1 << 10, 5} {
				_, res, err := Run([]string{path}, Options{Workers: workers, blockSize: size, MaxProblems: most, mapping: mapAlways},
					func() *timeSink { return &timeSink{} })
				if err != nil {
					t.Fatal(err)
				}
				wantBad, wantUnread := bad[:min(most, len(bad))], unread[:min(most, len(unread))]
				if got := lines(res.Problems); !slices.Equal(got, wantBad) {
					t.Errorf("block %d, %d workers, %d kept: bad lines at %v, want %v", size, workers, most, got, wantBad)
				}
				if got := lines(res.ValueProblems); !slices.Equal(got, wantUnread) {
					t.Errorf("block %d, %d workers, %d kept: unread values at %v, want %v", size, workers, most, got, wantUnread)
				}
				if res.Files[0].BadLines != int64(len(bad)) {
					t.Errorf("block %d, %d workers: %d bad lines, want %d", size, workers, res.Files[0].BadLines, len(bad))
				}
			}
		}
	}
}
