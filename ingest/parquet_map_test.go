package ingest_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"

	"loganalyze/ingest"
)

// mapEntry is one entry of a test's MAP column: a key and its value
// (nil for a null one).
type mapEntry struct {
	key string
	val any // string, int64 or nil
}

// mapRow is a row of mapSchema: its time, and its maps, in the order of
// their entries (nil for a null map).
type mapRow struct {
	at     time.Time
	tags   []mapEntry // MAP<STRING, STRING>
	timing []mapEntry // MAP<STRING, BIGINT>
}

// mapSchema is a table of a time and two nullable maps with nullable
// values, as Spark writes MAP<STRING, STRING> and MAP<STRING, BIGINT>
// (apache/parquet-format LogicalTypes.md, "Maps"), their keys and values
// dictionary-encoded or plain. Its leaf columns, in order: tags' keys
// (0) and values (1), time (2), timing's keys (3) and values (4).
func mapSchema(dict bool) *parquet.Schema {
	enc := func(n parquet.Node) parquet.Node {
		if dict {
			return parquet.Encoded(n, &parquet.RLEDictionary)
		}
		return parquet.Encoded(n, &parquet.Plain)
	}
	return parquet.NewSchema("inference", parquet.Group{
		"tags":   parquet.Optional(parquet.Map(enc(parquet.String()), parquet.Optional(enc(parquet.String())))),
		"time":   parquet.Timestamp(parquet.Millisecond),
		"timing": parquet.Optional(parquet.Map(enc(parquet.String()), parquet.Optional(enc(parquet.Int(64))))),
	})
}

// mapLevels appends the values of map entries (nil: a null map) to row,
// its keys' in column kc and its values' in kc+1, at their repetition
// and definition levels: a null map is one level 0, an empty one one
// level 1, an entry's key level 2, its value 3 (2 when null).
func mapLevels(row parquet.Row, kc int, entries []mapEntry) parquet.Row {
	if len(entries) == 0 {
		def := 0
		if entries != nil {
			def = 1
		}
		return append(row, parquet.NullValue().Level(0, def, kc), parquet.NullValue().Level(0, def, kc+1))
	}
	for i, e := range entries {
		rep := min(i, 1)
		row = append(row, parquet.ByteArrayValue([]byte(e.key)).Level(rep, 2, kc))
	}
	for i, e := range entries {
		rep := min(i, 1)
		switch v := e.val.(type) {
		case string:
			row = append(row, parquet.ByteArrayValue([]byte(v)).Level(rep, 3, kc+1))
		case int64:
			row = append(row, parquet.Int64Value(v).Level(rep, 3, kc+1))
		default:
			row = append(row, parquet.NullValue().Level(rep, 2, kc+1))
		}
	}
	return row
}

