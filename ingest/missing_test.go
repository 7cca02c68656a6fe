package ingest_test

import (
	"math"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestMissingValueSpellings: what table and JSON writers put for a
// missing value is absent, the record kept (SPEC §3: absent, empty or
// null is just absent): JSON's NaN and ±Infinity as Python's json.dumps
// and DuckDB write a non-finite float, where a field but request_time
// is missing; SQL's NULL as mysql -B and DuckDB's NULLSTR write it; R's
// NA in a number or a time. A request_time of NaN stays a bad line
// (SPEC §3), and NA stays text where text is read (a region NA).
func TestMissingValueSpellings(t *testing.T) {
	opts := ingest.Options{Workers: 1, Location: time.UTC}
	got, res := collect(t, []string{writeTemp(t, "nan.jsonl",
		`{"time":"2026-12-04T09:00:00Z","request_time":1.5,"first_token_ms":NaN,"status":500}`+"\n"+
			`{"time":"2026-12-04T09:00:01Z","request_time":2.5,"first_token_ms":-Infinity,"status":200}`+"\n"+
			`{"time":"2026-12-04T09:00:02Z","request_time":3.5,"first_token_ms":Infinity,"upstream_response_time":NaN,"status":429}`+"\n"+
			`{"time":"2026-12-04T09:00:03Z","request_time":NaN,"status":200}`+"\n")}, opts)
	if len(got) != 3 || res.BadLines() != 1 || res.Problems[0].Line != 4 {
		t.Fatalf("JSON: %d records, %d bad lines %v; want 3 and line 4 bad", len(got), res.BadLines(), res.Problems)
	}
	for i, r := range got {
		if !math.IsNaN(r.ttft) || !math.IsNaN(r.urt) || r.rt != 1.5+float64(i) || !r.hasStatus {
			t.Errorf("JSON record %d: %+v; want request_time %v, no ttft, no upstream time", i, r, 1.5+float64(i))
		}
	}
	got, res = collect(t, []string{writeTemp(t, "null.tsv",
		"time\tmodel\tregion\tstatus\trequest_time\tfirst_token_ms\n"+
			"2026-12-04T09:00:00Z\tNULL\tNULL\t200\t1.5\tNULL\n"+
			"2026-12-04T09:00:01Z\tgpt-4o\tus-east\tNULL\tNULL\t300\n"+
			"NULL\tgpt-4o\tus-east\t200\t2.5\tnull\n")}, opts)
	if len(got) != 3 || res.BadLines() != 0 {
		t.Fatalf("NULL: %d records, %d bad lines %v; want 3, 0", len(got), res.BadLines(), res.Problems)
	}
	if r := got[0]; r.model != "" || r.region != "" || !math.IsNaN(r.ttft) || r.rt != 1.5 {
		t.Errorf("NULL record 0: %+v", r)
	}
	if r := got[1]; r.hasStatus || !math.IsNaN(r.rt) || r.ttft != 300 {
		t.Errorf("NULL record 1: %+v", r)
	}
	if r := got[2]; r.hasTime || r.rt != 2.5 {
		t.Errorf("NULL record 2: %+v", r)
	}
	got, res = collect(t, []string{writeTemp(t, "r.csv",
		"time,region,status,request_time,first_token_ms\n"+
			"2026-12-04T09:00:00Z,NA,200,1.5,NA\n"+
			"NA,eu,NA,NA,250\n")}, opts)
	if len(got) != 2 || res.BadLines() != 0 {
		t.Fatalf("NA: %d records, %d bad lines %v; want 2, 0", len(got), res.BadLines(), res.Problems)
	}
	if r := got[0]; r.region != "NA" || !math.IsNaN(r.ttft) || r.rt != 1.5 {
		t.Errorf("NA record 0: %+v; want region NA kept, no ttft", r)
	}
	if r := got[1]; r.hasTime || r.hasStatus || !math.IsNaN(r.rt) || r.ttft != 250 {
		t.Errorf("NA record 1: %+v; want no time, status or request_time", r)
	}
}

// TestCSVBadJSONCell: a CSV cell that should hold a JSON object and
// holds something else that begins as one (a Python dict's repr, as
// pandas writes a dict) is a value that cannot be read: the fields below
// its column are left out and counted, the record kept. One whose
// fields below include the request_time (Higress's ai_log) makes the
// row bad, as SPEC §3 makes an unreadable request_time.
func TestCSVBadJSONCell(t *testing.T) {
	opts := ingest.Options{Workers: 1, Location: time.UTC}
	lf := "trace_id,project_id,type,start_time,end_time,provided_model_name,usage_details\n" +
		`t1,p1,GENERATION,2026-11-29 02:00:00,2026-11-29 02:00:03.05,gpt-4o,"{""input"": 2716, ""output"": 50}"` + "\n" +
		`t2,p1,GENERATION,2026-11-29 02:00:10,2026-11-29 02:00:10.837,gpt-4o,"{'input': 287, 'output': 520}"` + "\n"
	got, res := collect(t, []string{writeTemp(t, "lf.csv", lf)}, opts)
	f := res.Files[0]
	if f.Source != "langfuse" || len(got) != 2 || res.BadLines() != 0 || f.UnreadValues[ingest.FPromptTokens] != 1 {
		t.Fatalf("%+v, %d records; want langfuse, 2 records, 0 bad lines, one prompt_tokens unread", f, len(got))
	}
	if got[0].prompt != 2716 || got[1].prompt != -1 || math.Abs(got[1].rt-0.837) > 1e-9 {
		t.Errorf("records %+v; want the first's 2716 tokens, the second's none and its 0.837 s", got)
	}
	higress := "time,status,ai_log\n" +
		`2026-11-29T02:00:00Z,200,"{""model"": ""qwen"", ""llm_service_duration"": 1200}"` + "\n" +
		`2026-11-29T02:00:01Z,200,"{'model': 'qwen', 'llm_service_duration': 900}"` + "\n"
	got, res = collect(t, []string{writeTemp(t, "hg.csv", higress)}, opts)
	if len(got) != 1 || res.BadLines() != 1 || res.Problems[0].Line != 3 {
		t.Errorf("ai_log: %d records, %d bad lines %v; want 1 and line 3 bad", len(got), res.BadLines(), res.Problems)
	}
}
