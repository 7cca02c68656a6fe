package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestDurationMagnitudes: a JSON-lines file with no name of request_time
// says what its duration-like numbers were like (their median, whether
// whole); one that names request_time says nothing.
func TestDurationMagnitudes(t *testing.T) {
	var b strings.Builder
	var lat []float64
	for i := range 40 {
		l := float64(150 + (i*7919)%30000)
		lat = append(lat, l)
		fmt.Fprintf(&b, `{"created_at":"2026-12-05T10:00:%02dZ","model":"m","latency":%g,"generation_time":%g,"tokens":%d,"note":"x"}`+"\n", i%60, l, l/1000+0.5, i)
	}
	_, res, err := ingest.Run([]string{writeTemp(t, "or.jsonl", b.String())}, ingest.Options{Workers: 1}, func() *collector { return &collector{} })
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lat)
	m := res.Files[0].Magnitudes
	if got := m["latency"]; got.N != 40 || !got.Whole || got.Median != lat[20] {
		t.Errorf("latency: %+v, want 40 whole values of median %v", got, lat[20])
	}
	if got := m["generation_time"]; got.N != 40 || got.Whole || got.Median != lat[20]/1000+0.5 {
		t.Errorf("generation_time: %+v, want 40 fractions of median %v", got, lat[20]/1000+0.5)
	}
	if _, ok := m["tokens"]; ok {
		t.Errorf("tokens, no duration's name, has a magnitude")
	}
	// Numbers written as strings (CLS's exports, Akamai's, Tomcat's JSON
	// valve) have their magnitudes as numbers do.
	b.Reset()
	for i, l := range lat {
		fmt.Fprintf(&b, `{"created_at":"2026-12-05T10:00:%02dZ","latency":"%g"}`+"\n", i%60, l)
	}
	_, res, err = ingest.Run([]string{writeTemp(t, "quoted.jsonl", b.String())}, ingest.Options{Workers: 1}, func() *collector { return &collector{} })
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Files[0].Magnitudes["latency"]; got.N != 40 || !got.Whole || got.Median != lat[20] {
		t.Errorf("quoted latency: %+v, want 40 whole values of median %v", got, lat[20])
	}
	_, res, err = ingest.Run([]string{writeTemp(t, "rt.jsonl", `{"time":"2026-12-05T10:00:00Z","request_time":0.5,"latency":900}`+"\n")},
		ingest.Options{Workers: 1}, func() *collector { return &collector{} })
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Files[0].Magnitudes; m != nil {
		t.Errorf("a file with request_time: magnitudes %v", m)
	}
}

