package ingest

import (
	"math"
	"strings"
	"testing"
	"time"
)

// setOne reads val into field f (named by its canonical name, so with the
// canonical unit, or in unit when given) of a fresh record.
func setOne(t *testing.T, f Field, unit Unit, val string) (*Record, error) {
	t.Helper()
	var r Record
	err := r.Set(Bindings{{Field: f, Unit: unit, Prio: prioCanonical}}, []byte(val), time.UTC)
	return &r, err
}

func TestHostileRequestTime(t *testing.T) {
	for _, c := range []struct {
		val    string
		unit   Unit
		reason string // "" when the value is read
		want   float64
	}{
		{"1e308", 0, `request_time: cannot read "1e308": longer than 1e7 s`, 0},
		{"1e400", 0, `request_time: cannot read "1e400": not a finite number`, 0},
		{"Infinity", 0, `request_time: cannot read "Infinity": not a finite number`, 0},
		{"-Inf", 0, `request_time: cannot read "-Inf"`, 0},
		{"NaN", 0, `request_time: cannot read "NaN"`, 0},
		{"-1", 0, `request_time: cannot read "-1"`, 0},
		{"10000001", 0, `request_time: cannot read "10000001": longer than 1e7 s`, 0},
		{"1e16", UnitMilli, `request_time: cannot read "1e16": longer than 1e7 s`, 0},
		{"1e307", UnitMilli, `request_time: cannot read "1e307": longer than 1e7 s`, 0},
		{"10000000", 0, "", 1e7},
		{"1e-400", 0, "", 0},
		{"-0", 0, "", 0},
		{"-0.0", 0, "", 0},
		{"-1e-400", 0, "", 0},
		{"1500", UnitMilli, "", 1.5},
	} {
		r, err := setOne(t, FRequestTime, c.unit, c.val)
		if c.reason != "" {
			if err == nil || err.Error() != c.reason {
				t.Errorf("request_time %q: error %v, want %q", c.val, err, c.reason)
			}
			continue
		}
		v, ok := r.Float(FRequestTime)
		if err != nil || !ok || v != c.want || math.Signbit(v) {
			t.Errorf("request_time %q: %v, %v, %v; want %v", c.val, v, ok, err, c.want)
		}
	}
}

// Other numeric fields treat an unreadable value as absent.
func TestHostileOtherNumbersAreAbsent(t *testing.T) {
	for _, c := range []struct {
		f   Field
		val string
	}{
		{FUpstreamResponseTime, "1e308"},
		{FUpstreamResponseTime, "1e308, 1e308"},
		{FUpstreamResponseTime, "9e6, 9e6"},
		{FUpstreamResponseTime, "0.1, -5"},
		{FUpstreamResponseTime, "Infinity"},
		{FTTFT, "1e11"},
		{FTCPInfoRTT, "1e300"},
		{FRetryAfter, "inf"},
		{FStatus, "1e308"},
		{FStatus, "Infinity"},
		{FPromptTokens, "1e300"},
		{FCompletionTokens, "1e16"},
		{FConnectionRequests, "-Infinity"},
		{FUpstreamStatus, "502, 1e300"},
	} {
		r, err := setOne(t, c.f, 0, c.val)
		if err != nil || r.Has(c.f) {
			v, _ := r.Float(c.f)
			t.Errorf("%s %q: present %v (%v), error %v; want absent", c.f, c.val, r.Has(c.f), v, err)
		}
	}
	r, _ := setOne(t, FStatus, 0, "-0")
	if v, ok := r.Float(FStatus); !ok || v != 0 || math.Signbit(v) {
		t.Errorf("status -0: %v, %v; want 0", v, ok)
	}
}

func TestHostileTimes(t *testing.T) {
	for _, c := range []struct {
		val    string
		unit   Unit
		reason string // "" when the value is read
	}{
		{"0001-01-01T00:00:00Z", 0, "outside the years 2000–2100"},
		{"9999-12-31T23:59:59Z", 0, "outside the years 2000–2100"},
		{"1999-12-31T23:59:59Z", 0, "outside the years 2000–2100"},
		{"2101-01-01T00:00:00Z", 0, "outside the years 2000–2100"},
		{"01/Jan/0001:00:00:00 +0000", 0, "outside the years 2000–2100"},
		{"1000000000000000000000000000000", 0, "outside the years 2000–2100"},
		{"99999999999999999999", 0, "outside the years 2000–2100"},
		{"9999999999999999999", 0, "outside the years 2000–2100"},
		{"9223372036854775807", UnitSecond, "outside the years 2000–2100"},
		{"1e30", 0, "outside the years 2000–2100"},
		{"-1e30", 0, "outside the years 2000–2100"},
		{"-5", 0, "outside the years 2000–2100"},
		{"0", 0, "outside the years 2000–2100"},
		{"Infinity", 0, `time: cannot read "Infinity"`},
		{"NaN", 0, `time: cannot read "NaN"`},
		{"2000-01-01T00:00:00Z", 0, ""},
		{"2100-12-31T23:59:59Z", 0, ""},
		{"1.7959176e12", 0, ""},
		{"1795917600036", UnitMilli, ""},
	} {
		r, err := setOne(t, FTime, c.unit, c.val)
		if c.reason == "" {
			if err != nil || !r.Has(FTime) {
				t.Errorf("time %q: %v, want read", c.val, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("time %q: error %v, want %q", c.val, err, c.reason)
		}
	}
}

// A timestamp column's value is checked like a text time, and one whose
// nanoseconds overflow int64 is outside the years too.
func TestHostileInstant(t *testing.T) {
	b := &colBatch{}
	bs := Bindings{{Field: FTime, Prio: prioCanonical}}
	for _, c := range []struct {
		v, per int64
		ok     bool
	}{
		{1795917600, 1e9, true},
		{-62135596800, 1e9, false}, // year 1
		{math.MaxInt64 / 1000, 1e6, false},
		{math.MinInt64 / 10, 1e3, false},
		{253402300799, 1e9, false}, // 9999-12-31
	} {
		var r Record
		err := r.setInstant(bs, c.v, c.per, b, time.UTC, nil)
		if (err == nil) != c.ok {
			t.Errorf("instant %d × %d: error %v, want ok %v", c.v, c.per, err, c.ok)
		}
	}
}
