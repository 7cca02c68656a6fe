package ingest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestPandasTables: pandas' DataFrame.to_json() writes a table by column
// by default, and by index, split, records, table or values on request
// (https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.to_json.html).
// All but values are read, each record once; values, rows without their
// columns' names, is unread, and its reason says what it is and how to
// write records.
func TestPandasTables(t *testing.T) {
	const (
		t0, t1 = `"2026-12-04T10:00:00Z"`, `"2026-12-04T10:00:01Z"`
		rec0   = `{"time":` + t0 + `,"request_time":1.5,"status":200}`
		rec1   = `{"time":` + t1 + `,"request_time":2.5,"status":502}`
	)
	for _, c := range []struct {
		name, text string
		records    int
		reason     string
	}{
		{"columns.json", `{"time":{"0":` + t0 + `,"1":` + t1 + `},"request_time":{"0":1.5,"1":2.5},"status":{"0":200,"1":502}}`, 2, ""},
		{"columns-indented.json", "{\n  \"time\": {\n    \"0\": " + t0 + ",\n    \"1\": " + t1 + "\n  },\n  \"request_time\": {\n    \"0\": 1.5,\n    \"1\": 2.5\n  },\n  \"status\": {\n    \"0\": 200,\n    \"1\": 502\n  }\n}\n", 2, ""},
		{"index.json", `{"0":` + rec0 + `,"1":` + rec1 + `}`, 2, ""},
		{"split.json", `{"columns":["time","request_time","status"],"index":[0,1],"data":[[` + t0 + `,1.5,200],[` + t1 + `,2.5,502]]}`, 2, ""},
		{"records.json", `[` + rec0 + `,` + rec1 + `]`, 2, ""},
		{"table.json", `{"schema":{"fields":[{"name":"index","type":"integer"}],"primaryKey":["index"],"pandas_version":"1.4.0"},"data":[` + rec0 + `,` + rec1 + `]}`, 2, ""},
		{"values.json", `[[` + t0 + `,1.5,200],[` + t1 + `,2.5,502]]`, 0, "rows of values without column names"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, res := collect(t, []string{writeTemp(t, c.name, c.text)}, ingest.Options{Workers: 1, Location: time.UTC})
			if len(got) != c.records {
				t.Fatalf("%d records, want %d: %v", len(got), c.records, res.Problems)
			}
			if c.reason == "" {
				want := []struct {
					at     time.Time
					rt     float64
					status int64
				}{{time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC), 1.5, 200}, {time.Date(2026, 12, 4, 10, 0, 1, 0, time.UTC), 2.5, 502}}
				for i, w := range want {
					if g := got[i]; g.timeNS != w.at.UnixNano() || g.rt != w.rt || g.status != w.status {
						t.Errorf("record %d: %v, %v s, %d; want %v, %v s, %d", i, time.Unix(0, g.timeNS).UTC(), g.rt, g.status, w.at, w.rt, w.status)
					}
				}
				return
			}
			if res.BadLines() != 1 || len(res.Problems) == 0 || !strings.Contains(res.Problems[0].Reason, c.reason) ||
				!strings.Contains(res.Problems[0].Reason, "orient='values'") || !strings.Contains(res.Problems[0].Reason, "orient='records', lines=True") {
				t.Errorf("%d bad lines, problems %v; want one saying %q", res.BadLines(), res.Problems, c.reason)
			}
		})
	}
}

// TestPandasOrients: the fixtures pandas' to_json() would write by index
// and by column (its default; epoch ms times, as date_unit='ms' writes
// them, and ISO times with date_format='iso', indented) are read as the
// records they hold, decoded here with encoding/json.
func TestPandasOrients(t *testing.T) {
	for _, name := range []string{"pandas-index.json", "pandas-columns.json", "pandas-columns-iso.json"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "jsondoc", name)
			doc := readObjects(t, path)
			var want []tableRecord
			if strings.Contains(name, "index") {
				for _, rec := range doc {
					want = append(want, tableRecord(rec))
				}
			} else {
				for _, rec := range columnRows(doc) {
					want = append(want, rec)
				}
			}
			checkTableRecords(t, path, want)
		})
	}
}

