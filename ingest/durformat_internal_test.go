package ingest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDurationUnit tells each encoding of zap's durations from a file's
// values, and leaves the seconds' default where the values do not tell.
func TestDurationUnit(t *testing.T) {
	cases := []struct {
		values string
		unit   Unit
		ok     bool
	}{
		{"0.093447549 1.234567891 0.0004129", UnitSecond, false},        // seconds, 7 to 9 decimals
		{"93447549 1234567891 412900", UnitNano, true},                  // nanoseconds
		{"93.447549 1234.567891 0.4129", UnitMilli, true},               // milliseconds, ≤ 6 decimals
		{`"93.447549ms" "1.234567891s"`, UnitNone, false},               // texts carry their unit
		{"93.447549 1234.567891", UnitNone, false},                      // too few to tell
		{"93.447549 1234.567891 0.093447549", UnitSecond, false},        // one of 9 decimals: seconds
		{"0.5 0.25 0.125 0.75", UnitNone, false},                        // short decimals: seconds rounded
		{"0.093447 0.123456 0.654321", UnitNone, false},                 // median under 1 ms: seconds to the µs
		{"0 1 2 3", UnitNone, false},                                    // whole seconds
		{"1.5e3 2.5e3 3.5e3", UnitNone, false},                          // no zap encoder writes exponents
		{"", UnitNone, false},                                           // none
		{"null true -5", UnitNone, false},                               // nothing of a duration
		{"120.5 98.123456 77.000001 1500.25 300.1234", UnitMilli, true}, // mixed, most fine
	}
	for _, c := range cases {
		var vs [][]byte
		for _, f := range strings.Fields(c.values) {
			vs = append(vs, []byte(f))
		}
		u, ok := durationUnit(vs)
		if ok != c.ok || ok && u != c.unit {
			t.Errorf("%q: unit %v, %v; want %v, %v", c.values, u, ok, c.unit, c.ok)
		}
	}
}

// FuzzJSONTop holds jsonTop, on a valid object whose keys are plain and
// unique, to encoding/json's decoding: the same keys, each raw value
// decoding to the key's value; and durationUnit, on the values, to
// telling a unit only from numbers.
func FuzzJSONTop(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":"x"},"d":[1,2],"e":"y\"z","duration":0.093447549}`))
	f.Add([]byte(`{"duration":93447549, "x" : null }`))
	f.Add([]byte(`{"duration":"93.4ms"`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var raws [][]byte
		got := map[string][]byte{}
		jsonTop(line, func(key, raw []byte) bool {
			got[string(key)] = raw
			raws = append(raws, raw)
			return true
		})
		if u, ok := durationUnit(raws); ok && u != UnitNano && u != UnitMilli {
			t.Fatalf("%q: unit %v told", line, u)
		}
		var top map[string]json.RawMessage
		d := json.NewDecoder(bytes.NewReader(line))
		if !utf8.Valid(line) || d.Decode(&top) != nil || d.More() || !plainUniqueKeys(line) {
			return
		}
		if len(got) != len(top) {
			t.Fatalf("%q: %d keys, want %d", line, len(got), len(top))
		}
		for k, want := range top {
			raw, ok := got[k]
			if !ok {
				t.Fatalf("%q: key %q not given", line, k)
			}
			var a, b any
			if json.Unmarshal(raw, &a) != nil || json.Unmarshal(want, &b) != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("%q: key %q: value %q, want %q", line, k, raw, want)
			}
			if v := jsonValue(line, k); !bytes.Equal(v, raw) {
				t.Fatalf("%q: jsonValue(%q) %q, want %q", line, k, v, raw)
			}
		}
	})
}
