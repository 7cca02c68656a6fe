package ingest_test

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// jsonRow is a request as DuckDB's COPY of JSON lines writes it when a
// key's values differ in type from line to line ("status":"200" in one,
// "status":429 in another): the key's column is of Parquet's JSON
// logical type, each value its JSON text.
type jsonRow struct {
	Time        string `parquet:"time"`
	Status      string `parquet:"status,json"`
	RequestTime string `parquet:"request_time,json"`
	Model       string `parquet:"model,json"`
}

// TestParquetJSONColumns: a JSON column's values are read as a JSON
// line's values of the key are: a string without its quotes and
// escapes, a number as written, null as none. Before, every value of
// such a column was read with its quotes, a bad line.
func TestParquetJSONColumns(t *testing.T) {
	var rows []jsonRow
	type want struct {
		status int64
		rt     float64 // s; NaN: none
		model  string
	}
	var wants []want
	for i := range 40 {
		rt := float64(100+(i*7919)%3000) / 1000
		r := jsonRow{Time: time.Date(2026, 12, 3, 6, 0, i, 0, time.UTC).Format(time.RFC3339)}
		w := want{status: 200, rt: rt, model: "qwen-max"}
		switch i % 4 {
		case 0: // strings, as CLS writes every value
			r.Status, r.RequestTime, r.Model = `"200"`, strconv.Quote(strconv.FormatFloat(rt, 'f', 3, 64)), `"qwen-max"`
		case 1: // numbers
			r.Status, r.RequestTime, r.Model = "429", strconv.FormatFloat(rt, 'f', 3, 64), `"qwen\/max\u00e9"`
			w.status, w.model = 429, "qwen/maxé"
		case 2: // a null time
			r.Status, r.RequestTime, r.Model = "200", "null", `"qwen-max"`
			w.rt = math.NaN()
		default: // spaces around a value
			r.Status, r.RequestTime, r.Model = ` "200" `, " "+strconv.FormatFloat(rt, 'f', 3, 64)+" ", `"qwen-max"`
		}
		rows = append(rows, r)
		wants = append(wants, w)
	}
	var buf bytes.Buffer
	if err := writeRows(&buf, rows); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{writeTemp(t, "duckdb.parquet", buf.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	if res.BadLines() != 0 || len(got) != len(wants) {
		t.Fatalf("%d records, %d bad lines; want %d, 0: %v", len(got), res.BadLines(), len(wants), res.Problems)
	}
	for i, g := range got {
		w := wants[i]
		if g.status != w.status || g.model != w.model || math.IsNaN(w.rt) != math.IsNaN(g.rt) || !math.IsNaN(w.rt) && math.Abs(g.rt-w.rt) > 1e-9 {
			t.Errorf("record %d: status %d, request_time %v, model %q; want %d, %v, %q", i, g.status, g.rt, g.model, w.status, w.rt, w.model)
		}
	}
	if !strings.HasPrefix(rows[1].Model, `"qwen\/`) {
		t.Fatal("the fixture's second model holds no escape")
	}
}
