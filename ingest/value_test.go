package ingest

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseNumber(t *testing.T) {
	for _, s := range []string{"0", "12", "4.683", "-0.25", "0.000", "1e3", "123456789012345678901", "1.", ".5", "+3"} {
		want, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseNumber([]byte(s))
		if !ok || got != want {
			t.Errorf("parseNumber(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "abc", "NaN", "nan", "1.2.3", "-", ".", "+", "12a", "0x10"} {
		if v, ok := parseNumber([]byte(s)); ok {
			t.Errorf("parseNumber(%q) = %v, want failure", s, v)
		}
	}
}

func TestSumList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.100", 0.1, true},
		{"0.100, 0.004", 0.104, true},
		{"0.100, -", 0.1, true},
		{"0.100, 0.004 : 0.200", 0.304, true},
		{"-, -", 0, false},
		{"x, 1", 0, false},
	} {
		got, ok := sumList([]byte(c.in))
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("sumList(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if v, ok := lastListNumber([]byte("502, 200")); !ok || v != 200 {
		t.Errorf("lastListNumber = %v, %v", v, ok)
	}
}

func TestParseTime(t *testing.T) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 11, 29, 10, 0, 0, 36e6, shanghai).UnixNano()
	for _, c := range []struct {
		in   string
		unit Unit
		loc  *time.Location
		want int64
	}{
		{"2026-11-29T10:00:00.036+08:00", 0, time.UTC, want},
		{"2026-11-29T02:00:00.036Z", 0, time.UTC, want},
		{"2026-11-29T10:00:00.036+0800", 0, time.UTC, want},
		{"2026-11-29 10:00:00.036", 0, shanghai, want},
		{"2026-11-29 02:00:00.036", 0, time.UTC, want},
		{"1795917600036", UnitMilli, nil, want},
		{"1795917600036", 0, nil, want},
		{"1795917600.036", UnitSecond, nil, want},
		{"1795917600.036", 0, nil, want},
		{"29/Nov/2026:10:00:00 +0800", 0, time.UTC, want - 36e6},
		{"29/Nov/2026:02:00:00 +0000", 0, time.UTC, want - 36e6},
		{"2026-11-29T01:00:00.036-01:00", 0, time.UTC, want},
		// Envoy's documented %START_TIME(%Y/%m/%dT%H:%M:%S%z)%.
		{"2026/11/29T10:00:00+0800", 0, time.UTC, want - 36e6},
		{"2026/11/29T02:00:00.036+0000", 0, time.UTC, want},
		// Kibana's CSV export: its dateFormat, without a zone.
		{"Nov 29, 2026 @ 10:00:00.036", 0, shanghai, want},
		{"Nov 29, 2026 @ 02:00:00.036", 0, time.UTC, want},
		{"Dec 5, 2026 @ 10:00:00", 0, time.UTC, time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC).UnixNano()},
		// BigQuery's text of a TIMESTAMP: UTC, whatever --tz says.
		{"2026-11-29 02:00:00.036 UTC", 0, shanghai, want},
		{"2026-11-29 02:00:00.036000 UTC", 0, time.UTC, want},
		{"2026-11-29T02:00:00.036 GMT", 0, shanghai, want},
		// asctime, ISO 8601's basic format and its minutes, a dotted day
		// first.
		{"Sun Nov 29 10:00:00 2026", 0, shanghai, want - 36e6},
		{"Sun Nov 29 02:00:00 2026", 0, time.UTC, want - 36e6},
		{"20261129T020000.036Z", 0, shanghai, want},
		{"20261129T100000.036+0800", 0, time.UTC, want},
		{"20261129T100000.036", 0, shanghai, want},
		{"2026-11-29T02:00Z", 0, shanghai, want - 36e6},
		{"2026-11-29T10:00", 0, shanghai, want - 36e6},
		{"29.11.2026 10:00:00.036", 0, shanghai, want},
		{"29.11.2026 10:00", 0, shanghai, want - 36e6},
		{"29.11.2026 02:00", 0, time.UTC, want - 36e6},
		// CLF's time with its brackets, as Apache's %t writes it into a
		// JSON LogFormat and Tomcat's JsonAccessLogValve into "time".
		{"[29/Nov/2026:10:00:00 +0800]", 0, time.UTC, want - 36e6},
		// JavaScript's toLocaleString() in the USA's English, the month
		// first (Azure's portal's CSV).
		{"11/29/2026, 10:00:00.036 AM", 0, shanghai, want},
		{"11/29/2026, 2:00:00.036 AM", 0, time.UTC, want},
		{"12/4/2026, 9:00:12 PM", 0, time.UTC, time.Date(2026, 12, 4, 21, 0, 12, 0, time.UTC).UnixNano()},
		// BigQuery's API and bq --format=json: a TIMESTAMP's float
		// seconds, read by their digits (a float64 is ….456999936 s).
		{"1.796349601457E9", 0, nil, time.Date(2026, 12, 4, 2, 0, 1, 457e6, time.UTC).UnixNano()},
		{"1.795917600036E9", 0, shanghai, want},
		{"1.795917600036e+9", UnitSecond, nil, want},
		{"1795917600036E-3", 0, nil, want},
		{"1.795917600036E12", 0, nil, want},
		{"1.7959176E9", 0, nil, want - 36e6},
		{"1.7959176000359999E9", 0, nil, want - 100},
		{"17959176000.36e-1", 0, nil, want},
		// Gin's date, which one-hub's zap encoder writes too: no zone.
		{"2026/11/29 - 10:00:00", 0, shanghai, want - 36e6},
		{"2026/11/29 - 02:00:00", 0, time.UTC, want - 36e6},
		{"2026/11/29 - 10:00:00.036", 0, shanghai, want},
	} {
		got, ok := parseTime([]byte(c.in), c.unit, c.loc)
		if !ok || got != c.want {
			t.Errorf("parseTime(%q) = %v, %v; want %v", c.in, time.Unix(0, got).UTC(), ok, time.Unix(0, c.want).UTC())
		}
	}
	// A zone by a name other than UTC or GMT (CST is China's, or the
	// USA's Central) is not guessed.
	for _, s := range []string{"not-a-time", "2026-13-29T10:00:00Z", "29/Foo/2026:10:00:00 +0800", "2026-11-29T10:00:00+25:00", "1.2.3", "abc",
		"2026-11-29 10:00:00 CST", "2026-11-29 10:00:00 UTCX", "29.13.2026 10:00:00", "20261329T100000Z",
		"[]", "[[29/Nov/2026:10:00:00 +0800]]", "[29/Nov/2026:10:00:00 +0800", "[abc]",
		"[2026-11-29T02:00:00.036Z]", "2026/11/29 - 24:00:00", "2026/11/29 - 10:00:00 CST", "2026/11/29 - 10-00-00", "2026/11/29 -  10:00:00",
		// The day first (Britain's, Australia's, India's English write
		// am/pm, or a 24-hour clock): not read as the month first.
		"29/11/2026, 10:00:00 am", "4/12/2026, 9:00:12 am", "4/12/2026, 09:00:12", "13/4/2026, 9:00:12 AM"} {
		if v, ok := parseTime([]byte(s), 0, time.UTC); ok {
			t.Errorf("parseTime(%q) = %v, want failure", s, v)
		}
	}
}

