package main

import (
	"encoding/json"
	"testing"
)

// TestOTelTraces: OTLP/JSON trace exports, a Collector file exporter's
// lines and a pretty-printed document, read end to end: each file named
// otel, its LLM calls (or, without any, its HTTP server spans) the
// records, the other spans passed over, the model and status dimensions
// filled from the spans' attributes.
func TestOTelTraces(t *testing.T) {
	code, out, errs := runCLI(t, "--json", "-", "../../ingest/testdata/sources/otel.jsonl", "../../ingest/testdata/sources/otel-http.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep sourcesReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Verdict == "no_data" || rep.Input.Records != 9 || len(rep.Input.Files) != 2 {
		t.Fatalf("verdict %s, %d records, files %+v", rep.Verdict, rep.Input.Records, rep.Input.Files)
	}
	for i, want := range []struct{ records, passed int64 }{{6, 5}, {3, 1}} {
		f := rep.Input.Files[i]
		if f.Source != "otel" || f.Format != "json" || f.Records != want.records || f.PassedOver != want.passed {
			t.Errorf("file %d: %+v, want otel json with %d records, %d passed over", i, f, want.records, want.passed)
		}
	}
	by := rep.Latency.RequestTime.By
	if len(by["model"]) != 6 || len(by["status"]) != 2 || len(by["region"]) != 2 {
		t.Errorf("models %v, statuses %v, regions %v", by["model"], by["status"], by["region"])
	}
}

// sourcesReport is what the CLI tests of a source's files read of the
// JSON report: each file's source, format and counts, and request_time
// overall and by dimension.
type sourcesReport struct {
	Verdict string
	Input   struct {
		Records int64
		Files   []struct {
			Source     string
			Format     string
			Records    int64
			PassedOver int64 `json:"passed_over"`
		}
	}
	Latency struct {
		RequestTime struct {
			All struct {
				Count int64
				MaxMS float64 `json:"max_ms"`
			}
			By map[string][]struct {
				Key   string
				Count int64
			}
		} `json:"request_time"`
	}
}