// TestPandasColumnsLarge: a table by column longer than a line may be
// (MaxLine) and than the head its shape is told from is read whole, a
// record for each index key, in the index's order.
func TestPandasColumnsLarge(t *testing.T) {
	const n = 50_000
	start := time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC)
	var b strings.Builder
	statuses := []int{200, 200, 200, 429, 502}
	col := func(name string, cell func(i int) string) {
		b.WriteString(`"` + name + `":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + strconv.Itoa(i) + `":` + cell(i))
		}
		b.WriteByte('}')
	}
	b.WriteByte('{')
	col("time", func(i int) string { return strconv.FormatInt(start.Add(time.Duration(i)*time.Second).UnixMilli(), 10) })
	b.WriteByte(',')
	col("request_time", func(i int) string { return strconv.FormatFloat(float64(i%1000)/100, 'f', -1, 64) })
	b.WriteByte(',')
	col("status", func(i int) string { return strconv.Itoa(statuses[i%len(statuses)]) })
	b.WriteByte('}')
	if b.Len() <= ingest.MaxLine {
		t.Fatalf("the table is %d bytes, want more than a line's %d", b.Len(), ingest.MaxLine)
	}
	got, res := collect(t, []string{writeTemp(t, "columns.json", b.String())}, ingest.Options{Workers: 2, Location: time.UTC})
	if len(got) != n || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines (%v); want %d, 0", len(got), res.BadLines(), res.Problems, n)
	}
	for i, g := range got {
		if at := start.Add(time.Duration(i) * time.Second); g.timeNS != at.UnixNano() || !nearSrc(g.rt, float64(i%1000)/100) || g.status != int64(statuses[i%len(statuses)]) {
			t.Fatalf("record %d: %v, %v s, %d; want %v, %v s, %d", i, time.Unix(0, g.timeNS).UTC(), g.rt, g.status, at, float64(i%1000)/100, statuses[i%len(statuses)])
		}
	}
}

// TestPandasIndexTime: a table by index of a DataFrame indexed by its
// time (df.set_index("time").to_json(orient='index')), its keys epoch ms
// as pandas writes them by default, or ISO times with
// date_format='iso', indented: each row's key is its time, its rows
// carrying none of their own; decoded here with encoding/json.
func TestPandasIndexTime(t *testing.T) {
	for _, name := range []string{"pandas-index-time.json", "pandas-index-time-iso.json"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "jsondoc", name)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]tableRecord
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			var want []tableRecord
			for key, rec := range doc {
				if rec["time"] != nil {
					t.Fatalf("%s: a row with a time of its own", path)
				}
				at, _ := json.Marshal(key)
				rec["time"] = at
				want = append(want, rec)
			}
			checkTableRecords(t, path, want)
		})
	}
}

// TestPandasColumnsTime: pandas' table by column (its default orient)
// of a DataFrame indexed by its time, epoch ms or ISO times as its index
// keys and no column of a time: each row's key is its time, as a table
// by index's (TestPandasIndexTime).
func TestPandasColumnsTime(t *testing.T) {
	for _, name := range []string{"pandas-columns-time.json", "pandas-columns-time-iso.json"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "jsondoc", name)
			doc := readObjects(t, path)
			if doc["time"] != nil {
				t.Fatalf("%s: a column of a time", path)
			}
			var want []tableRecord
			for key, rec := range columnRows(doc) {
				rec["time"], _ = json.Marshal(key)
				want = append(want, rec)
			}
			checkTableRecords(t, path, want)
		})
	}
}

// TestPandasIndexOwnTime: a table by index whose rows carry their own
// time, and a table by column with a column of the time, keep it,
// whatever their index keys are.
func TestPandasIndexOwnTime(t *testing.T) {
	for name, text := range map[string]string{
		"index.json": `{"1796349601457":{"time":"2026-12-04T10:00:00Z","request_time":1.5,"status":200},` +
			`"1796349602053":{"time":"2026-12-04T10:00:01Z","request_time":2.5,"status":502}}`,
		"columns.json": `{"time":{"1796349601457":"2026-12-04T10:00:00Z","1796349602053":"2026-12-04T10:00:01Z"},` +
			`"request_time":{"1796349601457":1.5,"1796349602053":2.5},"status":{"1796349601457":200,"1796349602053":502}}`,
	} {
		got, res := collect(t, []string{writeTemp(t, name, text)}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(got) != 2 || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad lines (%v); want 2, 0", name, len(got), res.BadLines(), res.Problems)
		}
		for i, w := range []time.Time{time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC), time.Date(2026, 12, 4, 10, 0, 1, 0, time.UTC)} {
			if got[i].timeNS != w.UnixNano() {
				t.Errorf("%s: record %d: %v, want %v", name, i, time.Unix(0, got[i].timeNS).UTC(), w)
			}
		}
	}
}

// readObjects decodes the JSON object of objects in file path, a table
// by index or by column.
func readObjects(t *testing.T, path string) map[string]map[string]json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// columnRows turns a table by column (its columns' cells by index key)
// into its rows by index key, a null cell left out.
func columnRows(doc map[string]map[string]json.RawMessage) map[string]tableRecord {
	rows := map[string]tableRecord{}
	for col, cells := range doc {
		for key, v := range cells {
			if rows[key] == nil {
				rows[key] = tableRecord{}
			}
			if string(v) != "null" {
				rows[key][col] = v
			}
		}
	}
	return rows
}
