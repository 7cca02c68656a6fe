package ingest

import (
	"math"
	"strings"
	"testing"
	"time"
)

// asciiUpper upper-cases the ASCII letters of s only.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// FuzzNewSchema feeds --map overrides (NUL-separated, as several flags)
// to NewSchema. It must not panic; an error is one line; an accepted
// override canonical=source[:unit] makes the source name, in any ASCII
// case, feed the canonical field first, in that unit: a number read
// through it is the number times the unit, in the field's own unit.
func FuzzNewSchema(f *testing.F) {
	for _, seed := range []string{
		"client=secret_id\x00ttft=first_byte:s", // SPEC §2, value_test.go, fuzz_test.go
		"region=server_name\x00client=http_user_agent",
		"request_time=duration:s",
		"request_time=latency_ms:ms\x00time=ts",
		"tcpinfo_rtt=rtt:ns\x00ttft=ttfb_us:us\x00request_time=d:sec",
		"nonsense", "foo=bar", "ttft=x:h", "model=x:ms", "=x", "client=", "REQUEST_TIME=Duration:µs",
		"ttft=a:s\x00ttft=a:ms", "client=a\x00model=a", "request=req", "time=ai_log.ts:ms",
		"client=x:y:z", "client=é", "ttft=É:s",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		specs := strings.Split(in, "\x00")
		s, err := NewSchema(specs)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("NewSchema(%q): error %q; want one line", specs, msg)
			}
			return
		}
		// The last override of each field and name is the one in force.
		type key struct {
			f    Field
			name string
		}
		last := map[key]Unit{}
		written := map[key]string{} // the name as the last override spells it
		var order []key
		for _, spec := range specs {
			canon, source, _ := strings.Cut(spec, "=")
			name, u, hasUnit := strings.Cut(source, ":")
			if !hasUnit {
				name = source
			}
			fld, ok := FieldByName(strings.ToLower(canon))
			if !ok {
				t.Fatalf("NewSchema accepted %q, whose field is unknown", spec)
			}
			unit := UnitNone
			if hasUnit {
				if unit, ok = parseUnit(u); !ok {
					t.Fatalf("NewSchema accepted %q, whose unit is unknown", spec)
				}
			}
			k := key{fld, strings.ToLower(name)}
			if _, seen := last[k]; !seen {
				order = append(order, k)
			}
			last[k] = unit
			written[k] = name
		}
		for _, k := range order {
			unit := last[k]
			for _, spelling := range []string{written[k], k.name, asciiUpper(k.name)} {
				var found *Binding
				for _, b := range s.LookupString(spelling) {
					if b.Field == k.f {
						b := b
						found = &b
					}
				}
				if found == nil || found.Unit != unit || found.Prio != prioMapped {
					t.Fatalf("--map %s=%s:%v: %q feeds %+v", k.f, k.name, unit, spelling, s.LookupString(spelling))
				}
			}
			if fields[k.f].kind != KindFloat {
				continue
			}
			var r Record
			err := r.Set(s.LookupString(k.name), []byte("2"), time.UTC)
			if _, timeToo := last[key{FTime, k.name}]; timeToo {
				// The name given to the time as well: 2 is no time,
				// and the record is bad for it.
				if err == nil {
					t.Fatalf("--map %s=%s --map time=%s: reading 2 gave no error", k.f, k.name, k.name)
				}
				continue
			}
			if err != nil {
				t.Fatalf("--map %s=%s: reading 2: %v", k.f, k.name, err)
			}
			got, ok := r.Float(k.f)
			want := 2.0
			if unit != UnitNone {
				want = 2 * seconds[unit] / seconds[fields[k.f].unit]
			}
			if !ok || math.Abs(got-want) > 1e-9*want {
				t.Fatalf("--map %s=%s:%v: 2 read as %v (%v), want %v", k.f, k.name, unit, got, ok, want)
			}
		}
	})
}
