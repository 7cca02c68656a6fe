package ingest

import "encoding/binary"

// nginxClock reads nginx's $time_local, "29/Nov/2026:10:00:00 +0800", as
// parseTime does, but remembers the day and the zone of the last time
// it read: the lines of a log share both, so a line costs the digits
// of its clock and two comparisons. Any other form is refused, for
// parseTime to read.
type nginxClock struct {
	// last is the last time read, as the words of its bytes 0, 8, 16
	// and 18 (the last two overlap): the lines of one second, most often
	// many, cost four comparisons. lastNS is its time.
	last   [4]uint64
	lastNS int64
	lastOK bool
	date   [11]byte // "29/Nov/2026"
	zone   [5]byte  // "+0800"
	days   int64    // of date, since 1970-01-01
	offset int64    // of zone, in seconds east of UTC
	dateOK bool
	zoneOK bool
}

// parse returns the time of b in Unix nanoseconds.
func (c *nginxClock) parse(b []byte) (int64, bool) {
	if len(b) != 26 {
		return 0, false
	}
	w := [4]uint64{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]),
		binary.LittleEndian.Uint64(b[16:]), binary.LittleEndian.Uint64(b[18:])}
	if c.lastOK && w == c.last {
		return c.lastNS, true
	}
	ns, ok := c.parseNew(b)
	if ok {
		c.last, c.lastNS, c.lastOK = w, ns, true
	}
	return ns, ok
}

// parseNew is parse of a time of another second than the last one's.
func (c *nginxClock) parseNew(b []byte) (int64, bool) {
	if b[11] != ':' || b[14] != ':' || b[17] != ':' || b[20] != ' ' {
		return 0, false
	}
	if !c.dateOK || string(b[:11]) != string(c.date[:]) {
		if !c.setDate(b[:11]) {
			return 0, false
		}
	}
	if !c.zoneOK || string(b[21:26]) != string(c.zone[:]) {
		if !c.setZone(b[21:26]) {
			return 0, false
		}
	}
	hour, ok1 := two(b[12], b[13])
	min, ok2 := two(b[15], b[16])
	sec, ok3 := two(b[18], b[19])
	if !(ok1 && ok2 && ok3) || hour > 23 || min > 59 || sec > 60 {
		return 0, false
	}
	// As civil computes it, overflow included.
	secs := c.days*86400 + int64(hour*3600+min*60+sec) - c.offset
	return secs * 1e9, true
}

// setDate reads "29/Nov/2026" into the cache.
func (c *nginxClock) setDate(b []byte) bool {
	c.dateOK = false
	day, ok1 := two(b[0], b[1])
	year, ok2 := digits(b[7:], 4)
	month := 0
	for i, m := range months {
		if string(b[3:6]) == m {
			month = i + 1
		}
	}
	if !(ok1 && ok2) || b[2] != '/' || b[6] != '/' || month == 0 || day < 1 || day > 31 {
		return false
	}
	copy(c.date[:], b)
	c.days = daysFromCivil(year, month, day)
	c.dateOK = true
	return true
}

// setZone reads "+0800" into the cache.
func (c *nginxClock) setZone(b []byte) bool {
	c.zoneOK = false
	h, ok1 := two(b[1], b[2])
	m, ok2 := two(b[3], b[4])
	if !(ok1 && ok2) || b[0] != '+' && b[0] != '-' || h > 23 || m > 59 {
		return false
	}
	c.offset = int64((h*60 + m) * 60)
	if b[0] == '-' {
		c.offset = -c.offset
	}
	copy(c.zone[:], b)
	c.zoneOK = true
	return true
}

// two reads two decimal digits.
func two(a, b byte) (int, bool) {
	if a < '0' || a > '9' || b < '0' || b > '9' {
		return 0, false
	}
	return int(a-'0')*10 + int(b-'0'), true
}
