package main

import "testing"

// TestLangSmithRuns: LangSmith's runs, a list_runs dump and a runs
// query's {"runs":[…]}, read end to end: each file named langsmith, its
// llm and embedding runs the records, its chains, tools, retrievers,
// prompts and parsers passed over; a success a 200, an error the 429
// its text names ("Error code: 429 - …"), the pending run none; the
// longest call the 429 that took 09:05:00 to 09:05:30.017.
func TestLangSmithRuns(t *testing.T) {
	rep := reportOf(t, "--json", "-", "../../ingest/testdata/sources/langsmith.jsonl", "../../ingest/testdata/sources/langsmith-api.json")
	if rep.Verdict == "no_data" || rep.Input.Records != 10 || len(rep.Input.Files) != 2 {
		t.Fatalf("verdict %s, %d records, files %+v", rep.Verdict, rep.Input.Records, rep.Input.Files)
	}
	for i, want := range []struct {
		format          string
		records, passed int64
	}{{"jsonl", 7, 5}, {"json", 3, 2}} {
		f := rep.Input.Files[i]
		if f.Source != "langsmith" || f.Format != want.format || f.Records != want.records || f.PassedOver != want.passed {
			t.Errorf("file %d: %+v, want langsmith %s with %d records, %d passed over", i, f, want.format, want.records, want.passed)
		}
	}
	// The pending run has no end: 9 of the 10 records are timed.
	rt := rep.Latency.RequestTime
	if rt.All.Count != 9 || rt.All.MaxMS != 30017 {
		t.Errorf("request_time %+v, want 9 calls, the longest 30017 ms", rt.All)
	}
	models := map[string]int64{}
	for _, m := range rt.By["model"] {
		models[m.Key] = m.Count
	}
	statuses := map[string]int64{}
	for _, s := range rt.By["status"] {
		statuses[s.Key] = s.Count
	}
	if len(statuses) != 2 || statuses["200"] != 7 || statuses["429"] != 2 || models["gpt-4o-mini"] != 4 || models["claude-sonnet-4-5"] != 2 || models["gpt-4o"] != 2 ||
		models["text-embedding-3-small"] != 1 {
		t.Errorf("statuses %v, models %v; want 200 7 times, 429 twice", statuses, models)
	}
}