func TestDaysFromCivil(t *testing.T) {
	for _, d := range []time.Time{
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2100, 3, 1, 0, 0, 0, 0, time.UTC),
	} {
		if got := daysFromCivil(d.Year(), int(d.Month()), d.Day()); got != d.Unix()/86400 {
			t.Errorf("daysFromCivil(%v) = %d, want %d", d, got, d.Unix()/86400)
		}
	}
}

func TestRecordSet(t *testing.T) {
	s, err := NewSchema([]string{"ttft=first_byte:s", "client=secret_id"})
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	set := func(name, val string) error {
		return r.Set(s.LookupString(name), []byte(val), time.UTC)
	}
	for _, kv := range [][2]string{
		{"duration", "1500"},          // ms → 1.5 s
		{"first_byte", "0.25"},        // s → 250 ms
		{"secret_id", "AKID1"},        // mapped client
		{"remote_addr", "10.0.0.1"},   // remote_addr, not client: client is set
		{"response_type", "stream"},   // stream
		{"ups_rsp_t", "0.100, 0.004"}, // list
		{"upstream_status", "502, 200"},
		{"retry_after", "-"}, // absent
		{"tcp_rtt", "1481"},
	} {
		if err := set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set(%s=%s): %v", kv[0], kv[1], err)
		}
	}
	r.Finish()
	if v, _ := r.Float(FRequestTime); v != 1.5 {
		t.Errorf("request_time = %v, want 1.5", v)
	}
	if v, _ := r.Float(FTTFT); v != 250 {
		t.Errorf("ttft = %v, want 250", v)
	}
	if got := string(r.Text(FClient)); got != "AKID1" {
		t.Errorf("client = %q", got)
	}
	if b, ok := r.Bool(FStream); !ok || !b {
		t.Errorf("stream = %v, %v", b, ok)
	}
	if v, _ := r.Float(FUpstreamResponseTime); math.Abs(v-0.104) > 1e-12 {
		t.Errorf("upstream = %v", v)
	}
	if v, _ := r.Int(FUpstreamStatus); v != 200 {
		t.Errorf("upstream_status = %v", v)
	}
	if r.Has(FRetryAfter) {
		t.Error("retry_after should be absent")
	}
	if v, _ := r.Float(FTCPInfoRTT); v != 1481 {
		t.Errorf("tcpinfo_rtt = %v", v)
	}
	// A canonical name beats an alias whatever the order.
	r.Reset()
	_ = set("request_time", "2.000")
	_ = set("req_t", "9.000")
	if v, _ := r.Float(FRequestTime); v != 2 {
		t.Errorf("request_time = %v, want the canonical 2", v)
	}
	// Unreadable request_time is a bad line; unreadable status is absent.
	r.Reset()
	if err := set("request_time", "abc"); err == nil {
		t.Error("request_time abc: want an error")
	}
	if err := set("request_time", "-1"); err == nil {
		t.Error("request_time -1: want an error")
	}
	if err := set("status", "abc"); err != nil || r.Has(FStatus) {
		t.Errorf("status abc: err %v, present %v", err, r.Has(FStatus))
	}
}

