package ingest_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// textTable is a log as a table of text cells, as DuckDB's read_json
// and read_csv give one to COPY ... (FORMAT parquet): a JSON line's
// string its text, a number, an object or an array its JSON text; a CSV
// cell its text; nil for null, a missing key or an empty cell.
type textTable struct {
	names []string
	rows  [][]*string
}

// readTextTable reads a fixture of JSON lines (.json, .jsonl) or CSV
// into a textTable, its columns sorted by name.
func readTextTable(t testing.TB, path string) textTable {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []map[string]*string
	if strings.HasSuffix(path, ".csv") {
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil || len(recs) == 0 {
			t.Fatalf("%s: %v", path, err)
		}
		for _, r := range recs[1:] {
			d := map[string]*string{}
			for i, v := range r {
				if v != "" {
					d[recs[0][i]] = &v
				}
			}
			docs = append(docs, d)
		}
	} else {
		dec := json.NewDecoder(f)
		for {
			var m map[string]json.RawMessage
			if err := dec.Decode(&m); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			d := map[string]*string{}
			for k, raw := range m {
				var s string
				switch {
				case string(raw) == "null":
					continue
				case json.Unmarshal(raw, &s) == nil:
				default:
					s = string(raw)
				}
				d[k] = &s
			}
			docs = append(docs, d)
		}
	}
	var tb textTable
	for _, d := range docs {
		for k := range d {
			if !slices.Contains(tb.names, k) {
				tb.names = append(tb.names, k)
			}
		}
	}
	slices.Sort(tb.names)
	for _, d := range docs {
		row := make([]*string, len(tb.names))
		for i, n := range tb.names {
			row[i] = d[n]
		}
		tb.rows = append(tb.rows, row)
	}
	return tb
}

