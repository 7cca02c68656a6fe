package ingest

import (
	"bytes"
	"math"
	"strconv"
	"time"
)

// parseTime reads a timestamp in any of the forms access logs use:
// an epoch number (unit given, or guessed from its size), RFC 3339 with or
// without a zone ("T" or a space between date and time), and nginx's
// $time_local ("29/Nov/2026:10:00:00 +0800"). A time without a zone is in
// loc. The common forms are read without allocating.
func parseTime(b []byte, unit Unit, loc *time.Location) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	if b[0] >= '0' && b[0] <= '9' && isEpoch(b) {
		return parseEpoch(b, unit)
	}
	if len(b) >= 19 && b[4] == '-' && b[7] == '-' && (b[10] == 'T' || b[10] == ' ') {
		return parseISO(b, loc)
	}
	if len(b) >= 20 && b[2] == '/' && b[6] == '/' && b[11] == ':' {
		return parseNginxTime(b, loc)
	}
	if len(b) >= 21 && b[4] == '/' && b[7] == '/' && b[10] == ' ' && b[11] == '-' && b[12] == ' ' {
		return parseGinTime(b, loc)
	}
	if isNumber(b) {
		if ns, ok := parseFloatEpoch(b, unit); ok {
			return ns, true
		}
	}
	if n := len(b); n >= 22 && b[0] == '[' && b[n-1] == ']' && b[3] == '/' && b[7] == '/' && b[12] == ':' {
		// CLF's time with its brackets, as Apache's %t writes it into a
		// JSON LogFormat ("time":"%t") and Tomcat's JsonAccessLogValve
		// into its "time": "[05/Dec/2026:10:00:09 +0800]". CLF's only:
		// a text format's time read from "[2026-12-04T03:01:34.510Z]"
		// would take Envoy's lines for another format's.
		return parseNginxTime(b[1:n-1], loc)
	}
	return parseTimeSlow(b, loc)
}

// nsPer is the length of one unit in nanoseconds.
var nsPer = [...]int64{UnitNone: 1e9, UnitSecond: 1e9, UnitMilli: 1e6, UnitMicro: 1e3, UnitNano: 1}

// parseEpoch reads an epoch number exactly: integer arithmetic for the
// whole part, so "1795917600036" ms is exactly that many milliseconds. A
// number too large for int64 nanoseconds is returned at the int64 bound,
// where checkTime refuses it.
func parseEpoch(b []byte, unit Unit) (int64, bool) {
	whole, frac, _ := cutByte(b, '.')
	if len(whole) == 0 || indexByte(frac, '.') >= 0 {
		return 0, false
	}
	var n int64
	for _, c := range whole {
		if n > (math.MaxInt64-9)/10 {
			return math.MaxInt64, true
		}
		n = n*10 + int64(c-'0')
	}
	if unit == UnitNone {
		unit = guessEpochUnit(float64(n))
	}
	per := nsPer[unit]
	if n > (1<<62)/per {
		return math.MaxInt64, true
	}
	ns := n * per
	scale := per
	for _, c := range frac {
		scale /= 10
		if scale == 0 {
			break
		}
		ns += int64(c-'0') * scale
	}
	return ns, true
}

