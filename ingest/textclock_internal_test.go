package ingest

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// The clocks read every time as parseTime does, across the changes of
// zone of locations with summer time (an hour, and Lord Howe's half
// hour), in UTC and in a fixed zone, with and without a fraction or a
// zone of their own.
func TestClocksAsParseTime(t *testing.T) {
	var locs []*time.Location
	for _, name := range []string{"America/New_York", "Australia/Lord_Howe", "Europe/London"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatalf("zone %s: %v", name, err)
		}
		locs = append(locs, loc)
	}
	locs = append(locs, time.UTC, time.FixedZone("+08", 8*3600), nil)
	layouts := []string{
		"2006-01-02 15:04:05", "2006-01-02T15:04:05.000", "2006-01-02 15:04:05.123456789",
		"2006-01-02T15:04:05Z", "2006-01-02T15:04:05-07:00", "2006-01-02T15:04:05.000-0700",
		"02/Jan/2006:15:04:05 -0700",
	}
	// Every 7 minutes and 13 seconds through 2026, written in a zone
	// with summer time, so that the local hours that do not exist or
	// come twice are among them.
	ny := locs[0]
	n, summer := 0, 0 // summer: zone-less times read in a zone with summer time
	for at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); at.Year() == 2026; at = at.Add(7*time.Minute + 13*time.Second + 1234567) {
		for li, layout := range layouts {
			for _, wall := range []time.Time{at.In(ny), at.In(locs[1])} {
				b := []byte(wall.Format(layout))
				for lj, loc := range locs {
					var c clocks
					c.iso.parse([]byte("2026-06-01 00:00:00"), loc) // a cached day and hour to replace
					got, ok := c.read(b, loc)
					want, wok := parseTime(b, UnitNone, loc)
					if !ok {
						continue
					}
					n++
					if li < 3 && lj < 3 {
						summer++
					}
					if !wok || got != want {
						t.Fatalf("%s in %v: clock %d, parseTime %d (%v)", b, loc, got, want, wok)
					}
					if again, _ := c.read(b, loc); again != got {
						t.Fatalf("%s in %v: %d, then %d from the cache", b, loc, got, again)
					}
				}
			}
		}
	}
	if n < 100000 || summer < 10000 {
		t.Fatalf("the clocks read only %d times, %d in zones with summer time", n, summer)
	}
}

// The clocks refuse what parseTime reads otherwise or not at all.
func TestClocksRefuse(t *testing.T) {
	for _, s := range []string{
		"2026-11-29 10:00:00 +0800", "2026-11-29 10:00:00,5", "2026-11-29 10:00:00.1234567891",
		"2026-11-29 24:00:00", "2026-13-01 10:00:00", "2026-11-00 10:00:00", "2026-11-29 10:00:00+08",
		"2026-11-29 10:00:00.", "29/Nov/2026:10:00:00 +0860", "29/Nov/2026:10:00:00", "29/nov/2026:10:00:00 +0800",
		"29/Nov/2026:10:00:00.5 +0800", "1795917600",
	} {
		var c clocks
		if ns, ok := c.read([]byte(s), time.UTC); ok {
			want, wok := parseTime([]byte(s), UnitNone, time.UTC)
			t.Errorf("%q: clock read %d; parseTime %d, %v", s, ns, want, wok)
		}
	}
}

// One clock reads, in a random order, times that share their second but
// not their fraction, zone or location, among forms it refuses: each
// must be read as parseTime reads it (or refused), whatever the time
// before it left in the clock's cache of the last second.
func TestClockSecondCache(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	locs := []*time.Location{time.UTC, time.FixedZone("+08", 8*3600), ny, nil}
	var texts []string
	for _, second := range []string{"2026-11-29 10:00:00", "2026-11-29T10:00:00", "2026-11-29 10:00:01", "2026-03-08 02:30:00", "2026-11-01 01:30:00"} {
		for _, frac := range []string{"", ".5", ".123", ".123456789", ".1234567891", ".", ",5"} {
			for _, zone := range []string{"", "Z", "+08:00", "-0700", "+08", "+0860", " +0800", "+08:00:00"} {
				texts = append(texts, second+frac+zone)
			}
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var c clocks
	read, refused := 0, 0
	for range 200_000 {
		b := []byte(texts[rng.IntN(len(texts))])
		loc := locs[rng.IntN(len(locs))]
		got, ok := c.read(b, loc)
		want, wok := parseTime(b, UnitNone, loc)
		if !ok {
			refused++
			continue
		}
		read++
		if !wok || got != want {
			t.Fatalf("%s in %v: clock %d, parseTime %d (%v)", b, loc, got, want, wok)
		}
	}
	if read < 50_000 || refused < 50_000 {
		t.Fatalf("%d read, %d refused: the mix is not what the test needs", read, refused)
	}
}

// TestNginxClockSecondCache reads nginx times in a random order — seconds
// shared by many, dates, zones and clocks a byte apart, and forms the
// clock refuses — each against parseTime: the last second's cache gives
// what reading the text again would.
func TestNginxClockSecondCache(t *testing.T) {
	var texts []string
	for _, date := range []string{"29/Nov/2026", "30/Nov/2026", "29/Dec/2026", "31/Feb/2026", "29/Nox/2026", "29-Nov-2026"} {
		for _, clock := range []string{"10:00:00", "10:00:01", "11:00:00", "23:59:60", "24:00:00", "10:60:00", "10:00-00"} {
			for _, zone := range []string{"+0800", "+0000", "-0700", "+0801", "+2400", "*0800"} {
				texts = append(texts, date+":"+clock+" "+zone)
			}
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	var c nginxClock
	read, refused := 0, 0
	for range 200_000 {
		// Runs of one text, as a log's lines share their second.
		b := []byte(texts[rng.IntN(len(texts))])
		for range 1 + rng.IntN(4) {
			got, ok := c.parse(b)
			want, wok := parseTime(b, UnitNone, time.UTC)
			if !ok {
				refused++
				continue
			}
			read++
			if !wok || got != want {
				t.Fatalf("%s: clock %d, parseTime %d (%v)", b, got, want, wok)
			}
		}
	}
	if read < 50_000 || refused < 50_000 {
		t.Fatalf("%d read, %d refused: the mix is not what the test needs", read, refused)
	}
}

// isoFraction reads one to nine digits as the ns they stand for, and
// refuses none or more: each length, with digits that differ by place.
func TestISOFractionEachLength(t *testing.T) {
	for n := 0; n <= 10; n++ {
		digits := "987654321"[:min(n, 9)]
		if n == 10 {
			digits = "9876543210"
		}
		zone, ns, ok := isoFraction([]byte("." + digits + "+08:00"))
		if n == 0 || n == 10 {
			if ok {
				t.Fatalf("%d digits: read as %d ns", n, ns)
			}
			continue
		}
		// The reference: the digits padded to nine, read as an integer.
		want, err := strconv.Atoi((digits + "000000000")[:9])
		if err != nil {
			t.Fatal(err)
		}
		if !ok || ns != want || string(zone) != "+08:00" {
			t.Fatalf("%d digits %q: %d ns, zone %q, %v; want %d ns", n, digits, ns, zone, ok, want)
		}
	}
	if zone, ns, ok := isoFraction([]byte("Z")); !ok || ns != 0 || string(zone) != "Z" {
		t.Fatalf("no fraction: %d ns, zone %q, %v", ns, zone, ok)
	}
}
