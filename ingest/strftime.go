package ingest

// Times written with a format of the writer's choosing: Envoy's
// %START_TIME(FORMAT)% and Apache httpd's %{FORMAT}t take a strftime(3)
// format, which the time is read back with (timefmt-go's strptime).
//
// Envoy adds %[1-9]f, the fraction of the second in that many digits
// ("%f" is nine), and %s, the seconds since the epoch, which read the
// time on their own. Apache's argument may begin with "begin:" or "end:"
// (when the time is taken, the request's start by default), or be one of
// its own words: sec, msec and usec, the epoch in that unit; msec_frac
// and usec_frac, the fraction alone, which no time is read from on its
// own (its manual's example writes the time in three such directives,
// the date and the time to the second, the fraction, the zone: they are
// joined into one, joinApacheTime).

import (
	"strings"
	"time"

	"github.com/itchyny/timefmt-go"

	"loganalyze/internal/lazyre"
)

// strftimeSpec returns the binding of the operator (envoy) or directive
// named name, when it is a time written with a format: ok false when it
// is not one.
func strftimeSpec(name string, envoy bool) (vs varSpec, ok bool) {
	var f string
	if envoy {
		arg, found := strings.CutPrefix(name, "START_TIME(")
		if !found || !strings.HasSuffix(arg, ")") {
			return varSpec{}, false
		}
		f = envoyStrftime(strings.TrimSuffix(arg, ")"))
	} else {
		arg, found := strings.CutPrefix(name, "{")
		if !found || !strings.HasSuffix(arg, "}t") {
			return varSpec{}, false
		}
		arg = strings.TrimSuffix(arg, "}t")
		if a, cut := strings.CutPrefix(arg, "begin:"); cut {
			arg = a
		} else if a, cut := strings.CutPrefix(arg, "end:"); cut {
			arg = a
		}
		switch arg {
		case "sec":
			return varSpec{field: FTime, unit: UnitSecond, bound: true}, true
		case "msec":
			return varSpec{field: FTime, unit: UnitMilli, bound: true}, true
		case "usec":
			return varSpec{field: FTime, unit: UnitMicro, bound: true}, true
		case "msec_frac", "usec_frac":
			return varSpec{none: true}, true
		}
		f = arg
		if j, ok := javaStrftime(arg); ok {
			f = j // Jetty's, in Apache's syntax
		}
	}
	if !datedFormat(f) {
		// A time of day or a zone alone ("%z", "%T") is no time of its
		// own: the directive with the date is read.
		return varSpec{none: true}, true
	}
	return varSpec{field: FTime, bound: true, how: howStrftime, strftime: f, spaces: formatSpaces(f)}, true
}

// envoyStrftime returns Envoy's format f as strftime's: %[1-9]f, a
// fraction of as many digits, is %f, which reads any number of them.
func envoyStrftime(f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] == '%' && i+2 < len(f) && f[i+1] >= '1' && f[i+1] <= '9' && f[i+2] == 'f' {
			b.WriteString("%f")
			i += 2
			continue
		}
		if f[i] == '%' && i+1 < len(f) {
			b.WriteString(f[i : i+2])
			i++
			continue
		}
		b.WriteByte(f[i])
	}
	return b.String()
}

// datedFormat reports whether strftime format f writes a date: a year,
// or the seconds since the epoch.
func datedFormat(f string) bool {
	for i := 0; i+1 < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		switch f[i+1] {
		case 'Y', 'y', 'G', 'F', 'D', 'c', 'x', 's':
			return true
		}
		i++ // "%%" and any other directive
	}
	return false
}

// formatSpaces counts the spaces a time written with strftime format f
// holds: its own and those of the directives that write some (%c, %r).
// %e pads a day under 10 with a space, which is not counted: a format
// with it is read on days that have two digits only.
func formatSpaces(f string) int {
	n := 0
	for i := 0; i < len(f); i++ {
		switch {
		case f[i] == ' ':
			n++
		case f[i] == '%' && i+1 < len(f):
			switch f[i+1] {
			case 'c':
				n += 4 // "Thu Dec  4 10:00:00 2026": the day padded
			case 'r':
				n++ // "10:00:00 AM"
			}
			i++
		}
	}
	return n
}

// pastSpaces returns the index past the n-th space from line[i], or i
// when the line holds fewer: the value is then found as any other.
// requestWords is nginxVar.spaces of a request line: not a number of
// spaces but its words (pastRequestWords).
const requestWords = -1

// pastRequestWords returns where the last word of the request line that
// starts at line[i] starts, when a space follows it in the format (no
// quote): "POST /v1/x HTTP/1.1" (nginx's $request, Apache's %r, HAProxy's
// %r without +Q, Hypercorn's "%(h)s %(r)s %(s)s" in its own docs, whose
// version is ASGI's "1.1"). A method, then a path, then a version or
// not: a line nginx could not read ("-", a TLS handshake's bytes) is one
// word.
func pastRequestWords(line []byte, i int) int {
	j := indexByte(line[i:], ' ')
	if j <= 0 || !upperWord(line[i:i+j]) {
		return i
	}
	from := i + j + 1 // the path
	k := indexByte(line[from:], ' ')
	if k <= 0 {
		return from
	}
	v := line[from+k+1:]
	if n := indexByte(v, ' '); n >= 0 {
		v = v[:n]
	}
	if hasPrefix(v, "HTTP/") || asgiVersion(v) {
		return from + k + 1
	}
	return from
}

