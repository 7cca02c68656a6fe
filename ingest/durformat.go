package ingest

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A program that logs through zap writes a duration in the encoding its
// configuration chooses, one for the whole log: Caddy's duration_format
// "seconds" (the default: 0.093447549), "nano" (93447549), "milli"
// (93.447549) or "string" (93.447549ms, read by its unit). The names do
// not change with it, so a source's duration of this kind (a sourceField
// of source.durationFormat) is read in the unit the file's first records'
// values tell (durationUnit).

// durationUnit returns the unit that values, the raw JSON texts of one
// duration field in a file's first records, were written in by zap's
// encoders; ok is false when they tell none apart from seconds, the
// default. The clock they measure with counts nanoseconds:
//
//   - nanoseconds are integers; an integer of seconds over 1000 is a
//     request of 17 minutes;
//   - seconds have 7 to 9 decimals, for all but one value in 1000 of
//     them;
//   - milliseconds have at most 6, most of them 4 or more.
//
// A few values tell nothing: a file whose values do not tell is read in
// seconds, as before, which a milliseconds one read wrongly shows by its
// size (p50 of minutes).
func durationUnit(values [][]byte) (u Unit, ok bool) {
	var ints, fracs, fine int
	var nums []float64
	for _, v := range values {
		if len(v) == 0 || v[0] == '"' {
			continue // a text: its unit is in it
		}
		x, err := strconv.ParseFloat(string(v), 64)
		if err != nil || x < 0 {
			continue
		}
		nums = append(nums, x)
		if bytes.ContainsAny(v, "eE") {
			return UnitNone, false // no encoder of zap's writes exponents
		}
		dot := bytes.IndexByte(v, '.')
		if dot < 0 {
			ints++
			continue
		}
		fracs++
		switch d := len(v) - dot - 1; {
		case d > 6:
			return UnitSecond, false
		case d >= 4:
			fine++
		}
	}
	if len(nums) == 0 {
		return UnitNone, false
	}
	slices.Sort(nums)
	median := nums[len(nums)/2]
	switch {
	case fracs == 0 && median >= 1000:
		return UnitNano, true
	case fracs >= minUnitValues && fine*2 >= fracs && median >= 1:
		return UnitMilli, true
	}
	return UnitNone, false
}

// minUnitValues is how many decimal values of a file tell milliseconds:
// a seconds value has 6 decimals or fewer once in 1000.
const minUnitValues = 3

// maxUnitValues bounds the values durationUnit is given: a file's first
// records, as many as are peeked.
const maxUnitValues = 64

// durationValues returns the raw texts of top-level key name in the JSON
// lines of body, at most maxUnitValues of them.
func durationValues(body []byte, name string) [][]byte {
	var vs [][]byte
	for _, p := range jsonPairs(body, name, name) {
		vs = append(vs, p[0])
	}
	return vs
}

// withUnit returns s, of a source, with its field name read in unit u:
// built once per schema and shared.
func (s *Schema) withUnit(name string, u Unit) *Schema {
	src := s.source
	if src == nil {
		return s
	}
	key := fmt.Sprintf("%p\x00unit\x00%s\x00%d", s, name, u)
	return s.cached(key, func(*Schema) *Schema {
		v := *src
		v.fields = slices.Clone(src.fields)
		for i := range v.fields {
			if v.fields[i].name == name {
				v.fields[i].unit = u
			}
		}
		return build(s.maps, &v, s.client)
	})
}

// durationMagnitudes returns, when no name of a JSON-lines file's first
// record gives request_time or none gives the time, the magnitudes of
// the first records' values (maxUnitValues lines of body) of those of
// names that read as a duration's; nil otherwise.
func durationMagnitudes(body []byte, names []string, s *Schema) map[string]Magnitude {
	return magnitudesOf(names, s, func(n string) [][]byte { return durationValues(body, n) })
}

