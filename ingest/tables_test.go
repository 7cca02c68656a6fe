package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
