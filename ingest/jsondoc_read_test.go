package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// sumSink counts records and adds up what the document tests check.
type sumSink struct {
	n       int64
	prompt  int64
	reqTime float64
}

func (s *sumSink) Add(r *ingest.Record) {
	s.n++
	if v, ok := r.Int(ingest.FPromptTokens); ok {
		s.prompt += v
	}
	if v, ok := r.Float(ingest.FRequestTime); ok {
		s.reqTime += v
	}
}

func runSum(t *testing.T, paths []string, opts ingest.Options) (sumSink, *ingest.Result) {
	t.Helper()
	sinks, res, err := ingest.Run(paths, opts, func() *sumSink { return &sumSink{} })
	if err != nil {
		t.Fatal(err)
	}
	var total sumSink
	for _, s := range sinks {
		total.n += s.n
		total.prompt += s.prompt
		total.reqTime += s.reqTime
	}
	return total, res
}

// oracleElements finds a document's records with encoding/json, by the
// envelope rules of SPEC §3, independently of the streaming reader.
func oracleElements(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var list []any
	switch v := v.(type) {
	case []any:
		list = v
	case map[string]any:
		for _, path := range [][]string{{"data", "items"}, {"data", "data"}, {"hits", "hits"}, {"data"}, {"items"}} {
			var cur any = v
			for _, k := range path {
				if m, ok := cur.(map[string]any); ok {
					cur = m[k]
				}
			}
			if l, ok := cur.([]any); ok {
				list = l
				break
			}
		}
	}
	var out []map[string]any
	for _, e := range list {
		m := e.(map[string]any)
		if src, ok := m["_source"].(map[string]any); ok {
			m = src
		}
		out = append(out, m)
	}
	return out
}

// firstKeys returns the keys of a document's first record that have a
// value (not null, "" or "-"), in order, read with encoding/json's token
// stream.
func firstKeys(t *testing.T, b []byte, inside ...string) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	// Walk to the first object that follows the path of keys.
	for _, k := range inside {
		for {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := tok.(string); ok && s == k {
				break
			}
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := tok.(json.Delim); ok && d == '{' {
			break
		}
	}
	var keys []string
	for dec.More() {
		tok, _ := dec.Token()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		switch string(v) {
		case "null", `""`, `"-"`: // no value: not a field seen
		default:
			keys = append(keys, tok.(string))
		}
	}
	return keys
}

