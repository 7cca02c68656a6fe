package ingest_test

import (
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// serilogRequests returns the RequestPath of each request event of a
// Serilog JSON fixture, decoded with encoding/json, in the file's order:
// the events of Serilog.AspNetCore's request logging, their properties
// at the top (CLEF), under Properties (JsonFormatter) or under fields
// (the Elasticsearch sink).
func serilogRequests(t *testing.T, path string) []string {
	t.Helper()
	var paths []string
	for _, d := range readRawDocs(t, path) {
		props := d
		for _, k := range []string{"Properties", "fields"} {
			if m, ok := d[k].(map[string]any); ok {
				props = rawDoc(m)
			}
		}
		if props.str("SourceContext") == "Serilog.AspNetCore.RequestLoggingMiddleware" {
			paths = append(paths, props.str("RequestPath"))
		}
	}
	return paths
}

// Serilog's request events are read by their properties wherever the
// formatter put them, the path too, with or without --source serilog;
// the Elasticsearch sink's documents are read by their fields, not as
// the text lines of their rendered message, though the first is no
// request (the host's "Now listening on").
func TestSerilogJSONShapes(t *testing.T) {
	for _, file := range []string{"serilog-clef.jsonl", "serilog-json.jsonl", "serilog-es.jsonl"} {
		for _, forced := range []string{"", "serilog"} {
			t.Run(file+"/"+forced, func(t *testing.T) {
				path := filepath.Join("testdata", "sources", file)
				want := serilogRequests(t, path)
				got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC, Source: forced})
				fs := res.Files[0]
				if fs.Source != "serilog" || fs.Envelope != "" || res.BadLines() != 0 || len(got) != len(want) {
					t.Fatalf("source %q, envelope %q, %d records, %d bad lines (%v); want serilog, none, %d, 0",
						fs.Source, fs.Envelope, len(got), res.BadLines(), res.Problems, len(want))
				}
				// collect orders by time, as the fixtures are.
				for i, r := range got {
					if r.uri != want[i] {
						t.Errorf("record %d: uri %q, want %q", i, r.uri, want[i])
					}
				}
			})
		}
	}
}
