package ingest_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestBedrockRegions: a Bedrock call is made in its log's region and
// runs in its inferenceRegion when cross-region inference sent it
// elsewhere, else in the region it was made in.
func TestBedrockRegions(t *testing.T) {
	got, res := collect(t, []string{filepath.Join("testdata", "sources", "bedrock.jsonl")}, ingest.Options{Workers: 1})
	if len(got) != 7 || res.Files[0].Source != "bedrock" {
		t.Fatalf("%d records of %q; want 7 of bedrock", len(got), res.Files[0].Source)
	}
	want := []struct{ made, ran string }{{"us-east-1", "us-east-1"}, {"us-east-1", "us-west-2"}, {"us-east-1", "us-east-1"},
		{"us-east-1", "us-east-1"}, {"us-east-1", "us-east-1"}, {"ap-northeast-1", "ap-northeast-1"}, {"ap-northeast-1", "ap-northeast-1"}}
	for i, w := range want {
		if g := got[i]; g.clientRegion != w.made || g.region != w.ran {
			t.Errorf("record %d: made in %q, ran in %q; want %q, %q", i, g.clientRegion, g.region, w.made, w.ran)
		}
	}
}

// TestBedrockErrorCode: an errorCode Bedrock's API reference does not
// list is a status that cannot be read, counted and shown, not a 200;
// the record is kept.
func TestBedrockErrorCode(t *testing.T) {
	line := `{"schemaType":"ModelInvocationLog","schemaVersion":"1.0","timestamp":"2026-12-05T10:00:00Z","accountId":"1","region":"us-east-1","operation":"Converse","modelId":"m","errorCode":"BrandNewException","input":{},"output":{}}`
	got, res := collect(t, []string{writeTemp(t, "b.jsonl", line+"\n")}, ingest.Options{Workers: 1, MaxProblems: 5})
	if len(got) != 1 || got[0].hasStatus || len(res.ValueProblems) != 1 || !strings.Contains(res.ValueProblems[0].Reason, "BrandNewException") {
		t.Fatalf("%d records, status %d (has %v), value problems %v; want 1 record of no status, the errorCode shown", len(got), got[0].status, got[0].hasStatus, res.ValueProblems)
	}
}

// TestBedrockStreamsOfOneShape: JSON lines of one shape whose response
// stream's chunks are an array are each read whole, their last chunk's
// metrics included, as the first (the lines' learned shape walks no
// array: the general reader does).
func TestBedrockStreamsOfOneShape(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, `{"schemaType":"ModelInvocationLog","schemaVersion":"1.0","timestamp":"2026-12-05T10:00:%02dZ","accountId":"1","identity":{"arn":"a"},"region":"us-east-1","requestId":"r%d","operation":"InvokeModelWithResponseStream","modelId":"m","input":{"inputTokenCount":%d},"output":{"outputBodyJson":[{"type":"content_block_delta"},{"type":"message_stop","amazon-bedrock-invocationMetrics":{"invocationLatency":%d,"firstByteLatency":%d}}],"outputTokenCount":7}}`+"\n",
			i, i, 10+i, 1000+i, 100+i)
	}
	got, _ := collect(t, []string{writeTemp(t, "s.jsonl", b.String())}, ingest.Options{Workers: 1})
	if len(got) != 40 {
		t.Fatalf("%d records; want 40", len(got))
	}
	for i, g := range got {
		if g.timeNS != time.Date(2026, 12, 5, 10, 0, i, 0, time.UTC).UnixNano() || !nearSrc(g.rt*1000, float64(1000+i)) ||
			!nearSrc(g.ttft, float64(100+i)) || g.prompt != int64(10+i) || !g.stream || g.status != 200 {
			t.Errorf("record %d: %+v; want rt %d ms, ttft %d ms, %d prompt tokens, streamed, 200", i, g, 1000+i, 100+i, 10+i)
		}
	}
}

// TestArrayUnderMappedPath: a --map name within the objects of an array
// (spans.duration_ms) is read from them, on every line of one shape as
// on the first: the learned shape walks no array, the general reader
// does; a value of the array that is no object is passed over.
func TestArrayUnderMappedPath(t *testing.T) {
	schema, err := ingest.NewSchema([]string{"request_time=spans.duration_ms:ms"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, `{"time":"2026-12-05T10:00:%02dZ","status":200,"spans":[1,"x",[2],{"name":"queue"},{"duration_ms":%d}]}`+"\n", i, 100+i)
	}
	got, res := collect(t, []string{writeTemp(t, "spans.jsonl", b.String())}, ingest.Options{Workers: 1, Schema: schema})
	if len(got) != 30 || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines; want 30, 0", len(got), res.BadLines())
	}
	for i, g := range got {
		if !nearSrc(g.rt*1000, float64(100+i)) {
			t.Errorf("record %d: request_time %v ms; want %d", i, g.rt*1000, 100+i)
		}
	}
}
