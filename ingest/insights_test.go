package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// insightsField is a field of a row of CloudWatch Logs Insights' results
// as aws logs get-query-results writes it; a row is an array of them.
type insightsField struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// insightsDoc returns rows as get-query-results' JSON, indented as the
// AWS CLI writes it.
func insightsDoc(t *testing.T, rows [][]insightsField) []byte {
	t.Helper()
	return jsonOf(t, map[string]any{
		"results":    rows,
		"statistics": map[string]float64{"recordsMatched": float64(len(rows)), "recordsScanned": float64(len(rows)), "bytesScanned": 1e4},
		"status":     "Complete",
	}, "    ")
}

// TestInsightsResults: CloudWatch Logs Insights' results of its default
// query (fields @timestamp, @message, @logStream, @log), as aws logs
// get-query-results writes them and as the console's export of the
// table does (an array of objects), give the records of the lines in
// their @message, as the lines alone do.
func TestInsightsResults(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		name := filepath.Base(src)
		var rows [][]insightsField
		var table []map[string]string
		for i, l := range fileLines(t, src) {
			stamp := time.Date(2026, 12, 4, 2, 0, i%60, 0, time.UTC).Format("2006-01-02 15:04:05.000")
			rows = append(rows, []insightsField{{"@timestamp", stamp}, {"@message", l},
				{"@logStream", "i-0abc/access.log"}, {"@log", "123456789012:/gw/access"}, {"@ptr", fmt.Sprintf("CmAKJw%d", i)}})
			table = append(table, map[string]string{"@timestamp": stamp, "@message": l, "@logStream": "i-0abc/access.log"})
		}
		console := jsonOf(t, table, "  ")
		checkAsLines(t, src, ingest.EnvInsights, map[string][]byte{
			filepath.Join(dir, "get-query-results-"+name+".json"): insightsDoc(t, rows),
			filepath.Join(dir, "console-"+name+".json"):           console,
		})
	}
}

// lineSamples are logs of lines of several formats and sources, which
// the tests of envelopes write within theirs: JSON lines of two sources
// told by their names, nginx text of a known format and an
// ingress-nginx log.
var lineSamples = []string{"testdata/sources/aws-apigateway.json", "testdata/sources/litellm.json", "testdata/sources/traefik.json",
	"../testdata/shared/examples/tokenhub-sample-nginx.log", "../testdata/shared/real/ingress-nginx-upstreaminfo.log"}

