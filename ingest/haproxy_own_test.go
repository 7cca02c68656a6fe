package ingest_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// HAProxy's own lines in its log (its proxies' starts and stops, its
// servers' states and health checks, its standard error's [NOTICE] and
// [WARNING] lines, an error log line, a TCP proxy's log line) are passed
// over, not bad lines; a request line cut short stays a bad line.
func TestHAProxyOwnLinesPassedOver(t *testing.T) {
	path := filepath.Join("testdata", "text", "haproxy-own.log")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The oracle: a request has the five timers, the status and a quoted
	// request at its end; a cut one has a date and timers that end the
	// line; every other line is HAProxy's own.
	request := regexp.MustCompile(` -?\d+/-?\d+/-?\d+/-?\d+/\+?-?\d+ (\d+) .*"[^"]*"$`)
	cut := regexp.MustCompile(`\] \S+ \S+/\S+ [-\d/]+$`)
	var statuses []int64
	var lines, cuts int64
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		lines++
		if m := request.FindStringSubmatch(l); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			statuses = append(statuses, n)
		} else if cut.MatchString(l) {
			cuts++
		}
	}
	passed := lines - int64(len(statuses)) - cuts
	if len(statuses) != 3 || cuts != 1 || passed != 11 {
		t.Fatalf("the oracle finds %d requests, %d cut, %d own lines; the fixture has 3, 1 and 11", len(statuses), cuts, passed)
	}

	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(res.Files) != 1 || res.Files[0].Source != "haproxy" {
		t.Fatalf("files %+v, want one of source haproxy", res.Files)
	}
	f := res.Files[0]
	if int64(len(got)) != int64(len(statuses)) || f.BadLines != cuts || f.PassedOver != passed {
		t.Fatalf("%d records, %d bad lines, %d passed over; want %d, %d, %d: %v", len(got), f.BadLines, f.PassedOver, len(statuses), cuts, passed, res.Problems)
	}
	for i, r := range got {
		if r.status != statuses[i] {
			t.Errorf("record %d: status %d, want %d", i, r.status, statuses[i])
		}
	}
	if len(res.Problems) != 1 || res.Problems[0].Line != 13 {
		t.Errorf("problems %q, want the cut request's line 13 alone", res.Problems)
	}
}
