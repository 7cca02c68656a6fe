package ingest_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"loganalyze/ingest"
)

// aspnetFinished is ASP.NET Core's "Request finished" message as
// HostingRequestFinishedLog writes it: the protocol, the method, the
// absolute URL, " - ", the status, the length, the type, the ms.
var aspnetFinished = regexp.MustCompile(`Request finished \S+ (\S+) (\S+) - (\d{3}) \S+ \S+ ([\d.]+)ms$`)

// aspnetStamp is the TimestampFormat "yyyy-MM-dd HH:mm:ss " before the
// level: a date, read as the time in UTC.
var aspnetStamp = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) `)

// ASP.NET Core's "Request finished" is read through each console
// formatter: the simple one's two lines, its single line with a
// TimestampFormat dated or not, the systemd one's; every other line, the
// host's, the application's, "Request starting", an exception's, is
// passed over. Only a dated TimestampFormat gives a time.
func TestASPNETCoreConsole(t *testing.T) {
	for _, file := range []string{"aspnetcore-console.log", "aspnetcore-singleline.log", "aspnetcore-singleline-clock.log", "aspnetcore-systemd.log"} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join("testdata", "text", file)
			type want struct {
				method, uri string
				status      int64
				rt          float64 // s
				at          time.Time
			}
			var wants []want
			passed := 0
			for _, l := range fixtureLines(t, path) {
				m := aspnetFinished.FindStringSubmatch(l)
				if m == nil {
					passed++
					continue
				}
				status, _ := strconv.ParseInt(m[3], 10, 64)
				ms, err := strconv.ParseFloat(m[4], 64)
				if err != nil {
					t.Fatal(err)
				}
				w := want{method: m[1], uri: m[2], status: status, rt: ms / 1000}
				if s := aspnetStamp.FindStringSubmatch(l); s != nil {
					w.at = oracleTime(t, "2006-01-02 15:04:05", s[1])
				}
				wants = append(wants, w)
			}
			got, res := nginxCollect(t, []string{path}, ingest.Options{Location: time.UTC})
			fs := res.Files[0]
			if fs.Source != "aspnetcore" || len(got) != len(wants) || res.BadLines() != 0 || fs.PassedOver != int64(passed) {
				t.Fatalf("source %q, %d records, %d bad lines, %d passed over; want aspnetcore, %d, 0, %d (%v)",
					fs.Source, len(got), res.BadLines(), fs.PassedOver, len(wants), passed, res.Problems)
			}
			for i, g := range got {
				w := wants[i]
				if g.method != w.method || g.uri != w.uri || g.status != w.status || !g.hasRT || !near(g.rt, w.rt) {
					t.Errorf("record %d: %s %q %d %v s; want %s %q %d %v s", i+1, g.method, g.uri, g.status, g.rt, w.method, w.uri, w.status, w.rt)
				}
				if g.hasTime != !w.at.IsZero() || g.hasTime && g.timeNS != w.at.UnixNano() {
					t.Errorf("record %d: time %v (%v), want %v", i+1, time.Unix(0, g.timeNS).UTC(), g.hasTime, w.at)
				}
			}
		})
	}
}

// TestASPNETCoreBothEvents: with Hosting's and HttpLogging's events both
// at Information, ASP.NET Core logs each request twice, "Request and
// Response" and "Request finished"; the requests are Hosting's events
// alone, each once, with its ElapsedMilliseconds. A file of one kind
// has its events read (TestSources: aspnetcore.jsonl,
// aspnetcore-httplogging.jsonl).
func TestASPNETCoreBothEvents(t *testing.T) {
	path := filepath.Join("testdata", "sources", "aspnetcore-both.jsonl")
	docs := readJSONLines(t, path)
	var want []row
	for _, d := range docs {
		if d.Category != "Microsoft.AspNetCore.Hosting.Diagnostics" || d.EventID != 2 {
			continue
		}
		want = append(want, row{rt: d.State.ElapsedMilliseconds / 1000, status: d.State.StatusCode})
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	f := res.Files[0]
	if f.Source != "aspnetcore" || len(got) != len(want) || len(want) != 3 || f.PassedOver != int64(len(docs)-len(want)) {
		t.Fatalf("source %q, %d records, %d passed over; want aspnetcore, %d, %d", f.Source, len(got), f.PassedOver, len(want), len(docs)-len(want))
	}
	for i, g := range got {
		if g.status != want[i].status || math.Abs(g.rt-want[i].rt) > 1e-9 {
			t.Errorf("record %d: status %d, request_time %v s; want %d, %v s", i, g.status, g.rt, want[i].status, want[i].rt)
		}
	}
}

// aspnetEvent is what TestASPNETCoreBothEvents reads of an event of the
// JSON console formatter.
type aspnetEvent struct {
	EventID  int    `json:"EventId"`
	Category string `json:"Category"`
	State    struct {
		ElapsedMilliseconds float64 `json:"ElapsedMilliseconds"`
		StatusCode          int64   `json:"StatusCode"`
	} `json:"State"`
}

// readJSONLines decodes the events of a file of JSON lines.
func readJSONLines(t *testing.T, path string) []aspnetEvent {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []aspnetEvent
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var e aspnetEvent
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}
