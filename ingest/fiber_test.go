package ingest_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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
