package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gotElem is a copy of one element the reader handed on.
type gotElem struct {
	text     string
	line, at int64
	bad      string
}

// readDocAll runs a docReader over input with a tiny buffer, so that
// elements, keys and strings cross buffer refills.
func readDocAll(t testing.TB, input io.Reader) ([]gotElem, *docReader, error) {
	t.Helper()
	var got []gotElem
	s, _ := NewSchema(nil)
	d := newDocReader(bufio.NewReaderSize(input, 16), s, func(e *docElem) {
		got = append(got, gotElem{text: string(e.text), line: e.line, at: e.at, bad: e.bad})
	})
	err := d.run()
	return got, d, err
}

// canonical re-encodes a JSON text with encoding/json (sorted keys, no
// spaces): the oracle the reader's output is compared with.
func canonical(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %v: %q", err, s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantElem is an expected element: a record (text, written by hand) whose
// element starts on line and its record object on at, or a bad element
// on line whose reason contains bad.
type wantElem struct {
	line, at int64
	text     string
	bad      string
}

func rec(line int64, text string) wantElem     { return wantElem{line: line, at: line, text: text} }
func hit(line, at int64, text string) wantElem { return wantElem{line: line, at: at, text: text} }
func bad(line int64, reason string) wantElem   { return wantElem{line: line, bad: reason} }

// docCases are the reader's table; the fuzz test starts from them too.
var docCases = []struct {
	name  string
	in    string
	want  []wantElem
	err   string // what the error says; "" for none
	shape Format // what jsonShape makes of it
}{
	{"array", "[\n  {\"a\": 1},\n  {\"b\": [1, 2, {\"c\": \"]\"}]}\n]\n",
		[]wantElem{rec(2, `{"a":1}`), rec(3, `{"b":[1,2,{"c":"]"}]}`)}, "", JSONDoc},
	{"compact array", `[{"a":1},{"b":2}]`, []wantElem{rec(1, `{"a":1}`), rec(1, `{"b":2}`)}, "", JSONDoc},
	{"empty array", "[ ]", nil, "", JSONDoc},
	{"empty envelope", `{"data":[]}`, nil, "", JSONDoc},
	{"pretty object", "{\n  \"model\": \"m\",\n  \"nested\": {\"x\": [[], {}]}\n}\n",
		[]wantElem{rec(1, `{"model":"m","nested":{"x":[[],{}]}}`)}, "", JSONDoc},
	{"concatenated", "{\n \"a\": 1\n}\n{\n \"b\": 2\n}{\"c\":3}\n\n{\"d\":4}",
		[]wantElem{rec(1, `{"a":1}`), rec(4, `{"b":2}`), rec(6, `{"c":3}`), rec(8, `{"d":4}`)}, "", JSONDoc},
	{"concatenated on one line", `{"a":1} {"b":2}`, []wantElem{rec(1, `{"a":1}`), rec(1, `{"b":2}`)}, "", JSONDoc},
	{"new-api", `{"success":true,"message":"","data":{"items":[{"model_name":"gpt-4o","use_time":3,"other":"{\"frt\":350.5}"}],"total":1}}`,
		[]wantElem{rec(1, `{"model_name":"gpt-4o","use_time":3,"other":"{\"frt\":350.5}"}`)}, "", JSONDoc},
	{"one-api", "{\"success\": true, \"message\": \"\", \"data\": [\n{\"a\": 1},\n{\"b\": 2}\n]}",
		[]wantElem{rec(2, `{"a":1}`), rec(3, `{"b":2}`)}, "", JSONDoc},
	{"data.data", `{"data":{"data":[{"a":1}],"page":2}}`, []wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"items", `{"items":[{"a":1}],"total":1}`, []wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"logs", `{"next":null,"logs":[{"a":1}]}`, []wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"records", `{"records":[{"a":1},{"b":2}]}`, []wantElem{rec(1, `{"a":1}`), rec(1, `{"b":2}`)}, "", JSONDoc},
	{"cloudflare result", "{\n  \"result\": [\n    {\"a\": 1},\n    {\"b\": 2}\n  ],\n  \"result_info\": {\"count\": 2, \"page\": 1},\n  \"success\": true,\n  \"errors\": [],\n  \"messages\": []\n}",
		[]wantElem{rec(3, `{"a":1}`), rec(4, `{"b":2}`)}, "", JSONDoc},
	{"cloudflare result after success", `{"success":true,"errors":[],"messages":[],"result":[{"a":1}],"result_info":{"page":1}}`,
		[]wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"cloudflare error", `{"result":null,"success":false,"errors":[{"code":10000,"message":"Authentication error"}],"messages":[]}`,
		[]wantElem{rec(1, `{"result":null,"success":false,"errors":[{"code":10000,"message":"Authentication error"}],"messages":[]}`)}, "", JSONL},
	{"result before the fields", `{"result":[{"sku":1}],"request_time":0.5}`, []wantElem{rec(1, `{"sku":1}`)}, "", JSONL},
	{"record with a result object", `{"result":{"ok":true},"request_time":0.5}`, []wantElem{rec(1, `{"result":{"ok":true},"request_time":0.5}`)}, "", JSONL},
	{"langsmith runs", "{\n  \"runs\": [\n    {\"a\": 1},\n    {\"b\": 2}\n  ],\n  \"cursors\": {\"next\": \"c2\"},\n  \"parsed_query\": null\n}",
		[]wantElem{rec(3, `{"a":1}`), rec(4, `{"b":2}`)}, "", JSONDoc},
	{"langsmith runs after cursors", `{"cursors":{"next":null},"search_cursors":null,"runs":[{"a":1}]}`,
		[]wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"runs before the fields", `{"runs":[{"lap":1}],"request_time":0.5}`, []wantElem{rec(1, `{"lap":1}`)}, "", JSONL},
	{"record with a runs count", `{"request_time":0.5,"runs":[{"lap":1}]}`, []wantElem{rec(1, `{"request_time":0.5,"runs":[{"lap":1}]}`)}, "", JSONL},
	{"record with a runs object", `{"runs":{"n":3},"request_time":0.5}`, []wantElem{rec(1, `{"runs":{"n":3},"request_time":0.5}`)}, "", JSONL},
	{"envelope after other members", `{"took":3,"meta":{"data":[1]},"data":[{"a":1}],"extra":[{"x":1}]}`,
		[]wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"envelopes concatenated", "{\"data\":[{\"a\":1}]}\n{\"data\":[{\"b\":2}]}\n",
		[]wantElem{rec(1, `{"a":1}`), rec(2, `{"b":2}`)}, "", JSONDoc},
	{"es hits", "{\"took\": 2, \"hits\": {\"total\": {\"value\": 2}, \"hits\": [\n  {\"_id\": \"1\",\n   \"_source\": {\"a\": 1}},\n  {\"_id\": \"2\", \"_source\": {\"b\": \"}\"}}\n]}}",
		[]wantElem{hit(2, 3, `{"a":1}`), hit(4, 4, `{"b":"}"}`)}, "", JSONDoc},
	{"hit fields", "{\"hits\": {\"hits\": [\n{\"_id\": \"1\", \"fields\": {\"a\": [1], \"b\": [\"x, \\\"y]\"], \"c\": [ ], \"d\": [1, 2], \"e\": [{\"f\": 1}]}},\n{\"_index\": \"i\", \"_source\": {\"g\": 2}, \"fields\": {\"g\": [3]}}\n]}}",
		[]wantElem{rec(2, `{"a":1,"b":"x, \"y]","c":null,"d":[1,2],"e":[{"f":1}]}`), rec(3, `{"g":2}`)}, "", JSONDoc},
	{"fields of no hit", `[{"fields":{"a":[1]},"b":2}]`, []wantElem{rec(1, `{"fields":{"a":[1]},"b":2}`)}, "", JSONDoc},
	{"bare hits", `[{"_index":"i","_source":{"a":1}},{"_index":"i","_source":{"b":2}}]`,
		[]wantElem{rec(1, `{"a":1}`), rec(1, `{"b":2}`)}, "", JSONDoc},
	{"hits as lines", "{\"_id\":\"1\",\"_source\":{\"a\":1}}\n{\"_id\":\"2\",\"_source\":{\"b\":2}}\n",
		[]wantElem{rec(1, `{"a":1}`), rec(2, `{"b":2}`)}, "", JSONDoc},
	{"record field before data", `{"model":"m","data":[{"x":1}]}`,
		[]wantElem{rec(1, `{"model":"m","data":[{"x":1}]}`)}, "", JSONL},
	{"data holding scalars", "{\"data\": [ \"x\", [1]],\n \"request_time\": 1}", []wantElem{rec(1, `{"data":["x",[1]],"request_time":1}`)}, "", JSONDoc},
	{"items holding numbers", `{"items":[1,2]}`, []wantElem{rec(1, `{"items":[1,2]}`)}, "", JSONL},
	{"items before the fields", `{"items":[{"sku":1}],"request_time":0.5}`, []wantElem{rec(1, `{"sku":1}`)}, "", JSONL},
	{"datadog v1 on one line", `{"logs":[{"a":1},{"b":2}],"nextLogId":null,"status":"done"}`, []wantElem{rec(1, `{"a":1}`), rec(1, `{"b":2}`)}, "", JSONDoc},
	{"items before a status", `{"items":[{"sku":1}],"status":"200"}`, []wantElem{rec(1, `{"sku":1}`)}, "", JSONL},
	{"record with a data object", `{"data":{"total":1}}`, []wantElem{rec(1, `{"data":{"total":1}}`)}, "", JSONL},
	{"brackets and quotes in strings", `[{"s":"a \"}]{[ b\\","t":"\"","u":"\\\\"}]`,
		[]wantElem{rec(1, `{"s":"a \"}]{[ b\\","t":"\"","u":"\\\\"}`)}, "", JSONDoc},
	{"escaped key", `{"d\u0061ta":[{"a":1}]}`, []wantElem{rec(1, `{"d\u0061ta":[{"a":1}]}`)}, "", JSONL},
	{"insights rows", "{\n  \"results\": [\n    [\n      {\"field\": \"@timestamp\", \"value\": \"2026-11-29 02:00:00.000\"},\n      {\"field\": \"@message\", \"value\": \"x \\\"y\\\" }]\"}\n    ],\n" +
		"    [{\"field\":\"status\",\"value\":\"200\"},{\"field\":\"n\",\"value\":null},{\"value\":\"v\"},{\"field\":\"o\",\"value\":{\"b\":[1]}},{}],\n    []\n  ],\n" +
		"  \"statistics\": {\"recordsMatched\": 2.0, \"recordsScanned\": 9.0},\n  \"status\": \"Complete\"\n}\n",
		[]wantElem{rec(3, `{"@timestamp":"2026-11-29T02:00:00.000Z","@message":"x \"y\" }]"}`), rec(7, `{"status":"200","o":{"b":[1]}}`), rec(8, `{}`)}, "", JSONDoc},
	{"insights rows on one line", `{"results":[[{"field":"@timestamp","value":"2026-11-29 02:00:00"},{"value":"m","field":"@message"}]],"statistics":{},"status":"Complete"}`,
		[]wantElem{rec(1, `{"@timestamp":"2026-11-29T02:00:00Z","@message":"m"}`)}, "", JSONDoc},
	{"insights time of another layout", `{"results":[[{"field":"@timestamp","value":"2026-11-29T02:00:00+08:00"},{"field":"@timestamp","value":"2026-11-29 02:00:00."}]]}`,
		[]wantElem{rec(1, `{"@timestamp":"2026-11-29T02:00:00+08:00","@timestamp":"2026-11-29 02:00:00."}`)}, "", JSONDoc},
	{"insights bad rows", "{\"results\":[[{\"field\":1,\"value\":\"x\"}],\n\"s\",[{\"field\":\"a\"} {}],[1],[{\"field\":\"a\",\"value\":\"b\"}]]}",
		[]wantElem{bad(1, "not a CloudWatch Logs Insights result row"), bad(2, "not a CloudWatch Logs Insights result row"),
			bad(2, "not a CloudWatch Logs Insights result row"), bad(2, "not a CloudWatch Logs Insights result row"), rec(2, `{"a":"b"}`)}, "", JSONDoc},
	{"results of objects", `{"results":[{"a":1}],"next":null}`, []wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"nerdgraph nrql", "{\"data\":{\"actor\":{\"account\":{\"nrql\":{\"results\":[\n{\"duration\":1.5},\n{\"duration\":0.2}]}}}}}",
		[]wantElem{rec(2, `{"duration":1.5}`), rec(3, `{"duration":0.2}`)}, "", JSONDoc},
	{"nerdgraph nrql of accounts", `{"data":{"actor":{"nrql":{"results":[{"a":1}],"metadata":{"facets":null}}}}}`,
		[]wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"record with an account object", `{"data":{"account":{"id":1}},"duration":1.5}`,
		[]wantElem{rec(1, `{"data":{"account":{"id":1}},"duration":1.5}`)}, "", JSONL},
	{"insights query events", "{\"results\":[{\"events\":[\n{\"a\":1},\n{\"b\":2}]},\n{ \"events\" : [{\"c\":3}], \"n\": 1}],\n\"performanceStats\":{\"inspectedCount\":2},\"metadata\":{\"eventTypes\":[\"Span\"]}}",
		[]wantElem{rec(2, `{"a":1}`), rec(3, `{"b":2}`), rec(4, `{"c":3}`)}, "", JSONDoc},
	{"results of an events count", `{"results":[{"events":3}]}`, []wantElem{rec(1, `{"events":3}`)}, "", JSONDoc},
	{"results of records with events", `{"results":[{"a":1,"events":[{"b":2}]}]}`, []wantElem{rec(1, `{"a":1,"events":[{"b":2}]}`)}, "", JSONDoc},
	{"data of records with events", `{"data":[{"events":[{"b":2}],"a":1}]}`, []wantElem{rec(1, `{"events":[{"b":2}],"a":1}`)}, "", JSONDoc},
	{"results after a status", `{"status":"Complete","results":[[{"field":"a","value":"b"}]]}`,
		[]wantElem{rec(1, `{"a":"b"}`)}, "", JSONDoc},
	{"results after a field", `{"status":404,"results":[[{"field":"a","value":"b"}]]}`,
		[]wantElem{rec(1, `{"status":404,"results":[[{"field":"a","value":"b"}]]}`)}, "", JSONL},
	{"data after a status word", "{\"status\": \"success\",\n \"data\": {\"result\": [{\"a\": 1}]}}", []wantElem{rec(2, `{"a":1}`)}, "", JSONDoc},
	{"data after a status of digits", `{"status":"200","data":[{"a":1}]}`, []wantElem{rec(1, `{"status":"200","data":[{"a":1}]}`)}, "", JSONL},
	{"loki streams", "{\"status\":\"success\",\"data\":{\"resultType\":\"streams\",\"result\":[\n {\"stream\":{\"pod\":\"gw-1\"},\"values\":[\n  [\"1796392800000000000\",\"a \\\"b\\\"\"],\n  [\"1796392800123456789\",\"c\",{\"trace_id\":\"t\"}],\n  [\"x\",\"d\"], 7,\n  [\"1796392801000000000\",\"e\"]]},\n {\"metric\":{},\"values\":[[1796392800,\"1.5\"]]}],\"stats\":{}}}",
		[]wantElem{rec(3, `{"timestamp":"2026-12-04T14:00:00Z","line":"a \"b\""}`), rec(4, `{"timestamp":"2026-12-04T14:00:00.123456789Z","line":"c"}`),
			bad(5, "not a Loki stream's value"), bad(5, "not a Loki stream's value"), rec(6, `{"timestamp":"2026-12-04T14:00:01Z","line":"e"}`),
			rec(7, `{"metric":{},"values":[[1796392800,"1.5"]]}`)}, "", JSONDoc},
	{"values without a stream", `[{"values":[["1796392800000000000","x"]],"model":"m"}]`, []wantElem{rec(1, `{"values":[["1796392800000000000","x"]],"model":"m"}`)}, "", JSONDoc},
	{"log analytics tables", "{\"tables\": [{\"name\": \"PrimaryResult\",\n \"columns\": [{\"name\": \"a\", \"type\": \"long\"}, {\"name\": \"b\\\"c\", \"type\": \"string\"}],\n \"rows\": [\n [1, \"x\"],\n [null, \"y\"], [2], \"bad\",\n [3, \"z\", 4], [{\"d\": [5]}, \"w\"]]},\n {\"name\": \"t2\", \"rows\": [[6]]}]}",
		[]wantElem{rec(4, `{"a":1,"b\"c":"x"}`), rec(5, `{"b\"c":"y"}`), bad(5, "not a row of the table's columns"), bad(5, "not a row of the table's columns"),
			bad(6, "not a row of the table's columns"), rec(6, `{"a":{"d":[5]},"b\"c":"w"}`), bad(7, "not a row of the table's columns")}, "", JSONDoc},
	{"kusto tables", `{"Tables":[{"TableName":"Table_0","Columns":[{"ColumnName":"a","DataType":"Int64","ColumnType":"long"}],"Rows":[[1],[2]]}]}`,
		[]wantElem{rec(1, `{"a":1}`), rec(1, `{"a":2}`)}, "", JSONDoc},
	{"es|ql answer", "{\"took\": 3, \"is_partial\": false,\n \"columns\": [{\"name\": \"a\", \"type\": \"long\"}, {\"name\": \"b\", \"type\": \"keyword\"}],\n \"values\": [[1, \"x\"],\n [2, null]]}",
		[]wantElem{rec(3, `{"a":1,"b":"x"}`), rec(4, `{"a":2}`)}, "", JSONDoc},
	{"opensearch sql answer", `{"schema":[{"name":"a","type":"long"}],"datarows":[[1],[2,3]],"total":2,"size":2,"status":200}`,
		[]wantElem{rec(1, `{"a":1}`), bad(1, "not a row of the table's columns")}, "", JSONDoc},
	{"clickhouse jsoncompact", "{\n\t\"meta\":\n\t[\n\t\t{\"name\": \"a\", \"type\": \"UInt8\"},\n\t\t{\"name\": \"b\", \"type\": \"Nullable(String)\"}\n\t],\n\n\t\"data\":\n\t[\n\t\t[1, \"x\"],\n\t\t[2, null], [3]\n\t],\n\n\t\"rows\": 3,\n\n\t\"statistics\": {\"elapsed\": 0.001}\n}",
		[]wantElem{rec(10, `{"a":1,"b":"x"}`), rec(11, `{"a":2}`), bad(11, "not a row of the table's columns")}, "", JSONDoc},
	{"clickhouse json", `{"meta":[{"name":"a","type":"UInt8"}],"data":[{"a":1}],"rows":1}`, []wantElem{rec(1, `{"a":1}`)}, "", JSONDoc},
	{"pandas split", `{"columns":["a","b\"c"],"index":[0,1],"data":[[1,"x"],[{"d":[2]},3]]}`,
		[]wantElem{rec(1, `{"a":1,"b\"c":"x"}`), rec(1, `{"a":{"d":[2]},"b\"c":3}`)}, "", JSONDoc},
	{"split of no names", `{"columns":[["a","b"]],"data":[[1]]}`, []wantElem{rec(1, `{"columns":[["a","b"]],"data":[[1]]}`)}, "", JSONL},
	{"pandas index", "{\"0\":{\"a\":1},\"1\":{\"a\":2,\"_source\":{\"b\":3}},\n\"2\":[4],\"x\":{\"a\":5}}",
		[]wantElem{rec(1, `{"a":1}`), hit(1, 1, `{"b":3}`), bad(2, "not a JSON object"), rec(2, `{"a":5}`)}, "", JSONDoc},
	{"pandas columns", `{"a":{"0":1,"1":2,"2":3},"b\"c":{"1":"y","0":"x","3":"z"},"d":{"0":null,"1":{"e":[1]},"2":"w"},"f":{}}`,
		[]wantElem{rec(1, `{"a":1,"b\"c":"x"}`), rec(1, `{"a":2,"b\"c":"y","d":{"e":[1]}}`), rec(1, `{"a":3,"d":"w"}`)}, "", JSONDoc},
	{"pandas columns on lines", "{\"a\":{\n\"10\":1,\n\"11\":2},\n\"b\":{\"10\":\"x\",\n\"11\":\"y\"}}\n{\"c\":{\"0\":5}}",
		[]wantElem{rec(2, `{"a":1,"b":"x"}`), rec(3, `{"a":2,"b":"y"}`), rec(6, `{"c":5}`)}, "", JSONDoc},
	{"record with an object by index", `{"a":{"0":1},"b":2}`, []wantElem{rec(1, `{"a":{"0":1},"b":2}`)}, "", JSONL},
	{"pandas values", "[[1, \"x\"],\n [2, null]]\n[[{\"a\":1}]]",
		[]wantElem{bad(1, "rows of values without column names"), rec(3, `{"a":1}`)}, "", JSONDoc},
	{"columns of no names", `{"columns":["a","b"],"rows":[[1,2]],"model":"m"}`, []wantElem{rec(1, `{"columns":["a","b"],"rows":[[1,2]],"model":"m"}`)}, "", JSONL},
	{"sumo messages", "{\"fields\": [{\"name\": \"_raw\", \"fieldType\": \"string\", \"keyField\": false}],\n \"messages\": [\n  {\"map\": {\"_raw\": \"x\", \"_messagetime\": \"1\"}},\n  {\"map\": {\"_raw\": \"y\"}}]}",
		[]wantElem{rec(3, `{"map":{"_raw":"x","_messagetime":"1"}}`), rec(4, `{"map":{"_raw":"y"}}`)}, "", JSONDoc},
	{"an LLM call's messages", "{\n \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}],\n \"model\": \"m\"\n}",
		[]wantElem{rec(1, `{"messages":[{"role":"user","content":"hi"}],"model":"m"}`)}, "", JSONDoc},
	{"an LLM call's messages on a line", `{"messages":[{"role":"user","content":"hi"}],"model":"m"}`,
		[]wantElem{rec(1, `{"messages":[{"role":"user","content":"hi"}],"model":"m"}`)}, "", JSONL},
	// Opik's REST API page: its records in "content", each beginning
	// with its id; a message's content parts are no envelope.
	{"opik page", "{\"page\":1,\"size\":2,\"total\":2,\"content\":[\n{\"id\":\"a\",\"duration\":1.5},\n{\"id\":\"b\"}],\"sortable_by\":[\"id\"]}",
		[]wantElem{rec(2, `{"id":"a","duration":1.5}`), rec(3, `{"id":"b"}`)}, "", JSONDoc},
	{"a message's content parts", "{\n \"role\": \"assistant\",\n \"content\": [{\"type\": \"text\", \"text\": \"hi\"}],\n \"model\": \"m\"\n}",
		[]wantElem{rec(1, `{"role":"assistant","content":[{"type":"text","text":"hi"}],"model":"m"}`)}, "", JSONDoc},
	{"rows of no table", `[{"rows":[[1]],"model":"m"}]`, []wantElem{rec(1, `{"rows":[[1]],"model":"m"}`)}, "", JSONDoc},
	// A list within the array is read as its items (Zipkin's list of
	// traces, each a list of spans).
	{"not objects", "[1, \"x\", null, true, [{\"a\":1}, 2],\n{\"a\": 1}, -2.5e3]",
		[]wantElem{bad(1, "not a JSON object"), bad(1, "not a JSON object"), bad(1, "not a JSON object"),
			bad(1, "not a JSON object"), rec(1, `{"a":1}`), bad(1, "not a JSON object"), rec(2, `{"a":1}`), bad(2, "not a JSON object")}, "", JSONDoc},
	{"bom", "\ufeff[\n{\"a\":1}\n]", []wantElem{rec(2, `{"a":1}`)}, "", JSONDoc},
	{"crlf", "[\r\n {\"a\":1},\r\n {\"b\":2}\r\n]\r\n", []wantElem{rec(2, `{"a":1}`), rec(3, `{"b":2}`)}, "", JSONDoc},
	{"truncated in element", "[\n{\"a\":1},\n{\"b\":\n", []wantElem{rec(2, `{"a":1}`), bad(3, "truncated")}, "line 4: truncated", JSONDoc},
	{"truncated in string", "[{\"a\":1},{\"b\":\"xy", []wantElem{rec(1, `{"a":1}`), bad(1, "truncated")}, "truncated", JSONDoc},
	{"missing ]", "[\n{\"a\":1}\n", []wantElem{rec(2, `{"a":1}`), bad(3, "truncated")}, "line 3: truncated", JSONDoc},
	{"missing comma", "[{\"a\":1}\n{\"b\":2}]", []wantElem{rec(1, `{"a":1}`), bad(2, "want ',' or ']'")}, "line 2", JSONDoc},
	{"trailing comma", `[{"a":1},]`, []wantElem{rec(1, `{"a":1}`), bad(1, "want a value")}, "want a value", JSONDoc},
	{"mismatched bracket", "[\n{\"a\":[1,\n2}\n]", []wantElem{bad(2, "unexpected '}'")}, "line 3: unexpected '}'", JSONDoc},
	{"newline in string", "[{\"a\":1},\n{\"b\":\"x\ny\"}]", []wantElem{rec(1, `{"a":1}`), bad(2, "newline inside a string")}, "newline", JSONDoc},
	{"garbage", "hello", []wantElem{bad(1, "want '[' or '{'")}, "want '[' or '{'", JSONL},
	{"missing colon", `[{"a" 1}]`, []wantElem{bad(1, "want ':'")}, "want ':'", JSONDoc},
	{"blank", " \n\t\n", nil, "", JSONL},
}

func TestDocReader(t *testing.T) {
	for _, c := range docCases {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := readDocAll(t, strings.NewReader(c.in))
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Errorf("error %v, want %q", err, c.err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d elements %+v, want %d", len(got), got, len(c.want))
			}
			for i, w := range c.want {
				g := got[i]
				switch {
				case w.bad != "":
					if g.line != w.line || !strings.Contains(g.bad, w.bad) {
						t.Errorf("element %d: line %d %q, want line %d bad %q", i, g.line, g.bad, w.line, w.bad)
					}
				case g.bad != "" || g.line != w.line || g.at != w.at:
					t.Errorf("element %d: line %d at %d bad %q, want a record on %d at %d", i, g.line, g.at, g.bad, w.line, w.at)
				case canonical(t, g.text) != canonical(t, w.text):
					t.Errorf("element %d: %s, want %s", i, g.text, w.text)
				}
			}
			if got := jsonShape(bufio.NewReader(strings.NewReader(c.in)), testSchema(t)); got != c.shape {
				t.Errorf("shape %s, want %s", got, c.shape)
			}
		})
	}
}

