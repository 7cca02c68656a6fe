package ingest_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// stdoutRequest is what a test expects of a record of Fluent Bit's
// stdout output, worked out from its line by hand.
type stdoutRequest struct {
	fluentBitLine
	urt float64 // NaN when absent
}

// nginxMainURT returns the upstream response time of an nginx line of
// the format main with $request_time $upstream_response_time after it:
// its last field, NaN for "-".
func nginxMainURT(t *testing.T, line string) float64 {
	t.Helper()
	f := strings.Fields(line)
	if last := f[len(f)-1]; last != "-" {
		v, err := strconv.ParseFloat(last, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	return math.NaN()
}

// checkStdoutRows compares the rows read of a file of Fluent Bit's
// stdout output with what its lines hold.
func checkStdoutRows(t *testing.T, path string, rows []row, res *ingest.Result, want []stdoutRequest) {
	t.Helper()
	f := res.Files[0]
	if f.Envelope != ingest.EnvStamped || f.BadLines != 0 || len(rows) != len(want) {
		t.Fatalf("%s: %d rows, %+v, %+v; want %d rows", path, len(rows), f, res.Problems, len(want))
	}
	for i, r := range rows {
		w := want[i]
		sameURT := r.urt == w.urt || math.IsNaN(r.urt) && math.IsNaN(w.urt)
		if !r.hasTime || r.timeNS != w.timeNS || r.status != w.status || r.rt != w.rt || !sameURT {
			t.Errorf("%s: row %d: %+v; want %+v", path, i, r, w)
		}
	}
}

// stdoutLog returns the line in the "log" of a line of Fluent Bit's
// stdout output whose record holds nothing else: what is between
// {"log"=>" and the line's closing "}].
func stdoutLog(l string) string {
	return l[strings.Index(l, `{"log"=>"`)+len(`{"log"=>"`) : strings.LastIndex(l, `"}]`)]
}

// TestFluentBitStdout: Fluent Bit's stdout output in its default format
// (msgpack, printed), "[N] TAG: [[TIME, {}], {"log"=>"LINE"}]" since
// v2.1 and "[N] TAG: [TIME, {"log"=>"LINE"}]" before, quotes in LINE
// not escaped, gives the records of the lines it holds, text or JSON,
// each of their fields, the last one too (upstream_response_time, before
// the line's "}]").
func TestFluentBitStdout(t *testing.T) {
	const text = "testdata/text/fluentbit-stdout.log"
	raw, err := os.ReadFile(text)
	if err != nil {
		t.Fatal(err)
	}
	var want []stdoutRequest
	for _, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		in := stdoutLog(l)
		want = append(want, stdoutRequest{nginxMainLine(t, in), nginxMainURT(t, in)})
	}
	rows, res := collect(t, []string{text}, ingest.Options{Workers: 2, MaxProblems: 10})
	checkStdoutRows(t, text, rows, res, want)

	const jpath = "testdata/text/fluentbit-stdout-json.log"
	if raw, err = os.ReadFile(jpath); err != nil {
		t.Fatal(err)
	}
	want = want[:0]
	for _, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		var rec struct {
			Time, Status string
			RT           string `json:"request_time"`
			URT          string `json:"upstream_response_time"`
		}
		if err := json.Unmarshal([]byte(stdoutLog(l)), &rec); err != nil {
			t.Fatal(err)
		}
		at, err := time.Parse(time.RFC3339Nano, rec.Time)
		if err != nil {
			t.Fatal(err)
		}
		w := stdoutRequest{urt: math.NaN()}
		w.timeNS = at.UnixNano()
		if w.status, err = strconv.ParseInt(rec.Status, 10, 64); err != nil {
			t.Fatal(err)
		}
		if w.rt, err = strconv.ParseFloat(rec.RT, 64); err != nil {
			t.Fatal(err)
		}
		if rec.URT != "" {
			if w.urt, err = strconv.ParseFloat(rec.URT, 64); err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, w)
	}
	rows, res = collect(t, []string{jpath}, ingest.Options{Workers: 1, MaxProblems: 10})
	checkStdoutRows(t, jpath, rows, res, want)
}

