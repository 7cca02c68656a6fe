package report

import (
	"testing"
	"time"
)

// TestSpanTextAcrossDST: a span whose ends have one offset writes it
// once, after the end; one across a change of daylight saving time
// writes each end's (00:00 -04:00 to 02:59:30 -05:00 is four hours).
func TestSpanTextAcrossDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err) // report_test.go embeds the zone database
	}
	fall := &Span{From: time.Date(2026, 11, 1, 0, 0, 0, 0, ny), To: time.Date(2026, 11, 1, 2, 59, 30, 0, ny)}
	if got, want := spanText(fall), "2026-11-01 00:00:00 -04:00 – 2026-11-01 02:59:30 -05:00"; got != want {
		t.Errorf("spanText = %q, want %q", got, want)
	}
	same := &Span{From: time.Date(2026, 11, 2, 0, 0, 0, 0, ny), To: time.Date(2026, 11, 2, 2, 0, 0, 0, ny)}
	if got, want := spanText(same), "2026-11-02 00:00:00 – 2026-11-02 02:00:00 -05:00"; got != want {
		t.Errorf("spanText = %q, want %q", got, want)
	}
	open := &Span{From: time.Date(2026, 11, 2, 0, 0, 0, 0, ny)}
	if got, want := spanText(open), "2026-11-02 00:00:00 -05:00 – …"; got != want {
		t.Errorf("spanText = %q, want %q", got, want)
	}
}