func TestDocFixtures(t *testing.T) {
	for _, c := range []struct {
		name   string
		inside []string // keys leading to the first record
	}{
		{"litellm-spend-logs.json", nil},
		{"newapi-log.json", []string{"items"}},
		{"oneapi-log.json", []string{"data"}},
		{"es-export.json", []string{"_source"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join("testdata", "jsondoc", c.name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			elems := oracleElements(t, data)
			var prompt int64
			var reqTime float64
			for _, e := range elems {
				if v, ok := e["prompt_tokens"].(float64); ok {
					prompt += int64(v)
				}
				reqTime += sourceDuration(t, e)
			}
			dir := t.TempDir()
			gz := filepath.Join(dir, c.name+".gz")
			if err := os.WriteFile(gz, gzipBytes(t, data), 0o644); err != nil {
				t.Fatal(err)
			}
			for name, opts := range map[string]ingest.Options{
				"file":       {Workers: 2},
				"gzip file":  {Workers: 2},
				"gzip stdin": {Workers: 2, Stdin: bytes.NewReader(gzipBytes(t, data))},
				"forced":     {Workers: 1, Format: ingest.JSONDoc},
			} {
				in := path
				switch name {
				case "gzip file":
					in = gz
				case "gzip stdin":
					in = "-"
				}
				got, res := runSum(t, []string{in}, opts)
				f := res.Files[0]
				if f.Format != ingest.JSONDoc || got.n != int64(len(elems)) || f.Records != got.n || f.BadLines != 0 || f.Incomplete {
					t.Errorf("%s: %+v, sinks saw %d; want %d records as %s", name, f, got.n, len(elems), ingest.JSONDoc)
				}
				if got.prompt != prompt || fmt.Sprintf("%.6f", got.reqTime) != fmt.Sprintf("%.6f", reqTime) {
					t.Errorf("%s: prompt_tokens %d, request_time %.6f; want %d, %.6f", name, got.prompt, got.reqTime, prompt, reqTime)
				}
				if want := firstKeys(t, data, c.inside...); strings.Join(f.Seen, ",") != strings.Join(want, ",") {
					t.Errorf("%s: seen %q, want %q", name, f.Seen, want)
				}
			}
		})
	}
}

// TestDocSeenAsLines: a document lists the fields its first record
// carries as JSON lines do, without the keys whose value is null, "" or
// "-": the no-data report's "fields seen" is the same for either form.
func TestDocSeenAsLines(t *testing.T) {
	recs := []string{
		`{"trace":null,"request_time":1.5,"user":"","model":"m","route":"-","status":200}`,
		`{"trace":"t","request_time":2,"user":"u","model":"m","route":"/v1","status":200}`,
	}
	forms := map[string]string{
		"lines":    strings.Join(recs, "\n") + "\n",
		"array":    "[" + strings.Join(recs, ",\n") + "]",
		"envelope": `{"data":{"items":[` + strings.Join(recs, ",") + `]}}`,
	}
	want := firstKeys(t, []byte(recs[0]))
	if strings.Join(want, ",") != "request_time,model,status" {
		t.Fatalf("oracle: %q", want)
	}
	for name, in := range forms {
		_, res, err := ingest.Run([]string{"-"}, ingest.Options{Stdin: strings.NewReader(in), Workers: 2},
			func() *collector { return &collector{} })
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Files[0]; strings.Join(f.Seen, ",") != strings.Join(want, ",") || f.Records != int64(len(recs)) {
			t.Errorf("%s: %s, %d records, seen %q; want %d records, seen %q", name, f.Format, f.Records, f.Seen, len(recs), want)
		}
	}
}

// badDoc has good and bad elements on known lines.
const badDoc = `[
  {
    "request_time": 1.5,
    "model": "a"
  },
  {
    "request_time": 2,
    "time": "not-a-time"
  },
  42,
  {
    "model": "b",
    "request_time": 12abc
  },
  {"foo": 1},
  {"request_time": 3}
]
`

func TestDocProblemLines(t *testing.T) {
	got, res := runSum(t, []string{"-"}, ingest.Options{Stdin: strings.NewReader(badDoc), Workers: 2})
	if got.n != 2 || got.reqTime != 4.5 || res.BadLines() != 4 || res.Incomplete() {
		t.Fatalf("%d records (request_time %v), %d bad lines, incomplete %v; want 2 (4.5), 4, false",
			got.n, got.reqTime, res.BadLines(), res.Incomplete())
	}
	lines := strings.Split(badDoc, "\n")
	col := strings.Index(lines[12], "12abc") + 1
	want := []struct {
		line   int64
		reason string
	}{
		{6, "time"},
		{10, "not a JSON object"},
		{11, fmt.Sprintf("invalid JSON at line 13, column %d: bad number", col)},
		{15, "no field"},
	}
	if len(res.Problems) != len(want) {
		t.Fatalf("problems %v", res.Problems)
	}
	for i, w := range want {
		p := res.Problems[i]
		if p.File != "-" || p.Line != w.line || !strings.Contains(p.Reason, w.reason) {
			t.Errorf("problem %d: %v, want line %d with %q", i, p, w.line, w.reason)
		}
	}
}

func TestDocDamaged(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "jsondoc", "litellm-spend-logs.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Cut inside the last element: the two before it are kept, the cut
	// one is a bad line on its first line, and the file is incomplete.
	cut := bytes.LastIndex(data, []byte(`"model_group"`))
	last := int64(bytes.Count(data[:bytes.LastIndex(data[:cut], []byte("{\n    \"request_id\""))], []byte{'\n'}) + 1)
	for name, in := range map[string][]byte{"plain": data[:cut], "gzip": gzipBytes(t, data)[:len(gzipBytes(t, data))-40]} {
		got, res := runSum(t, []string{"-"}, ingest.Options{Stdin: bytes.NewReader(in), Workers: 2})
		f := res.Files[0]
		if got.n != 2 || f.BadLines != 1 || !f.Incomplete || f.Reason == "" || len(res.Problems) != 1 {
			t.Errorf("%s: %d records, %+v, %v", name, got.n, f, res.Problems)
			continue
		}
		if name == "plain" && (res.Problems[0].Line != last || !strings.Contains(f.Reason, "truncated")) {
			t.Errorf("%s: problem %v, reason %q; want line %d", name, res.Problems[0], f.Reason, last)
		}
		if name == "gzip" && !strings.Contains(f.Reason, "unexpected EOF") {
			t.Errorf("%s: reason %q", name, f.Reason)
		}
	}
}

// TestDocDetection checks which files are read as documents.
func TestDocDetection(t *testing.T) {
	pretty := "{\n  \"request_time\": 1\n}\n{\n  \"request_time\": 2\n}\n"
	lines := "{\"request_time\": 1}\n{\"request_time\": 2}\n"
	dir := t.TempDir()
	for _, c := range []struct {
		name, data string
		format     ingest.Format
		forced     ingest.Format
		records    int64
	}{
		{"pretty.jsonl", pretty, ingest.JSONDoc, "", 2},
		{"pretty.log", pretty, ingest.JSONDoc, "", 2},
		{"lines.json", lines, ingest.JSONL, "", 2},
		{"lines.txt", lines, ingest.JSONL, "", 2},
		{"lines-forced.txt", lines, ingest.JSONL, ingest.JSONDoc, 2},
		{"array.txt", "[{\"request_time\": 1}]", ingest.JSONDoc, "", 1},
		{"envelope.jsonl", `{"data":[{"request_time": 1},{"request_time": 2}]}`, ingest.JSONDoc, "", 2},
		{"cloudflare-api.json", "{\n \"result\": [{\"request_time\": 1},{\"request_time\": 2}],\n \"result_info\": {\"count\": 2},\n \"success\": true,\n \"errors\": [],\n \"messages\": []\n}\n", ingest.JSONDoc, "", 2},
		{"langsmith-runs.json", "{\"runs\": [{\"request_time\": 1},{\"request_time\": 2}], \"cursors\": {\"next\": null}, \"parsed_query\": null}\n", ingest.JSONDoc, "", 2},
		{"pretty-forced.json", pretty, ingest.JSONL, ingest.JSONL, 0},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		got, res := runSum(t, []string{path}, ingest.Options{Workers: 1, Format: c.forced})
		if f := res.Files[0]; f.Format != c.format || got.n != c.records {
			t.Errorf("%s: %d records as %s, want %d as %s", c.name, got.n, f.Format, c.records, c.format)
		}
	}
	if f, err := ingest.ParseFormat("json"); f != ingest.JSONDoc || err != nil {
		t.Errorf("ParseFormat(json) = %s, %v", f, err)
	}
}

// prettyArray writes JSON lines as one pretty-printed array; with hits,
// each element is an Elasticsearch hit holding the line as its _source.
func prettyArray(t testing.TB, jsonl []byte, hits bool) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("[\n")
	for i, l := range bytes.Split(bytes.TrimSpace(jsonl), []byte{'\n'}) {
		if i > 0 {
			out.WriteString(",\n")
		}
		if hits {
			l = fmt.Appendf(nil, `{"_index":"logs","_id":"%d","_source":%s}`, i, l)
		}
		if err := json.Indent(&out, l, "  ", "  "); err != nil {
			t.Fatal(err)
		}
	}
	out.WriteString("\n]\n")
	return out.Bytes()
}