func TestNewSchemaErrors(t *testing.T) {
	for _, m := range []string{"nonsense", "foo=bar", "ttft=x:h", "model=x:ms", "=x"} {
		if _, err := NewSchema([]string{m}); err == nil {
			t.Errorf("NewSchema(%q): want an error", m)
		}
	}
}

// FuzzScanNumber checks scanNumber against parseNumber: whatever it
// reads as a plain decimal, parseNumber reads alike, to the bit.
func FuzzScanNumber(f *testing.F) {
	for _, s := range []string{"0", "12", "4.683", "-0.25", "-0", "+3", "0.000,", "1e3", "1.5.", "123456789012345678901", "0.12345678901234567890123", "1.", ".5", "-", "7}", "00012"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end, v, ok := scanNumber(b, 0)
		if !ok {
			return
		}
		want, wok := parseNumber(b[:end])
		if !wok || math.Float64bits(want) != math.Float64bits(v) {
			t.Fatalf("%q: scanNumber %v (to %d), parseNumber %v, %v", b, v, end, want, wok)
		}
	})
}

// FuzzSetDecimal checks setDecimal against Set: for a value scanNumber
// reads whole, into a field of every kind, with and without a unit, and
// with a better source already holding the field, both leave the same
// record and the same error.
func FuzzSetDecimal(f *testing.F) {
	for _, s := range []string{"0", "12", "4.683", "-0.25", "-0", "+3", "1e3", "123456789012345678", "0.000001", "99999999999", "5."} {
		f.Add([]byte(s), uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, val []byte, unit uint8, held bool) {
		end, v, ok := scanNumber(val, 0)
		if !ok || end != len(val) {
			return
		}
		for fl := range Field(NumFields) {
			bind := Bindings{{Field: fl, Unit: Unit(unit % uint8(UnitNano+1)), Prio: 1}}
			var a, b Record
			if held {
				a.put(fl, 0, 7)
				b.put(fl, 0, 7)
			}
			errA := a.Set(bind, val, time.UTC)
			errB := b.setDecimal(bind, val, v, time.UTC)
			if fmt.Sprint(errA) != fmt.Sprint(errB) {
				t.Fatalf("%s %q: Set says %v, setDecimal %v", fl, val, errA, errB)
			}
			if a.set != b.set || a.num != b.num || a.prio != b.prio || a.TimeNS != b.TimeNS || a.endNS != b.endNS || a.firstNS != b.firstNS || fmt.Sprint(a.text) != fmt.Sprint(b.text) {
				t.Fatalf("%s %q: Set leaves %+v, setDecimal %+v", fl, val, a, b)
			}
		}
	})
}

