package ingest

import "math"

// The bounds of a readable value (SPEC §3 "Hostile values"). A value
// outside them is unreadable: the line is bad when the field is time or
// request_time, and the field is absent otherwise. Within them, no value
// can overflow later — in a millisecond conversion, a fixed-point sum, a
// sketch or the time line — so no single line can stop a report from
// being written, move the window, or poison a sketch.
const (
	// MaxDurationS is the longest duration read, in seconds: 1e7 s, about
	// 116 days. No request or phase of one lasts that long (a streamed
	// or long-polled call runs for minutes, a gateway's longest time-out
	// is hours); a larger value is a unit read wrongly (nanoseconds or an
	// epoch taken for seconds) or a hostile one. In milliseconds (1e10)
	// it is exact in the sketches' fixed-point sums, and it keeps a
	// sketch's bins within a few thousand.
	MaxDurationS = 1e7
	// MaxInt bounds integer fields (status, tokens, connection numbers):
	// 2^53, the largest integer a float64 holds exactly.
	MaxInt = 1 << 53
)

// MinTimeNS and MaxTimeNS bound a readable time: from the start of 2000
// to the end of 2100 (UTC), Unix nanoseconds, MaxTimeNS excluded. An
// access log of this service cannot be older, and a time outside would
// stretch the window and the time line over centuries.
const (
	MinTimeNS = 946684800 * 1e9  // 2000-01-01T00:00:00Z
	MaxTimeNS = 4133980800 * 1e9 // 2101-01-01T00:00:00Z
)

// flaw is what makes a value unreadable.
type flaw uint8

const (
	fine         flaw = iota
	unreadable        // not a number or a time at all, or a negative duration
	notFinite         // Infinity
	tooLong           // a duration over MaxDurationS
	outsideYears      // a time outside MinTimeNS … MaxTimeNS
	unfixedSpan       // a duration in years or months (ISO 8601's P1Y, P1M)
)

// String returns the reason a problem sample gives after "cannot read
// …": "" when the plain words say it.
func (f flaw) String() string {
	switch f {
	case notFinite:
		return "not a finite number"
	case tooLong:
		return "longer than 1e7 s"
	case outsideYears:
		return "outside the years 2000–2100"
	case unfixedSpan:
		return "a year or a month has no fixed length"
	}
	return ""
}

// duration converts v, read in unit, to the canonical unit of a duration
// field and checks it. -0 becomes 0.
func duration(info *fieldInfo, v float64, unit Unit) (float64, flaw) {
	switch {
	case math.IsNaN(v) || v < 0:
		return 0, unreadable
	case math.IsInf(v, 0):
		return 0, notFinite
	}
	if unit == UnitNone {
		unit = info.unit
	}
	if v*seconds[unit] > MaxDurationS {
		return 0, tooLong
	}
	if unit != info.unit {
		v *= seconds[unit] / seconds[info.unit]
	}
	return v + 0, fine // + 0 turns -0 into 0
}

// isInt reports whether v is an integer an integer field may hold.
func isInt(v float64) bool {
	return v == math.Trunc(v) && math.Abs(v) <= MaxInt
}

// checkTime checks a time in Unix nanoseconds.
func checkTime(ns int64) flaw {
	if ns < MinTimeNS || ns >= MaxTimeNS {
		return outsideYears
	}
	return fine
}