// TestDocSameAsJSONL reads the same generated requests as JSON lines, as a
// pretty-printed array and as Elasticsearch hits: the records and their
// sketches must be the same.
func TestDocSameAsJSONL(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 31, N: 20_000, Plants: gen.All})
	jsonl, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteJSONL)
	ref, refRes := read(t, []string{"-"}, ingest.Options{Stdin: bytes.NewReader(jsonl), Workers: 2})
	for _, hits := range []bool{false, true} {
		doc := prettyArray(t, jsonl, hits)
		acc, res := read(t, []string{"-"}, ingest.Options{Stdin: bytes.NewReader(doc), Workers: 2})
		if res.Records() != refRes.Records() || res.Records() != int64(len(reqs)) || res.BadLines() != 0 || res.Files[0].Format != ingest.JSONDoc {
			t.Errorf("hits %v: %d records, %d bad as %s; want %d", hits, res.Records(), res.BadLines(), res.Files[0].Format, len(reqs))
		}
		name := fmt.Sprintf("hits=%v", hits)
		for _, m := range allMetrics {
			sameSketch(t, name, m, acc.Set.All, ref.Set.All)
			for d, dim := range ref.Set.Dims {
				for _, ke := range dim.Sorted() {
					if e := acc.Set.Dims[d].Get(ke.Key); e != nil {
						sameSketch(t, name+" "+dim.Name+"="+ke.Key, m, e, ke.Entry)
					} else {
						t.Errorf("%s: %s=%s missing", name, dim.Name, ke.Key)
					}
				}
			}
		}
	}
}

