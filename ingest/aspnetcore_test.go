package ingest_test

import (
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
