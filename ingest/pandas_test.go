package ingest_test

import (
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestPandasTables: pandas' DataFrame.to_json() writes a table by column
// by default, and by index or split on request: no record among them. A
// file of one is unread, and its reason says what it is and how to write
// records; its orients "records" and "table" are read, and so is
// "split" (its rows by its columns' names).
func TestPandasTables(t *testing.T) {
	const (
		t0, t1 = `"2026-12-04T10:00:00Z"`, `"2026-12-04T10:00:01Z"`
		rec0   = `{"time":` + t0 + `,"request_time":1.5,"status":200}`
		rec1   = `{"time":` + t1 + `,"request_time":2.5,"status":502}`
	)
	for _, c := range []struct {
		name, text string
		records    int
		orient     string
	}{
		{"columns.json", `{"time":{"0":` + t0 + `,"1":` + t1 + `},"request_time":{"0":1.5,"1":2.5},"status":{"0":200,"1":502}}`, 0, "columns"},
		{"columns-indented.json", "{\n  \"time\": {\n    \"0\": " + t0 + ",\n    \"1\": " + t1 + "\n  },\n  \"request_time\": {\n    \"0\": 1.5,\n    \"1\": 2.5\n  }\n}\n", 0, "columns"},
		{"index.json", `{"0":` + rec0 + `,"1":` + rec1 + `}`, 0, "index"},
		{"split.json", `{"columns":["time","request_time","status"],"index":[0,1],"data":[[` + t0 + `,1.5,200],[` + t1 + `,2.5,502]]}`, 2, ""},
		{"records.json", `[` + rec0 + `,` + rec1 + `]`, 2, ""},
		{"table.json", `{"schema":{"fields":[{"name":"index","type":"integer"}],"primaryKey":["index"],"pandas_version":"1.4.0"},"data":[` + rec0 + `,` + rec1 + `]}`, 2, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, res := collect(t, []string{writeTemp(t, c.name, c.text)}, ingest.Options{Workers: 1, Location: time.UTC})
			if len(got) != c.records {
				t.Errorf("%d records, want %d: %v", len(got), c.records, res.Problems)
			}
			if c.orient == "" {
				return
			}
			want := "pandas DataFrame.to_json() document (orient='" + c.orient + "')"
			if res.BadLines() != 1 || len(res.Problems) == 0 || !strings.Contains(res.Problems[0].Reason, want) ||
				!strings.Contains(res.Problems[0].Reason, "orient='records', lines=True") {
				t.Errorf("%d bad lines, problems %v; want one saying %q", res.BadLines(), res.Problems, want)
			}
		})
	}
}