// magnitudesOf is durationMagnitudes of the values values gives a name.
func magnitudesOf(names []string, s *Schema, values func(name string) [][]byte) map[string]Magnitude {
	// What a report could offer to --map: a request_time's unit, or
	// which name is the time (an epoch number's magnitude is a time's).
	var rt, tm bool
	for _, n := range names {
		for _, b := range s.LookupString(n) {
			rt = rt || b.Field == FRequestTime
			tm = tm || b.Field == FTime
		}
	}
	if rt && tm {
		return nil
	}
	var out map[string]Magnitude
	for _, n := range names {
		if !durationWord(n) {
			continue
		}
		var xs []float64
		whole := true
		for _, v := range values(n) {
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
				v = v[1 : len(v)-1] // a number written as a string (CLS's, Akamai's)
			}
			x, err := strconv.ParseFloat(string(v), 64)
			if err != nil || x < 0 || math.IsInf(x, 0) {
				continue
			}
			xs = append(xs, x)
			whole = whole && x == math.Trunc(x)
		}
		if len(xs) == 0 {
			continue
		}
		slices.Sort(xs)
		if out == nil {
			out = map[string]Magnitude{}
		}
		out[n] = Magnitude{N: len(xs), Median: xs[len(xs)/2], Whole: whole}
	}
	return out
}

// A generic name's values may also be in a larger unit than its own:
// nginx's JSON log_format examples write "duration":$request_time, in
// seconds, which SPEC §3's "duration" reads in ms. nginx writes it, and
// $upstream_response_time, with three decimals always ("0.500"), which a
// JSON encoder never does: such values are read in seconds.

// maxPlausibleSeconds is the longest median request a file's durations
// may tell in the unit a generic name is read in: past it, the values
// are in a smaller unit (Go's log/slog and logrus write a time.Duration
// as whole nanoseconds, under whatever name the program gives it).
const maxPlausibleSeconds = 1000

// maxTailSeconds is the longest a file's 90th percentile request may
// last in that unit: a Go service's log whose most lines are health
// checks of µs (a median of 0.7 ms, 680,373 as "ms") has its requests'
// ns in its tail (4.6e9 "ms": 53 days).
const maxTailSeconds = 86400

// implausibleDurations returns, of the names of a file's first record
// (a JSON line's keys, a CSV header's columns), those the schema reads
// as request_time by SPEC §3's canonical name or one of its aliases (not
// a source's name, nor a --map) whose first numbers (values gives their
// texts) are not in the name's unit: in it, their median request lasts
// maxPlausibleSeconds or more ("duration", read in ms, written in ns by
// slog; the canonical name's seconds only when every value is whole,
// integers of ms), and the name is
// left unread rather than read 10⁶ times too long, the report naming the
// --map to give; or they are written as nginx writes $request_time, or
// are fractions of a median under maxSecondsMedian under a name that
// says no unit (a Python logger's seconds), and the name is read in
// seconds (Schema.without).
func implausibleDurations(names []string, s *Schema, values func(name string) [][]byte) []Refused {
	var out []Refused
	for _, n := range names {
		unit, canonical, ok := genericDuration(s.LookupString(n))
		if !ok {
			continue
		}
		var xs []float64
		whole, nginx, zero, fracs := true, true, false, 0
		for _, v := range values(n) {
			v = bytes.TrimSpace(v)
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
				v = v[1 : len(v)-1] // a number in a string (CLS's exports)
			}
			// A text with its unit ("1.5ms") is no number here.
			x, err := strconv.ParseFloat(string(v), 64)
			if err != nil || x < 0 || math.IsInf(x, 0) {
				continue
			}
			xs = append(xs, x)
			whole = whole && x == math.Trunc(x)
			if x != math.Trunc(x) {
				fracs++
			}
			dot := bytes.IndexByte(v, '.')
			nginx = nginx && dot >= 0 && len(v)-dot-1 == 3
			zero = zero || v[len(v)-1] == '0'
		}
		if len(xs) < minUnitValues {
			continue
		}
		slices.Sort(xs)
		r := Refused{Name: n, Unit: unit, Magnitude: Magnitude{N: len(xs), Median: xs[len(xs)/2], Whole: whole},
			Tail: xs[(len(xs)-1)*9/10]}
		switch {
		case nginx && zero && unit != UnitSecond:
			// Three decimals, some ending in 0, which no JSON encoder
			// writes (0.5, not 0.500): a template's text, nginx's
			// $request_time ("duration":$request_time), seconds.
			r.ReadIn = UnitSecond
			out = append(out, r)
		case unit == UnitMilli && unitlessName(n) && 2*fracs > len(xs) && r.Median < maxSecondsMedian:
			// Fractions of a millisecond for most requests: a Python
			// service's seconds, time.perf_counter()'s difference as
			// structlog request loggers write it ("duration": 0.469;
			// kolonialno/troncos troncos/contrib/asgi/logging/middleware.py
			// and django/logging/middleware.py log
			// duration=time.perf_counter() - start_time), read in
			// seconds as ttftInSeconds reads a time to first token;
			// the report says so, and --map request_time=duration:ms
			// reads them in ms.
			r.ReadIn, r.Fractions = UnitSecond, true
			out = append(out, r)
		case (r.Median*seconds[unit] >= maxPlausibleSeconds || r.Tail*seconds[unit] >= maxTailSeconds) && (whole || !canonical):
			// The canonical name's seconds only when every value is
			// whole: integers of ms ("request_time":4370), which no
			// nginx writes ($request_time has three decimals); a log of
			// long sessions (websockets) has its fractions.
			out = append(out, r)
		}
	}
	return out
}

