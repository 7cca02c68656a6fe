package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// badRow is a row of the Parquet log: a negative request_time makes it
// a bad line (SPEC §3).
type badRow struct {
	Time        string  `parquet:"time"`
	RequestTime float64 `parquet:"request_time"`
	Status      int64   `parquet:"status"`
}

// TestBadLinesPlacedInTheWindowEveryFormat: with a window, a bad line,
// element or row, which has no time, is placed in or outside it as the
// timed record before it is (the one after, before the first), in JSON
// lines, a JSON document and Parquet alike: two hours' windows over one
// log place its four bad entries two and two, each once.
func TestBadLinesPlacedInTheWindowEveryFormat(t *testing.T) {
	dir := t.TempDir()
	// The entries in order: "bad" is a bad one, else the record's minute
	// of the hour starting at 01:00 (60 and over: 02:00's).
	order := []string{"bad", "57", "58", "bad", "59", "60", "bad", "61", "62", "bad", "63"}
	stamp := func(m string) string {
		var n int
		fmt.Sscan(m, &n)
		return time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Minute).Format(time.RFC3339)
	}
	var lines, elems []string
	var rows []badRow
	// A document's bad elements: no object, told by the reader, and a
	// record whose time is bad, by the worker.
	badElems := []string{`"not an object"`, `{"time":"not a time","request_time":0.5,"status":200}`}
	for _, e := range order {
		if e == "bad" {
			lines = append(lines, "{broken")
			elems = append(elems, badElems[len(rows)%2])
			rows = append(rows, badRow{Time: stamp("0"), RequestTime: -1, Status: 200})
			continue
		}
		rec := fmt.Sprintf(`{"time":%q,"request_time":0.5,"status":200}`, stamp(e))
		lines, elems = append(lines, rec), append(elems, rec)
		rows = append(rows, badRow{Time: stamp(e), RequestTime: 0.5, Status: 200})
	}
	files := map[string]string{
		"JSON lines":    filepath.Join(dir, "log.jsonl"),
		"JSON document": filepath.Join(dir, "log.json"),
	}
	if err := os.WriteFile(files["JSON lines"], []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files["JSON document"], []byte("[\n"+strings.Join(elems, ",\n")+"\n]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files["Parquet"] = writeParquetRows(t, "log.parquet", rows)
	hour := func(h int) ingest.Window {
		from := time.Date(2026, 11, 29, h, 0, 0, 0, time.UTC)
		return ingest.Window{Since: from.UnixNano(), Until: from.Add(time.Hour).UnixNano(), HasSince: true, HasUntil: true}
	}
	for name, path := range files {
		for _, workers := range []int{1, 3} {
			var got []int64
			for _, w := range []ingest.Window{{}, hour(1), hour(2)} {
				_, res, err := ingest.Run([]string{path}, ingest.Options{Workers: workers, Window: w, Location: time.UTC},
					func() *countBatchSink { return &countBatchSink{} })
				if err != nil {
					t.Fatal(err)
				}
				if res.BadLines() != 4 {
					t.Fatalf("%s: %d bad entries read; want 4", name, res.BadLines())
				}
				got = append(got, res.BadLinesInWindow())
			}
			if got[0] != 4 || got[1] != 2 || got[2] != 2 {
				t.Errorf("%s, %d workers: bad entries in no window, 01:00's and 02:00's: %v; want [4 2 2]", name, workers, got)
			}
		}
	}
}