// parquet writes the table as a Parquet file of optional strings, in
// row groups of groupRows rows.
func (tb textTable) parquet(t testing.TB, groupRows int64) []byte {
	t.Helper()
	group := parquet.Group{}
	for _, n := range tb.names {
		group[n] = parquet.Optional(parquet.String())
	}
	schema := parquet.NewSchema("log", group)
	col := map[string]int{} // a parquet.Group's columns are in the order of their names
	for i, path := range schema.Columns() {
		col[path[0]] = i
	}
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, schema, parquet.MaxRowsPerRowGroup(groupRows))
	for _, r := range tb.rows {
		row := make(parquet.Row, len(tb.names))
		for i, n := range tb.names {
			c := col[n]
			if r[i] == nil {
				row[c] = parquet.NullValue().Level(0, 0, c)
			} else {
				row[c] = parquet.ByteArrayValue([]byte(*r[i])).Level(0, 1, c)
			}
		}
		if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// arrow writes the table as an Arrow IPC file of strings.
func (tb textTable) arrow(t testing.TB) []byte {
	t.Helper()
	mem := memory.NewGoAllocator()
	var fields []arrow.Field
	for _, n := range tb.names {
		fields = append(fields, arrow.Field{Name: n, Type: arrow.BinaryTypes.String, Nullable: true})
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, r := range tb.rows {
		for i, v := range r {
			sb := b.Field(i).(*array.StringBuilder)
			if v == nil {
				sb.AppendNull()
			} else {
				sb.Append(*v)
			}
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	data, err := os.ReadFile(writeArrowFile(t, "log.arrow", rec))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// batchCollector is collector as a BatchSink: a columnar file's rows
// are then set a column at a time (setRows), not a row at a time.
type batchCollector struct{ collector }

func (c *batchCollector) AddBatch(rs []ingest.Record) {
	for i := range rs {
		c.Add(&rs[i])
	}
}

// collectBatches is collect into batchCollectors.
func collectBatches(t testing.TB, paths []string, opts ingest.Options) ([]row, *ingest.Result) {
	t.Helper()
	sinks, res, err := ingest.Run(paths, opts, func() *batchCollector { return &batchCollector{} })
	if err != nil {
		t.Fatalf("run %v: %v", paths, err)
	}
	var c collector
	for _, s := range sinks {
		c.rows = append(c.rows, s.rows...)
	}
	return c.rows, res
}

// rowTexts returns the rows' texts, sorted: the same records, in
// whatever order, give the same.
func rowTexts(rows []row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%+v", r))
	}
	slices.Sort(out)
	return out
}

// TestColumnarJSONText: a Parquet or Arrow string column that holds a
// JSON object per row (Higress's ai_log, Langfuse's usage_details,
// one-hub's metadata, Lunary's error and user), as DuckDB's COPY of the
// JSON lines or CSV writes one, is read by its members' paths as the
// JSON lines and CSV are: the values are those the fixtures' JSON holds,
// decoded by encoding/json. Before, such a column was not read: the
// Higress file gave no TTFT and no model, Langfuse's no tokens,
// one-hub's no TTFT, and Lunary's lost its 429 and its clients.
func TestColumnarJSONText(t *testing.T) {
	type want struct {
		// Each sorted; nil: not checked (the fixture's other columns
		// give it). ttft in ms, as the field is read.
		ttft, prompt, completion []float64
		models                   []string // sorted
		clients                  []string // sorted
		status429                int
	}
	sortedNums := func(docs []rawDoc, path string, per float64) []float64 {
		var out []float64
		for _, d := range docs {
			if v := d.num(path); !math.IsNaN(v) {
				out = append(out, v*per)
			}
		}
		slices.Sort(out)
		return out
	}
	sortedStrs := func(docs []rawDoc, path string) []string {
		var out []string
		for _, d := range docs {
			if v := d.str(path); v != "" {
				out = append(out, v)
			}
		}
		slices.Sort(out)
		return out
	}
	fixtures := []struct {
		name string
		want func(docs []rawDoc) want
	}{
		{"higress.json", func(docs []rawDoc) want {
			var inner []rawDoc // ai_log, JSON in a string
			for _, d := range docs {
				inner = append(inner, d.inner("ai_log"))
			}
			return want{ttft: sortedNums(inner, "llm_first_token_duration", 1), prompt: sortedNums(inner, "input_token", 1),
				completion: sortedNums(inner, "output_token", 1), models: sortedStrs(inner, "model")}
		}},
		{"langfuse.csv", func(docs []rawDoc) want {
			return want{prompt: sortedNums(docs, "usage_details.input", 1), completion: sortedNums(docs, "usage_details.output", 1)}
		}},
		{"one-hub.csv", func(docs []rawDoc) want {
			return want{ttft: sortedNums(docs, "metadata.first_response", 1)}
		}},
		{"lunary.csv", func(docs []rawDoc) want {
			w := want{clients: sortedStrs(docs, "user.externalId"), prompt: sortedNums(docs, "tokens.prompt", 1),
				completion: sortedNums(docs, "tokens.completion", 1)}
			for _, d := range docs {
				if strings.HasPrefix(d.str("error.message"), "Error code: 429 ") { // the OpenAI SDK's RateLimitError
					w.status429++
				}
			}
			return w
		}},
	}
	for _, fx := range fixtures {
		path := filepath.Join("testdata", "sources", fx.name)
		w := fx.want(readRawDocs(t, path))
		if len(w.ttft)+len(w.prompt)+len(w.clients)+w.status429 == 0 {
			t.Fatalf("%s: the fixture holds nothing to check", fx.name)
		}
		tb := readTextTable(t, path)
		files := map[string][]byte{"parquet": tb.parquet(t, 2), "arrow": tb.arrow(t)}
		for _, kind := range []string{"parquet", "arrow"} {
			file := writeTemp(t, strings.TrimSuffix(fx.name, filepath.Ext(fx.name))+"."+kind, string(files[kind]))
			opts := ingest.Options{Workers: 2, Location: time.UTC}
			byRow, res := collect(t, []string{file}, opts)
			byBatch, _ := collectBatches(t, []string{file}, opts)
			if len(byRow) == 0 || res.BadLines() != 0 {
				t.Fatalf("%s as %s: %d records, %d bad lines: %v", fx.name, kind, len(byRow), res.BadLines(), res.Problems)
			}
			for name, got := range map[string][]row{"by row": byRow, "by batch": byBatch} {
				var g want
				for _, r := range got {
					if !math.IsNaN(r.ttft) && w.ttft != nil {
						g.ttft = append(g.ttft, r.ttft)
					}
					if r.prompt >= 0 && w.prompt != nil {
						g.prompt = append(g.prompt, float64(r.prompt))
					}
					if r.completion >= 0 && w.completion != nil {
						g.completion = append(g.completion, float64(r.completion))
					}
					if r.hasModel && w.models != nil {
						g.models = append(g.models, r.model)
					}
					if r.client != "" && w.clients != nil {
						g.clients = append(g.clients, r.client)
					}
					if r.status == 429 {
						g.status429++
					}
				}
				for _, s := range [][]float64{g.ttft, g.prompt, g.completion} {
					slices.Sort(s)
				}
				slices.Sort(g.models)
				slices.Sort(g.clients)
				if fmt.Sprint(g) != fmt.Sprint(w) {
					t.Errorf("%s as %s, %s:\n got %+v\nwant %+v", fx.name, kind, name, g, w)
				}
			}
			if a, b := rowTexts(byRow), rowTexts(byBatch); !slices.Equal(a, b) {
				t.Errorf("%s as %s: read by row\n%v\nby batch\n%v", fx.name, kind, a, b)
			}
		}
	}
}

// TestColumnarJSONTextWins: a JSON text column's member whose name
// ranks above a later column's sets the field, read by row and a batch
// at a time alike, and the accumulator's keys (DictKeys) follow it.
// Ranks (ingest/schema.go, "lower wins"): a canonical name before any
// alias, the aliases best first. In each row __TAG__'s member "model"
// (no alias under __TAG__: read by its own name, the canonical one)
// beats model_name, an alias; ai_log.llm_first_token_duration, the
// fourth alias of ttft, beats time_to_first_token, the sixth.
func TestColumnarJSONTextWins(t *testing.T) {
	type tagRow struct {
		Time        int64   `parquet:"time,timestamp(millisecond)"`
		Tag         string  `parquet:"__TAG__"`
		AILog       string  `parquet:"ai_log"`
		ModelName   string  `parquet:"model_name,dict"`
		RequestTime float64 `parquet:"request_time"`
		TTFT        float64 `parquet:"time_to_first_token"`
	}
	var rows []tagRow
	wantModels, wantTTFT := map[string]int{}, map[float64]int{}
	for i := range 300 {
		model, ttft := fmt.Sprintf("tag-%d", i%3), float64(100+i%7)
		tag, _ := json.Marshal(map[string]string{"model": model})
		ai, _ := json.Marshal(map[string]string{"llm_first_token_duration": fmt.Sprint(ttft)})
		rows = append(rows, tagRow{Time: 1795917600000 + int64(i)*1000, Tag: string(tag), AILog: string(ai),
			ModelName: "column", RequestTime: float64(i%13) / 10, TTFT: 9000})
		wantModels[model]++
		wantTTFT[ttft]++
	}
	path := filepath.Join(t.TempDir(), "tag.parquet")
	writeDictRows(t, path, rows, 64)
	opts := ingest.Options{Workers: 2, Location: time.UTC}
	byRow, res := collect(t, []string{path}, opts)
	byBatch, _ := collectBatches(t, []string{path}, opts)
	if len(byRow) != len(rows) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines; want %d, 0: %v", len(byRow), res.BadLines(), len(rows), res.Problems)
	}
	for name, got := range map[string][]row{"by row": byRow, "by batch": byBatch} {
		models, ttfts := map[string]int{}, map[float64]int{}
		for _, r := range got {
			models[r.model]++
			ttfts[r.ttft]++
		}
		if fmt.Sprint(models) != fmt.Sprint(wantModels) || fmt.Sprint(ttfts) != fmt.Sprint(wantTTFT) {
			t.Errorf("%s: models %v, ttft %v; want %v, %v", name, models, ttfts, wantModels, wantTTFT)
		}
	}
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	run := func(off bool) []byte {
		ingest.DictKeysOff(off)
		defer ingest.DictKeysOff(false)
		accs, _, err := ingest.Run([]string{path}, opts, func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: m, Top: 1000})
		})
		if err != nil {
			t.Fatal(err)
		}
		return aggregate.MergeAll(accs).AppendBinary(nil)
	}
	if !bytes.Equal(run(false), run(true)) {
		t.Error("the accumulator with DictKeys differs from the one without")
	}
}

