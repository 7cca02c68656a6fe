package main

import "testing"

// TestOTelTraces: OTLP/JSON trace exports, a Collector file exporter's
// lines and a pretty-printed document, read end to end: each file named
// otel, its LLM calls (or, without any, its HTTP server spans) the
// records, the other spans passed over, the model and status dimensions
// filled from the spans' attributes.
func TestOTelTraces(t *testing.T) {
	rep := reportOf(t, "--json", "-", "../../ingest/testdata/sources/otel.jsonl", "../../ingest/testdata/sources/otel-http.json")
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