// writeMapRows writes rows as a file of mapSchema, in row groups of 16.
func writeMapRows(t testing.TB, rows []mapRow, dict bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, mapSchema(dict), parquet.MaxRowsPerRowGroup(16), parquet.PageBufferSize(256))
	for _, r := range rows {
		row := mapLevels(nil, 0, r.tags)
		row = append(row, parquet.Int64Value(r.at.UnixMilli()).Level(0, 0, 2))
		row = mapLevels(row, 3, r.timing)
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// mapRows are n rows whose tags hold several keys, the model among them
// but never first: in some rows twice, in some with a null value, in
// some spelled "Model"; some without it, some maps null or empty.
func mapRows(n int) []mapRow {
	start := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	models := []string{"chat_model", "llama_3_70b", "embed_bge"}
	var rows []mapRow
	for i := range n {
		m := models[i%len(models)]
		r := mapRow{at: start.Add(time.Duration(i) * time.Second)}
		ep, ver := mapEntry{"endpoint_name", "chat-ep"}, mapEntry{"model_version", "3"}
		switch i % 9 {
		case 0:
			r.tags = nil
		case 1:
			r.tags = []mapEntry{}
		case 2:
			r.tags = []mapEntry{ep, ver}
		case 3:
			r.tags = []mapEntry{ep, {"model", "old_model"}, ver, {"model", m}}
		case 4:
			r.tags = []mapEntry{ep, {"model", nil}}
		case 5:
			r.tags = []mapEntry{{"model", m}, ep, {"model", nil}}
		case 6:
			r.tags = []mapEntry{ep, ver, {"Model", m}}
		default:
			r.tags = []mapEntry{ep, {"model", m}, ver}
		}
		total := mapEntry{"total_ms", int64(100 + i*37%900)}
		switch i % 5 {
		case 0:
			r.timing = nil
		case 1:
			r.timing = []mapEntry{{"queue_ms", int64(3)}}
		case 2:
			r.timing = []mapEntry{{"queue_ms", int64(3)}, {"total_ms", nil}}
		default:
			r.timing = []mapEntry{{"queue_ms", int64(i)}, total, {"zz_ms", int64(1)}}
		}
		rows = append(rows, r)
	}
	return rows
}

// lastValue is the value of the last entry of key in entries, matched
// in any case; nil when there is none, or its value is null.
func lastValue(entries []mapEntry, key string) any {
	var v any
	for _, e := range entries {
		if strings.EqualFold(e.key, key) {
			v = e.val
		}
	}
	return v
}

// TestParquetMapKeys binds a key of each of two MAP columns, of strings
// and of integers (--map model=tags.model, request_time=timing.total_ms):
// each record has the value of the last entry of that key in its row's
// map, none when the map is null, empty or lacks it, or the entry's
// value is null; the keys and values dictionary-encoded or plain.
func TestParquetMapKeys(t *testing.T) {
	schema, err := ingest.NewSchema([]string{"model=tags.model", "request_time=timing.total_ms:ms"})
	if err != nil {
		t.Fatal(err)
	}
	rows := mapRows(150)
	for _, dict := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "maps.parquet")
		if err := os.WriteFile(path, writeMapRows(t, rows, dict), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			name := fmt.Sprintf("dictionary %v, %d workers", dict, workers)
			got, res := collect(t, []string{path}, ingest.Options{Workers: workers, Location: time.UTC, Schema: schema})
			if f := res.Files[0]; f.Incomplete || f.BadLines != 0 || len(got) != len(rows) {
				t.Fatalf("%s: %d records of %d, %+v", name, len(got), len(rows), f)
			}
			checkMapRows(t, name, got, rows)
		}
	}
}

// TestParquetMapDamaged writes a row whose map has three keys and two
// values, in the second of the file's row groups of 16: that row group
// gives no row, and the file is incomplete, naming the column; the
// others are read.
func TestParquetMapDamaged(t *testing.T) {
	schema, err := ingest.NewSchema([]string{"model=tags.model"})
	if err != nil {
		t.Fatal(err)
	}
	rows := mapRows(48)
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, mapSchema(false), parquet.MaxRowsPerRowGroup(16))
	for i, r := range rows {
		row := mapLevels(nil, 0, r.tags)
		if i == 20 { // mapRows' tags of two keys: a third, without a value
			text := func(s string) parquet.Value { return parquet.ByteArrayValue([]byte(s)) }
			row = parquet.Row{text("endpoint_name").Level(0, 2, 0), text("model_version").Level(1, 2, 0), text("model").Level(1, 2, 0),
				text("chat-ep").Level(0, 3, 1), text("3").Level(1, 3, 1)}
		}
		row = append(row, parquet.Int64Value(r.at.UnixMilli()).Level(0, 0, 2))
		row = mapLevels(row, 3, r.timing)
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "damaged.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 3} {
		got, res := collect(t, []string{path}, ingest.Options{Workers: workers, Location: time.UTC, Schema: schema})
		f := res.Files[0]
		if !f.Incomplete || !strings.Contains(f.Reason, `column "tags.model"`) || len(got) != 32 {
			t.Fatalf("%d workers: %d records, incomplete %v (%q); want 32, incomplete, tags.model", workers, len(got), f.Incomplete, f.Reason)
		}
		for _, g := range got {
			if at := time.Unix(0, g.timeNS).UTC(); !at.Before(rows[16].at) && at.Before(rows[32].at) {
				t.Fatalf("%d workers: a record of the damaged row group, at %v", workers, at)
			}
		}
	}
}