// maxSecondsMedian is the median below which a generic name's fractions
// are seconds (implausibleDurations): a median request of 10 ms is no
// LLM's, and one of 10 s is, as ttftInSeconds tells a first token's.
const maxSecondsMedian = 10

// unitlessName reports whether n, a generic name of request_time read in
// ms, says no unit of its own: SPEC §3's "duration" and
// "request_duration", whose unit is the program's (Envoy's ms, a Python
// logger's seconds), not request_duration_ms's, nor a gateway's own
// llm_service_duration (Higress's ms).
func unitlessName(n string) bool {
	return strings.EqualFold(n, "duration") || strings.EqualFold(n, "request_duration")
}

// refuseImplausible adds to the file's names refused as request_time
// (implausibleDurations, values giving each name's first texts) and sets
// its schema without them, or reading them in their values' unit.
func (fs *fileState) refuseImplausible(names []string, values func(name string) [][]byte) {
	refused := implausibleDurations(names, fs.cfg.schema, values)
	fs.refused = append(fs.refused, refused...)
	fs.instant = instantNames(names, values)
	fs.cfg.schema = unreadDays(fs.cfg.schema.without(refused), names, values)
	fs.cfg.schema, fs.clocks = unreadClocks(fs.cfg.schema, names, values)
	fs.cfg.schema = unitNamedLatency(fs.cfg.schema, names, values)
}

// tableValueChecks is what a table's or a document's first values tell
// of its names, as a JSON-lines file's tell of its keys: a duration alias
// not in its unit left unread (refuseImplausible), the magnitudes a
// report's --map hint is told from, and time_to_first_token in seconds
// (ttftInSeconds). values gives a name's first values.
func (fs *fileState) tableValueChecks(names []string, values func(name string) [][]byte) {
	fs.refuseImplausible(names, values)
	fs.mags = magnitudesOf(names, fs.cfg.schema, values)
	fs.cfg.schema = fs.cfg.schema.ttftInSeconds(names, values)
}

// selfUnitNames are the names a request's whole duration goes by in the
// logs of Go's web frameworks whose templates print it as Go's Duration
// with its unit: Fiber's ${latency} ("%13v", padded: "  71.821973ms";
// gofiber/fiber middleware/logger tags.go), Gin's and Echo's latency.
var selfUnitNames = []string{"latency", "elapsed", "took"}