// jsonOf returns v as encoding/json writes it, indented by indent
// unless it is "".
func jsonOf(t *testing.T, v any, indent string) []byte {
	t.Helper()
	var b []byte
	var err error
	if indent == "" {
		b, err = json.Marshal(v)
	} else {
		b, err = json.MarshalIndent(v, "", indent)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// timedLines are two JSON lines, one of no time of its own (0.25 s) and
// one of its own (502 at 2026-12-05 10:30 UTC), whose times
// checkEnvelopeTime checks.
var timedLines = []string{`{"status":200,"request_time":0.25,"model":"m"}`,
	`{"time":"2026-12-05T18:30:00+08:00","status":502,"request_time":1.5}`}

// checkEnvelopeTime reads doc, which holds timedLines within envelope
// env, the first at at, in the zone loc (--tz), and checks that the line
// of no time of its own takes at, the other its own.
func checkEnvelopeTime(t *testing.T, doc []byte, env ingest.Envelope, at time.Time, loc *time.Location) {
	t.Helper()
	got, res := collect(t, []string{writeTemp(t, "timed.json", string(doc))}, ingest.Options{Workers: 1, Location: loc})
	if f := res.Files[0]; f.Envelope != env || len(got) != 2 || f.BadLines != 0 {
		t.Fatalf("envelope %q, %d records, %d bad lines; want %q, 2, 0", f.Envelope, len(got), f.BadLines, env)
	}
	if got[0].timeNS != at.UnixNano() || !nearSrc(got[0].rt, 0.25) {
		t.Errorf("the line of no time: %v, %v s; want %v, 0.25 s", time.Unix(0, got[0].timeNS).UTC(), got[0].rt, at)
	}
	if want := time.Date(2026, 12, 5, 10, 30, 0, 0, time.UTC).UnixNano(); got[1].timeNS != want || got[1].status != 502 {
		t.Errorf("the line of its own time: %v, %d; want %v, 502", time.Unix(0, got[1].timeNS).UTC(), got[1].status, time.Unix(0, want).UTC())
	}
}

// fileLines returns the lines of the file at path.
func fileLines(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
}

// checkAsLines writes each document of docs, which hold the lines of
// src within envelope env, and checks that it reads as src does: its
// format, source, records and bad lines, and an accumulator byte for
// byte the same.
func checkAsLines(t *testing.T, src string, env ingest.Envelope, docs map[string][]byte) {
	t.Helper()
	want, base := encodedRun(t, src, ingest.Options{Workers: 2, MaxProblems: 100})
	for path, doc := range docs {
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		got, res := encodedRun(t, path, ingest.Options{Workers: 2, MaxProblems: 100})
		f0, f := base.Files[0], res.Files[0]
		name := filepath.Base(path)
		if f0.Records == 0 || f.Envelope != env || f.Format != f0.Format || f.Source != f0.Source {
			t.Fatalf("%s: read as %q %s (%s), the lines alone %s (%s), %d records", name, f.Envelope, f.Format, f.Source, f0.Format, f0.Source, f0.Records)
		}
		if f.Records != f0.Records || f.BadLines != f0.BadLines {
			t.Fatalf("%s: %d records and %d bad lines, want %d and %d", name, f.Records, f.BadLines, f0.Records, f0.BadLines)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the accumulator differs from the lines' alone", name)
		}
	}
}

// TestInsightsTime: a JSON line in @message without a time of its own
// takes the row's @timestamp, which Insights writes in UTC whatever
// --tz says; a line with its own keeps it; a row of no @message, or
// whose message no format reads, is a bad line.
func TestInsightsTime(t *testing.T) {
	rows := [][]insightsField{
		{{"@timestamp", "2026-12-05 10:00:01.250"}, {"@message", `{"status":200,"request_time":0.25,"model":"m"}`}, {"@ptr", "a"}},
		{{"@timestamp", "2026-12-05 10:00:02.000"}, {"@message", `{"time":"2026-12-05T18:30:00+08:00","status":502,"request_time":1.5}`}, {"@ptr", "b"}},
		{{"@timestamp", "2026-12-05 10:00:03.000"}, {"@ptr", "c"}},
		{{"@timestamp", "2026-12-05 10:00:04.000"}, {"@message", "garbage"}, {"@ptr", "d"}},
	}
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{writeTemp(t, "insights.json", string(insightsDoc(t, rows)))}, ingest.Options{Workers: 1, Location: shanghai, MaxProblems: 10})
	f := res.Files[0]
	if f.Envelope != ingest.EnvInsights || len(got) != 2 || f.BadLines != 2 {
		t.Fatalf("envelope %q, %d records, %d bad lines (%v); want cloudwatch-insights, 2, 2", f.Envelope, len(got), f.BadLines, res.Problems)
	}
	if at := time.Date(2026, 12, 5, 10, 0, 1, 250e6, time.UTC).UnixNano(); got[0].timeNS != at || !nearSrc(got[0].rt, 0.25) || got[0].model != "m" {
		t.Errorf("the line of no time: %v, %v s, model %q; want @timestamp's %v, 0.25 s, m", time.Unix(0, got[0].timeNS).UTC(), got[0].rt, got[0].model, time.Unix(0, at).UTC())
	}
	if at := time.Date(2026, 12, 5, 10, 30, 0, 0, time.UTC).UnixNano(); got[1].timeNS != at || got[1].status != 502 {
		t.Errorf("the line of its own time: %v, status %d; want %v, 502", time.Unix(0, got[1].timeNS).UTC(), got[1].status, time.Unix(0, at).UTC())
	}
	if len(res.Problems) != 2 || !strings.Contains(res.Problems[0].Reason, "message is missing") {
		t.Errorf("bad lines %v; want the row of no @message, then the garbage", res.Problems)
	}
}

// TestInsightsFields: the results of a query of fields extracted from
// the lines (fields @timestamp, status, request_time, …), every value a
// string, are read by their names, @timestamp as the UTC instant it is;
// so is a row that has @message beside a field read as the request
// time.
func TestInsightsFields(t *testing.T) {
	rows := [][]insightsField{
		{{"@timestamp", "2026-12-05 10:00:00.000"}, {"status", "200"}, {"request_time", "0.512"}, {"model", "gpt-4o"}, {"stream", "true"}, {"@message", "x"}, {"@ptr", "a"}},
		{{"@timestamp", "2026-12-05 10:00:07.500"}, {"status", "429"}, {"request_time", "0.002"}, {"model", "gpt-4o"}, {"@ptr", "b"}},
	}
	got, res := collect(t, []string{writeTemp(t, "fields.json", string(insightsDoc(t, rows)))}, ingest.Options{Workers: 1, Location: time.FixedZone("", 8*3600)})
	f := res.Files[0]
	if f.Envelope != ingest.NoEnvelope || f.Format != ingest.JSONDoc || len(got) != 2 || f.BadLines != 0 {
		t.Fatalf("envelope %q, format %s, %d records, %d bad lines; want none, json, 2, 0", f.Envelope, f.Format, len(got), f.BadLines)
	}
	want := []struct {
		at     time.Time
		rt     float64
		status int64
	}{{time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC), 0.512, 200}, {time.Date(2026, 12, 5, 10, 0, 7, 500e6, time.UTC), 0.002, 429}}
	for i, w := range want {
		if g := got[i]; g.timeNS != w.at.UnixNano() || !nearSrc(g.rt, w.rt) || g.status != w.status || g.model != "gpt-4o" {
			t.Errorf("record %d: %v, %v s, status %d, model %q; want %v, %v s, %d, gpt-4o", i, time.Unix(0, g.timeNS).UTC(), g.rt, g.status, g.model, w.at, w.rt, w.status)
		}
	}
	if !got[0].hasStream || !got[0].stream {
		t.Errorf("record 0: stream %v (has %v); want true", got[0].stream, got[0].hasStream)
	}
}