// dbxMapParquet writes rows as a legacy Databricks inference table of
// a few columns (docs.databricks.com/en/machine-learning/model-serving/
// inference-tables.html): request_metadata, Spark's nullable MAP of
// nullable strings, holding the rows' tags, their "model" keys named
// model_name, dictionary-encoded or plain; in row groups of 16.
func dbxMapParquet(tb testing.TB, rows []mapRow, dict bool) []byte {
	tb.Helper()
	var enc encoding.Encoding = &parquet.Plain
	if dict {
		enc = &parquet.RLEDictionary
	}
	// Leaf columns: databricks_request_id (0), execution_time_ms (1),
	// request_metadata's keys (2) and values (3), status_code (4),
	// timestamp_ms (5).
	schema := parquet.NewSchema("inference", parquet.Group{
		"databricks_request_id": parquet.String(),
		"execution_time_ms":     parquet.Int(64),
		"request_metadata":      parquet.Optional(parquet.Map(parquet.Encoded(parquet.String(), enc), parquet.Optional(parquet.Encoded(parquet.String(), enc)))),
		"status_code":           parquet.Int(32),
		"timestamp_ms":          parquet.Int(64),
	})
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, schema, parquet.MaxRowsPerRowGroup(16), parquet.PageBufferSize(256))
	for i, r := range rows {
		var tags []mapEntry
		if r.tags != nil {
			tags = []mapEntry{}
		}
		for _, e := range r.tags {
			if strings.EqualFold(e.key, "model") {
				e.key = e.key + "_name"
			}
			tags = append(tags, e)
		}
		row := parquet.Row{parquet.ByteArrayValue(fmt.Appendf(nil, "req-%04d", i)).Level(0, 0, 0), parquet.Int64Value(int64(100+i)).Level(0, 0, 1)}
		row = mapLevels(row, 2, tags)
		row = append(row, parquet.Int32Value(200).Level(0, 0, 4), parquet.Int64Value(r.at.UnixMilli()).Level(0, 0, 5))
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestDatabricksMapEntries reads a legacy Databricks table whose
// request_metadata holds model_name among other keys, in any place, in
// some rows twice or with a null value, in some not at all, some maps
// null or empty; dictionary-encoded or plain: each record's model is
// the value of the map's last model_name entry.
func TestDatabricksMapEntries(t *testing.T) {
	rows := mapRows(100)
	for _, dict := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "inference.parquet")
		if err := os.WriteFile(path, dbxMapParquet(t, rows, dict), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			got, res := collect(t, []string{path}, ingest.Options{Workers: workers, Location: time.UTC})
			if f := res.Files[0]; f.Source != "databricks" || f.Incomplete || len(got) != len(rows) {
				t.Fatalf("dictionary %v, %d workers: %d records of %d, %+v", dict, workers, len(got), len(rows), f)
			}
			checkMapModels(t, fmt.Sprintf("dictionary %v, %d workers", dict, workers), got, rows)
		}
	}
}

// TestLangfuseParquetUsageMap: a Langfuse export whose usage_details is a
// Parquet MAP of text keys to integers gives each generation's tokens,
// its input and output entries; none where the map is null or lacks
// the key.
func TestLangfuseParquetUsageMap(t *testing.T) {
	type obs struct {
		TraceID   string           `parquet:"trace_id"`
		ProjectID string           `parquet:"project_id"`
		Type      string           `parquet:"type"`
		Start     string           `parquet:"start_time"`
		End       string           `parquet:"end_time"`
		Usage     map[string]int64 `parquet:"usage_details,optional"`
	}
	var rows []obs
	for i := range 60 {
		start := time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
		o := obs{TraceID: fmt.Sprintf("t%d", i), ProjectID: "p1", Type: "GENERATION", Start: start.Format("2006-01-02 15:04:05.000000"),
			End: start.Add(500 * time.Millisecond).Format("2006-01-02 15:04:05.000000")}
		switch i % 4 {
		case 0: // null
		case 1:
			o.Usage = map[string]int64{"input": int64(10 + i)}
		default:
			o.Usage = map[string]int64{"input": int64(10 + i), "input_cached_tokens": 4, "output": int64(2 * i), "total": int64(10 + 3*i)}
		}
		rows = append(rows, o)
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows, parquet.MaxRowsPerRowGroup(16)); err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, "observations_v2.parquet", buf.String())
	for _, workers := range []int{1, 3} {
		got, res := collect(t, []string{path}, ingest.Options{Workers: workers, Location: time.UTC})
		if f := res.Files[0]; f.Source != "langfuse" || f.Incomplete || len(got) != len(rows) {
			t.Fatalf("%d workers: %d records of %d, %+v", workers, len(got), len(rows), f)
		}
		for i, o := range rows {
			in, ok := o.Usage["input"]
			if !ok {
				in = -1
			}
			out, ok := o.Usage["output"]
			if !ok {
				out = -1
			}
			if g := got[i]; g.prompt != in || g.completion != out {
				t.Errorf("%d workers: record %d has tokens %d and %d, want %d and %d (%v)", workers, i, g.prompt, g.completion, in, out, o.Usage)
			}
		}
	}
}

