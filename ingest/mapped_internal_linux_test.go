package ingest

import (
	"fmt"
	"os"
	"path/filepath"
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
	mapped, err := p.readMapped(fs, f, 0, 0, 1)
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
	fs.changedWhileRead()
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

// The reader's own reads of a file cut shorter fault too: it stops, and
// says why.
func TestMappedFileCutShorterUnderTheReader(t *testing.T) {
	f, path := mappedCase(t, 4000)
	st, _ := f.Stat()
	data, err := mapFile(f, int(st.Size()))
	if err != nil {
		t.Fatal(err)
	}
	m := &fileMap{data: data}
	m.hold()
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	p := mappedPipeline(100)
	fs := &fileState{path: path, format: JSONL}
	if err := p.sendMapped(fs, m, 0, 0, 1); err != errChanged {
		t.Errorf("sendMapped = %v, want %v", err, errChanged)
	}
	if !m.faulted.Load() || len(p.work) != 0 {
		t.Errorf("faulted %v, %d blocks sent; want the fault noted and nothing sent", m.faulted.Load(), len(p.work))
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