// TestCloudWatchEventTime: a JSON line in a CloudWatch Logs event's
// message without a time of its own takes the event's timestamp (epoch
// ms); one with its own keeps it.
func TestCloudWatchEventTime(t *testing.T) {
	doc := `{"events":[
 {"logStreamName":"s","timestamp":1796392801250,"message":"{\"status\":200,\"request_time\":0.25}","ingestionTime":1796392802000,"eventId":"1"},
 {"logStreamName":"s","timestamp":1796392802000,"message":"{\"time\":\"2026-12-05T10:30:00Z\",\"status\":502,\"request_time\":1.5}","ingestionTime":1796392803000,"eventId":"2"}
],"searchedLogStreams":[]}`
	got, res := collect(t, []string{writeTemp(t, "events.json", doc)}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.EnvCloudWatch || len(got) != 2 || f.BadLines != 0 {
		t.Fatalf("envelope %q, %d records, %d bad lines; want cloudwatch, 2, 0", f.Envelope, len(got), f.BadLines)
	}
	if at := time.UnixMilli(1796392801250).UnixNano(); got[0].timeNS != at || !nearSrc(got[0].rt, 0.25) {
		t.Errorf("the line of no time: %v, %v s; want the event's %v, 0.25 s", time.Unix(0, got[0].timeNS).UTC(), got[0].rt, time.Unix(0, at).UTC())
	}
	if at := time.Date(2026, 12, 5, 10, 30, 0, 0, time.UTC).UnixNano(); got[1].timeNS != at {
		t.Errorf("the line of its own time: %v; want %v", time.Unix(0, got[1].timeNS).UTC(), time.Unix(0, at).UTC())
	}
}

// TestInsightsRunning: the results of a query not yet Complete (aws
// logs get-query-results while it runs) are read, and the file is
// marked read in part, saying why.
func TestInsightsRunning(t *testing.T) {
	lines := nginxSample(t, 5)
	var rows [][]insightsField
	for _, l := range lines {
		rows = append(rows, []insightsField{{"@timestamp", "2026-11-29 02:00:00.000"}, {"@message", l}})
	}
	for status, partial := range map[string]bool{"Complete": false, "Running": true, "Timeout": true} {
		doc := bytes.Replace(insightsDoc(t, rows), []byte(`"Complete"`), []byte(`"`+status+`"`), 1)
		got, res := collect(t, []string{writeTemp(t, "q.json", string(doc))}, ingest.Options{Workers: 1})
		f := res.Files[0]
		if len(got) != len(lines) || f.Incomplete != partial || partial && !strings.Contains(f.Reason, `"`+status+`"`) {
			t.Errorf("status %s: %d records, incomplete %v (%q); want %d, %v", status, len(got), f.Incomplete, f.Reason, len(lines), partial)
		}
	}
}