func testSchema(t testing.TB) *Schema {
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDocLongElement checks that an element over MaxLine is one bad
// element, that it is not kept, and that the next element is read.
func TestDocLongElement(t *testing.T) {
	long := `{"pad":"` + strings.Repeat("x", MaxLine) + `"}`
	for _, in := range []string{
		"[\n" + long + ",\n{\"a\":1}]",
		"{\"data\": [\n" + long + ",\n{\"a\":1}]}",
		long + "\n{\"a\":1}",
	} {
		got, d, err := readDocAll(t, strings.NewReader(in))
		if err != nil || len(got) != 2 {
			t.Fatalf("%v, %d elements", err, len(got))
		}
		if !strings.Contains(got[0].bad, "longer than") || got[0].line != 2 && got[0].line != 1 {
			t.Errorf("long element: %+v", got[0].bad)
		}
		if got[1].bad != "" || got[1].text != `{"a":1}` || got[1].line != 3 && got[1].line != 2 {
			t.Errorf("next element: %+v", got[1])
		}
		if cap(d.elem) > MaxLine {
			t.Errorf("element buffer grew to %d", cap(d.elem))
		}
	}
	// Exactly MaxLine bytes is still an element.
	fits := `{"p":"` + strings.Repeat("y", MaxLine-8) + `"}`
	got, _, err := readDocAll(t, strings.NewReader("["+fits+"]"))
	if err != nil || len(got) != 1 || got[0].bad != "" || len(got[0].text) != MaxLine {
		t.Errorf("element of MaxLine bytes: %v %d", err, len(got))
	}
}

func TestTopKeys(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{`{"b":1,"a":{"x":[1,"]"]},"c":"s\"","d":null}`, "b a c d"},
		{"{\n  \"startTime\": \"t\",\n  \"model\": \"m\"\n}", "startTime model"},
		{`{}`, ""},
		{`{"a":1,"b":`, "a b"},
	} {
		if got := strings.Join(topKeys([]byte(c.in), MaxSeen), " "); got != c.want {
			t.Errorf("topKeys(%s) = %q, want %q", c.in, got, c.want)
		}
	}
	var many strings.Builder
	many.WriteString("{")
	for i := range MaxSeen + 5 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`"k` + string(rune('a'+i%26)) + `":1`)
	}
	many.WriteString("}")
	if n := len(topKeys([]byte(many.String()), MaxSeen)); n != MaxSeen {
		t.Errorf("%d keys, want %d", n, MaxSeen)
	}
}

