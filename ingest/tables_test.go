package ingest_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestQueryTables: a Log Analytics table, as the Azure Monitor Logs
// query API answers it ({"tables":[{"name":…,"columns":[{"name","type"}],
// "rows":[[…]]}]}) and as Kusto's REST API v1 does ({"Tables":[{"Columns":
// [{"ColumnName",…}],"Rows":[…]}]}), and the same rows as Elasticsearch's
// ES|QL ({"columns":…,"values":…}) and SQL ({"columns":…,"rows":…}) and
// OpenSearch's SQL ({"schema":…,"datarows":…,"status":200}) answer them,
// read as the same records written as an array of objects, as az monitor
// log-analytics query writes them.
func TestQueryTables(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"azure-apim-la.json", "azure-appgw-la.json", "azure-frontdoor-la.json", "azure-openai-la.json"} {
		src := filepath.Join("testdata", "sources", name)
		raw, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		// The columns in the order the records first name them.
		var records []json.RawMessage
		if err := json.Unmarshal(raw, &records); err != nil {
			t.Fatal(err)
		}
		var cols []string
		seen := map[string]bool{}
		var values []map[string]json.RawMessage
		for _, rec := range records {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(rec, &m); err != nil {
				t.Fatal(err)
			}
			values = append(values, m)
			for _, k := range objectKeys(t, rec) {
				if !seen[k] {
					seen[k], cols = true, append(cols, k)
				}
			}
		}
		rows := make([][]json.RawMessage, len(values))
		for i, m := range values {
			for _, c := range cols {
				v, ok := m[c]
				if !ok {
					v = json.RawMessage("null")
				}
				rows[i] = append(rows[i], v)
			}
		}
		var la []map[string]string
		var kusto []map[string]string
		for _, c := range cols {
			la = append(la, map[string]string{"name": c, "type": "string"})
			kusto = append(kusto, map[string]string{"ColumnName": c, "DataType": "String"})
		}
		laDoc := jsonOf(t, map[string]any{"tables": []any{map[string]any{"name": "PrimaryResult", "columns": la, "rows": rows}}}, "")
		kustoDoc := jsonOf(t, map[string]any{"Tables": []any{map[string]any{"TableName": "Table_0", "Columns": kusto, "Rows": rows}}}, "  ")
		answer := func(v any) []byte { return jsonOf(t, v, "") }
		checkAsLines(t, src, "", map[string][]byte{
			filepath.Join(dir, "la-"+name):    laDoc,
			filepath.Join(dir, "kusto-"+name): kustoDoc,
			// Elasticsearch's ES|QL and SQL, OpenSearch's SQL.
			filepath.Join(dir, "esql-"+name):  answer(map[string]any{"took": 3, "is_partial": false, "columns": la, "values": rows}),
			filepath.Join(dir, "essql-"+name): answer(map[string]any{"columns": la, "rows": rows, "cursor": "c"}),
			// ClickHouse's JSONCompact, its names in "meta"; pandas'
			// split, its names alone.
			filepath.Join(dir, "chcompact-"+name): jsonOf(t, struct {
				Meta       []map[string]string `json:"meta"`
				Data       [][]json.RawMessage `json:"data"`
				Rows       int                 `json:"rows"`
				Statistics map[string]float64  `json:"statistics"`
			}{la, rows, len(rows), map[string]float64{"elapsed": 0.01, "rows_read": float64(len(rows))}}, "\t"),
			filepath.Join(dir, "split-"+name): answer(struct {
				Columns []string            `json:"columns"`
				Index   []int               `json:"index"`
				Data    [][]json.RawMessage `json:"data"`
			}{cols, make([]int, len(rows)), rows}),
			// In its order: the schema before the rows, the status after.
			filepath.Join(dir, "ossql-"+name): answer(struct {
				Schema   []map[string]string `json:"schema"`
				Datarows [][]json.RawMessage `json:"datarows"`
				Total    int                 `json:"total"`
				Status   int                 `json:"status"`
			}{la, rows, len(rows), 200}),
		})
	}
}

