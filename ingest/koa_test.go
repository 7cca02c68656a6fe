package ingest_test

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"loganalyze/ingest"
)

// koaResponse reads a response line of koa-logger (koajs/logger
// index.js: two spaces, "-->", "xxx" or "-x-", the method, the URL, the
// status, humanize-number's "1,042ms" below 10 s or the rounded seconds
// "12s", the size) or of Hono's logger (the same without the size),
// colours taken off.
var koaResponse = regexp.MustCompile(`^  (?:-->|xxx|-x-) (\S+) (\S+) (\d{3}) ([\d,]+)(ms|s)(?: .*)?$`)

var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestKoaHonoLogs: koa-logger's and Hono's logger's lines are read as
// their writers wrote them, each response a request with its method,
// URL, status and time; a request's start ("<-- GET /") passed over.
// Before, neither was a known format: a file of them was refused, and
// behind kubectl's timestamps its lines were read as Ray Serve's, the
// slow ones (whose time has a comma) bad lines.
func TestKoaHonoLogs(t *testing.T) {
	for _, tc := range []struct{ file, source string }{
		{"koa.log", "koa"}, {"koa-colour.log", "koa"}, {"hono.log", "hono"},
	} {
		path := filepath.Join("testdata/text", tc.file)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		type want struct {
			status int64
			method string
			uri    string
			rt     float64
		}
		var ws []want
		passed := 0
		for _, l := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
			l = strings.TrimRight(ansiEscape.ReplaceAllString(l, ""), " ")
			m := koaResponse.FindStringSubmatch(l)
			if m == nil {
				if !strings.Contains(l, "<-- ") {
					t.Fatalf("%s: a line neither a request's start nor a response: %q", tc.file, l)
				}
				passed++
				continue
			}
			n, err := strconv.ParseFloat(strings.ReplaceAll(m[4], ",", ""), 64)
			if err != nil {
				t.Fatal(err)
			}
			if m[5] == "s" {
				n *= 1000
			}
			st, _ := strconv.ParseInt(m[3], 10, 64)
			ws = append(ws, want{st, m[1], m[2], n / 1000})
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
		f := res.Files[0]
		if f.Source != tc.source || f.BadLines != 0 || f.PassedOver != int64(passed) || len(got) != len(ws) {
			t.Fatalf("%s: %d records, %+v %v; want %d, %d passed over", tc.file, len(got), f, res.Problems, len(ws), passed)
		}
		slices.SortFunc(ws, func(a, b want) int {
			if a.rt < b.rt {
				return -1
			}
			if a.rt > b.rt {
				return 1
			}
			return 0
		})
		for i, g := range got { // sorted by time (none), then request time
			w := ws[i]
			if g.status != w.status || g.uri != w.uri || math.Abs(g.rt-w.rt) > 1e-9 || g.hasTime {
				t.Errorf("%s record %d: status %d, %q, request_time %v, time %v; want %+v", tc.file, i, g.status, g.uri, g.rt, g.hasTime, w)
			}
		}
	}
}