// GenDoc generates a pretty-printed array of N elements as it is read, so
// that no test holds the whole document. Element i has time 1712000000+i,
// model "m-<i%7>" and request_time i%10 + 0.25 (seconds). It is exported
// for the tests of package ingest_test.
type GenDoc struct {
	N   int
	i   int
	buf []byte
	off int
}

func (g *GenDoc) Read(p []byte) (int, error) {
	for g.off == len(g.buf) {
		g.buf, g.off = g.buf[:0], 0
		switch {
		case g.i > g.N:
			return 0, io.EOF
		case g.i == 0:
			g.buf = append(g.buf, "[\n"...)
		case g.i < g.N:
			g.buf = append(g.buf, ",\n"...)
		}
		if g.i < g.N {
			g.buf = append(g.buf, "  {\n    \"time\": "...)
			g.buf = strconv.AppendInt(g.buf, int64(1712000000+g.i), 10)
			g.buf = append(g.buf, ",\n    \"model\": \"m-"...)
			g.buf = strconv.AppendInt(g.buf, int64(g.i%7), 10)
			g.buf = append(g.buf, "\",\n    \"request_time\": "...)
			g.buf = strconv.AppendInt(g.buf, int64(g.i%10), 10)
			g.buf = append(g.buf, ".25,\n    \"msg\": \"a [b] {c} \\\"d\\\"\"\n  }"...)
		} else {
			g.buf = append(g.buf, "\n]\n"...)
		}
		g.i++
	}
	n := copy(p, g.buf[g.off:])
	g.off += n
	return n, nil
}