// objectKeys returns the keys of the JSON object obj, in order.
func objectKeys(t *testing.T, obj json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", obj)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestPartialAnswers: an answer that says it holds only some of the
// records (ES|QL's "is_partial": true, a search's "timed_out": true or
// failed shards)
// is read with what it holds, and the file is marked read in part,
// saying why; one that says false is not.
func TestPartialAnswers(t *testing.T) {
	esql := func(partial bool) string {
		return fmt.Sprintf(`{"took":3,"is_partial":%v,"columns":[{"name":"request_time","type":"double"},{"name":"status","type":"long"}],"values":[[0.5,200],[1.5,502]]}`, partial)
	}
	hits := func(timedOut bool, failed int) string {
		return fmt.Sprintf(`{"took":5,"timed_out":%v,"_shards":{"total":2,"successful":%d,"failed":%d},"hits":{"hits":[{"_source":{"request_time":0.5,"status":200}},{"_source":{"request_time":1.5,"status":502}}]}}`, timedOut, 2-failed, failed)
	}
	for _, c := range []struct {
		doc, key string
	}{{esql(true), "is_partial: true"}, {esql(false), ""}, {hits(true, 0), "timed_out: true"}, {hits(false, 1), "_shards.failed"}, {hits(false, 0), ""}} {
		got, res := collect(t, []string{writeTemp(t, "a.json", c.doc)}, ingest.Options{Workers: 1})
		f := res.Files[0]
		if len(got) != 2 || f.Incomplete != (c.key != "") || c.key != "" && !strings.Contains(f.Reason, c.key) {
			t.Errorf("%s: %d records, incomplete %v (%q); want 2, %v", c.doc, len(got), f.Incomplete, f.Reason, c.key != "")
		}
	}
}

// tableRecord is a record of a table fixture as the test reads it
// itself, with encoding/json: its columns' values by name.
type tableRecord map[string]json.RawMessage

// checkTableRecords reads path, in UTC, and checks that its records are
// want, in the same order by time: the time (epoch ms as pandas writes
// it, or text in UTC), request_time and upstream_response_time (s, a
// null absent), status and model, each decoded from the fixture's own
// value, a number or a string of one.
func checkTableRecords(t *testing.T, path string, want []tableRecord) {
	t.Helper()
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC, MaxProblems: 10})
	if len(got) != len(want) || res.BadLines() != 0 {
		t.Fatalf("%s: %d records, %d bad lines (%v); want %d, 0", path, len(got), res.BadLines(), res.Problems, len(want))
	}
	text := func(v json.RawMessage) string {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
		return string(v)
	}
	num := func(v json.RawMessage) float64 {
		if v == nil || string(v) == "null" {
			return math.NaN()
		}
		f, err := strconv.ParseFloat(text(v), 64)
		if err != nil {
			t.Fatalf("%s: %s is no number", path, v)
		}
		return f
	}
	at := func(v json.RawMessage) int64 {
		s := text(v)
		if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
			return ms * 1e6
		}
		for _, layout := range []string{"2006-01-02 15:04:05.000", time.RFC3339Nano} {
			if tm, err := time.Parse(layout, s); err == nil {
				return tm.UnixNano()
			}
		}
		t.Fatalf("%s: %s is no time", path, v)
		return 0
	}
	want = slices.Clone(want)
	slices.SortStableFunc(want, func(a, b tableRecord) int { return cmp.Compare(at(a["time"]), at(b["time"])) })
	for i, w := range want {
		g := got[i]
		if g.timeNS != at(w["time"]) || !nearSrc(g.rt, num(w["request_time"])) || !nearSrc(g.urt, num(w["upstream_response_time"])) ||
			float64(g.status) != num(w["status"]) || g.model != text(w["model"]) {
			t.Errorf("%s: record %d is %v, %v s (upstream %v s), %d, %q; want %s", path, i,
				time.Unix(0, g.timeNS).UTC(), g.rt, g.urt, g.status, g.model, jsonOf(t, w, ""))
		}
	}
}