// parseFloatEpoch reads an epoch number in another form than digits and a
// point ("1.7959176e12", "-5"), as exporters that write every number as a
// float do. A number too large for int64 nanoseconds is returned at the
// int64 bound, where checkTime refuses it.
func parseFloatEpoch(b []byte, unit Unit) (int64, bool) {
	var buf [40]byte
	if d, ok := exactDecimal(&buf, b); ok {
		return parseEpoch(d, unit)
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(v) {
		return 0, false
	}
	if unit == UnitNone {
		unit = guessEpochUnit(math.Abs(v))
	}
	ns := v * float64(nsPer[unit])
	switch {
	case ns >= math.MaxInt64:
		return math.MaxInt64, true
	case ns <= math.MinInt64:
		return math.MinInt64, true
	}
	return int64(ns), true
}

// exactDecimal writes b, digits with a point and an exponent and no
// sign, as digits and a point alone in buf, for parseEpoch to read
// exactly: BigQuery's API (and bq --format=json) writes a TIMESTAMP as
// float seconds, "1.796349601457E9", whose float64 is …01.456999936 s
// (googleapis/python-bigquery#395: read them with integer math). false
// for any other form, or one longer than buf.
func exactDecimal(buf *[40]byte, b []byte) ([]byte, bool) {
	e := bytes.IndexAny(b, "eE")
	if e < 1 {
		return nil, false
	}
	mant, exp := b[:e], b[e+1:]
	neg := len(exp) > 0 && exp[0] == '-'
	if len(exp) > 0 && (exp[0] == '-' || exp[0] == '+') {
		exp = exp[1:]
	}
	if len(exp) == 0 || len(exp) > 3 || !allDigits(exp) {
		return nil, false
	}
	x := 0
	for _, c := range exp {
		x = x*10 + int(c-'0')
	}
	if neg {
		x = -x
	}
	whole, frac, _ := cutByte(mant, '.')
	if len(whole)+len(frac) == 0 || len(whole) > 0 && !allDigits(whole) || len(frac) > 0 && !allDigits(frac) {
		return nil, false
	}
	// The point moves x digits right (left when x < 0) of where it is;
	// a number below 1 is no time.
	point := len(whole) + x
	if point < 1 || max(point, len(whole)+len(frac))+1 > len(buf) {
		return nil, false
	}
	d := append(append(buf[:0], whole...), frac...)
	for len(d) < point {
		d = append(d, '0')
	}
	if point < len(d) {
		d = append(d, 0)
		copy(d[point+1:], d[point:])
		d[point] = '.'
	}
	return d, true
}

// isNumber reports whether b looks like a decimal number with a sign or
// an exponent: only digits, a point, a sign and e or E.
func isNumber(b []byte) bool {
	digit := false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c == '.' || c == '+' || c == '-' || c == 'e' || c == 'E':
		default:
			return false
		}
	}
	return digit
}

func cutByte(b []byte, c byte) (before, after []byte, found bool) {
	if i := indexByte(b, c); i >= 0 {
		return b[:i], b[i+1:], true
	}
	return b, nil, false
}

