package main

import (
	"strings"
	"testing"

	"loganalyze/ingest"
)

// TestProgressFlag: a bad --progress is bad usage; always shows the line
// on stderr and clears it: the last thing written is the clear.
func TestProgressFlag(t *testing.T) {
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
