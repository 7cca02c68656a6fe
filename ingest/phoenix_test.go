package ingest_test

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"loganalyze/ingest"
)

// phxOracle reads a line of Elixir's console logger by its own means:
// "$time $metadata[$level] $message" (Logger.Formatter), $date before
// it when the format has one, and Plug.Logger's messages
// (elixir-plug/plug lib/plug/logger.ex).
var (
	phxLineRe = regexp.MustCompile(`^((?:\d{4}-\d\d-\d\d )?)(\d\d:\d\d:\d\d\.\d{3}) ((?:\S+=\S* )*)\[[a-z]+\] (.*)$`)
	phxIDRe   = regexp.MustCompile(`(?:^| )request_id=(\S+) `)
	phxReqRe  = regexp.MustCompile(`^([A-Z]+) (/\S*)$`)
	phxSentRe = regexp.MustCompile(`^(?:Sent|Chunked) (\d{3}) in (\d+)(ms|µs)$`)
)

type phxWant struct {
	status    int64
	sec       float64
	uri, date string
}

// TestPhoenixConsole reads Plug.Logger's lines through Elixir's console
// logger: a record for each Sent or Chunked line, its status and its
// duration by its unit, the path of the line before it with the same
// request id across other requests' lines, none without one; the
// default $time, a time of day alone, is no time, $date and $time one.
func TestPhoenixConsole(t *testing.T) {
	for _, name := range []string{"phoenix-console.log", "phoenix-dated.log"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "text", name)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var wants []phxWant
			lines, dated := 0, false
			paths := map[string]string{}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				m := phxLineRe.FindStringSubmatch(sc.Text())
				if m == nil {
					continue // a blank line
				}
				lines++
				id := ""
				if i := phxIDRe.FindStringSubmatch(m[3]); i != nil {
					id = i[1]
				}
				if q := phxReqRe.FindStringSubmatch(m[4]); q != nil && id != "" {
					paths[id] = q[2]
				}
				s := phxSentRe.FindStringSubmatch(m[4])
				if s == nil {
					continue
				}
				w := phxWant{}
				w.status, _ = strconv.ParseInt(s[1], 10, 64)
				w.sec, _ = strconv.ParseFloat(s[2], 64)
				w.sec /= map[string]float64{"ms": 1e3, "µs": 1e6}[s[3]]
				if id != "" {
					w.uri = paths[id]
					delete(paths, id)
				}
				if m[1] != "" {
					dated = true
					w.date = m[1] + m[2]
				}
				wants = append(wants, w)
			}
			got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
			if len(res.Files) != 1 || res.Files[0].Source != "phoenix" {
				t.Fatalf("files %+v, want source phoenix", res.Files)
			}
			fs := res.Files[0]
			if dated == slices.Equal(fs.Clocks, []string{"time"}) {
				t.Errorf("clocks %v, the file's time has a date: %v", fs.Clocks, dated)
			}
			if len(got) != len(wants) || res.BadLines() != 0 || fs.PassedOver != int64(lines-len(wants)) {
				t.Fatalf("%d records, %d bad lines, %d passed over; want %d, 0, %d: %v", len(got), res.BadLines(), fs.PassedOver, len(wants), lines-len(wants), res.Problems)
			}
			for _, w := range wants {
				var wantNS int64
				if w.date != "" {
					ts, err := time.Parse("2006-01-02 15:04:05.000", w.date)
					if err != nil {
						t.Fatal(err)
					}
					wantNS = ts.UnixNano()
				}
				found := false
				for _, g := range got {
					if g.status == w.status && math.Abs(g.rt-w.sec) < 1e-9 && g.uri == w.uri &&
						g.hasTime == (w.date != "") && g.timeNS == wantNS {
						found = true
					}
				}
				if !found {
					t.Errorf("no record %+v in %+v", w, got)
				}
			}
		})
	}
}