// upperWord reports whether w is an HTTP method's word: capital letters.
func upperWord(w []byte) bool {
	for _, c := range w {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return len(w) > 0
}

func pastSpaces(line []byte, i, n int) int {
	from := i
	for ; n > 0; n-- {
		j := indexByte(line[from:], ' ')
		if j < 0 {
			return i
		}
		from += j + 1
	}
	return from
}

// strftimeValue returns the time val, written with v's format, as RFC
// 3339 text, which the time's field reads; val itself when the format
// does not read it, which the field then refuses (a bad line).
func (p *nginxParser) strftimeValue(v *nginxVar, val []byte) []byte {
	loc := p.loc
	if loc == nil {
		loc = time.UTC
	}
	t, err := timefmt.ParseInLocation(string(val), v.strftime, loc)
	if err != nil {
		return val
	}
	from := len(p.scratch)
	p.scratch = t.AppendFormat(p.scratch, time.RFC3339Nano)
	return p.scratch[from:len(p.scratch):len(p.scratch)]
}

// apacheSplitTime matches a time Apache's manual writes in pieces: a
// dated %{FORMAT}t, then literal text and %{msec_frac}t or
// %{usec_frac}t, then literal text and a %{FORMAT}t of the zone, one or
// both ("%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t",
// "%{%Y-%m-%dT%H:%M:%S}t.%{msec_frac}t%{%z}t").
var apacheSplitTime = lazyre.New(`%\{((?:begin:|end:)?)([^}%]*(?:%[^}][^}%]*)*)\}t` +
	`(?:([^%{}]*)%\{(?:begin:|end:)?(msec_frac|usec_frac)\}t)?` +
	`(?:([^%{}]*)%\{(?:begin:|end:)?([^}]*)\}t)?`)

// joinApacheTime returns Apache LogFormat s with a time written in
// pieces (apacheSplitTime) as one %{FORMAT}t that reads them all: the
// fraction as %f, the zone as its own directive. Read apart, the pieces
// after the date were dropped, and with them the zone: a time written
// with +0800 was read in --tz.
func joinApacheTime(s string) string {
	return apacheSplitTime().ReplaceAllStringFunc(s, func(m string) string {
		g := apacheSplitTime().FindStringSubmatch(m)
		prefix, date, lit1, frac, lit2, zone := g[1], g[2], g[3], g[4], g[5], g[6]
		if !datedFormat(date) || strings.ContainsAny(lit1+lit2, "%") {
			return m
		}
		zoned := zone != "" && !datedFormat(zone) && (strings.Contains(zone, "%z") || strings.Contains(zone, "%Z")) &&
			!strings.Contains(zone, ":")
		if frac == "" && !zoned {
			return m
		}
		joined := date
		if frac != "" {
			joined += lit1 + "%f"
		} else {
			lit2 = lit1 + lit2
		}
		rest := ""
		if zoned {
			joined += lit2 + zone
		} else if zone != "" {
			// Not a zone: the directive after stays its own.
			rest = lit2 + "%{" + zone + "}t"
		}
		return "%{" + prefix + joined + "}t" + rest
	})
}

// isJavaTime reports whether a %{…}t argument is a Java pattern of
// Jetty's (javaStrftime).
func isJavaTime(arg string) bool {
	_, ok := javaStrftime(arg)
	return ok
}

// javaLetters are the letters of a Java DateTimeFormatter pattern, by
// the runs of each that Jetty's request log formats use, as strftime's.
var javaLetters = map[string]string{
	"yyyy": "%Y", "uuuu": "%Y", "yy": "%y", "MMMM": "%B", "MMM": "%b", "MM": "%m", "dd": "%d",
	"HH": "%H", "hh": "%I", "mm": "%M", "ss": "%S", "a": "%p", "EEE": "%a", "EEEE": "%A",
	"Z": "%z", "ZZ": "%z", "ZZZ": "%z", "X": "%z", "XX": "%z", "XXX": "%z", "xx": "%z", "xxx": "%z",
}

// javaStrftime returns Jetty's %{format|timeZone|locale}t argument
// (CustomRequestLog: a java.time DateTimeFormatter pattern, its default
// "dd/MMM/yyyy:HH:mm:ss ZZZ" in GMT) as a strftime format, and whether
// it is one: a pattern of a date with no '%', whose letters are all
// javaLetters' ("SSS…", a fraction, is %f; 'quoted' text is literal).
// The time zone and locale after '|' only choose how the time is
// written: a pattern with a zone writes it, one without is read in --tz.
func javaStrftime(arg string) (string, bool) {
	pattern, _, _ := strings.Cut(arg, "|")
	if strings.ContainsRune(pattern, '%') || !strings.Contains(pattern, "yy") && !strings.Contains(pattern, "uu") ||
		!strings.Contains(pattern, "dd") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(pattern[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(pattern[i+1 : i+1+j])
			i += j + 2
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(pattern) && pattern[j] == c {
				j++
			}
			run := pattern[i:j]
			if c == 'S' {
				b.WriteString("%f")
			} else if f, ok := javaLetters[run]; ok {
				b.WriteString(f)
			} else {
				return "", false
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), true
}