// FuzzColumnarJSONText: any text in a Parquet column of JSON objects
// (Higress's ai_log), beside a well-formed one, gives no panic, each row
// a record or a bad row, and the same records read by row and a batch
// at a time.
func FuzzColumnarJSONText(f *testing.F) {
	type aiRow struct {
		Time        int64   `parquet:"time,timestamp(millisecond)"`
		AILog       string  `parquet:"ai_log"`
		RequestTime float64 `parquet:"request_time"`
	}
	f.Add(`{"model":"qwen-max","input_token":"21","llm_first_token_duration":"309","llm_service_duration":"1560"}`)
	f.Add(`{"model":"qwen\u002dmax","response_type":"stream","llm_first_token_duration":"-"}`)
	f.Add(`{'model': 'qwen-max'}`) // a Python dict's repr
	f.Add(`{"llm_service_duration":"1e400"}`)
	f.Add(`{"model":{"name":["a",{"b":1}]},"x":"{\"y\":1}"}`)
	f.Add(`{"model":"a"} trailing`)
	f.Add(`{`)
	f.Add(`-`)
	f.Fuzz(func(t *testing.T, cell string) {
		rows := []aiRow{
			{Time: 1795917600000, AILog: cell, RequestTime: 0.5},
			{Time: 1795917601000, AILog: `{"model":"qwen-max","llm_first_token_duration":"95"}`, RequestTime: 1},
		}
		var buf bytes.Buffer
		if err := writeRows(&buf, rows); err != nil {
			t.Fatal(err)
		}
		var got [2][]string
		for i, batch := range []bool{false, true} {
			opts := ingest.Options{Stdin: bytes.NewReader(buf.Bytes()), Format: ingest.Parquet, Workers: 1}
			var recs []row
			var res *ingest.Result
			if batch {
				recs, res = collectBatches(t, []string{"-"}, opts)
			} else {
				recs, res = collect(t, []string{"-"}, opts)
			}
			if n := int64(len(recs)) + res.BadLines(); n != int64(len(rows)) || res.Incomplete() {
				t.Fatalf("%d records and %d bad rows (%+v); want %d in all", len(recs), res.BadLines(), res.Files, len(rows))
			}
			got[i] = rowTexts(recs)
		}
		if !slices.Equal(got[0], got[1]) {
			t.Fatalf("read by row %v, by batch %v", got[0], got[1])
		}
	})
}