// unitNamedLatency returns s reading as request_time the first of
// selfUnitNames among names whose first values every one names its unit
// ("71.821973ms", "1.2s", "PT0.5S"), when no name gives request_time: a
// value that says its unit is read by it, where a number would leave the
// unit to be guessed. s itself otherwise.
func unitNamedLatency(s *Schema, names []string, values func(name string) [][]byte) *Schema {
	var named string
	for _, n := range names {
		for _, b := range s.LookupString(n) {
			if b.Field == FRequestTime {
				return s
			}
		}
		if named == "" && slices.ContainsFunc(selfUnitNames, func(u string) bool { return strings.EqualFold(u, n) }) {
			named = n
		}
	}
	if named == "" {
		return s
	}
	vs := values(named)
	for _, v := range vs {
		v = bytes.TrimSpace(unquote(bytes.TrimSpace(v)))
		if _, fl := unitDuration(v); fl != fine || !endsInUnit(v) && !isISODuration(v) {
			return s
		}
	}
	if len(vs) == 0 {
		return s
	}
	return s.withMapped(mapping{field: FRequestTime, name: strings.ToLower(named), unit: UnitSecond})
}

// unreadClocks returns s without the times that generic names give
// whose first values are every one a time of day alone, and those
// names: Fiber's logger writes its ${time} as "15:04:05" by default
// (gofiber/fiber middleware/logger config.go, ConfigDefault.TimeFormat;
// its FormatJSON "time":"${time}", format.go). No day is known, so the
// records are read without a time, as those of a format that writes
// none (morgan's short), not made bad lines one and all; the report says
// their time is unknown (FileStats.Clocks). A name --map gives is read
// as given.
func unreadClocks(s *Schema, names []string, values func(name string) [][]byte) (*Schema, []string) {
	var clocks []string
	for _, n := range names {
		generic := false
		for _, b := range s.LookupString(n) {
			generic = generic || b.Field == FTime && b.generic()
		}
		if !generic {
			continue // its values not looked at: each name's are parsed from the head
		}
		vs := values(n)
		if len(vs) == 0 {
			continue
		}
		all := true
		for _, v := range vs {
			all = all && clockOnly(unquote(bytes.TrimSpace(v)))
		}
		if all {
			s = s.withMapped(mapping{field: FTime, name: strings.ToLower(n), generic: genericDrop})
			clocks = append(clocks, n)
		}
	}
	return s, clocks
}

// clockOnly reports whether v is a time of day and nothing more:
// HH:MM:SS, a fraction of the second after it ("10:00:06.639").
func clockOnly(v []byte) bool {
	if len(v) < 8 || v[2] != ':' || v[5] != ':' {
		return false
	}
	for i, c := range v {
		switch {
		case i == 2 || i == 5:
		case i == 8 && (c == '.' || c == ','):
			if len(v) == 9 {
				return false
			}
		case c < '0' || c > '9':
			return false
		}
	}
	return true
}

// instantNames returns those of names that read as a duration's
// (durationWord) whose first values, values giving their texts, are
// every one a date and time written as text, not a number: Python
// logging's asctime, "%Y-%m-%d %H:%M:%S,mmm" by default
// (Lib/logging/__init__.py, Formatter.default_time_format and
// default_msec_format), which python-json-logger writes as a record's
// "asctime". A number's size tells an epoch apart (FileStats.Magnitudes).
func instantNames(names []string, values func(name string) [][]byte) []string {
	var out []string
	for _, n := range names {
		if !durationWord(n) {
			continue
		}
		vs := values(n)
		instants := len(vs) > 0
		for _, v := range vs {
			v = unquote(bytes.TrimSpace(v))
			if _, ok := parseTime(v, UnitNone, time.UTC); !ok || isNumber(v) {
				instants = false
				break
			}
		}
		if instants {
			out = append(out, n)
		}
	}
	return out
}

