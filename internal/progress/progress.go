// Package progress draws the status line of --progress on a terminal:
// files, bytes and records read, redrawn while a run reads its logs.
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"loganalyze/ingest"
)

// Enabled decides --progress: auto shows it only when stderr is a
// terminal.
func Enabled(mode string, stderr io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	f, ok := stderr.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Show redraws one status line of p on w every interval, until
// the stop it returns is called: stop clears the line and returns when it
// is cleared. With a nil p it does nothing.
func Show(w io.Writer, p *ingest.Progress, interval time.Duration) (stop func()) {
	if p == nil {
		return func() {}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-quit:
				fmt.Fprint(w, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprint(w, "\r\033[K"+line(p, time.Since(start)))
			}
		}
	}()
	return func() { close(quit); <-done }
}

// line is the status: files, bytes (with a share when the total is
// known), records and their rate, bad lines.
func line(p *ingest.Progress, elapsed time.Duration) string {
	read, total := p.BytesRead.Load(), p.TotalBytes.Load()
	recs := p.Records.Load()
	line := fmt.Sprintf("loganalyze: file %d/%d, %s", p.Files.Load(), p.FileCount.Load(), bytesText(read))
	if total > 0 {
		line += fmt.Sprintf(" of %s (%d %%)", bytesText(total), min(100, read*100/total))
	}
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(recs) / s
	}
	line += fmt.Sprintf(", %d records (%.0f/s)", recs, rate)
	if bad := p.BadLines.Load(); bad > 0 {
		line += fmt.Sprintf(", %d bad lines", bad)
	}
	return line
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
