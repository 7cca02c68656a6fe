package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// TestWithoutRequestTimeCounted: each file's records without a
// request_time are counted, by each reader (lines, a JSON document,
// Parquet's columns, row by row and in batches), against the rows
// written without one.
func TestWithoutRequestTimeCounted(t *testing.T) {
	dir := t.TempDir()
	const n = 900
	without := func(i int) bool { return i%7 == 3 } // rows written without one
	want := 0
	var lines, doc []string
	type row struct {
		Time        int64    `parquet:"time,timestamp(millisecond)"`
		Status      int32    `parquet:"status"`
		RequestTime *float64 `parquet:"request_time,optional"`
	}
	var rows []row
	for i := range n {
		rt := fmt.Sprintf(`,"request_time":%d.25`, i%5)
		v := float64(i%5) + 0.25
		r := row{Time: 1795917600000 + int64(i)*1000, Status: 200, RequestTime: &v}
		if without(i) {
			rt, r.RequestTime = "", nil
			want++
		}
		rec := fmt.Sprintf(`{"time":"2026-11-29T10:%02d:%02dZ","status":200%s}`, i/60%60, i%60, rt)
		lines = append(lines, rec)
		doc = append(doc, rec)
		rows = append(rows, r)
	}
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	paths := []string{
		write("a.jsonl", strings.Join(lines, "\n")+"\n"),
		write("b.json", "["+strings.Join(doc, ",\n")+"]\n"),
	}
	pq := filepath.Join(dir, "c.parquet")
	writeDictRows(t, pq, rows, 100)
	paths = append(paths, pq)
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		// A sink of records, and one of batches (Parquet's rows set a
		// column at a time).
		_, res, err := ingest.Run(paths, ingest.Options{Workers: workers}, func() *countSink { return &countSink{} })
		if err != nil {
			t.Fatal(err)
		}
		_, batched, err := ingest.Run(paths, ingest.Options{Workers: workers}, func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: m, Top: 10})
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range append(res.Files, batched.Files...) {
			if f.Records != n || f.WithoutRequestTime != int64(want) {
				t.Errorf("%d workers, %s (%s): %d records, %d without request_time; want %d and %d",
					workers, filepath.Base(f.Path), f.Format, f.Records, f.WithoutRequestTime, n, want)
			}
		}
	}
}