// TestImplausibleDurations: a generic name of request_time whose first
// values, in its unit, make the median request last 1000 s or more is
// left unread and named (Go's slog writes "duration" in ns, which SPEC
// §3 reads in ms); one whose values fit its unit is read, in a JSON line
// and a CSV alike, and a --map reads the name refused in its own unit.
// Values written as nginx writes $request_time (three decimals, some
// ending in 0) are read in seconds.
func TestImplausibleDurations(t *testing.T) {
	line := func(b *strings.Builder, name string, v float64) {
		fmt.Fprintf(b, `{"time":"2026-12-05T10:00:00Z","level":"INFO","msg":"request","status":200,%q:%s}`+"\n", name, strconv.FormatFloat(v, 'f', -1, 64))
	}
	var slog, envoy, csv, nginx, rtMS, sessions, probes strings.Builder
	csv.WriteString("time,status,duration\n")
	var ns []float64
	for i := range 40 {
		d := float64(200_000_000 + (i*7919)%3_000_000_000) // 0.2–3.2 s in ns
		ns = append(ns, d)
		line(&slog, "duration", d)
		line(&envoy, "duration", float64(200+(i*7919)%3000)) // ms, to 3.2 s
		fmt.Fprintf(&csv, "2026-12-05T10:00:00Z,200,%d\n", int64(d))
		fmt.Fprintf(&rtMS, `{"time":"2026-12-05T10:00:00Z","status":200,"request_time":%d}`+"\n", 1200+(i*7919)%30000)
		// slog's ns of a service whose most lines are health checks of
		// µs: a median of 0.6 ms (600,000 as "ms", under 1000 s), its
		// requests' seconds in the tail.
		p := int64(40_000 + i*20_000)
		if i%3 == 0 {
			p = int64(500_000_000 + i*100_000_000)
		}
		line(&probes, "duration", float64(p))
		fmt.Fprintf(&sessions, `{"time":"2026-12-05T10:00:00Z","status":101,"request_time":%d.125}`+"\n", 1800+i)
		// "duration":$request_time: seconds, three decimals always.
		fmt.Fprintf(&nginx, `{"time":"2026-12-05T10:00:00+08:00","status":200,"duration":%d.%03d}`+"\n", i/7, (i*137)%1000)
	}
	slices.Sort(ns)
	for _, c := range []struct {
		name, text string
		maps       []string
		refused    bool
		readIn     ingest.Unit
		wantRT     func(i int) float64 // s; nil: none read
	}{
		{"slog.jsonl", slog.String(), nil, true, 0, nil},
		{"slog.csv", csv.String(), nil, true, 0, nil},
		{"mapped.jsonl", slog.String(), []string{"request_time=duration:ns"}, false, 0, func(i int) float64 { return float64(200_000_000+(i*7919)%3_000_000_000) / 1e9 }},
		{"envoy.jsonl", envoy.String(), nil, false, 0, func(i int) float64 { return float64(200+(i*7919)%3000) / 1000 }},
		{"nginx.jsonl", nginx.String(), nil, true, ingest.UnitSecond, func(i int) float64 { return float64(i/7) + float64((i*137)%1000)/1000 }},
		// The canonical name: integers of ms are refused, and read with
		// the map; long sessions' seconds (a websocket's), with their
		// fractions, are read.
		{"rtms.jsonl", rtMS.String(), nil, true, 0, nil},
		{"probes.jsonl", probes.String(), nil, true, 0, nil},
		{"rtms-mapped.jsonl", rtMS.String(), []string{"request_time=request_time:ms"}, false, 0, func(i int) float64 { return float64(1200+(i*7919)%30000) / 1000 }},
		{"sessions.jsonl", sessions.String(), nil, false, 0, func(i int) float64 { return float64(1800+i) + 0.125 }},
	} {
		schema, err := ingest.NewSchema(c.maps)
		if err != nil {
			t.Fatal(err)
		}
		got, res, err := ingest.Run([]string{writeTemp(t, c.name, c.text)}, ingest.Options{Workers: 1, Schema: schema}, func() *collector { return &collector{} })
		if err != nil {
			t.Fatal(err)
		}
		f := res.Files[0]
		if f.Records != 40 {
			t.Errorf("%s: %d records, want 40", c.name, f.Records)
		}
		if c.refused != (len(f.Refused) == 1) {
			t.Errorf("%s: refused %+v, want refused %v", c.name, f.Refused, c.refused)
		} else if c.readIn != ingest.UnitNone {
			if r := f.Refused[0]; r.Name != "duration" || r.Unit != ingest.UnitMilli || r.ReadIn != c.readIn {
				t.Errorf("%s: refused %+v, want duration in ms read in %v", c.name, r, c.readIn)
			}
		} else if c.refused {
			if r := f.Refused[0]; c.name == "probes.jsonl" {
				if r.Name != "duration" || r.Unit != ingest.UnitMilli || r.Median*1e-3 >= 1000 || r.Tail*1e-3 < 86400 {
					t.Errorf("%s: refused %+v, want duration refused for its tail, its median under 1000 s", c.name, r)
				}
			} else if c.name == "rtms.jsonl" {
				if r.Name != "request_time" || r.Unit != ingest.UnitSecond || r.ReadIn != 0 || !r.Whole {
					t.Errorf("%s: refused %+v, want request_time in s, whole values", c.name, r)
				}
			} else if r.Name != "duration" || r.Unit != ingest.UnitMilli || r.ReadIn != 0 || r.N != 40 || !r.Whole || r.Median != ns[20] {
				t.Errorf("%s: refused %+v, want duration in ms, 40 whole values of median %v", c.name, r, ns[20])
			}
		}
		var rows []row
		for _, g := range got {
			rows = append(rows, g.rows...)
		}
		rts := 0
		for i, r := range rows {
			if !math.IsNaN(r.rt) {
				rts++
			}
			if c.wantRT != nil && math.Abs(r.rt-c.wantRT(i)) > 1e-9 {
				t.Errorf("%s: record %d request_time %v, want %v", c.name, i, r.rt, c.wantRT(i))
				break
			}
		}
		if c.wantRT == nil && rts != 0 {
			t.Errorf("%s: %d records with request_time, want none", c.name, rts)
		}
	}
}

// slogRow is a Go slog request log converted to Parquet (DuckDB's COPY of
// its JSON lines): duration a BIGINT of ns.
type slogRow struct {
	Time     int64 `parquet:"time,timestamp(millisecond)"`
	Status   int32 `parquet:"status"`
	Duration int64 `parquet:"duration"`
}

