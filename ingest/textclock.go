package ingest

import (
	"encoding/binary"
	"time"
)

// clocks are the time readers of one text parser, each remembering the
// day (and zone) of the last time it read.
type clocks struct {
	nginx nginxClock
	iso   isoClock
}

// read returns the time of b as parseTime(b, unit, loc) does, for the
// forms the clocks read; ok false leaves b to parseTime.
func (c *clocks) read(b []byte, loc *time.Location) (int64, bool) {
	if len(b) >= 19 && b[4] == '-' {
		return c.iso.parse(b, loc)
	}
	return c.nginx.parse(b)
}

// isoClock reads "2026-11-29 10:00:01.208" (or with a T, a fraction of
// up to nine digits, and a zone Z, +08:00 or +0800) as parseISO does.
// It remembers the last date, and for times without a zone in a
// location other than UTC, the start of the last hour when the zone's
// offset is the same throughout it.
type isoClock struct {
	date   [10]byte // "2026-11-29"
	days   int64
	dateOK bool
	hour   int   // with date: the hour of hourNS
	hourNS int64 // its start in loc
	hourOK bool
	loc    *time.Location
	// The last time read to its second: its first 19 bytes (as three
	// words, the last two overlapping), the bytes of its zone, the
	// location it was read in, and its time less its fraction. A log's
	// lines come many a second: the next is most often the same but
	// for its fraction.
	secText  [3]uint64
	secZone  [6]byte
	secZoneN int
	secLoc   *time.Location
	secNS    int64
	secOK    bool
}

func (c *isoClock) parse(b []byte, loc *time.Location) (int64, bool) {
	if len(b) < 19 {
		return 0, false
	}
	zone, nsec, ok := isoFraction(b[19:])
	if !ok {
		return 0, false
	}
	w := [3]uint64{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[11:])}
	if c.secOK && w == c.secText && loc == c.secLoc && string(zone) == string(c.secZone[:c.secZoneN]) {
		return c.secNS + int64(nsec), true
	}
	ns, ok := c.second(b, zone, loc)
	if !ok {
		return 0, false
	}
	if len(zone) <= len(c.secZone) {
		c.secText, c.secZoneN, c.secLoc, c.secNS, c.secOK = w, copy(c.secZone[:], zone), loc, ns, true
	}
	return ns + int64(nsec), true
}

// nsPerDigits[n] is what a unit of the last of n digits of a fraction
// of a second is in ns: the digits are read as one integer.
var nsPerDigits = [10]int{0, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1}

// isoFraction reads the fraction of a second after "2026-11-29T10:00:01"
// (a point and one to nine digits), when there is one: it returns the
// rest (the zone) and the fraction in ns; ok false for a point without
// a digit, or more than nine.
func isoFraction(rest []byte) (zone []byte, nsec int, ok bool) {
	if len(rest) == 0 || rest[0] != '.' {
		return rest, 0, true
	}
	i := 1
	for ; i < len(rest) && i <= 9 && rest[i]-'0' <= 9; i++ {
		nsec = nsec*10 + int(rest[i]-'0')
	}
	if i == 1 || i < len(rest) && rest[i]-'0' <= 9 {
		return nil, 0, false // no digit, or more than nine
	}
	return rest[i:], nsec * nsPerDigits[i-1], true
}

// second reads the time of b to its second, with its zone (the bytes
// after its fraction): parse's time less the fraction.
func (c *isoClock) second(b, zone []byte, loc *time.Location) (int64, bool) {
	if b[7] != '-' || b[10] != 'T' && b[10] != ' ' || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	hour, ok1 := two(b[11], b[12])
	min, ok2 := two(b[14], b[15])
	sec, ok3 := two(b[17], b[18])
	if !(ok1 && ok2 && ok3) || hour > 23 || min > 59 || sec > 60 {
		return 0, false
	}
	if !c.dateOK || string(b[:10]) != string(c.date[:]) {
		if !c.setDate(b[:10]) {
			return 0, false
		}
	}
	offset, local, ok := isoZone(zone)
	if !ok {
		return 0, false
	}
	if local && loc != nil && loc != time.UTC {
		base, ok := c.hourStart(hour, loc)
		if !ok {
			return 0, false
		}
		return base + int64(min*60+sec)*1e9, true
	}
	// As civil computes it, overflow included.
	secs := c.days*86400 + int64(hour*3600+min*60+sec) - int64(offset)
	return secs * 1e9, true
}

// isoZone reads "", "Z", "+08:00" or "+0800"; local: there is no zone.
func isoZone(z []byte) (offset int, local, ok bool) {
	switch {
	case len(z) == 0:
		return 0, true, true
	case len(z) == 1:
		return 0, false, z[0] == 'Z' || z[0] == 'z'
	case len(z) == 6 && z[3] != ':', len(z) != 5 && len(z) != 6, z[0] != '+' && z[0] != '-':
		return 0, false, false
	}
	h, ok1 := two(z[1], z[2])
	m, ok2 := two(z[len(z)-2], z[len(z)-1])
	if !(ok1 && ok2) || h > 23 || m > 59 {
		return 0, false, false
	}
	offset = (h*60 + m) * 60
	if z[0] == '-' {
		offset = -offset
	}
	return offset, false, true
}

// setDate reads "2026-11-29" into the cache.
func (c *isoClock) setDate(b []byte) bool {
	c.dateOK, c.hourOK = false, false
	year, ok1 := digits(b, 4)
	month, ok2 := two(b[5], b[6])
	day, ok3 := two(b[8], b[9])
	if !(ok1 && ok2 && ok3) || month < 1 || month > 12 || day < 1 || day > 31 {
		return false
	}
	copy(c.date[:], b)
	c.days = daysFromCivil(year, month, day)
	c.dateOK = true
	return true
}

// hourStart returns the start in loc of the hour of the cached date, when
// that start exists and loc's offset is the same at it and at the end
// of the hour (no change of zone within it); years far from now are
// left to time.Date.
func (c *isoClock) hourStart(hour int, loc *time.Location) (int64, bool) {
	if c.hourOK && c.hour == hour && c.loc == loc {
		return c.hourNS, true
	}
	c.hourOK = false
	year, _ := digits(c.date[:], 4)
	month, _ := two(c.date[5], c.date[6])
	day, _ := two(c.date[8], c.date[9])
	if year < 1900 || year > 2200 {
		return 0, false
	}
	start := time.Date(year, time.Month(month), day, hour, 0, 0, 0, loc)
	end := time.Date(year, time.Month(month), day, hour+1, 0, 0, 0, loc)
	// An hour the clocks skip into (Lord Howe's 02:00) is moved by
	// time.Date; one with a change of offset has times read otherwise.
	_, o1 := start.Zone()
	_, o2 := end.Zone()
	if o1 != o2 || end.Sub(start) != time.Hour || start.Hour() != hour || start.Minute() != 0 || start.Second() != 0 {
		return 0, false
	}
	c.hour, c.hourNS, c.loc, c.hourOK = hour, start.UnixNano(), loc, true
	return c.hourNS, true
}
