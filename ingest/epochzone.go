package ingest

import (
	"fmt"
	"time"
)

// epochNames are the names log services give each log's time, as an
// epoch, beside the log's own fields: Alibaba Cloud SLS's __time__
// (seconds), Tencent Cloud CLS's __TIMESTAMP__ (milliseconds; µs in some
// exports). Their magnitude tells the unit.
var epochNames = [...]string{"__time__", "__TIMESTAMP__"}

// Bounds of the zone epochZone tells: a zone's offset is a whole number
// of quarter hours, within 14 hours of UTC; a log's epoch may lag the
// time it writes (an agent that stamps a line as it collects it) by
// minutes at most.
const (
	zoneStep  = 15 * time.Minute
	zoneMax   = 14 * time.Hour
	epochLag  = 5 * time.Minute
	zoneFewer = minUnitValues // values that must agree
)

// epochZone returns the zone of a file's times written without one,
// when the file gives each record its time twice: in its own field,
// without a zone (read in loc, --tz), and as an epoch beside it
// (epochNames). The epoch is an instant; the zone is the offset that makes
// the written times agree with it, when at least zoneFewer of the
// first records' do, all to the same quarter hour, and it is not loc's
// own offset then. names are the first record's names; values gives the
// raw texts of two names' values in each of the first records that has
// both. A fixed offset: a file that spans
// a change to or from summer time is read in the first's.
func epochZone(s *Schema, names []string, pairs func(a, b string) [][2][]byte, loc *time.Location) *time.Location {
	epoch, name, best := "", "", Binding{Prio: 255}
	for _, n := range names {
		for _, e := range epochNames {
			if n == e && epoch == "" {
				epoch = n
			}
		}
		for _, b := range s.LookupString(n) {
			if b.Field == FTime && !b.Stamp() && b.Prio < best.Prio { // the own time, not the stamp it is weighed against
				name, best = n, b
			}
		}
	}
	if epoch == "" || name == "" || name == epoch {
		return nil
	}
	both := pairs(name, epoch)
	if len(both) < zoneFewer {
		return nil
	}
	other := time.FixedZone("", 5*3600+1800) // a zone no time written with its own reads in
	offset, agree := time.Duration(0), 0
	for _, p := range both {
		w, e := unquote(p[0]), unquote(p[1])
		asUTC, ok := parseTime(w, best.Unit, time.UTC)
		elsewhere, ok2 := parseTime(w, best.Unit, other)
		if !ok || !ok2 || asUTC == elsewhere {
			return nil // unread, or it carries its zone
		}
		if len(e) == 0 || !isEpoch(e) {
			return nil
		}
		at, ok := parseEpoch(e, UnitNone)
		if !ok {
			return nil
		}
		d := time.Duration(asUTC - at)
		q := d.Round(zoneStep)
		if q > zoneMax || q < -zoneMax || (d-q).Abs() > epochLag || agree > 0 && q != offset {
			return nil
		}
		offset, agree = q, agree+1
	}
	first, _ := parseEpoch(unquote(both[0][1]), UnitNone)
	if _, own := time.Unix(0, first).In(loc).Zone(); time.Duration(own)*time.Second == offset {
		return nil // --tz reads them right
	}
	return time.FixedZone(zoneName(offset), int(offset/time.Second))
}

// zoneName names a fixed offset as a report shows it: UTC+08:00.
func zoneName(d time.Duration) string {
	sign := '+'
	if d < 0 {
		sign, d = '-', -d
	}
	return fmt.Sprintf("UTC%c%02d:%02d", sign, int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// unquote returns a JSON string's raw text without its quotes; other
// values as they are.
func unquote(b []byte) []byte {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		return b[1 : len(b)-1]
	}
	return b
}
