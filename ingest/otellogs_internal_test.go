package ingest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestOTelAnyValues: the attributes of an OTLP log record, and a body's
// map, are the JSON object of their values as the OTLP/JSON mapping
// writes them (an int64 as a decimal string, a double as a number or
// "NaN"), maps and arrays within; a list that is no list of KeyValue is
// refused.
func TestOTelAnyValues(t *testing.T) {
	for _, c := range []struct{ kvs, want string }{
		{`[]`, `{}`},
		{`[{"key":"s","value":{"stringValue":"a\"b"}},{"key":"i","value":{"intValue":"-7"}},{"key":"n","value":{"intValue":7}}]`, `{"s":"a\"b","i":-7,"n":7}`},
		{`[{"key":"d","value":{"doubleValue":0.25}},{"key":"e","value":{"doubleValue":"1e3"}},{"key":"nan","value":{"doubleValue":"NaN"}}]`, `{"d":0.25,"e":1e3,"nan":"NaN"}`},
		{`[{"key":"b","value":{"boolValue":true}},{"key":"x","value":{"bytesValue":"AQI="}},{"key":"z","value":{}},{"key":"absent"}]`, `{"b":true,"x":"AQI=","z":null}`},
		{`[{"value":{"kvlistValue":{"values":[{"key":"in","value":{"intValue":"1"}}]}},"key":"m"},{"key":"e","value":{"kvlistValue":{}}}]`, `{"m":{"in":1},"e":{}}`},
		{`[{"key":"a","value":{"arrayValue":{"values":[{"stringValue":"x"},{"arrayValue":{}},{"intValue":"2"}]}}}]`, `{"a":["x",[],2]}`},
		{` [ { "key" : "k" , "value" : { "intValue" : "007" } } ] `, `{"k":"007"}`},
		{`[{"key":"k","value":{"intValue":"1","stringValue":"2"}}]`, ``},
		{`[{"key":"k","value":{"mapValue":{}}}]`, ``},
		{`[{"key":1,"value":{"intValue":"1"}}]`, ``},
		{`[{"key":"k","value":{"intValue":1.5}}]`, `{"k":1.5}`},
		{`[{"key":"k","value":{"intValue":01}}]`, ``},
		{`{"key":"k"}`, ``},
		{`[1]`, ``},
	} {
		b, _, ok := appendKeyValues([]byte{'{'}, []byte(c.kvs), false, 0)
		got := string(append(b, '}'))
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.kvs, got, c.want)
		}
	}
	deep := `{"stringValue":"x"}`
	for range maxAnyDepth {
		deep = `{"arrayValue":{"values":[` + deep + `]}}`
	}
	if _, ok := appendAnyValue(nil, []byte(deep), 0); ok {
		t.Errorf("values nested %d deep read, want refused", maxAnyDepth+1)
	}
}

// FuzzOTelLog reads arbitrary bytes as an OTLP log export, each log
// record as readDoc does: no panic, no hang, every record on a line of
// the input, its time 0 or within the years read, and the object made of
// a valid record's attributes or body valid JSON.
func FuzzOTelLog(f *testing.F) {
	for _, name := range []string{"filelog-nginx.jsonl", "filelog-regex-attributes.jsonl", "kvlist-body.json",
		"resource-regions.json", "resource-regions-attributes.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", "otlp", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 1200)])
	}
	for _, s := range []string{
		`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"0","body":{"kvlistValue":{"values":[{"key":"a","value":{"arrayValue":{"values":[{}]}}}]}}}]}]}]}`,
		`{"resourceLogs":[{"instrumentationLibraryLogs":[{"logRecords":[{"observedTimeUnixNano":99999999999999999999,"body":{"stringValue":"x\n"},"attributes":[{"key":"k"}]}]}]}]}`,
		`{"resourceLogs":[1,{"scopeLogs":[2,{"logRecords":[3,[],{"body":"x"}]}]}]}`,
		`{"resourceLogs":[{"resource":{"attributes":[1,{"key":"cloud.region","value":{"stringValue":"\ud800"}}]},"scopeLogs":[{"logRecords":[{"body":{"stringValue":"x"}}]}]},{"resource":{"attributes":{}},"scopeLogs":[]}]}`,
	} {
		f.Add([]byte(s))
	}
	s := testSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := int64(bytes.Count(data, []byte{'\n'})) + 1
		valid := json.Valid(data)
		var tr topReader
		d := newDocReader(bufio.NewReaderSize(bytes.NewReader(data), 16), s, func(e *docElem) {
			if e.line < 1 || e.line > lines {
				t.Fatalf("record on line %d of %d", e.line, lines)
			}
			if !e.logRecord {
				return
			}
			_ = otelFields(e.text, func(obj []byte) bool {
				if valid && !json.Valid(obj) {
					t.Fatalf("attributes %s of a valid record are no JSON", obj)
				}
				return false
			})
			for _, maps := range []bool{false, true} {
				tr.p.scratch = tr.p.scratch[:0]
				msg, ns, err := tr.otelLog(e.text, maps)
				if ns != 0 && checkTime(ns) != fine {
					t.Fatalf("time %d outside the years read", ns)
				}
				if err == nil && valid && len(msg) > 0 && msg[0] == '{' && bytes.Equal(msg, tr.obj) && !json.Valid(msg) {
					t.Fatalf("record %s of a valid export is no JSON", msg)
				}
			}
		})
		_ = d.run()
	})
}
