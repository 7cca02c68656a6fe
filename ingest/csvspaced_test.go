package ingest_test

import (
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// spacedRow is what a row of TestSpacedCSV gives.
type spacedRow struct {
	rt            float64
	status        int64
	model, uri    string
	timeUTCString string
}

// checkSpacedRows reads path and checks its records against want (in
// time order), its bad lines and the lines passed over.
func checkSpacedRows(t *testing.T, path string, want []spacedRow, bad, passed int64) {
	t.Helper()
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	f := res.Files[0]
	if f.Format != ingest.CSV || f.BadLines != bad || f.PassedOver != passed || len(got) != len(want) {
		t.Fatalf("%s: %s, %d records, %d bad lines (%v), %d passed over; want csv, %d, %d, %d",
			path, f.Format, len(got), f.BadLines, res.Problems, f.PassedOver, len(want), bad, passed)
	}
	for i, g := range got {
		w := want[i]
		if at := time.Unix(0, g.timeNS).UTC().Format(time.DateTime); at != w.timeUTCString || !nearSrc(g.rt, w.rt) ||
			g.status != w.status || g.model != w.model || g.uri != w.uri {
			t.Errorf("%s record %d: %s, %v s, %d, model %q, uri %q; want %s, %v s, %d, %q, %q",
				path, i, at, g.rt, g.status, g.model, g.uri, w.timeUTCString, w.rt, w.status, w.model, w.uri)
		}
	}
}

// TestSpacedCSV: the spaces around a CSV field are padding (spacedFields):
// after the separator, before it, around a quoted field, in the header
// too; a quoted field keeps the spaces and separators inside its quotes.
// A quote inside an unquoted field is still a bad line.
func TestSpacedCSV(t *testing.T) {
	path := writeTemp(t, "spaced.csv", "time, status, request_time, model, uri\n"+
		"2026-12-05 10:00:00, 200, 0.5, gpt-4o, /v1/chat/completions\n"+
		"2026-12-05 10:00:01 ,502 ,  1.25  , \"qwen, 72b \" , \"/v1/x\"\n"+
		"  2026-12-05 10:00:02,429,2,\"glm-4\",/v1/y  \n"+
		"2026-12-05 10:00:03, 200, 3, gpt \"4o\", /v1/z\n")
	checkSpacedRows(t, path, []spacedRow{
		{0.5, 200, "gpt-4o", "/v1/chat/completions", "2026-12-05 10:00:00"},
		{1.25, 502, "qwen, 72b ", "/v1/x", "2026-12-05 10:00:01"},
		{2, 429, "glm-4", "/v1/y", "2026-12-05 10:00:02"},
	}, 1, 0)
}

// TestPsqlOutput: psql's aligned output, '|' between columns padded
// with spaces, is read as a '|'-separated file; the rule under its
// header and its count of rows are passed over, not bad lines. A line
// that looks like neither is still bad.
func TestPsqlOutput(t *testing.T) {
	out := `        time         | status | request_time |  model
---------------------+--------+--------------+----------
 2026-12-05 10:00:00 |    200 |          0.5 | gpt-4o
 2026-12-05 10:00:01 |    502 |        1.125 | qwen-72b
 -- a note
(2 rows)

`
	for _, name := range []string{"psql.txt", "psql.csv"} {
		path := writeTemp(t, name, strings.ReplaceAll(out, "\n", "\r\n"))
		checkSpacedRows(t, path, []spacedRow{
			{0.5, 200, "gpt-4o", "", "2026-12-05 10:00:00"},
			{1.125, 502, "qwen-72b", "", "2026-12-05 10:00:01"},
		}, 1, 2)
	}
}

// TestMySQLTable: the ASCII table mysql -t (MariaDB's, sqlite3's
// .mode table) draws is read as a '|'-separated file: its rules above
// and below the header and under the rows, and mysql's count of rows,
// are passed over, not bad lines; its NULL is absent. A line of another
// number of cells is still bad.
func TestMySQLTable(t *testing.T) {
	out := `+---------------------+--------+--------------+----------+----------------------+
| time                | status | request_time | model    | uri                  |
+---------------------+--------+--------------+----------+----------------------+
| 2026-12-05 10:00:00 |    200 |        0.500 | gpt-4o   | /v1/chat/completions |
| 2026-12-05 10:00:01 |    502 |        1.125 | qwen-72b | NULL                 |
| 2026-12-05 10:00:02 |    429 |
| 2026-12-05 10:00:03 |    200 |        2.000 | NULL     | /v1/embeddings       |
+---------------------+--------+--------------+----------+----------------------+
4 rows in set, 1 warning (0.01 sec)

`
	want := []spacedRow{
		{0.5, 200, "gpt-4o", "/v1/chat/completions", "2026-12-05 10:00:00"},
		{1.125, 502, "qwen-72b", "", "2026-12-05 10:00:01"},
		{2, 200, "", "/v1/embeddings", "2026-12-05 10:00:03"},
	}
	for _, name := range []string{"mysql.txt", "mysql.csv"} {
		checkSpacedRows(t, writeTemp(t, name, out), want, 1, 3)
		checkSpacedRows(t, writeTemp(t, "crlf-"+name, strings.ReplaceAll(out, "\n", "\r\n")), want, 1, 3)
	}
	// sqlite3's .mode table has no count of rows after it.
	sqlite := strings.Replace(out, "4 rows in set, 1 warning (0.01 sec)\n", "", 1)
	checkSpacedRows(t, writeTemp(t, "sqlite.txt", sqlite), want, 1, 2)
}

// TestMarkdownTable: a Markdown table (DuckDB's .mode markdown, pandas'
// to_markdown) is read as a '|'-separated file, the rule under its
// header passed over; a row of another number of cells is still bad.
func TestMarkdownTable(t *testing.T) {
	out := `|        time         | status | request_time |  model   |         uri          |
|:--------------------|-------:|-------------:|:---------|:---------------------|
| 2026-12-05 10:00:00 |    200 |        0.500 | gpt-4o   | /v1/chat/completions |
| 2026-12-05 10:00:01 |    502 |        1.125 | qwen-72b | NULL                 |
| 2026-12-05 10:00:02 |    429 |
| 2026-12-05 10:00:03 |    200 |            2 |          | /v1/embeddings       |
`
	want := []spacedRow{
		{0.5, 200, "gpt-4o", "/v1/chat/completions", "2026-12-05 10:00:00"},
		{1.125, 502, "qwen-72b", "", "2026-12-05 10:00:01"},
		{2, 200, "", "/v1/embeddings", "2026-12-05 10:00:03"},
	}
	for _, name := range []string{"table.md", "table.txt"} {
		checkSpacedRows(t, writeTemp(t, name, out), want, 1, 1)
	}
}
