package ingest

import (
	"math"
	"time"

	"github.com/parquet-go/parquet-go/deprecated"
)

// wallZone reads wall-clock times, nanoseconds since 1970 as if the
// clock were UTC's (a Parquet TIMESTAMP not adjusted to UTC, as pandas
// writes a naive datetime and DuckDB a TIMESTAMP; an Arrow timestamp
// without a zone), as the instants they are in a zone: --tz, as a text
// log's times without a zone are read. It keeps the zone period the
// latest time fell in, so that a log's times, hours within one period,
// take a subtraction each.
type wallZone struct {
	loc    *time.Location
	lo, hi int64 // the period's instants, [lo, hi); none kept while hi ≤ lo
	off    int64 // its offset east of UTC, ns
}

// instant returns the instant of wall-clock time wall in loc.
func (z *wallZone) instant(wall int64, loc *time.Location) int64 {
	if loc == nil || loc == time.UTC {
		return wall
	}
	if z.loc == loc && z.hi > z.lo {
		if u := wall - z.off; u >= z.lo && u < z.hi {
			return u
		}
	}
	t := time.Unix(0, wall).UTC()
	lt := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
	_, off := lt.Zone()
	start, end := lt.ZoneBounds()
	z.loc, z.off, z.lo, z.hi = loc, int64(off)*1e9, math.MinInt64, math.MaxInt64
	if !start.IsZero() {
		z.lo = start.UnixNano()
	}
	if !end.IsZero() {
		z.hi = end.UnixNano()
	}
	return lt.UnixNano()
}

// julianUnixDay is the Julian day number of 1970-01-01.
const julianUnixDay = 2440588

// int96Instants appends the instants of INT96 timestamps, in Unix
// nanoseconds, to dst: the nanoseconds within a Julian day, then the
// day, as Spark, Hive and Impala write a timestamp (Spark's default for
// Parquet), which Spark writes as UTC. A day past what an int64 of
// nanoseconds holds reads as math.MaxInt64, outside every readable time.
func int96Instants(dst []int64, vs []deprecated.Int96) []int64 {
	const maxDays = math.MaxInt64/int64(86400*1e9) - 1
	for _, v := range vs {
		day := int64(int32(v[2])) - julianUnixDay
		nanos := int64(uint64(v[1])<<32 | uint64(v[0]))
		if day > maxDays || day < -maxDays || nanos < 0 || nanos > 2*86400e9 {
			dst = append(dst, math.MaxInt64)
			continue
		}
		dst = append(dst, day*86400e9+nanos)
	}
	return dst
}
