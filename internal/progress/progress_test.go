package progress

import (
	"bytes"
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
	got := line(&p, 2*time.Second)
	want := "loganalyze: file 2/6, 1.5 MiB of 3.0 MiB (50 %), 5000 records (2500/s), 3 bad lines"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestProgressModes(t *testing.T) {
	var buf bytes.Buffer
	if Enabled("auto", &buf) || !Enabled("always", &buf) || Enabled("never", &buf) {
		t.Error("auto must be off for a non-terminal, always on, never off")
	}
}