// TestDocStreamThroughPipe feeds a generated array of 200,000 elements
// (about 21 MB) through a pipe: every element is a record, and the sum of
// request_time is that of the generator.
func TestDocStreamThroughPipe(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	pr, pw := io.Pipe()
	go func() {
		_, err := io.CopyBuffer(pw, &ingest.GenDoc{N: n}, make([]byte, 4096))
		pw.CloseWithError(err)
	}()
	got, res := runSum(t, []string{"-"}, ingest.Options{Stdin: pr, Workers: 2})
	var want float64
	for i := range n {
		want += float64(i%10) + 0.25
	}
	if got.n != int64(n) || res.BadLines() != 0 || res.Incomplete() || got.reqTime != want {
		t.Errorf("%d records, %d bad, incomplete %v, request_time %v; want %d, 0, false, %v",
			got.n, res.BadLines(), res.Incomplete(), got.reqTime, n, want)
	}
}

func BenchmarkIngestJSONDoc(b *testing.B) {
	path, size := benchFile(b, 200_000, "bench.json", func(buf *bytes.Buffer, r []gen.Request) error {
		var lines bytes.Buffer
		if _, err := gen.WriteJSONL(&lines, r, gen.WriteOptions{}); err != nil {
			return err
		}
		buf.Write(prettyArray(b, lines.Bytes(), false))
		return nil
	})
	benchRun(b, path, size, 2)
}

// sourceDuration is an element's request time in seconds by its source's
// names: request_time, new-api's use_time (s), one-api's elapsed_time
// (ms), LiteLLM's endTime − startTime.
func sourceDuration(t *testing.T, e map[string]any) float64 {
	if v, ok := e["request_time"].(float64); ok {
		return v
	}
	if v, ok := e["use_time"].(float64); ok {
		return v
	}
	if v, ok := e["elapsed_time"].(float64); ok {
		return v / 1000
	}
	st, ok1 := e["startTime"].(string)
	en, ok2 := e["endTime"].(string)
	if ok1 && ok2 {
		const layout = "2006-01-02 15:04:05.999999"
		a, err1 := time.Parse(layout, st)
		b, err2 := time.Parse(layout, en)
		if err1 != nil || err2 != nil {
			t.Fatalf("oracle cannot read %q / %q", st, en)
		}
		return b.Sub(a).Seconds()
	}
	return 0
}

// TestConcatenatedPastTheHead: objects one after another with no line
// between them, or a space, more than the 64 KiB the shape is told from
// (a Firehose delivery to S3), are a document's elements, every one read.
func TestConcatenatedPastTheHead(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 41, N: 600})
	var lines bytes.Buffer
	if _, err := gen.WriteJSONL(&lines, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	objs := bytes.Split(bytes.TrimSuffix(lines.Bytes(), []byte("\n")), []byte("\n"))
	for _, sep := range []string{"", " ", "\r\n"} {
		doc := bytes.Join(objs, []byte(sep))
		if len(doc) < 2*64<<10 {
			t.Fatalf("%d bytes: no more than the head", len(doc))
		}
		rows, res := collect(t, []string{writeTemp(t, "firehose.json", string(doc))}, ingest.Options{Workers: 2, Location: time.UTC})
		if len(rows) != len(reqs) || res.BadLines() != 0 {
			t.Errorf("separator %q: %d records, %d bad lines, want %d, 0: %v", sep, len(rows), res.BadLines(), len(reqs), res.Problems)
		}
	}
}