// TestScanNumberEachLength reads numbers of every length of whole and
// fractional digits (past the 18 scanNumber reads), with each sign, at
// three offsets in the line, before each kind of byte and with up to
// nine bytes after. The end is where a byte-wise scan of sign, digits,
// point and digits stops; the value, strconv's.
func TestScanNumberEachLength(t *testing.T) {
	digits := "9081726354"
	ends := []string{"", ",", "}", " ", "/", ":", "\xfa\xff", "e5", ".", "-", "a"}
	for whole := 0; whole <= 20; whole++ {
		for frac := -1; frac <= 20; frac++ {
			num := ""
			for k := range whole {
				num += string(digits[(k*7+whole)%10])
			}
			if frac >= 0 {
				num += "."
				for k := range frac {
					num += string(digits[(k*3+frac)%10])
				}
			}
			for _, sign := range []string{"", "-", "+"} {
				for _, end := range ends {
					for pad := range 10 {
						for at := range 3 {
							line := []byte(strings.Repeat("x", at) + sign + num + end + "0123456789"[:pad])
							checkScanNumber(t, line, at)
						}
					}
				}
			}
		}
	}
}

func checkScanNumber(t *testing.T, line []byte, at int) {
	t.Helper()
	end, v, ok := scanNumber(line, at)
	// The end: past a sign, digits, and a point and digits after it.
	wantEnd := at
	if wantEnd < len(line) && (line[wantEnd] == '-' || line[wantEnd] == '+') {
		wantEnd++
	}
	for wantEnd < len(line) && line[wantEnd] >= '0' && line[wantEnd] <= '9' {
		wantEnd++
	}
	if wantEnd < len(line) && line[wantEnd] == '.' {
		wantEnd++
		for wantEnd < len(line) && line[wantEnd] >= '0' && line[wantEnd] <= '9' {
			wantEnd++
		}
	}
	if end != wantEnd {
		t.Fatalf("scanNumber(%q, %d): end %d, want %d", line, at, end, wantEnd)
	}
	body := strings.TrimLeft(string(line[at:end]), "+-")
	ds := strings.Replace(body, ".", "", 1)
	mant, err := strconv.ParseUint(ds, 10, 64)
	wantOK := len(ds) > 0 && len(ds) <= 18 && err == nil && mant <= 1<<53
	if ok != wantOK {
		t.Fatalf("scanNumber(%q, %d): ok %v, want %v", line, at, ok, wantOK)
	}
	if !ok {
		return
	}
	// strconv refuses a point with no digit after it, which ends the
	// number as well.
	want, err := strconv.ParseFloat(strings.TrimSuffix(string(line[at:end]), "."), 64)
	if err != nil {
		t.Fatalf("%q: %v", line[at:end], err)
	}
	if math.Float64bits(v) != math.Float64bits(want) {
		t.Fatalf("scanNumber(%q, %d) = %v, want %v", line, at, v, want)
	}
}

