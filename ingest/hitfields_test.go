package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"loganalyze/ingest"
)

// TestHitFields: a search answer whose hits carry their fields, not their
// _source (Kibana's Discover asks for "fields" with "_source": false),
// reads as the JSON lines of those fields with each one-value array
// written as its value: the same records and accumulator, byte for byte.
// A hit with a _source is its _source, whatever fields it has too.
func TestHitFields(t *testing.T) {
	var hits []map[string]any
	var lines bytes.Buffer
	for i := range 60 {
		fields := map[string]any{
			"@timestamp":                []any{fmt.Sprintf("2026-12-05T10:%02d:%02d.250Z", i/60, i%60)},
			"http.response.status_code": []any{[]int{200, 200, 429, 502}[i%4]},
			"http.request.method":       []any{"POST"},
			"url.path":                  []any{"/v1/chat/completions"},
			"source.ip":                 []any{fmt.Sprintf("10.0.0.%d", i%5)},
			"event.duration":            []any{int64(250+i*37) * 1e6},
			"event.dataset":             []any{"nginx.access"},
			"tags":                      []any{"edge", "prod"}, // more than one value: kept an array
			"error.message":             []any{},               // none: null
		}
		hit := map[string]any{"_index": "filebeat-2026.12.05", "_id": fmt.Sprint("h", i), "_score": nil,
			"fields": fields, "sort": []any{1764928800000 + i*1000}}
		// The oracle's record: each field's one value, null for none, the
		// array for more.
		rec := map[string]any{}
		for k, v := range fields {
			switch vs := v.([]any); len(vs) {
			case 0:
				rec[k] = nil
			case 1:
				rec[k] = vs[0]
			default:
				rec[k] = vs
			}
		}
		if i%10 == 9 { // a hit with its _source too: the _source is the record
			src := map[string]any{"@timestamp": fmt.Sprintf("2026-12-05T11:00:%02d.000Z", i), "http": map[string]any{"response": map[string]any{"status_code": 504}},
				"url": map[string]any{"path": "/v1/embeddings"}, "source": map[string]any{"ip": "10.9.9.9"}, "event": map[string]any{"duration": 30e9, "dataset": "nginx.access"}}
			hit["_source"], rec = src, src
		}
		hits = append(hits, hit)
		line, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(line, '\n'))
	}
	doc, err := json.MarshalIndent(map[string]any{"took": 12, "timed_out": false,
		"_shards": map[string]any{"total": 1, "successful": 1, "skipped": 0, "failed": 0},
		"hits":    map[string]any{"total": map[string]any{"value": 60, "relation": "eq"}, "max_score": nil, "hits": hits}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	docPath, linesPath := filepath.Join(dir, "inspect.json"), filepath.Join(dir, "lines.jsonl")
	if err := os.WriteFile(docPath, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(linesPath, lines.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want, base := encodedRun(t, linesPath, ingest.Options{Workers: 2})
	got, res := encodedRun(t, docPath, ingest.Options{Workers: 2})
	f0, f := base.Files[0], res.Files[0]
	if f0.Records != 60 || f0.Source != "ecs" || f.Format != ingest.JSONDoc || f.Source != f0.Source ||
		f.Records != f0.Records || f.BadLines != 0 || f.WithoutRequestTime != 0 {
		t.Fatalf("the answer read as %s (%s), %d records, %d bad, %d without request_time; its lines as %s (%s), %d records",
			f.Format, f.Source, f.Records, f.BadLines, f.WithoutRequestTime, f0.Format, f0.Source, f0.Records)
	}
	if !bytes.Equal(got, want) {
		t.Error("the accumulator differs from the fields' lines'")
	}
}
