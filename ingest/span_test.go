package ingest_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// spanCase is one record of two instants: its end (request_time) and
// its first token (ttft) after its start, and what reading it gives.
type spanCase struct {
	end, first time.Duration
	bad        string // the line is bad, its sample saying this
	noTTFT     string // the record is kept without ttft, its sample saying this
}

// spanCases cover the bounds Record.Finish puts on a request_time or a
// ttft taken from two instants: an end before the start is a bad line,
// as is one more than 1e7 s after it; 1e7 s and 0 s are read; a first
// token before the start, or 1e7 s after it, leaves ttft out.
var spanCases = []spanCase{
	{end: 1500 * time.Millisecond, first: 250 * time.Millisecond},
	{end: 4 * time.Second, first: -2 * time.Second, noTTFT: `ttft: cannot read "first_token_time is 2 s before time"`},
	{end: -500 * time.Millisecond, first: 100 * time.Millisecond, bad: "request_time: end_time is 0.5 s before time"},
	{end: 1e7*time.Second + time.Millisecond, first: time.Second, bad: "request_time: end_time is 10000000.001 s after time, longer than 1e7 s"},
	{end: 1e7 * time.Second, first: time.Second},
	{end: 0, first: 0},
	{end: 3 * time.Second, first: 1e7*time.Second + time.Second, noTTFT: "first_token_time is 10000001 s after time, longer than 1e7 s"},
}

// checkSpans checks what reading spanCases as the lines (rows) of path
// gave: each good line's request_time and ttft, the bad lines and the
// values left out, at their lines, with their reasons.
func checkSpans(t *testing.T, path string, opts ingest.Options, wantSource string) {
	t.Helper()
	got, res := collect(t, []string{path}, opts)
	f := res.Files[0]
	if f.Source != wantSource {
		t.Fatalf("%s read as %q, want %q (%+v)", path, f.Source, wantSource, f)
	}
	var wantRT, wantTTFT []float64
	var bad, noTTFT []string
	for i, c := range spanCases {
		switch {
		case c.bad != "":
			bad = append(bad, fmt.Sprintf("%d: %s", i+1, c.bad))
			continue
		case c.noTTFT != "":
			noTTFT = append(noTTFT, fmt.Sprintf("%d: %s", i+1, c.noTTFT))
			wantTTFT = append(wantTTFT, math.NaN()) // absent
		default:
			wantTTFT = append(wantTTFT, float64(c.first)/float64(time.Millisecond))
		}
		wantRT = append(wantRT, c.end.Seconds())
	}
	if len(got) != len(wantRT) || f.BadLines != int64(len(bad)) || f.UnreadValues[ingest.FTTFT] != int64(len(noTTFT)) {
		t.Fatalf("%d records, %d bad lines, %d ttft unread; want %d, %d, %d", len(got), f.BadLines, f.UnreadValues[ingest.FTTFT],
			len(wantRT), len(bad), len(noTTFT))
	}
	// The records' times are their lines' order.
	for i, g := range got {
		if !nearSrc(g.rt, wantRT[i]) || !nearSrc(g.ttft, wantTTFT[i]) {
			t.Errorf("record %d: request_time %v s, ttft %v ms; want %v s, %v ms", i, g.rt, g.ttft, wantRT[i], wantTTFT[i])
		}
	}
	matches := func(what string, ps []ingest.Problem, want []string) {
		if len(ps) != len(want) {
			t.Errorf("%s: %v, want %v", what, ps, want)
			return
		}
		for i, p := range ps {
			if line, reason, _ := strings.Cut(want[i], ": "); fmt.Sprint(p.Line) != line || !strings.Contains(p.Reason, reason) {
				t.Errorf("%s %d: line %d %q, want line %s saying %q", what, i, p.Line, p.Reason, line, reason)
			}
		}
	}
	matches("bad line", res.Problems, bad)
	matches("value left out", res.ValueProblems, noTTFT)
}

var spanStart = time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC)