// TestParquetMapInStruct reads a key of a MAP column within a nullable
// struct by its dotted path (--map model=meta.tags.model): absent where
// the struct or the map is null.
func TestParquetMapInStruct(t *testing.T) {
	schema, err := ingest.NewSchema([]string{"model=meta.tags.model"})
	if err != nil {
		t.Fatal(err)
	}
	file, want := structMapParquet(t)
	got, res := collect(t, []string{writeTemp(t, "nested.parquet", string(file))}, ingest.Options{Workers: 1, Location: time.UTC, Schema: schema})
	if f := res.Files[0]; f.Incomplete || len(got) != len(want) {
		t.Fatalf("%d records of %d, %+v", len(got), len(want), f)
	}
	for i, m := range want {
		if g := got[i]; g.model != m || g.hasModel != (m != "") {
			t.Errorf("record %d has model %q (%v), want %q", i, g.model, g.hasModel, m)
		}
	}
}

// checkMapRows checks records got, read from rows (mapRows) by a test
// named name, each at its row's time, with the value of its tags' last
// model entry as its model and its timing's last total_ms as its
// request_time, absent where the row has none.
func checkMapRows(t *testing.T, name string, got []row, rows []mapRow) {
	t.Helper()
	for i, r := range rows {
		g := got[i]
		if g.timeNS != r.at.UnixNano() {
			t.Fatalf("%s: record %d at %v, want %v", name, i, time.Unix(0, g.timeNS).UTC(), r.at)
		}
		m, _ := lastValue(r.tags, "model").(string)
		if g.model != m || g.hasModel != (m != "") {
			t.Errorf("%s: record %d has model %q (%v), want %q (tags %v)", name, i, g.model, g.hasModel, m, r.tags)
		}
		ms, ok := lastValue(r.timing, "total_ms").(int64)
		if ok != !math.IsNaN(g.rt) || ok && math.Abs(g.rt-float64(ms)/1000) > 1e-9 {
			t.Errorf("%s: record %d has request_time %v s, want %d ms (%v; timing %v)", name, i, g.rt, ms, ok, r.timing)
		}
	}
}

// structMapParquet returns a Parquet file of 40 rows in row groups of
// 16, each with a time and a nullable struct meta holding a nullable
// map tags, and the model each row's meta.tags.model gives ("" for
// none): a row without the struct, one with a null map, and the others'
// maps of three keys, model among them.
func structMapParquet(tb testing.TB) ([]byte, []string) {
	type meta struct {
		Tags map[string]string `parquet:"tags,optional"`
	}
	type structRow struct {
		Time int64 `parquet:"time,timestamp(millisecond)"`
		Meta *meta `parquet:"meta,optional"`
	}
	start := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	var rows []structRow
	var want []string
	for i := range 40 {
		r := structRow{Time: start.Add(time.Duration(i) * time.Second).UnixMilli()}
		m := fmt.Sprintf("model-%d", i%5)
		switch i % 4 {
		case 0: // no struct
			m = ""
		case 1:
			r.Meta, m = &meta{}, "" // a null map
		default:
			r.Meta = &meta{Tags: map[string]string{"a_first": "x", "model": m, "zone": "y"}}
		}
		rows = append(rows, r)
		want = append(want, m)
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows, parquet.MaxRowsPerRowGroup(16)); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), want
}

// checkMapModels checks that each record of got, read from rows
// (mapRows) by a test named name, has the value of its tags' last model
// entry as its model, and none where the row has none.
func checkMapModels(t *testing.T, name string, got []row, rows []mapRow) {
	t.Helper()
	for i, r := range rows {
		m, _ := lastValue(r.tags, "model").(string)
		if g := got[i]; g.model != m || g.hasModel != (m != "") {
			t.Errorf("%s: record %d has model %q (%v), want %q (tags %v)", name, i, g.model, g.hasModel, m, r.tags)
		}
	}
}