// unreadDays returns s without the time that "date", the last of SPEC
// §3's names for it (Fluent Bit's json_date_key), gives, when none of
// the first values is a time: a table's column of the day alone
// ("2026-12-05"), which would make every record bad. s itself otherwise.
func unreadDays(s *Schema, names []string, values func(name string) [][]byte) *Schema {
	for _, n := range names {
		if !strings.EqualFold(n, "date") {
			continue
		}
		generic := false
		for _, b := range s.LookupString(n) {
			generic = generic || b.Field == FTime && b.generic()
		}
		vs := values(n)
		if !generic || len(vs) == 0 {
			return s
		}
		for _, v := range vs {
			if _, ok := parseTime(unquote(bytes.TrimSpace(v)), UnitNone, time.UTC); ok {
				return s
			}
		}
		return s.withMapped(mapping{field: FTime, name: strings.ToLower(n), generic: genericDrop})
	}
	return s
}

// genericDuration returns the unit a name's request_time binding reads
// it in, when that binding is one of SPEC §3's aliases.
func genericDuration(bs Bindings) (u Unit, canonical, ok bool) {
	for _, b := range bs {
		if b.Field == FRequestTime && b.generic() {
			if b.Unit == UnitNone {
				return UnitSecond, b.Prio == prioCanonical, true
			}
			return b.Unit, b.Prio == prioCanonical, true
		}
	}
	return UnitNone, false, false
}

// logfmtValues returns the values of key name in the logfmt lines of
// body (maxUnitValues of its first lines at most), unquoted ones as
// written: what a duration's magnitude is told from.
func logfmtValues(body []byte, name string) [][]byte {
	var out [][]byte
	key := []byte(name + "=")
	for _, l := range headLines(body, maxUnitValues) {
		for i := 0; i+len(key) <= len(l); {
			j := bytes.Index(l[i:], key)
			if j < 0 {
				break
			}
			at := i + j
			if at > 0 && l[at-1] != ' ' {
				i = at + 1
				continue
			}
			v := l[at+len(key):]
			if k := bytes.IndexByte(v, ' '); k >= 0 {
				v = v[:k]
			}
			if len(v) > 0 && v[0] != '"' {
				out = append(out, v)
			}
			break
		}
	}
	return out
}

// durationWord reports whether a field's name reads as a duration's.
func durationWord(name string) bool { return DurationWord(name) }