// TestFluentBitStdoutContainer: Fluent Bit's stdout output of its
// records of a container's lines, with the members beside the line
// (stream, time, kubernetes): Docker's record, whose log keeps its "\n",
// which the output prints as it is, so that the record goes on over the
// next line; and its record of a CRI line, with metadata that is not
// empty.
func TestFluentBitStdoutContainer(t *testing.T) {
	const path = "testdata/text/fluentbit-stdout-container.log"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []stdoutRequest
	for _, rec := range strings.Split(strings.TrimPrefix(strings.TrimRight(string(raw), "\n"), "["), "\n[") {
		in := rec[strings.Index(rec, `"log"=>"`)+len(`"log"=>"`):]
		if i := strings.Index(in, "\n"); i >= 0 {
			in = in[:i] // Docker's: the line's end, then the record's rest
		} else {
			in = in[:strings.Index(in, `", "kubernetes"=>`)]
		}
		want = append(want, stdoutRequest{nginxMainLine(t, in), nginxMainURT(t, in)})
	}
	if len(want) != 3 {
		t.Fatalf("%d records in %s", len(want), path)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
	checkStdoutRows(t, path, rows, res, want)
}

// TestFluentBitStdoutParsed: a record a parser made, printed by Fluent
// Bit's stdout output, is read by its fields (strings, numbers, nil),
// its time the line's when it has none; a record that cannot be read
// (one the line ends in, which no line after ends; a line that begins
// no record) is a bad line, with its reason.
func TestFluentBitStdoutParsed(t *testing.T) {
	lines := `[0] nginx.access: [[1796349601.125000000, {}], {"remote_addr"=>"10.0.1.3", "request"=>"POST /v1/chat/completions HTTP/1.1", "status"=>"200", "request_time"=>"0.188", "upstream_response_time"=>"0.186", "http_user_agent"=>"a "quoted", agent"}]
[1] nginx.access: [[1796349609.301000000, {}], {"remote_addr"=>"10.0.1.41", "request"=>"POST /v1/embeddings HTTP/1.1", "status"=>429, "request_time"=>0.004000, "upstream_response_time"=>nil}]
[2] nginx.access: [[1796349618.374000000, {}], {"remote_addr"=>"10.0.1.35", "status"=>"504", "request_time"=>"60.001", "upstream_response_time"=>"60.000
[3] nginx.access: [1796349627.893000000, {"remote_addr"=>"10.0.0.37", "status"=>"200", "request_time"=>"2.377"}]
", "x"=>"y"}]
`
	path := filepath.Join(t.TempDir(), "parsed.log")
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
	want := []stdoutRequest{
		{fluentBitLine{status: 200, rt: 0.188, timeNS: 1796349601125e6}, 0.186},
		{fluentBitLine{status: 429, rt: 0.004, timeNS: 1796349609301e6}, math.NaN()},
		{fluentBitLine{status: 200, rt: 2.377, timeNS: 1796349627893e6}, math.NaN()},
	}
	f := res.Files[0]
	if f.Envelope != ingest.EnvStamped || f.BadLines != 2 || len(rows) != len(want) || len(res.Problems) != 2 {
		t.Fatalf("%d rows, %+v, %+v", len(rows), f, res.Problems)
	}
	for i, r := range rows {
		w := want[i]
		sameURT := r.urt == w.urt || math.IsNaN(r.urt) && math.IsNaN(w.urt)
		if !r.hasTime || r.timeNS != w.timeNS || r.status != w.status || r.rt != w.rt || !sameURT {
			t.Errorf("row %d: %+v; want %+v", i, r, w)
		}
	}
	for i, p := range res.Problems {
		wantLine, wantReason := []int64{3, 5}[i], []string{"does not end on its line", "not a line of Fluent Bit's stdout output"}[i]
		if p.Line != wantLine || !strings.Contains(p.Reason, wantReason) {
			t.Errorf("problem %d: %+v; want line %d, %q", i, p, wantLine, wantReason)
		}
	}
}

// TestFluentBitLTSV: Fluent Bit's file output in its ltsv format,
// "time" and each member's label and value as msgpack prints them,
// quoted, tab-separated, gives the records of the lines its tail input
// read ({"log":"LINE"}), and those of the records a parser made, by
// their fields, the line's time theirs when they have none.
func TestFluentBitLTSV(t *testing.T) {
	const path = "testdata/text/fluentbit-ltsv.log"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []stdoutRequest
	for _, l := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		in := l[strings.Index(l, "\t\"log\":\"")+len("\t\"log\":\"") : len(l)-1]
		want = append(want, stdoutRequest{nginxMainLine(t, in), nginxMainURT(t, in)})
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
	checkStdoutRows(t, path, rows, res, want)

	parsed := "\"time\":1796349601.125000\t\"remote_addr\":\"10.0.1.3\"\t\"status\":\"200\"\t\"request_time\":\"0.188\"\t\"upstream_response_time\":\"0.186\"\t\"http_user_agent\":\"a \"b\":\tc\"\n" +
		"\"time\":1796349609.301000\t\"remote_addr\":\"10.0.1.41\"\t\"status\":429\t\"request_time\":0.004000\t\"upstream_response_time\":nil\n" +
		"\"time\":1796349618.374000\t\"status\":\"504\"\t\"request_time\":\"60.001\"\t\"x\":\"a\tb\"\t\"y\":1\n"
	ppath := filepath.Join(t.TempDir(), "parsed.log")
	if err := os.WriteFile(ppath, []byte(parsed), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, res = collect(t, []string{ppath}, ingest.Options{Workers: 1, MaxProblems: 10})
	want = []stdoutRequest{
		{fluentBitLine{status: 200, rt: 0.188, timeNS: 1796349601125e6}, 0.186},
		{fluentBitLine{status: 429, rt: 0.004, timeNS: 1796349609301e6}, math.NaN()},
		{fluentBitLine{status: 504, rt: 60.001, timeNS: 1796349618374e6}, math.NaN()},
	}
	checkStdoutRows(t, ppath, rows, res, want)
}
