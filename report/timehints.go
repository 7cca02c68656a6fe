package report

import (
	"sort"
	"strings"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// maxTimeHints is how many --map time=… suggestions a report makes.
const maxTimeHints = 3

// timeHints are the flags that may give the records their time, when
// records were read but not one carries a time: the names the files
// carried that look like a time of day (zap's ts, a created_at, a
// log_time) and that loganalyze does not already read from the file
// they were seen in. Without a time the time line, the windows and
// the rules that judge minutes (storms, bursts) cannot run.
func timeHints(acc *aggregate.Accumulator, files []ingest.FileStats) []Hint {
	if acc.Records == 0 || acc.Present()[ingest.FTime] > 0 {
		return nil
	}
	var out []Hint
	for _, name := range timeNames(files) {
		if len(out) == maxTimeHints {
			break
		}
		out = append(out, newHint("--map time="+name, "hint.maptime", name))
	}
	return out
}

// Clock is a file whose time was a time of day alone (Fiber's logger's
// "15:04:05" by default): no day, so its records have no time.
type Clock struct{ File, Name string }

// clocks lists the files read whose time was a time of day alone, and
// the name that held it.
func clocks(files []ingest.FileStats) []Clock {
	var out []Clock
	for _, f := range files {
		for _, n := range f.Clocks {
			out = append(out, Clock{File: f.Path, Name: n})
		}
	}
	return out
}

// timeNames are the names files carried that look like a time of day,
// in the files' order without repeats, that their schema does not read:
// by their name, unless their first values are numbers no epoch time
// is (a duration's: Akamai's turnAroundTimeMSec, 1234), or by their
// values, epoch instants whatever the name (Akamai's reqTimeSec,
// 1733565600.123, whose name holds "times"). Those told by their values
// come first.
func timeNames(files []ingest.FileStats) []string {
	names := unreadNames(files, func(name string) bool {
		return instantValues(name, files) || timeLike(name) && !durationValues(name, files)
	})
	sort.SliceStable(names, func(i, j int) bool {
		return instantValues(names[i], files) && !instantValues(names[j], files)
	})
	return names
}

// durationValues reports whether a file's first values of name are
// numbers of no epoch time in s, ms, µs or ns of the years 2001 to 2100:
// a duration's, not a time of day's.
func durationValues(name string, files []ingest.FileStats) bool {
	for _, f := range files {
		m, ok := f.Magnitudes[name]
		if !ok || m.N == 0 {
			continue
		}
		for _, lo := range []float64{1e9, 1e12, 1e15, 1e18} {
			if m.Median >= lo && m.Median < 4.2*lo {
				return false
			}
		}
		return true
	}
	return false
}

// timeLike reports whether a field's name reads as a time of day rather
// than a duration: ts, @t, a …stamp or …date, a created_at or startedAt,
// a …time that names no phase or unit of a duration.
func timeLike(name string) bool {
	l := strings.ToLower(name)
	switch {
	case l == "ts" || l == "@t" || strings.HasSuffix(l, "_ts") || strings.HasSuffix(l, ".ts"):
		return true
	case containsAny(l, "stamp", "date"):
		return true
	case strings.HasSuffix(l, "_at") || strings.HasSuffix(name, "At"):
		return true
	}
	if !strings.Contains(l, "time") || containsAny(l, "duration", "latency", "elapsed", "took", "taken",
		"cost", "request_time", "response_time", "connect", "header", "first", "ttft", "ttfb", "token",
		"wait", "spent", "process", "upstream", "rtt", "handshake", "dns", "tls", "ssl", "tcp", "queue",
		"timeout", "times", "zone") {
		return false
	}
	for _, unit := range []string{"_ms", "_us", "_ns", "_s", "_sec", "_secs", "_seconds", "millis", "micros", "nanos"} {
		if strings.HasSuffix(l, unit) {
			return false // a duration in a unit
		}
	}
	return true
}