// TestSpansOfJSONLines: LiteLLM's startTime, endTime and
// completionStartTime (its StandardLoggingPayload, in seconds).
func TestSpansOfJSONLines(t *testing.T) {
	var b strings.Builder
	for i, c := range spanCases {
		start := spanStart.Add(time.Duration(i) * time.Second)
		epoch := func(d time.Duration) string {
			return fmt.Sprintf("%d.%06d", start.Add(d).Unix(), start.Add(d).Nanosecond()/1000)
		}
		fmt.Fprintf(&b, `{"id":"c%d","call_type":"acompletion","startTime":%s,"endTime":%s,"completionStartTime":%s,"model":"gpt-4o","api_base":"https://api.openai.com/v1"}`+"\n",
			i, epoch(0), epoch(c.end), epoch(c.first))
	}
	path := writeTemp(t, "spend.jsonl", b.String())
	for _, workers := range []int{1, 2} {
		checkSpans(t, path, ingest.Options{Workers: workers, Location: time.UTC}, "litellm")
	}
}

// TestSpansOfParquet: Langfuse's observations as Parquet, whose rows
// are read in batches (the columnar path's Finish).
func TestSpansOfParquet(t *testing.T) {
	type obs struct {
		ID        string `parquet:"id"`
		TraceID   string `parquet:"trace_id"`
		ProjectID string `parquet:"project_id"`
		Parent    string `parquet:"parent_observation_id"`
		Type      string `parquet:"type,dict"`
		Start     string `parquet:"start_time"`
		End       string `parquet:"end_time"`
		First     string `parquet:"completion_start_time"`
	}
	const layout = "2006-01-02 15:04:05.000000"
	var rows []obs
	for i, c := range spanCases {
		start := spanStart.Add(time.Duration(i) * time.Second)
		rows = append(rows, obs{ID: fmt.Sprintf("o%d", i), TraceID: "t1", ProjectID: "p1", Parent: "o0", Type: "GENERATION",
			Start: start.Format(layout), End: start.Add(c.end).Format(layout), First: start.Add(c.first).Format(layout)})
	}
	path := filepath.Join(t.TempDir(), "observations.parquet")
	writeDictRows(t, path, rows, 3) // row groups of 3 rows
	for _, workers := range []int{1, 3} {
		checkSpans(t, path, ingest.Options{Workers: workers, Location: time.UTC}, "langfuse")
		// The accumulator takes the records a batch at a time.
		acc, res := accumulate(t, []string{path}, ingest.Options{Workers: workers, Location: time.UTC})
		if want := int64(len(spanCases) - 2); acc.Records != want || res.BadLines() != 2 {
			t.Errorf("%d workers, by batches: %d records, %d bad lines; want %d, 2", workers, acc.Records, res.BadLines(), want)
		}
	}
}

// TestSpansOfALB: AWS ALB's request_creation_time and time. A line whose
// two instants make no request_time is a bad line of the format, which
// is still the one chosen for the file.
func TestSpansOfALB(t *testing.T) {
	const line = `https %s app/llm-alb/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:8000 0.000 0.412 0.000 200 200 350 18231 ` +
		`"POST https://llm.example.com:443/v1/chat/completions HTTP/1.1" "openai-python/1.30.1" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 ` +
		`arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/llm/73e2d6bc24d8a067 "Root=1-58337281-1d84f3d73c47ec4e58577259" ` +
		`"llm.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 %s "forward" "-" "-" "10.0.0.1:8000" "200" "-" "-"` + "\n"
	const layout = "2006-01-02T15:04:05.000000Z"
	var b strings.Builder
	var want []float64
	for i, end := range []time.Duration{1200 * time.Millisecond, -3 * time.Second, 900 * time.Millisecond, 400 * 24 * time.Hour, 2 * time.Second} {
		start := spanStart.Add(time.Duration(i) * time.Minute)
		fmt.Fprintf(&b, line, start.Add(end).Format(layout), start.Format(layout))
		if end >= 0 && end <= 1e7*time.Second {
			want = append(want, end.Seconds())
		}
	}
	path := writeTemp(t, "alb.log", b.String())
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Source != "aws-alb" || f.BadLines != 2 || len(got) != len(want) {
		t.Fatalf("read as %q: %d records, %d bad lines; want aws-alb, %d, 2", f.Source, len(got), f.BadLines, len(want))
	}
	for i, g := range got {
		if !nearSrc(g.rt, want[i]) {
			t.Errorf("record %d: request_time %v s, want %v", i, g.rt, want[i])
		}
	}
	if len(res.Problems) != 2 || res.Problems[0].Line != 2 || res.Problems[0].Reason != "request_time: end_time is 3 s before time" ||
		res.Problems[1].Line != 4 || res.Problems[1].Reason != "request_time: end_time is 34560000 s after time, longer than 1e7 s" {
		t.Errorf("bad lines %v; want line 2 (end 3 s before) and line 4 (34560000 s after)", res.Problems)
	}
}