// TestImplausibleDurationsParquet: a Parquet column under an alias of
// request_time is held to its unit as a JSON line's value is: slog's ns
// under "duration" are left unread and named, ms ones read.
func TestImplausibleDurationsParquet(t *testing.T) {
	for _, c := range []struct {
		name    string
		scale   int64 // the value of a ms
		refused bool
	}{{"ns.parquet", 1_000_000, true}, {"ms.parquet", 1, false}} {
		var rows []slogRow
		for i := range 100 {
			rows = append(rows, slogRow{Time: 1796436000000 + int64(i)*1000, Status: 200, Duration: int64(200+(i*7919)%3000) * c.scale})
		}
		var buf bytes.Buffer
		if err := writeRows(&buf, rows); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{writeTemp(t, c.name, buf.String())}, ingest.Options{Workers: 1, Location: time.UTC})
		f := res.Files[0]
		if f.Records != 100 || c.refused != (len(f.Refused) == 1 && f.Refused[0].Name == "duration" && f.Refused[0].ReadIn == 0) {
			t.Fatalf("%s: %d records, refused %+v; want 100, refused %v", c.name, f.Records, f.Refused, c.refused)
		}
		for i, r := range got {
			want := float64(200+(i*7919)%3000) / 1000
			if c.refused {
				want = math.NaN()
			}
			if !(math.IsNaN(want) && math.IsNaN(r.rt)) && math.Abs(r.rt-want) > 1e-9 {
				t.Errorf("%s: record %d request_time %v, want %v", c.name, i, r.rt, want)
				break
			}
		}
	}
}