// TestDocReaderBoundedMemory reads a generated array of 200,000 elements
// (about 21 MB) and checks that the reader allocated next to nothing: it
// holds one element at a time, never the document.
func TestDocReaderBoundedMemory(t *testing.T) {
	n := 200_000
	g := &GenDoc{N: n}
	var elems, size int64
	s := testSchema(t)
	br := bufio.NewReaderSize(g, 64<<10)
	d := newDocReader(br, s, func(e *docElem) {
		if e.bad == "" {
			elems++
			size += int64(len(e.text))
		}
	})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := d.run()
	runtime.ReadMemStats(&after)
	if err != nil || elems != int64(n) {
		t.Fatalf("%v, %d elements; want %d", err, elems, n)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<10 || size < 16<<20 {
		t.Errorf("allocated %d bytes reading %d bytes of elements", alloc, size)
	}
	if cap(d.elem) > 4096 {
		t.Errorf("element buffer grew to %d bytes", cap(d.elem))
	}
}

func BenchmarkDocReader(b *testing.B) {
	data, err := io.ReadAll(&GenDoc{N: 50_000})
	if err != nil {
		b.Fatal(err)
	}
	s := testSchema(b)
	br := bufio.NewReaderSize(nil, 1<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		br.Reset(bytes.NewReader(data))
		d := newDocReader(br, s, func(*docElem) { n++ })
		if err := d.run(); err != nil || n != 50_000 {
			b.Fatal(err, n)
		}
	}
}

// FuzzJSONDoc reads arbitrary bytes as a document: no panic, no hang, every
// element and error on a line of the input, every record an object of at
// most MaxLine bytes; a valid JSON array or object reads without error, and
// a valid array gives one element per member, or per item of a member
// that is a list of objects (rows of values: one in all).
func FuzzJSONDoc(f *testing.F) {
	for _, c := range docCases {
		f.Add([]byte(c.in))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "jsondoc", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	s := testSchema(f)
	p := newJSONParser(s, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := int64(bytes.Count(data, []byte{'\n'})) + 1
		elems, valid := 0, json.Valid(data)
		d := newDocReader(bufio.NewReaderSize(bytes.NewReader(data), 16), s, func(e *docElem) {
			elems++
			if e.line < 1 || e.line > lines {
				t.Fatalf("element on line %d of %d", e.line, lines)
			}
			if e.bad != "" {
				return
			}
			if n := len(e.text); n < 2 || n > MaxLine || e.text[0] != '{' || e.text[n-1] != '}' || e.at < e.line || e.at > lines {
				t.Fatalf("record %q on line %d at %d", e.text, e.line, e.at)
			}
			if valid && !json.Valid(e.text) {
				t.Fatalf("record %q of a valid document is no JSON", e.text)
			}
			var r Record
			_ = p.Parse(e.text, &r)
			_ = topKeys(e.text, MaxSeen)
			_ = jsonPaths(e.text, maxNames)
		})
		err := d.run()
		if err != nil {
			de, ok := err.(*docError)
			if !ok || de.line < 1 || de.line > lines || elems == 0 {
				t.Fatalf("error %v after %d elements", err, elems)
			}
		}
		_ = jsonShape(bufio.NewReader(bytes.NewReader(data)), s)
		if !json.Valid(data) {
			return
		}
		if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '[' && t[0] != '{' {
			return
		}
		if err != nil {
			t.Fatalf("valid JSON: %v", err)
		}
		var members []json.RawMessage
		if json.Unmarshal(data, &members) == nil {
			want := 0
			for i, m := range members {
				var items []json.RawMessage
				list := bytes.HasPrefix(bytes.TrimLeft(m, " \t\r\n"), []byte("[")) && json.Unmarshal(m, &items) == nil
				switch {
				case list && (len(items) == 0 || items[0][0] == '{'):
					// A list of objects within the array: each an
					// element (Zipkin's list of traces).
					want += len(items)
					continue
				case list && i == 0 && items[0][0] != '[':
					// Rows of values (pandas' orient='values'): one bad
					// element.
					want = 1
				default:
					want++
					continue
				}
				break
			}
			if elems != want {
				t.Fatalf("%d elements, want %d", elems, want)
			}
		}
	})
}

// FuzzWholeElement: a document read with its elements read whole where
// they can be (wholeElement) gives the elements, bad elements and error
// of its reading token by token: the same text, lines and reasons. The
// buffers are large, so that elements fit in them, and small, so that
// they do not.
func FuzzWholeElement(f *testing.F) {
	for _, c := range docCases {
		f.Add([]byte(c.in), uint16(4096))
	}
	f.Add([]byte("[{\"a\":1,\"b\":\"x\\\"y\",\"c\":{\"d\":[1,{\"e\":\"]\"}]},\"_source\":{\"f\":2}},\n{ \"g\" : true }\n,{\"h\":\"\\\\\"}]"), uint16(64))
	f.Add([]byte("[{\"a\":1,}, {\"a\" 1}, {\"a\":1 \"b\":2}, {\"a\":[}, {\"a\":\"x\ny\"}, {\"a\":}]"), uint16(4096))
	f.Add([]byte("{\n  \"a\": 1,\n  \"b\": {\"c\": [2]}\n}\n{\"data\": [{\"a\": 2}]}\n{\"x\": 1, \"hits\": {\"hits\": [{\"_source\": {\"a\": 3}}]}}\n{\"resourceSpans\": []}{\"Response\": {\"Results\": [{\"a\": 4}]}}"), uint16(4096))
	f.Add([]byte("{\"hits\":{\"hits\":[{\"_index\":\"x\",\"_source\":{\"a\":1,\n\"b\":[2]},\"_score\":1},{\"_source\":\"y\"},{\"_source\":{\"c\":3},\"_source\":{\"d\":\n4}}]}}\n[{\"_source\":{\"e\":5}}]"), uint16(4096))
	s := testSchema(f)
	read := func(data []byte, size int, whole bool) (out []string) {
		defer func(was bool) { wholeElements = was }(wholeElements)
		wholeElements = whole
		d := newDocReader(bufio.NewReaderSize(bytes.NewReader(data), size), s, func(e *docElem) {
			out = append(out, fmt.Sprintf("%d %d %q %q", e.line, e.at, e.text, e.bad))
		})
		err := d.run()
		return append(out, fmt.Sprintf("error %v; %d tops, enveloped %v, unwrapped %v", err, d.tops, d.enveloped, d.unwrapped))
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		n := max(int(size), 16)
		want := read(data, n, false)
		if got := read(data, n, true); !slices.Equal(got, want) {
			t.Fatalf("buffer %d:\nwhole: %q\ntoken by token: %q", n, got, want)
		}
	})
}

