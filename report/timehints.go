package report

import (
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

// timeNames are the names files carried that look like a time of day,
// in the files' order without repeats, that their schema does not read.
func timeNames(files []ingest.FileStats) []string { return unreadNames(files, timeLike) }

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
