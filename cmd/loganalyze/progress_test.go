package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

func TestProgressLine(t *testing.T) {
	var p ingest.Progress
	p.FileCount.Store(6)
	p.Files.Store(2)
	p.TotalBytes.Store(3 << 20)
	p.BytesRead.Store(3 << 19)
	p.Records.Store(5000)
	p.BadLines.Store(3)
	got := progressLine(&p, 2*time.Second)
	want := "loganalyze: file 2/6, 1.5 MiB of 3.0 MiB (50 %), 5000 records (2500/s), 3 bad lines"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestProgressModes(t *testing.T) {
	var buf bytes.Buffer
	if progressEnabled("auto", &buf) || !progressEnabled("always", &buf) || progressEnabled("never", &buf) {
		t.Error("auto must be off for a non-terminal, always on, never off")
	}
	code, _, errs := runCLI(t, "--progress", "sometimes", "x")
	if code != 2 || !strings.Contains(errs, "--progress") {
		t.Errorf("bad --progress: exit %d %q", code, errs)
	}
	// Shown on stderr and cleared: the last thing written is the clear.
	code, _, errs = runCLI(t, "--progress", "always", "--json", "/dev/null", "--tz", "Asia/Shanghai", samples[0])
	if code != 0 || !strings.HasSuffix(errs, "\r\033[K") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestRunFillsProgress(t *testing.T) {
	var p ingest.Progress
	_, res, err := ingest.Run(samples, ingest.Options{Progress: &p, Workers: 2}, func() *nopSink { return &nopSink{} })
	if err != nil {
		t.Fatal(err)
	}
	if p.Records.Load() != res.Records() || p.BadLines.Load() != res.BadLines() {
		t.Errorf("progress %d records %d bad; result %d, %d", p.Records.Load(), p.BadLines.Load(), res.Records(), res.BadLines())
	}
	if p.TotalBytes.Load() == 0 || p.BytesRead.Load() != p.TotalBytes.Load() || p.Files.Load() != 6 || p.FileCount.Load() != 6 {
		t.Errorf("bytes %d of %d, files %d of %d", p.BytesRead.Load(), p.TotalBytes.Load(), p.Files.Load(), p.FileCount.Load())
	}
}

type nopSink struct{}

func (*nopSink) Add(*ingest.Record) {}
