package main

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzParseWhen feeds --since / --until values to parseWhen. It must not
// panic; a refused value gets the one message the flags print; a value
// that is RFC 3339 means that instant, and the instant written back in
// RFC 3339 reads as itself; a relative value is the clock moved by that
// duration (whole days, "-7d", as --keep takes them).
func FuzzParseWhen(f *testing.F) {
	for _, s := range []string{
		// main_test.go's values, SPEC §2's examples.
		"2026-11-29T10:15:00+08:00", "2026-11-29 10:30", "yesterday", "-1h", "-90m", "-30m",
		"2026-11-29T09:30:00Z", "2026-11-29T10:00:00.123456789-07:30", "2026-11-29", "2026-11-29T10:15",
		"2026-11-29 10:15:00", "+15m", "-0s", "-1h30m15.5s", "-9223372036854775807ns", "-", "+",
		"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999+23:59", "2026-02-30T00:00:00Z", "2026-11-29T24:00:00Z",
		"-7d", "+1d", "-d", "-1.5d", "-+1d", "-106751d", "-106752d",
	} {
		f.Add(s)
	}
	now := goldenNow()
	loc := time.FixedZone("UTC+8", 8*3600)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseWhen("--since", s, now, loc)
		if s == "" {
			if got != nil || err != nil {
				t.Fatalf("parseWhen(\"\") = %v, %v; want no bound", got, err)
			}
			return
		}
		if err != nil {
			if want := "--since: cannot parse " + strconv.Quote(s) + " as a time or duration"; err.Error() != want {
				t.Fatalf("parseWhen(%q): error %q, want %q", s, err, want)
			}
			return
		}
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
			d, err := time.ParseDuration(s)
			if days, ok := strings.CutSuffix(s[1:], "d"); ok { // whole days, as --keep's
				n, perr := strconv.Atoi(days)
				d, err = time.Duration(n)*24*time.Hour, perr
				if s[0] == '-' {
					d = -d
				}
			}
			if err != nil || !got.Equal(now.Add(d)) {
				t.Fatalf("parseWhen(%q) = %v; the clock %v moved by %v (%v)", s, got, now, d, err)
			}
			return
		}
		if want, err := time.Parse(time.RFC3339Nano, s); err == nil {
			if !got.Equal(want) {
				t.Fatalf("parseWhen(%q) = %v, want %v", s, got, want)
			}
			back := got.Format(time.RFC3339Nano)
			again, err := parseWhen("--since", back, now, loc)
			if err != nil || !again.Equal(*got) {
				t.Fatalf("parseWhen(%q) = %v, written back %q reads %v, %v", s, got, back, again, err)
			}
		}
	})
}