// TestDurationWithUnit: a duration that names its unit is read in it,
// whatever unit its binding says, as time.ParseDuration reads it; a
// negative or unreadable one is a bad request_time, as a number is.
func TestDurationWithUnit(t *testing.T) {
	ms := Bindings{{Field: FRequestTime, Unit: UnitMilli}}
	for _, c := range []struct {
		val  string
		want float64 // s; NaN: a bad line
	}{
		{"6.210452s", 6.210452}, {"250ms", 0.25}, {"1m2.5s", 62.5}, {"80µs", 80e-6}, {"80us", 80e-6},
		{"1500000ns", 0.0015}, {"0s", 0}, {"2h", 7200},
		// tower-http's latency, a space before its unit.
		{"778 ms", 0.778}, {"4175731 μs", 4.175731}, {"4175731 µs", 4.175731}, {"1.5 s", 1.5}, {"12 ns", 12e-9},
		{"1  ms", math.NaN()}, {"1 m s", math.NaN()}, {"ms 1", math.NaN()}, {" ms", math.NaN()},
		{"-5s", math.NaN()}, {"1e3s", math.NaN()}, {"5sec", math.NaN()}, {"s", math.NaN()}, {"6.2.1s", math.NaN()},
	} {
		var r Record
		err := r.Set(ms, []byte(c.val), time.UTC)
		got, ok := r.Float(FRequestTime)
		switch {
		case math.IsNaN(c.want):
			if err == nil || ok {
				t.Errorf("%q: %v, %v, err %v; want a bad line", c.val, got, ok, err)
			}
		case err != nil || !ok:
			t.Errorf("%q: err %v", c.val, err)
		default:
			want, _ := time.ParseDuration(strings.Replace(c.val, " ", "", 1)) // the oracle: the same library, not this package's numbers
			if got != want.Seconds() || math.Abs(got-c.want) > 1e-12 {
				t.Errorf("%q = %v s, want %v", c.val, got, c.want)
			}
		}
	}
	// A number without a unit keeps its binding's: ms here.
	var r Record
	if err := r.Set(ms, []byte("250"), time.UTC); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Float(FRequestTime); got != 0.25 {
		t.Errorf("250 ms = %v s", got)
	}
}

// FuzzOneUnitDuration: the allocation-free reading of a one-unit
// duration gives what time.ParseDuration gives, to the nanosecond, for
// every string it reads; and a duration in ISO 8601's form
// (unitDuration, isoDuration) is read as isoOracle reads it.
func FuzzOneUnitDuration(f *testing.F) {
	for _, s := range []string{"6.210452s", "980.5µs", "980.5μs", "1m", ".5h", "5.s", "0s", "9223372036854775807ns",
		"999999999999999999h", "0.000000000000000001s", "123456789012345678.123456789012345678ms", "1e3s", ".",
		"PT0.162S", "PT1M2.5S", "PT1H", "P1DT2H", "-PT0.5S", "PT-0.5S", "P0D", "pt0,25s", "P1W", "P1Y", "P1M", "PT1M",
		"-PT-6H+3M", "P1.5DT2H", "PT", "P1DT", "PT1.S", "P.5D", "PT99999999999999999999999999999999999S",
		"778 ms", "4175731 μs", "0.5 s", "1 m s", "5. h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if sp := unitSpace([]byte(s)); sp > 0 {
			// A space before the unit (tower-http's "778 ms") reads
			// as the same duration without it.
			got, fl := unitDuration([]byte(s))
			want, wfl := unitDuration([]byte(s[:sp] + s[sp+1:]))
			if fl != wfl || got != want {
				t.Fatalf("%q: %v (%v), want %v (%v)", s, got, fl, want, wfl)
			}
		}
		if len(s) <= 40 && isISODuration([]byte(s)) {
			got, fl := unitDuration([]byte(s))
			want, wfl := isoOracle(s)
			if fl != wfl || fl == fine && math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Fatalf("%q: %v (%v), want %v (%v)", s, got, fl, want, wfl)
			}
		}
		got, ok := oneUnitDuration([]byte(s))
		if !ok {
			return
		}
		want, err := time.ParseDuration(s)
		if err != nil || got != want {
			t.Fatalf("%q: %v, want %v (%v)", s, got, want, err)
		}
	})
}

