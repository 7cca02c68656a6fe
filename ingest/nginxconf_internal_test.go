package ingest

import (
	"strings"
	"testing"
	"time"
)

// TestConfLogFormat takes the formats users copy from nginx.conf: the
// directive's name and escape= dropped, its strings joined as nginx joins
// them; a format of double-quoted fields stays as it is.
func TestConfLogFormat(t *testing.T) {
	const main = `$remote_addr - [$time_local] "$request" $status $request_time`
	cases := []struct {
		in, want string
		conf     bool
		err      string
	}{
		{`log_format main '$remote_addr - [$time_local] "$request" $status $request_time';`, main, true, ""},
		{"log_format  main escape=json\n\t'$remote_addr - [$time_local] '\n\t'\"$request\" $status $request_time';", main, true, ""},
		{`log_format main escape=default "$remote_addr - [$time_local] \"$request\" " '$status $request_time';`, main, true, ""},
		{`'$remote_addr - [$time_local] "$request" $status $request_time'`, main, true, ""},
		{`'$remote_addr - [$time_local] ' '"$request" $status $request_time';  # the API's`, main, true, ""},
		{`"$remote_addr - [$time_local] \"$request\" " "$status $request_time";`, main, true, ""},
		{"log_format withcomments # the API's\n  '$remote_addr - [$time_local] '  # who, when\n  # what\n  '\"$request\" $status $request_time';", main, true, ""},
		{"log_format main '$remote_addr - [$time_local] \"$request\" $status $request_time'#what;", main, true, ""},
		{`log_format bare $remote_addr;`, `$remote_addr`, true, ""},
		{`log_format tabbed '$msec\t$request_time';`, "$msec\t$request_time", true, ""},
		{main, main, false, ""},
		{`"$time_local" "$request" $status`, `"$time_local" "$request" $status`, false, ""},
		{`log_format main '$remote_addr`, "", true, "not closed"},
		{`log_format main '$remote_addr'; '$status'`, "", true, "after the ';'"},
		{`log_format`, "", true, "no name"},
		{`log_format main escape=json;`, "", true, "no format"},
	}
	for _, c := range cases {
		got, conf, err := confLogFormat(c.in)
		if conf != c.conf || got != c.want && err == nil || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %q, %v, %v; want %q, %v, error %q", c.in, got, conf, err, c.want, c.conf, c.err)
		}
	}
}

// FuzzConfLogFormat: any text gives a format or an error, never a
// panic; a directive of one single-quoted string gives that string back.
func FuzzConfLogFormat(f *testing.F) {
	f.Add(`$remote_addr [$time_local] "$request" $status`)
	f.Add(`it's \ a "quote"`)
	f.Fuzz(func(t *testing.T, format string) {
		confLogFormat(format) // no panic
		quoted := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(format)
		got, conf, err := confLogFormat("log_format x '" + quoted + "';")
		if !conf || err != nil || got != format {
			t.Fatalf("%q: %q, %v, %v", format, got, conf, err)
		}
	})
}

// TestTengineRequestTime reads Tengine's $request_time_msec and
// $request_time_usec in their units: the same request_time as nginx's
// $request_time in seconds; and its $ssl_handshake_time_msec in ms.
func TestTengineRequestTime(t *testing.T) {
	schema, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ format, value string }{
		{"$time_iso8601 $request_time", "1.408"},
		{"$time_iso8601 $request_time_msec", "1408"},
		{"$time_iso8601 $request_time_usec", "1408000"},
	} {
		f, err := compileLogFormat(c.format, schema)
		if err != nil {
			t.Fatal(err)
		}
		p := newNginxParserFor(f, time.UTC)
		var r Record
		if err := p.Parse([]byte("2026-11-30T02:00:00+00:00 "+c.value), &r); err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		if rt, ok := r.Float(FRequestTime); !ok || rt != 1.408 {
			t.Errorf("%s %s: request_time %v, %v; want 1.408 s", c.format, c.value, rt, ok)
		}
	}
	// And its TLS handshake's time in whole ms.
	f, err := compileLogFormat("$time_iso8601 $ssl_handshake_time_msec", schema)
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := newNginxParserFor(f, time.UTC).Parse([]byte("2026-11-30T02:00:00+00:00 31"), &r); err != nil {
		t.Fatal(err)
	}
	if x, ok := r.Float(FSSLHandshakeTime); !ok || x != 0.031 {
		t.Errorf("$ssl_handshake_time_msec 31: ssl_handshake_time %v, %v; want 0.031 s", x, ok)
	}
}

// TestOtherSep tells a CSV header cut by '|' or ';' from a text log's
// line cut so, and from a CSV whose commas are more.
func TestOtherSep(t *testing.T) {
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		header string
		forced bool
		want   byte
	}{
		{"__TIMESTAMP__|request_time|status", false, '|'},
		{`"time";"request_time";"status";"model"`, false, ';'},
		{"\ufefftime|request_time|status", false, '|'},
		{"10.0.0.1|30/Nov/2026:02:00:00 +0000|200|0.123", false, 0}, // values
		{"alpha|beta|gamma", false, 0},                              // no name read
		{"alpha|beta|gamma", true, '|'},                             // --input-format csv
		{"time,request_time,status|x|y", false, 0},                  // commas as many
		{"time|request_time", false, 0},                             // one separator
		{"time | request_time | status", false, '|'},
	}
	for _, c := range cases {
		if got := otherSep([]byte(c.header), s, c.forced); got != c.want {
			t.Errorf("otherSep(%q, %v) = %q, want %q", c.header, c.forced, got, c.want)
		}
	}
}