// cellsReader gives the cells of a column of a table by column,
// "0":1,"1":1,…, whole, until n bytes or more are given.
type cellsReader struct {
	n, i int
	buf  []byte
}

func (r *cellsReader) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) && r.n > 0 {
		from := len(r.buf)
		r.buf = append(strconv.AppendInt(append(r.buf, '"'), int64(r.i), 10), `":1,`...)
		r.i, r.n = r.i+1, r.n-(len(r.buf)-from)
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.buf)
	r.buf = r.buf[:copy(r.buf, r.buf[k:])]
	return k, nil
}

// TestColumnTableTooLarge: a table by column larger than maxColumnTable
// is one bad element that says so and how to write records, and what
// follows it is read; the buffer that held it is let go.
func TestColumnTableTooLarge(t *testing.T) {
	in := io.MultiReader(strings.NewReader(`{"a":{`), &cellsReader{n: maxColumnTable}, strings.NewReader("\"x\":1}}\n{\"b\":{\"0\":2}}"))
	var got []gotElem
	d := newDocReader(bufio.NewReaderSize(in, 64<<10), testSchema(t), func(e *docElem) {
		got = append(got, gotElem{text: string(e.text), line: e.line, at: e.at, bad: e.bad})
	})
	if err := d.run(); err != nil || len(got) != 2 {
		t.Fatalf("%v, %d elements", err, len(got))
	}
	if !strings.Contains(got[0].bad, "of more than 64 MiB") || !strings.Contains(got[0].bad, "orient='records', lines=True") || got[0].line != 1 {
		t.Errorf("the large table: line %d %q", got[0].line, got[0].bad)
	}
	if got[1].bad != "" || got[1].text != `{"b":2}` || got[1].line != 2 {
		t.Errorf("the table after it: %+v", got[1])
	}
	if cap(d.elem) > MaxLine {
		t.Errorf("element buffer kept at %d bytes", cap(d.elem))
	}
}