// isoDurationRe is ISO 8601's duration, as java.time.Duration.parse
// reads it (letters in either case, a comma for the point, a sign on the
// whole and on each part) with its years, months and weeks.
var isoDurationRe = regexp.MustCompile(`^([-+]?)[Pp]` +
	`(?:(` + isoNum + `)[Yy])?(?:(` + isoNum + `)[Mm])?(?:(` + isoNum + `)[Ww])?(?:(` + isoNum + `)[Dd])?` +
	`(?:([Tt])(?:(` + isoNum + `)[Hh])?(?:(` + isoNum + `)[Mm])?(?:(` + isoNum + `)[Ss])?)?$`)

const isoNum = `[-+]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)`

// isoOracle reads an ISO 8601 duration in seconds by isoDurationRe and
// strconv: unreadable when it is none (no part, a T of no part, a
// fraction before the last part), unfixedSpan for a year or a month.
func isoOracle(s string) (float64, flaw) {
	m := isoDurationRe.FindStringSubmatch(s)
	if m == nil {
		return 0, unreadable
	}
	parts := []struct {
		text string
		secs float64
	}{{m[2], 0}, {m[3], 0}, {m[4], 7 * 86400}, {m[5], 86400}, {m[7], 3600}, {m[8], 60}, {m[9], 1}}
	var n, last int
	for i, p := range parts {
		if p.text != "" {
			n, last = n+1, i
		}
	}
	if n == 0 || m[6] != "" && m[7]+m[8]+m[9] == "" {
		return 0, unreadable
	}
	calendar := false
	total := 0.0
	for i, p := range parts {
		if p.text == "" {
			continue
		}
		if i != last && strings.ContainsAny(p.text, ".,") {
			return 0, unreadable
		}
		if p.secs == 0 {
			calendar = true
			continue
		}
		x, err := strconv.ParseFloat(strings.Replace(p.text, ",", ".", 1), 64)
		if err != nil {
			return 0, unreadable
		}
		total += x * p.secs
	}
	if calendar {
		return 0, unfixedSpan
	}
	if m[1] == "-" {
		total = -total
	}
	return total, fine
}

// FuzzExactDecimal: a number exactDecimal rewrites is the number it was
// (as strconv reads both), written as digits and at most one point, and
// parseFloatEpoch reads anything without a panic.
func FuzzExactDecimal(f *testing.F) {
	for _, s := range []string{"1.796349601457E9", "1795917600036E-3", "1.5e+12", "17959176000.36e-1", "1E999", "1.e1", ".5e3", "1e-1", "1.2.3e4", "-1.5e9", "1e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parseFloatEpoch([]byte(s), UnitNone)
		var buf [40]byte
		d, ok := exactDecimal(&buf, []byte(s))
		if !ok {
			return
		}
		if strings.Count(string(d), ".") > 1 || strings.Trim(string(d), "0123456789.") != "" || d[0] == '.' {
			t.Fatalf("%q written %q", s, d)
		}
		want, err1 := strconv.ParseFloat(s, 64)
		got, err2 := strconv.ParseFloat(string(d), 64)
		if err1 != nil || err2 != nil || got != want {
			t.Fatalf("%q (%v, %v) written %q (%v, %v)", s, want, err1, d, got, err2)
		}
	})
}