// TestLogfmtMagnitudes: a logfmt file's duration-like numbers are told as
// a JSON line's are (gin-logrus' text: latency=2932, ms, the report's
// --map hint told from them), and a duration alias not in its unit is
// left unread there too. statusCode is the status (gin-logrus', Node's).
func TestLogfmtMagnitudes(t *testing.T) {
	var b, ns strings.Builder
	var lat []float64
	for i := range 40 {
		l := float64(150 + (i*7919)%30000)
		lat = append(lat, l)
		fmt.Fprintf(&b, `time="2026-12-05T10:00:%02dZ" level=info msg="request" clientIP=10.0.3.18 latency=%g method=POST path=/v1/chat statusCode=200`+"\n", i%60, l)
		fmt.Fprintf(&ns, `time=2026-12-05T10:00:%02dZ level=INFO msg=request duration=%d status=200`+"\n", i%60, int64(l)*1_000_000)
	}
	got, res := collect(t, []string{writeTemp(t, "ginlogrus.log", b.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	slices.Sort(lat)
	f := res.Files[0]
	if m := f.Magnitudes["latency"]; f.Format != ingest.Logfmt || m.N != 40 || !m.Whole || m.Median != lat[20] {
		t.Errorf("format %s, latency %+v; want logfmt, 40 whole values of median %v", f.Format, m, lat[20])
	}
	if len(got) != 40 || got[0].status != 200 {
		t.Errorf("%d records, first status %d; want 40, 200", len(got), got[0].status)
	}
	_, res = collect(t, []string{writeTemp(t, "slog.log", ns.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	if r := res.Files[0].Refused; len(r) != 1 || r[0].Name != "duration" {
		t.Errorf("slog text's duration in ns: refused %+v, want duration", r)
	}
}

// TestDurationWord: a name reads as a duration's by its words: rt (a
// response time, as Alibaba's and Dubbo's logs name it) only as a word
// of its own, never inside another (rtt, port, start, cert).
func TestDurationWord(t *testing.T) {
	for name, want := range map[string]bool{
		"rt": true, "RT": true, "rt_ms": true, "upstream_rt": true, "upstreamRt": true, "rtMs": true, "req.rt": true,
		"latency": true, "elapsed_ms": true, "took": true, "request_time": true,
		"rtt": false, "tcpinfo_rtt": false, "port": false, "start": false, "cert": false, "RTT": false, "art": false, "tokens": false,
	} {
		if got := ingest.DurationWord(name); got != want {
			t.Errorf("DurationWord(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestImplausibleDurationsParquetFloat: a FLOAT column's first values
// are told by their 32 bits: slog's ns converted to float32 are left
// unread, and a Python logger's seconds are read in seconds.
func TestImplausibleDurationsParquetFloat(t *testing.T) {
	type floatRow struct {
		Time     int64   `parquet:"time,timestamp(millisecond)"`
		Status   int32   `parquet:"status"`
		Duration float32 `parquet:"duration"`
	}
	for _, c := range []struct {
		name   string
		value  func(i int) float32
		readIn ingest.Unit // of a refused duration; UnitNone: left unread
	}{
		{"ns.parquet", func(i int) float32 { return float32(200+(i*7919)%3000) * 1e6 }, ingest.UnitNone},
		{"s.parquet", func(i int) float32 { return float32(200+(i*7919)%3000) / 1000 }, ingest.UnitSecond},
	} {
		var rows []floatRow
		for i := range 100 {
			rows = append(rows, floatRow{Time: 1796436000000 + int64(i)*1000, Status: 200, Duration: c.value(i)})
		}
		var buf bytes.Buffer
		if err := writeRows(&buf, rows); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{writeTemp(t, c.name, buf.String())}, ingest.Options{Workers: 1, Location: time.UTC})
		f := res.Files[0]
		if f.Records != 100 || len(f.Refused) != 1 || f.Refused[0].Name != "duration" || f.Refused[0].ReadIn != c.readIn {
			t.Fatalf("%s: %d records, refused %+v; want 100, duration refused, read in %v", c.name, f.Records, f.Refused, c.readIn)
		}
		for i, r := range got {
			want := math.NaN()
			if c.readIn == ingest.UnitSecond {
				want = float64(c.value(i))
			}
			if !(math.IsNaN(want) && math.IsNaN(r.rt)) && math.Abs(r.rt-want) > 1e-6 {
				t.Errorf("%s: record %d request_time %v, want %v", c.name, i, r.rt, want)
				break
			}
		}
	}
}

// TestPythonSecondsDuration: SPEC §3's "duration", read in ms, whose
// first values are mostly fractions of a median under 10 is read in
// seconds, as a Python request logger writes time.perf_counter()'s
// difference (troncos's ASGI middleware through structlog), and the file
// says so; whole values under 10, fractions of a median of 10 or more,
// a name that says its unit, and a --map keep their unit (ms).
func TestPythonSecondsDuration(t *testing.T) {
	path := filepath.Join("testdata", "python", "troncos-asgi-access.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []float64 // s, in the file's order, which is its times'
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct{ Duration float64 }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		want = append(want, rec.Duration)
	}
	check := func(name string, got []row, scale float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d records, want %d", name, len(got), len(want))
		}
		for i, r := range got {
			if math.Abs(r.rt-want[i]*scale) > 1e-12 {
				t.Errorf("%s: record %d request_time %v s, want %v", name, i, r.rt, want[i]*scale)
			}
		}
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	check("troncos", got, 1)
	if f := res.Files[0]; len(f.Refused) != 1 || f.Refused[0].Name != "duration" || f.Refused[0].Unit != ingest.UnitMilli ||
		f.Refused[0].ReadIn != ingest.UnitSecond || !f.Refused[0].Fractions {
		t.Errorf("troncos: refused %+v, want duration, ms, read in s for its fractions", f.Refused)
	}
	schema, err := ingest.NewSchema([]string{"request_time=duration:ms"})
	if err != nil {
		t.Fatal(err)
	}
	got, res = collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC, Schema: schema})
	check("mapped", got, 1e-3)
	if f := res.Files[0]; len(f.Refused) != 0 {
		t.Errorf("mapped: refused %+v, want none", f.Refused)
	}
	// ms kept: whole values under 10 (Envoy's), fractions of a median
	// over 10, and request_duration_ms's fractions under 10.
	for _, c := range []struct {
		name, key string
		value     func(i int) float64
	}{
		{"whole.jsonl", "duration", func(i int) float64 { return float64(1 + i%9) }},
		{"fractions.jsonl", "duration", func(i int) float64 { return 10.5 + float64(i)*7.25 }},
		{"named.jsonl", "request_duration_ms", func(i int) float64 { return 0.25 + float64(i)*0.125 }},
	} {
		var b strings.Builder
		for i := range 20 {
			fmt.Fprintf(&b, `{"timestamp":"2026-12-05T02:00:%02dZ","status":200,%q:%s}`+"\n", i, c.key, strconv.FormatFloat(c.value(i), 'f', -1, 64))
		}
		got, res := collect(t, []string{writeTemp(t, c.name, b.String())}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(got) != 20 || len(res.Files[0].Refused) != 0 {
			t.Fatalf("%s: %d records, refused %+v; want 20, none", c.name, len(got), res.Files[0].Refused)
		}
		for i, r := range got {
			if math.Abs(r.rt-c.value(i)/1000) > 1e-12 {
				t.Errorf("%s: record %d request_time %v s, want %v", c.name, i, r.rt, c.value(i)/1000)
			}
		}
	}
}