func isEpoch(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

// guessEpochUnit tells seconds, milliseconds, microseconds and nanoseconds
// apart by magnitude (any of them for dates between 1973 and 2286).
func guessEpochUnit(v float64) Unit {
	switch {
	case v >= 1e17:
		return UnitNano
	case v >= 1e14:
		return UnitMicro
	case v >= 1e11:
		return UnitMilli
	}
	return UnitSecond
}

func digits(b []byte, n int) (int, bool) {
	if len(b) < n {
		return 0, false
	}
	v := 0
	for _, c := range b[:n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// parseISO reads "2026-11-29T10:00:00.036+08:00", "...Z", "...+0800" and
// "2026-11-29 10:00:00.036" (zone from loc).
func parseISO(b []byte, loc *time.Location) (int64, bool) {
	year, ok1 := digits(b[0:], 4)
	month, ok2 := digits(b[5:], 2)
	day, ok3 := digits(b[8:], 2)
	hour, ok4 := digits(b[11:], 2)
	min, ok5 := digits(b[14:], 2)
	sec, ok6 := digits(b[17:], 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	rest := b[19:]
	nsec, rest, ok := fraction(rest)
	if !ok {
		return 0, false
	}
	return civil(year, month, day, hour, min, sec, nsec, rest, loc)
}

// parseGinTime reads Gin's date, "2026/12/04 - 10:00:01" (a fraction
// or a zone after it as parseISO reads them), which Gin's Logger writes
// and one-hub's zap encoder (zapStampLen) too.
func parseGinTime(b []byte, loc *time.Location) (int64, bool) {
	year, ok1 := digits(b[0:], 4)
	month, ok2 := digits(b[5:], 2)
	day, ok3 := digits(b[8:], 2)
	hour, ok4 := digits(b[13:], 2)
	min, ok5 := digits(b[16:], 2)
	sec, ok6 := digits(b[19:], 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || b[15] != ':' || b[18] != ':' {
		return 0, false
	}
	nsec, rest, ok := fraction(b[21:])
	if !ok {
		return 0, false
	}
	return civil(year, month, day, hour, min, sec, nsec, rest, loc)
}

var months = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// parseNginxTime reads "29/Nov/2026:10:00:00 +0800".
func parseNginxTime(b []byte, loc *time.Location) (int64, bool) {
	day, ok1 := digits(b[0:], 2)
	month := 0
	for i, m := range months {
		if string(b[3:6]) == m {
			month = i + 1
		}
	}
	year, ok2 := digits(b[7:], 4)
	hour, ok3 := digits(b[12:], 2)
	min, ok4 := digits(b[15:], 2)
	sec, ok5 := digits(b[18:], 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || month == 0 || b[14] != ':' || b[17] != ':' {
		return 0, false
	}
	nsec, rest, ok := fraction(b[20:])
	if !ok {
		return 0, false
	}
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	return civil(year, month, day, hour, min, sec, nsec, rest, loc)
}

// fraction reads an optional ".123456" and returns it in nanoseconds.
func fraction(b []byte) (int, []byte, bool) {
	if len(b) == 0 || (b[0] != '.' && b[0] != ',') {
		return 0, b, true
	}
	i, ns, scale := 1, 0, 100000000
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		ns += int(b[i]-'0') * scale
		scale /= 10
	}
	if i == 1 {
		return 0, nil, false
	}
	return ns, b[i:], true
}

// civil turns a date and time plus a zone suffix ("", "Z", "+08:00",
// "+0800", " +0800") into Unix nanoseconds.
func civil(year, month, day, hour, min, sec, nsec int, zone []byte, loc *time.Location) (int64, bool) {
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60 {
		return 0, false
	}
	for len(zone) > 0 && zone[0] == ' ' {
		zone = zone[1:]
	}
	var offset int
	switch {
	case len(zone) == 0:
		if loc != time.UTC && loc != nil {
			return time.Date(year, time.Month(month), day, hour, min, sec, nsec, loc).UnixNano(), true
		}
	case len(zone) == 1 && (zone[0] == 'Z' || zone[0] == 'z'):
	case string(zone) == "UTC" || string(zone) == "GMT":
		// BigQuery's text of a TIMESTAMP ("2026-12-05 10:00:00.123456
		// UTC"), in its exports to CSV and JSON.
	case zone[0] == '+' || zone[0] == '-':
		h, ok := digits(zone[1:], 2)
		if !ok {
			return 0, false
		}
		m := 0
		switch {
		case len(zone) == 6 && zone[3] == ':':
			m, ok = digits(zone[4:], 2)
		case len(zone) == 5:
			m, ok = digits(zone[3:], 2)
		case len(zone) == 3:
		default:
			ok = false
		}
		if !ok || h > 23 || m > 59 {
			return 0, false
		}
		offset = (h*60 + m) * 60
		if zone[0] == '-' {
			offset = -offset
		}
	default:
		return 0, false
	}
	days := daysFromCivil(year, month, day)
	secs := days*86400 + int64(hour*3600+min*60+sec) - int64(offset)
	return secs*1e9 + int64(nsec), true
}

// daysFromCivil returns the days since 1970-01-01 of a proleptic Gregorian
// date (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

var slowLayouts = []string{
	time.RFC3339Nano,
	time.RFC1123Z,
	time.RFC1123,
	"2006/01/02 15:04:05",
	// Envoy's documented %START_TIME(%Y/%m/%dT%H:%M:%S%z)%.
	"2006/01/02T15:04:05-0700",
	"02/Jan/2006:15:04:05 -0700",
	time.DateTime,
	// Kibana's default dateFormat (MMM D, YYYY @ HH:mm:ss.SSS), as its
	// CSV export of Discover writes @timestamp: in its dateFormat:tz,
	// the browser's by default, so in --tz here.
	"Jan 2, 2006 @ 15:04:05",
	// C's asctime and ctime, Python's time.ctime(), Go's ANSIC.
	time.ANSIC,
	// ISO 8601's basic format (AWS's X-Amz-Date: 20261205T100000Z).
	"20060102T150405Z0700",
	"20060102T150405Z07:00",
	"20060102T150405",
	// ISO 8601 without seconds.
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	// A day first, with dots: Europe's (Germany's, Russia's), also
	// without seconds, as Excel shows a time in such a locale
	// (ECMA-376's built-in date-time format 22 has none) and its CSV
	// export writes it.
	"02.01.2006 15:04:05",
	"02.01.2006 15:04",
	// The month first, as JavaScript's toLocaleString() writes a time
	// in the USA's English ("12/4/2026, 9:00:12 AM"; a browser's export,
	// Azure's portal's CSV): the month is first only with an AM or a PM
	// in capitals (the locales that put the day first write am/pm, or
	// none: Go reads "PM" in capitals only).
	"1/2/2006, 3:04:05 PM",
}

func parseTimeSlow(b []byte, loc *time.Location) (int64, bool) {
	if loc == nil {
		loc = time.UTC
	}
	s := string(b)
	for _, layout := range slowLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t.UnixNano(), true
		}
	}
	return 0, false
}
