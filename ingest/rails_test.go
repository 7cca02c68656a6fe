package ingest_test

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"loganalyze/ingest"
)

// railsOracle reads Rails' request log lines by its own means: Ruby's
// Logger prefix, the tags, and the Started and Completed messages
// (railties lib/rails/rack/logger.rb, actionpack
// lib/action_controller/log_subscriber.rb).
var (
	railsPrefix    = regexp.MustCompile(`^[A-Z], \[(\S+) #\d+\] +[A-Z]+ -- : `)
	railsTags      = regexp.MustCompile(`^((?:\[[^\]]*\] )*)(.*)$`)
	railsStartedRe = regexp.MustCompile(`^Started ([A-Z]+) "(.*)" for (\S+) at (.+)$`)
	railsDoneRe    = regexp.MustCompile(`^Completed (\d{3}) [^\n]*? in (\d+)ms`)
)

type railsWant struct {
	status       int64
	ms           float64
	uri, addr    string
	time         string // "" for none
	startedFound bool
}

// railsWants reads path's requests: a Completed line each, with the
// Started line of the same tags when the line has tags.
func railsWants(t *testing.T, path string) (wants []railsWant, lines int) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	started := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines++
		l, stamp := sc.Text(), ""
		if m := railsPrefix.FindStringSubmatch(l); m != nil {
			l, stamp = l[len(m[0]):], m[1]
		}
		m := railsTags.FindStringSubmatch(l)
		tags, msg := m[1], m[2]
		if s := railsStartedRe.FindStringSubmatch(msg); s != nil && tags != "" {
			when := s[4]
			if stamp != "" {
				when = stamp
			}
			started[tags] = []string{s[2], s[3], when}
			continue
		}
		d := railsDoneRe.FindStringSubmatch(msg)
		if d == nil {
			continue
		}
		w := railsWant{time: stamp}
		w.status, _ = strconv.ParseInt(d[1], 10, 64)
		w.ms, _ = strconv.ParseFloat(d[2], 64)
		if s, ok := started[tags]; ok && tags != "" {
			w.uri, w.addr, w.time, w.startedFound = s[0], s[1], s[2], true
			delete(started, tags)
		}
		wants = append(wants, w)
	}
	return wants, lines
}

// TestRailsText reads Rails' default request log, tagged with the
// request id (Rails 7.1's production default) and behind Ruby's Logger
// prefix untagged (before 7.1): a record for each Completed line, its
// status and duration, ms; a tagged one takes its Started line's path,
// address and time, found by its tags across the other requests'
// lines, and one whose Started line is missing is read all the same;
// untagged lines are not paired. Every other line is passed over.
func TestRailsText(t *testing.T) {
	for _, name := range []string{"rails-tagged.log", "rails-logger.log"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "text", name)
			wants, lines := railsWants(t, path)
			got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
			if len(res.Files) != 1 || res.Files[0].Source != "rails" {
				t.Fatalf("files %+v, want source rails", res.Files)
			}
			fs := res.Files[0]
			if len(got) != len(wants) || res.BadLines() != 0 || fs.PassedOver != int64(lines-len(wants)) {
				t.Fatalf("%d records, %d bad lines, %d passed over; want %d, 0, %d: %v", len(got), res.BadLines(), fs.PassedOver, len(wants), lines-len(wants), res.Problems)
			}
			for _, w := range wants {
				var wantNS int64
				if w.time != "" {
					ts, err := time.Parse("2006-01-02 15:04:05 -0700", w.time)
					if err != nil {
						ts, err = time.Parse("2006-01-02T15:04:05.999999", w.time)
					}
					if err != nil {
						t.Fatal(err)
					}
					wantNS = ts.UnixNano()
				}
				found := false
				for _, g := range got {
					if g.status == w.status && math.Abs(g.rt-w.ms/1000) < 1e-9 && g.uri == w.uri && g.remoteAddr == w.addr &&
						g.hasTime == (w.time != "") && (w.time == "" || g.timeNS == wantNS) {
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