// rowsOf returns the records of a table's rows, each value under its
// column's name (a null left out, as absent).
func rowsOf(t *testing.T, cols []string, rows [][]json.RawMessage) []tableRecord {
	t.Helper()
	var recs []tableRecord
	for _, r := range rows {
		if len(r) != len(cols) {
			t.Fatalf("a row of %d values for %d columns", len(r), len(cols))
		}
		rec := tableRecord{}
		for i, c := range cols {
			if string(r[i]) != "null" {
				rec[c] = r[i]
			}
		}
		recs = append(recs, rec)
	}
	return recs
}

// TestClickHouseCompact: ClickHouse's FORMAT JSONCompact and
// JSONCompactStrings write the names in "meta" and each row in "data"
// as an array of values (https://clickhouse.com/docs/interfaces/formats/JSONCompact,
// …/JSONCompactStrings); pandas' to_json(orient='split') writes the
// names in "columns" and the rows in "data" too. Each row is read as
// the record of its columns.
func TestClickHouseCompact(t *testing.T) {
	for _, name := range []string{"clickhouse-jsoncompact.json", "clickhouse-jsoncompactstrings.json", "pandas-split.json"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "jsondoc", name)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Meta    []struct{ Name string }
				Columns []string
				Data    [][]json.RawMessage
			}
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			cols := doc.Columns
			for _, m := range doc.Meta {
				cols = append(cols, m.Name)
			}
			checkTableRecords(t, path, rowsOf(t, cols, doc.Data))
		})
	}
}

// TestClickHouseColumns: ClickHouse's FORMAT JSONColumns writes each
// column's values in an array, {"col":[v,…],…}, and
// JSONColumnsWithMetadata the same object in "data" after "meta"
// (https://clickhouse.com/docs/interfaces/formats/JSONColumns,
// …/JSONColumnsWithMetadata). Each place is read as the record of its
// columns' values there, decoded here with encoding/json.
func TestClickHouseColumns(t *testing.T) {
	for _, name := range []string{"clickhouse-jsoncolumns.json", "clickhouse-jsoncolumnswithmetadata.json"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "jsondoc", name)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var cols map[string][]json.RawMessage
			if strings.Contains(name, "metadata") {
				var doc struct{ Data map[string][]json.RawMessage }
				err = json.Unmarshal(raw, &doc)
				cols = doc.Data
			} else {
				err = json.Unmarshal(raw, &cols)
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []tableRecord
			for col, vals := range cols {
				for len(want) < len(vals) {
					want = append(want, tableRecord{})
				}
				for i, v := range vals {
					if string(v) != "null" {
						want[i][col] = v
					}
				}
			}
			checkTableRecords(t, path, want)
		})
	}
}

// TestArraysNoTable: an object whose members are arrays of one length
// but none of whose names any source reads ({"args":[…],"env":[…]}, a
// program's settings) is one object that is no record, a bad line, not
// a table by column of as many bad rows as its arrays are long.
func TestArraysNoTable(t *testing.T) {
	path := filepath.Join("testdata", "jsondoc", "arrays-not-table.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cols map[string][]string
	if err := json.Unmarshal(raw, &cols); err != nil {
		t.Fatal(err)
	}
	length := -1
	for _, v := range cols {
		if length >= 0 && len(v) != length {
			t.Fatalf("the fixture's arrays differ in length: it tells nothing")
		}
		length = len(v)
	}
	if length < 2 {
		t.Fatalf("arrays of %d: one row and one object would be alike", length)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1})
	if len(got) != 0 || res.BadLines() != 1 {
		t.Errorf("%d records, %d bad lines; want 0 and 1 (one object, not %d rows): %v", len(got), res.BadLines(), length, res.Problems)
	}
}