// DurationWord reports whether a field's name reads as a duration's: it
// holds time, duration, latency, elapsed or took, or the word rt
// (response time, as Alibaba's and Dubbo's logs and Sentinel name it:
// rt, rt_ms, upstreamRt; not the rtt of a connection's round trip).
func DurationWord(name string) bool {
	l := strings.ToLower(name)
	for _, w := range []string{"time", "duration", "latency", "elapsed", "took"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return hasWord(name, "rt")
}

// hasWord reports whether name holds w (lower case) as a word of its
// own: between the ends, any byte but a letter or a digit, and the
// turns from lower to upper case (upstreamRt).
func hasWord(name, w string) bool {
	start := 0
	for i := 0; i <= len(name); i++ {
		end := i == len(name)
		if !end {
			c := name[i]
			alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
			upTurn := i > 0 && 'A' <= c && c <= 'Z' && 'a' <= name[i-1] && name[i-1] <= 'z'
			if alnum && !upTurn {
				continue
			}
		}
		if strings.EqualFold(name[start:i], w) {
			return true
		}
		if end {
			break
		}
		start = i
		if !('a' <= name[i] && name[i] <= 'z' || 'A' <= name[i] && name[i] <= 'Z' || '0' <= name[i] && name[i] <= '9') {
			start = i + 1
		}
	}
	return false
}

// ttftSecondsName is the generic name of the time to first token that
// programs write in either unit: milliseconds (Helicone, which its source
// reads so) or seconds (Langfuse's and Braintrust's exports, OpenTelemetry's
// gen_ai.server.time_to_first_token). The generic table reads it in ms,
// the canonical first_token_ms's unit.
const ttftSecondsName = "time_to_first_token"

// ttftInSeconds returns s, or s reading ttftSecondsName in seconds when
// a file's first records say their values are seconds: at least
// minUnitValues of them, their median below 10 — a first token within
// 10 ms of the request is not an LLM's; one within 10 s is. values gives
// the raw texts of a name's first values (a JSON-lines file's, or a CSV
// or TSV file's column). Only when the name, among names, feeds ttft by
// the generic table (a source or --map saying otherwise is kept).
func (s *Schema) ttftInSeconds(names []string, values func(name string) [][]byte) *Schema {
	name := ""
	for _, n := range names {
		if strings.EqualFold(n, ttftSecondsName) {
			name = n
		}
	}
	if name == "" {
		return s
	}
	bs := s.LookupString(name)
	if len(bs) != 1 || bs[0].Field != FTTFT || bs[0].Prio < prioAlias || bs[0].Unit != UnitNone {
		return s
	}
	var xs []float64
	for _, v := range values(name) {
		if x, err := strconv.ParseFloat(string(bytes.TrimSpace(v)), 64); err == nil && x >= 0 && !math.IsInf(x, 0) {
			xs = append(xs, x)
		}
	}
	if len(xs) < minUnitValues {
		return s
	}
	slices.Sort(xs)
	if xs[len(xs)/2] >= 10 {
		return s
	}
	return s.withMapped(mapping{field: FTTFT, name: strings.ToLower(name), unit: UnitSecond})
}

// columnValues returns the cells of column name in the rows of b, a CSV
// or TSV file's first rows past its header (of names, cut by sep, fields
// quoted with quote), at most maxUnitValues of them: ttftInSeconds's
// values.
func columnValues(b []byte, names []string, sep, quote byte, name string) [][]byte {
	var vs [][]byte
	for _, p := range columnPairs(b, names, sep, quote, name, name) {
		vs = append(vs, p[0])
	}
	return vs
}

// columnPairs returns the cells of columns a and c in each of the rows
// of b (as columnValues reads them) that has both, at most maxUnitValues.
func columnPairs(b []byte, names []string, sep, quote byte, a, c string) [][2][]byte {
	ia, ic := slices.Index(names, a), slices.Index(names, c)
	if ia < 0 || ic < 0 {
		return nil
	}
	var ps [][2][]byte
	p := &csvParser{sep: sep, quote: quote}
	for len(ps) < maxUnitValues {
		row, rest := firstRow(b, quote)
		if row == nil {
			break
		}
		b = rest
		if cells, err := p.split(row); err == nil && max(ia, ic) < len(cells) && len(cells[ia]) > 0 && len(cells[ic]) > 0 {
			ps = append(ps, [2][]byte{bytes.Clone(cells[ia]), bytes.Clone(cells[ic])})
		}
	}
	return ps
}

// jsonPairs returns the raw texts of top-level keys a and c in each of
// the JSON lines of body that has both, at most maxUnitValues.
func jsonPairs(body []byte, a, c string) [][2][]byte {
	var ps [][2][]byte
	for len(body) > 0 && len(ps) < maxUnitValues {
		i := bytes.IndexByte(body, '\n')
		if i < 0 {
			break // none, or a line the peek cut
		}
		va, vc := jsonValue(body[:i], a), []byte(nil)
		if vc = va; c != a {
			vc = jsonValue(body[:i], c)
		}
		if va != nil && vc != nil {
			ps = append(ps, [2][]byte{va, vc})
		}
		body = body[i+1:]
	}
	return ps
}

// withMapped returns s with one mapping more, as --map gives one: built
// once per schema and shared. The key names s itself (a source's schema
// may have been derived with a unit of its own, withUnit).
func (s *Schema) withMapped(m mapping) *Schema {
	key := fmt.Sprintf("%p\x00map\x00%s\x00%d\x00%d\x00%d", s, m.name, m.field, m.unit, m.generic)
	return s.cached(key, func(*Schema) *Schema {
		return build(append(slices.Clone(s.maps), m), s.source, s.client)
	})
}
