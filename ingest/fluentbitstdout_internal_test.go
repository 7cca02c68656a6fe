package ingest

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestStdoutRecord: a record as msgpack_object_print prints it
// (lib/msgpack-c/src/objectc.c: strings quoted and nothing in them
// escaped, floats "%f", nil) is read as the JSON object written by hand
// beside it; where a string ends is told from what follows its quote.
// A line that is not a record's, or one whose value runs past the line,
// says which.
func TestStdoutRecord(t *testing.T) {
	for _, c := range []struct {
		line, want, stamp string
		err               error
	}{
		{`[0] gw: [[1796349601.125000000, {}], {"log"=>"a "b", "c""}]`, `{"log":"a \"b\", \"c\""}`, "1796349601.125000000", nil},
		{`[3] gw: [1796349601.125000000, {"log"=>"x"}] "}]"}]`, `{"log":"x\"}] \"}]"}`, "1796349601.125000000", nil},
		{`[0] gw: [1475898721, {"cpu_p"=>0.500000, "n"=>-3, "ok"=>true, "no"=>false, "v"=>nil}]`, `{"cpu_p":0.5,"n":-3,"ok":true,"no":false,"v":null}`, "1475898721", nil},
		{`[0] gw: [[1796349601.000000000, {"m"=>{"k"=>["a", "b"]}}], {"k8s"=>{"labels"=>{"app"=>"gw"}, "ips"=>["10.0.0.1", "10.0.0.2"], "e"=>[], "o"=>{}}, "log"=>"{"status":200}"}]`,
			`{"k8s":{"labels":{"app":"gw"},"ips":["10.0.0.1","10.0.0.2"],"e":[],"o":{}},"log":"{\"status\":200}"}`, "1796349601.000000000", nil},
		{`[0] gw: [1, {"f"=>nan, "g"=>-inf}]`, `{"f":"nan","g":"-inf"}`, "1", nil},
		{"[0] gw: [1, {\"log\"=>\"a\tb\\c\"}]\r", `{"log":"a\tb\\c"}`, "1", nil},
		{"[0] gw: [1, {\"log\"=>\"line\n\", \"stream\"=>\"stdout\"}]", `{"log":"line\n","stream":"stdout"}`, "1", nil},
		{`[0] gw: [[1, {}], {"log"=>"cut`, "", "", errPrintedCut},
		{`[0] gw: [1, {"log"=>"x"}`, "", "", errPrintedCut},
		{`[0] gw: [1, {"a"=>#<UNKNOWN 9 1>}]`, "", "", errPrinted},
		{`[0] gw: [1, {"a"=>1.2.3}]`, "", "", errPrinted},
		{`[0] gw: [1, ["a"]]`, "", "", errPrinted},
		{"[0] gw: [1, {\"log\"=>\"x\n[1] gw: [2, {\"log\"=>\"y\"}]", "", "", errPrinted},
		{`", "stream"=>"stdout"}]`, "", "", errNotStdout},
		{`[0] a tag: [1, {}]`, "", "", errNotStdout},
		{`[0] gw: [x1, {}]`, "", "", errNotStdout},
	} {
		checkPrinted(t, c.line, c.want, c.stamp, c.err, new(topReader).stdoutRecord)
	}
}

// TestLTSVRecord: a line of Fluent Bit's file output in its ltsv format
// is read as the JSON object written by hand beside it, its time apart.
func TestLTSVRecord(t *testing.T) {
	for _, c := range []struct {
		line, want, stamp string
		err               error
	}{
		{"\"time\":1796349601.125000\t\"log\":\"a \"b\"\tc\":\"", `{"log":"a \"b\"\tc\":"}`, "1796349601.125000", nil},
		{"\"time\":1796349601.125000\t\"n\":-1\t\"m\":{\"a\"=>[1, nil]}\t\"e\":\"\"\r", `{"n":-1,"m":{"a":[1,null]},"e":""}`, "1796349601.125000", nil},
		{"\"time\":1796349601.125000", `{}`, "1796349601.125000", nil},
		{"\"time\":1796349601.125000\t\"log\":\"cut", "", "", errPrintedCut},
		{"\"time\":1796349601.125000\t\"log\":\"x\n\"time\":1796349602.000000\t\"log\":\"y\"", "", "", errPrinted},
		{"\"time\":1796349601.125000\t\"log\"=\"x\"", "", "", errPrinted},
		{"time:1796349601.125000\tlog:x", "", "", errNotLTSV},
		{"\"time\":now\t\"log\":\"x\"", "", "", errNotLTSV},
	} {
		checkPrinted(t, c.line, c.want, c.stamp, c.err, new(topReader).ltsvRecord)
	}
}

// checkPrinted checks that read, a reader of a printed record, gives
// line's record as the JSON object want (decoded both, to compare),
// its time stamp, or the error wantErr.
func checkPrinted(t *testing.T, line, want, wantStamp string, wantErr error, read func([]byte) ([]byte, []byte, error)) {
	t.Helper()
	rec, stamp, err := read([]byte(line))
	if err != wantErr || string(stamp) != wantStamp {
		t.Errorf("%q: %q, %q, %v; want %q, %v", line, rec, stamp, err, wantStamp, wantErr)
		return
	}
	if wantErr != nil {
		return
	}
	var got, w any
	if err := json.Unmarshal(rec, &got); err != nil {
		t.Errorf("%q: %q is not JSON: %v", line, rec, err)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("%q: %s; want %s", line, rec, want)
	}
}
