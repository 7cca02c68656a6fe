package ingest_test

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestFiberJSON reads Fiber's logger's FormatJSON (gofiber/fiber
// middleware/logger format.go), whose time is "15:04:05" by default: a
// time of day alone, so each record is read without a time, with its
// status, method, URL and caller, none a bad line; the file says which
// name held the time of day.
func TestFiberJSON(t *testing.T) {
	path := filepath.Join("testdata", "sources", "fiber-json.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type line struct {
		Time, IP, Method, URL string
		Status                int64
	}
	var wants []line
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		wants = append(wants, l)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(res.Files) != 1 || res.Files[0].Source != "fiber" || !slices.Equal(res.Files[0].Clocks, []string{"time"}) {
		t.Fatalf("files %+v, want source fiber with its time a time of day alone", res.Files)
	}
	if len(got) != len(wants) || res.BadLines() != 0 {
		t.Fatalf("%d records and %d bad lines, want %d and 0: %v", len(got), res.BadLines(), len(wants), res.Problems)
	}
	// Without a time, collect's order is request_time's, which none has:
	// each record is found by its caller, which the fixture's lines do
	// not repeat.
	for _, w := range wants {
		i := slices.IndexFunc(got, func(g row) bool { return g.remoteAddr == w.IP })
		if i < 0 {
			t.Errorf("no record of %s", w.IP)
			continue
		}
		g := got[i]
		if g.hasTime || g.status != w.Status || g.uri != w.URL {
			t.Errorf("record of %s: has time %v, status %d, uri %q; want no time, %d, %q", w.IP, g.hasTime, g.status, g.uri, w.Status, w.URL)
		}
	}
}

// fiberOracle reads a line of Fiber's default text or its classic
// format by its own means: colour escapes dropped, the columns cut by
// '|', or the classic line's words.
var (
	fiberANSI    = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	fiberPiped   = regexp.MustCompile(`^(.+?) \| +(\d{3}) \| +(\S+) \| +(\S+) \| (\S+) +\| (\S+)`)
	fiberClassic = regexp.MustCompile(`^\[(.+?)\] (?:(\S+) )?(\d{3}) - +(\S+) (\S+) (\S+)`)
)

// TestFiberText reads Fiber's logger's default text (v3's columns cut
// by '|', coloured or not, an error after the path) and its classic
// format ("[time] status - latency method path"): the status, the
// latency by its unit, the method, the path and the caller; a time of
// day alone is no time, a date and time one in --tz.
func TestFiberText(t *testing.T) {
	loc := time.FixedZone("UTC+8", 8*3600)
	for _, name := range []string{"fiber-default.log", "fiber-classic.log"} {
		path := filepath.Join("testdata", "text", name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		type want struct {
			timeNS            int64
			hasTime           bool
			status            int64
			rt                float64 // ms
			addr, uri, method string
		}
		var wants []want
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			line = fiberANSI.ReplaceAllString(line, "")
			var w want
			var tm, lat string
			if m := fiberPiped.FindStringSubmatch(line); m != nil {
				tm, lat, w.addr, w.method, w.uri = m[1], m[3], m[4], m[5], m[6]
				w.status, _ = strconv.ParseInt(m[2], 10, 64)
			} else if m := fiberClassic.FindStringSubmatch(line); m != nil {
				tm, w.addr, lat, w.method, w.uri = m[1], m[2], m[4], m[5], m[6]
				w.status, _ = strconv.ParseInt(m[3], 10, 64)
			} else {
				t.Fatalf("oracle: %q", line)
			}
			d, err := time.ParseDuration(lat)
			if err != nil {
				t.Fatalf("oracle: latency %q", lat)
			}
			w.rt = float64(d) / 1e6
			if at, err := time.ParseInLocation("2006-01-02 15:04:05", tm, loc); err == nil {
				w.timeNS, w.hasTime = at.UnixNano(), true
			}
			wants = append(wants, w)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: loc})
		if len(res.Files) != 1 || res.Files[0].Format != "fiber" || res.Files[0].Source != "fiber" || !slices.Equal(res.Files[0].Clocks, []string{"time"}) {
			t.Fatalf("%s: files %+v, want fiber's with its time a time of day", name, res.Files)
		}
		if len(got) != len(wants) || res.BadLines() != 0 {
			t.Fatalf("%s: %d records and %d bad lines, want %d and 0: %v", name, len(got), res.BadLines(), len(wants), res.Problems)
		}
		for _, w := range wants {
			i := slices.IndexFunc(got, func(g row) bool { return math.Abs(g.rt*1000-w.rt) < 1e-9*w.rt })
			if i < 0 {
				t.Errorf("%s: no record of %v ms", name, w.rt)
				continue
			}
			g := got[i]
			if g.hasTime != w.hasTime || g.timeNS != w.timeNS || g.status != w.status || g.uri != w.uri || g.remoteAddr != w.addr {
				t.Errorf("%s: record of %v ms: time %v %d, status %d, uri %q, addr %q; want %+v", name, w.rt, g.hasTime, g.timeNS, g.status, g.uri, g.remoteAddr, w)
			}
		}
	}
}

// TestLatencyWithUnit: a JSON Format of Fiber's own whose latency is
// Go's Duration printed with its unit ("  71.821973ms"), and no name
// request_time's, is read by that unit; numbers under the same name
// leave it unread (their unit is not told).
func TestLatencyWithUnit(t *testing.T) {
	path := filepath.Join("testdata", "durations", "latency-unit.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var wants []float64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var l struct{ Latency string }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		d, err := time.ParseDuration(strings.TrimSpace(l.Latency))
		if err != nil {
			t.Fatal(err)
		}
		wants = append(wants, float64(d)/1e6)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != len(wants) || res.BadLines() != 0 {
		t.Fatalf("%d records and %d bad lines, want %d and 0", len(got), res.BadLines(), len(wants))
	}
	for i, w := range wants { // the fixture's lines are in time order
		if !(math.Abs(got[i].rt*1000-w) <= 1e-9*w) { // NaN, no request_time, is no match
			t.Errorf("record %d: request_time %v ms, want %v", i, got[i].rt*1000, w)
		}
	}
	numbers := filepath.Join(t.TempDir(), "numbers.jsonl")
	if err := os.WriteFile(numbers, []byte(`{"time":"2026-12-05T10:00:06Z","status":200,"latency":71.8}
{"time":"2026-12-05T10:00:07Z","status":200,"latency":12.5}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ = collect(t, []string{numbers}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 2 || !math.IsNaN(got[0].rt) || !math.IsNaN(got[1].rt) {
		t.Errorf("latency in numbers: %+v, want 2 records without request_time", got)
	}
}
