package ingest_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// slsLog writes n records as SLS keeps them: its __time__ (epoch s, as
// text) beside the log's own time, written in zone at (without the zone
// when layout has none), __time__ some seconds late on every third
// record, as an agent that stamps a line as it reads it. It returns the
// file and each record's instant, in the order written.
func slsLog(t *testing.T, name string, n int, at *time.Location, layout string, skipEpoch func(i int) bool) (string, []time.Time) {
	t.Helper()
	base := time.Date(2026, 12, 4, 1, 0, 0, 123e6, time.UTC)
	var b strings.Builder
	csv := strings.HasSuffix(name, ".csv")
	if csv {
		b.WriteString("__time__,__source__,time,request_time,status\n")
	}
	var want []time.Time
	for i := range n {
		tm := base.Add(time.Duration(i) * 97 * time.Second)
		want = append(want, tm)
		epoch := fmt.Sprint(tm.Unix() + int64(2*(i%3/2)))
		if skipEpoch != nil && skipEpoch(i) {
			epoch = ""
		}
		written := tm.In(at).Format(layout)
		switch {
		case csv:
			fmt.Fprintf(&b, "%s,10.0.0.%d,%s,%.3f,200\n", epoch, i, written, 0.5+float64(i)/10)
		case epoch == "":
			fmt.Fprintf(&b, `{"__source__":"10.0.0.%d","time":%q,"request_time":"%.3f","status":"200"}`+"\n", i, written, 0.5+float64(i)/10)
		default:
			fmt.Fprintf(&b, `{"__time__":"%s","__source__":"10.0.0.%d","time":%q,"request_time":"%.3f","status":"200"}`+"\n", epoch, i, written, 0.5+float64(i)/10)
		}
	}
	return writeTemp(t, name, b.String()), want
}

// TestEpochZone: a log service's export that keeps each record's time
// twice, as the log wrote it without a zone and as SLS's __time__ epoch,
// reads the written times in the zone the epochs give, whatever --tz
// says, and says so per file; times written with their zone, or that
// --tz reads right, are read as before.
func TestEpochZone(t *testing.T) {
	shanghai := time.FixedZone("CST", 8*3600)
	const local = "2006-01-02 15:04:05.000"
	check := func(what, path string, tz *time.Location, want []time.Time, zone string) {
		t.Helper()
		got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: tz})
		if len(got) != len(want) || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad lines; want %d, 0", what, len(got), res.BadLines(), len(want))
		}
		sort.Slice(got, func(i, j int) bool { return got[i].timeNS < got[j].timeNS })
		want = append([]time.Time(nil), want...)
		sort.Slice(want, func(i, j int) bool { return want[i].Before(want[j]) })
		for i, w := range want {
			if got[i].timeNS != w.UnixNano() {
				t.Errorf("%s: record %d at %v, want %v", what, i, time.Unix(0, got[i].timeNS).UTC(), w)
				break
			}
		}
		if res.Files[0].Zone != zone {
			t.Errorf("%s: zone %q, want %q", what, res.Files[0].Zone, zone)
		}
	}
	for _, ext := range []string{".jsonl", ".csv"} {
		path, want := slsLog(t, "sls"+ext, 20, shanghai, local, nil)
		check(ext+", --tz UTC", path, time.UTC, want, "UTC+08:00")
		check(ext+", --tz America/New_York", path, time.FixedZone("EST", -5*3600), want, "UTC+08:00")
		check(ext+", --tz of the log's zone", path, shanghai, want, "")
		// India's half hour, written with a T.
		path, want = slsLog(t, "india"+ext, 20, time.FixedZone("IST", 5*3600+1800), "2006-01-02T15:04:05.000", nil)
		check(ext+", +05:30", path, time.UTC, want, "UTC+05:30")
		// Written with their zone: nothing to tell.
		path, want = slsLog(t, "zoned"+ext, 20, shanghai, "2006-01-02T15:04:05.000-07:00", nil)
		check(ext+", zoned", path, time.UTC, want, "")
		// Some records lack __time__: the others tell the zone.
		path, want = slsLog(t, "some"+ext, 20, shanghai, local, func(i int) bool { return i%2 == 1 })
		check(ext+", every other epoch", path, time.UTC, want, "UTC+08:00")
	}
	// The aliyun CLI's get_log_all writes the same records as a JSON
	// array, an element a record.
	path, arrayWant := slsLog(t, "sls-lines.jsonl", 20, shanghai, local, nil)
	lines, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := "[" + strings.Join(strings.Split(strings.TrimSpace(string(lines)), "\n"), ", ") + "]\n"
	check("get_log_all's array, --tz UTC", writeTemp(t, "sls-array.json", doc), time.UTC, arrayWant, "UTC+08:00")
	// Tencent Cloud CLS's __TIMESTAMP__, epoch ms, beside a time of
	// nginx's $time_iso8601 written without its zone.
	var cls strings.Builder
	var clsWant []time.Time
	for i := range 8 {
		tm := time.Date(2026, 12, 4, 1, i, 7, 250e6, time.UTC)
		fmt.Fprintf(&cls, `{"__TIMESTAMP__":"%d","time":%q,"request_time":"0.5","status":"200"}`+"\n",
			tm.UnixMilli(), tm.In(shanghai).Format("2006-01-02T15:04:05.000"))
		clsWant = append(clsWant, tm)
	}
	check("CLS", writeTemp(t, "cls.jsonl", cls.String()), time.UTC, clsWant, "UTC+08:00")
	// Epochs that disagree on the zone tell none: --tz stands.
	var b strings.Builder
	var want []time.Time
	for i := range 10 {
		tm := time.Date(2026, 12, 4, 1, i, 0, 0, time.UTC)
		off := time.Duration(8+i%2) * time.Hour
		fmt.Fprintf(&b, `{"__time__":%d,"time":%q,"request_time":0.5}`+"\n", tm.Unix(), tm.Add(off).Format("2006-01-02 15:04:05"))
		want = append(want, tm.Add(off))
	}
	check("disagreeing epochs", writeTemp(t, "mixed.jsonl", b.String()), time.UTC, want, "")
}
