package ingest_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// nginxSample returns the first n lines of the sample nginx log.
func nginxSample(t *testing.T, n int) []string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "testdata", "logs", "tokenhub-4-nginx.log"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(text)), "\n")[:n]
}

// csvOf writes rows, the header first, as encoding/csv writes them.
func csvOf(t *testing.T, rows [][]string) string {
	t.Helper()
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRawCSVSplunk: Splunk's CSV export of a search, each row's log line
// in _raw, reads as the lines themselves do (EnvRawCSV).
func TestRawCSVSplunk(t *testing.T) {
	lines := nginxSample(t, 60)
	rows := [][]string{{"_serial", "_time", "source", "sourcetype", "host", "index", "splunk_server", "_raw"}}
	for i, l := range lines {
		rows = append(rows, []string{string(rune('0' + i%10)), "2026-11-29T10:00:00.000+08:00", "/var/log/nginx/access.log", "nginx", "gw-1", "main", "idx-1", l})
	}
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	opts := ingest.Options{Workers: 2, Location: shanghai}
	want, wres := collect(t, []string{writeTemp(t, "lines.log", strings.Join(lines, "\n")+"\n")}, opts)
	got, res := collect(t, []string{writeTemp(t, "splunk.csv", csvOf(t, rows))}, opts)
	f := res.Files[0]
	if f.Envelope != ingest.EnvRawCSV || f.Source != wres.Files[0].Source || f.BadLines != wres.Files[0].BadLines || len(got) != len(want) || f.PassedOver != 0 {
		t.Fatalf("envelope %q, source %q, %d records, %d bad lines, %d passed over; want csv-raw, %q, %d, %d, none (the header is no record)",
			f.Envelope, f.Source, len(got), f.BadLines, f.PassedOver, wres.Files[0].Source, len(want), wres.Files[0].BadLines)
	}
	for i := range got {
		g, w := got[i], want[i]
		g.rt, g.urt, g.ttft, w.rt, w.urt, w.ttft = 0, 0, 0, 0, 0, 0 // NaN for none: compared apart
		if g != w || !nearSrc(got[i].rt, want[i].rt) || !nearSrc(got[i].urt, want[i].urt) || !nearSrc(got[i].ttft, want[i].ttft) {
			t.Errorf("record %d: %+v, the line itself %+v", i, got[i], want[i])
		}
	}
}

// TestRawCSVInsights: CloudWatch Logs Insights' CSV export, each row's
// event in @message (an API Gateway's JSON access log), its time in
// @timestamp; a message without a time of its own takes it, in UTC,
// as Insights writes it, whatever --tz says.
func TestRawCSVInsights(t *testing.T) {
	rows := [][]string{{"@timestamp", "@message", "@logStream", "@log"}}
	latencies := []int{512, 1234, 86}
	for i, ms := range latencies {
		msg, _ := json.Marshal(map[string]any{"requestId": "r", "ip": "10.0.0.7", "requestTime": "05/Dec/2026:10:00:0" + string(rune('0'+i)) + " +0000",
			"httpMethod": "POST", "resourcePath": "/v1/chat/completions", "status": "200", "protocol": "HTTP/1.1",
			"responseLength": "900", "responseLatency": ms, "integrationLatency": ms - 10})
		rows = append(rows, []string{"2026-12-05 10:00:0" + string(rune('0'+i)) + ".000", string(msg), "s", "123456789012:API-Gateway-Execution-Logs"})
	}
	// A message of no time, a blank one, one no format reads, a row
	// short of a field.
	rows = append(rows, []string{"2026-12-05 10:00:09.000", `{"status":200,"request_time":0.25}`, "s", "g"},
		[]string{"2026-12-05 10:00:10.000", "", "s", "g"},
		[]string{"2026-12-05 10:00:11.000", "garbage", "s", "g"})
	text := csvOf(t, rows) + "2026-12-05 10:00:12.000,short\n"
	got, res := collect(t, []string{writeTemp(t, "insights.csv", text)}, ingest.Options{Workers: 1, Location: time.FixedZone("", 8*3600)})
	f := res.Files[0]
	if f.Envelope != ingest.EnvRawCSV || f.Source != "aws-apigateway" || len(got) != 4 || f.BadLines != 2 {
		t.Fatalf("envelope %q, source %q, %d records, %d bad lines (%v); want csv-raw, aws-apigateway, 4, 2", f.Envelope, f.Source, len(got), f.BadLines, res.Problems)
	}
	for i, ms := range latencies {
		if at := time.Date(2026, 12, 5, 10, 0, i, 0, time.UTC).UnixNano(); got[i].timeNS != at || !nearSrc(got[i].rt*1000, float64(ms)) {
			t.Errorf("record %d: %v, %v ms; want %v, %d ms", i, time.Unix(0, got[i].timeNS).UTC(), got[i].rt*1000, time.Unix(0, at).UTC(), ms)
		}
	}
	if at := time.Date(2026, 12, 5, 10, 0, 9, 0, time.UTC).UnixNano(); got[3].timeNS != at || !nearSrc(got[3].rt, 0.25) {
		t.Errorf("the message of no time: %v, %v s; want @timestamp's %v, 0.25 s", time.Unix(0, got[3].timeNS).UTC(), got[3].rt, time.Unix(0, at).UTC())
	}
	if len(res.Problems) != 2 || res.Problems[0].Line != 7 || res.Problems[1].Line != 8 {
		t.Errorf("bad lines %v; want the garbage's line 7 and the short row's line 8", res.Problems)
	}
}

// TestRawCSVOwnFields: a CSV that has a _raw column beside one of a
// request time (an export of extracted fields) is read as the CSV it is.
func TestRawCSVOwnFields(t *testing.T) {
	text := csvOf(t, [][]string{{"_time", "request_time", "status", "_raw"},
		{"2026-12-05T10:00:00Z", "0.5", "200", "GET / HTTP/1.1"}, {"2026-12-05T10:00:01Z", "1.5", "502", "x"}})
	got, res := collect(t, []string{writeTemp(t, "fields.csv", text)}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.NoEnvelope || f.Format != ingest.CSV || len(got) != 2 || !nearSrc(got[1].rt, 1.5) {
		t.Errorf("envelope %q, format %q, %d records; want none, csv, 2 of request_time 0.5 and 1.5 s", f.Envelope, f.Format, len(got))
	}
}

// TestRawCSVMessage: a column "message" holds a log line in Kibana's
// export of a Filebeat index (and Graylog's): read as the lines within
// when its first messages are a format's lines; a message column of a
// program's own text leaves the file the CSV of its columns.
func TestRawCSVMessage(t *testing.T) {
	lines := nginxSample(t, 30)
	rows := [][]string{{"@timestamp", "host.name", "log.file.path", "message"}}
	for _, l := range lines {
		rows = append(rows, []string{"Nov 29, 2026 @ 10:30:00.000", "gw-1", "/var/log/nginx/access.log", l})
	}
	opts := ingest.Options{Workers: 1, Location: time.UTC}
	want, _ := collect(t, []string{writeTemp(t, "lines.log", strings.Join(lines, "\n")+"\n")}, opts)
	got, res := collect(t, []string{writeTemp(t, "discover.csv", csvOf(t, rows))}, opts)
	if f := res.Files[0]; f.Envelope != ingest.EnvRawCSV || f.Format != ingest.Nginx || len(got) != len(want) {
		t.Fatalf("envelope %q, format %q, %d records; want csv-raw, nginx, %d", f.Envelope, f.Format, len(got), len(want))
	}
	for i := range got {
		if got[i].timeNS != want[i].timeNS || !nearSrc(got[i].rt, want[i].rt) || got[i].status != want[i].status {
			t.Errorf("record %d: %+v, the line itself %+v", i, got[i], want[i])
		}
	}
	own := csvOf(t, [][]string{{"time", "status", "uri", "message"},
		{"2026-12-05T10:00:00Z", "200", "/v1/x", "user 1 logged in"}, {"2026-12-05T10:00:01Z", "404", "/v1/y", "no such page"}})
	got, res = collect(t, []string{writeTemp(t, "app.csv", own)}, opts)
	if f := res.Files[0]; f.Envelope != ingest.NoEnvelope || f.Format != ingest.CSV || len(got) != 2 || got[1].status != 404 {
		t.Errorf("a message of the program's own: envelope %q, format %q, %d records; want none, csv, 2", f.Envelope, f.Format, len(got))
	}
}

// TestRawCSVSourceFields: a Kibana export with ECS's event.duration
// beside the message is read as ECS's CSV: a column some source reads
// as the request time keeps a file the CSV of its columns.
func TestRawCSVSourceFields(t *testing.T) {
	lines := nginxSample(t, 5)
	rows := [][]string{{"@timestamp", "event.duration", "message"}}
	for i, l := range lines {
		rows = append(rows, []string{"Nov 29, 2026 @ 10:30:00.000", []string{"100000000", "250000000", "5000000", "1200000000", "70000"}[i], l})
	}
	got, res := collect(t, []string{writeTemp(t, "ecs.csv", csvOf(t, rows))}, ingest.Options{Workers: 1, Location: time.UTC})
	want := []float64{0.1, 0.25, 0.005, 1.2, 0.00007}
	if f := res.Files[0]; f.Envelope != ingest.NoEnvelope || f.Source != "ecs" || len(got) != len(want) {
		t.Fatalf("envelope %q, source %q, %d records; want none, ecs, %d", f.Envelope, f.Source, len(got), len(want))
	}
	// The records come in time order; these share one time.
	var rts []float64
	for _, g := range got {
		rts = append(rts, g.rt)
	}
	sort.Float64s(rts)
	sort.Float64s(want)
	for i := range want {
		if !nearSrc(rts[i], want[i]) {
			t.Errorf("request times %v s, want %v", rts, want)
			break
		}
	}
}

// TestRawCSVManyFiles: csv-raw files read one after another in a run,
// with other files between them, each pass over their own header: the
// header a file is told by is kept apart from the reader's buffer,
// which the next files' reads overwrite.
func TestRawCSVManyFiles(t *testing.T) {
	dir := t.TempDir()
	line := `10.0.0.1 - - [05/Dec/2026:10:00:0%d +0000] "POST /v1/chat/completions HTTP/1.1" 200 512 "-" "curl" 0.%d23 0.%d20`
	for i, name := range []string{"a.csv", "b.jsonl", "c.csv", "d.log", "e.csv"} {
		var text string
		switch {
		case strings.HasSuffix(name, ".csv"):
			rows := [][]string{{"timestamp", "source", "_raw"}}
			for k := range 4 {
				rows = append(rows, []string{"2026-12-05T10:00:00Z", "gw", fmt.Sprintf(line, k, k+1, k+1)})
			}
			text = csvOf(t, rows)
		case strings.HasSuffix(name, ".jsonl"):
			text = `{"time":"2026-12-05T10:00:00Z","status":200,"request_time":0.5}` + "\n"
		default:
			text = fmt.Sprintf(line, i, 1, 1) + "\n"
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, workers := range []int{1, 2} {
		_, res := collect(t, []string{dir}, ingest.Options{Workers: workers, Location: time.UTC})
		for _, f := range res.Files {
			if strings.HasSuffix(f.Path, ".csv") && (f.Envelope != ingest.EnvRawCSV || f.Records != 4 || f.BadLines != 0) {
				t.Errorf("%d workers, %s: envelope %q, %d records, %d bad lines (%v); want csv-raw, 4, none", workers, filepath.Base(f.Path), f.Envelope, f.Records, f.BadLines, res.Problems)
			}
		}
	}
}

// TestRawCSVCLS: Tencent Cloud CLS's CSV download of a log collected as
// full text keeps each line in __CONTENT__, its time __TIMESTAMP__ (ms):
// read as the lines within, as its JSON record is (EnvCLS).
func TestRawCSVCLS(t *testing.T) {
	lines := nginxSample(t, 25)
	rows := [][]string{{"__TIMESTAMP__", "__SOURCE__", "__FILENAME__", "__CONTENT__"}}
	for _, l := range lines {
		rows = append(rows, []string{"1796002200123", "10.0.0.1", "/var/log/nginx/access.log", l})
	}
	opts := ingest.Options{Workers: 2, Location: time.UTC}
	want, wres := collect(t, []string{writeTemp(t, "lines.log", strings.Join(lines, "\n")+"\n")}, opts)
	got, res := collect(t, []string{writeTemp(t, "cls.csv", csvOf(t, rows))}, opts)
	if f := res.Files[0]; f.Envelope != ingest.EnvRawCSV || f.Source != wres.Files[0].Source || len(got) != len(want) {
		t.Fatalf("envelope %q, source %q, %d records; want csv-raw, %q, %d", f.Envelope, f.Source, len(got), wres.Files[0].Source, len(want))
	}
	for i := range got {
		if got[i].timeNS != want[i].timeNS || !nearSrc(got[i].rt, want[i].rt) || got[i].client != want[i].client {
			t.Errorf("record %d: %+v, the line itself %+v", i, got[i], want[i])
		}
	}
}

// TestRawCSVFluentBitLog: Kibana's or OpenSearch Dashboards' CSV export
// of an index Fluent Bit fills, each line in its log column, with the
// line's end Docker kept ("LINE\n": the quoted field goes on to the next
// line of the file), reads as the lines alone do.
func TestRawCSVFluentBitLog(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{"testdata/sources/aws-apigateway.json",
		"../testdata/shared/examples/tokenhub-sample-nginx.log", "../testdata/shared/real/ingress-nginx-upstreaminfo.log"} {
		rows := [][]string{{"@timestamp", "kubernetes.pod_name", "kubernetes.namespace_name", "log"}}
		for i, l := range fileLines(t, src) {
			rows = append(rows, []string{fmt.Sprintf("Dec 4, 2026 @ 02:00:%02d.000", i%60), "gw-7d9f-abcde", "gw", l + "\n"})
		}
		checkAsLines(t, src, ingest.EnvRawCSV, map[string][]byte{
			filepath.Join(dir, "discover-"+filepath.Base(src)+".csv"): []byte(csvOf(t, rows)),
		})
	}
}

// TestRawCSVDatadog: Datadog's Log Explorer exports its list as CSV,
// a column each shown: Date, Host, Service, the line as Message (or
// Content), and the facets added, read as the lines themselves.
func TestRawCSVDatadog(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{"../testdata/shared/examples/tokenhub-sample-nginx.log", "../testdata/shared/real/ingress-nginx-upstreaminfo.log"} {
		files := map[string][]byte{}
		for _, head := range [][]string{{"Date", "Host", "Service", "Message"}, {"Date", "Host", "Service", "Content"},
			{"Date", "Host", "Service", "@http.status_code", "@network.client.ip", "Message"}} {
			rows := [][]string{head}
			for i, l := range fileLines(t, src) {
				row := []string{fmt.Sprintf("2026-12-04T02:%02d:%02d.510Z", i/60%60, i%60), "node-1", "ingress-nginx"}
				if len(head) == 6 {
					row = append(row, "200", "10.0.3.16")
				}
				rows = append(rows, append(row, l))
			}
			name := fmt.Sprintf("datadog-%s-%d.csv", filepath.Base(src), len(files))
			files[filepath.Join(dir, name)] = []byte(csvOf(t, rows))
		}
		checkAsLines(t, src, ingest.EnvRawCSV, files)
	}
}

// TestLogtailContainerLines: Alibaba Cloud SLS's export of a container's
// lines as Logtail collects them (iLogtail's service_docker_stdout: the
// line in content, beside _time_, _source_, _container_name_,
// _pod_name_…), as JSON lines and as the console's CSV, gives the
// records its lines give alone.
func TestLogtailContainerLines(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{"../testdata/shared/examples/tokenhub-sample-nginx.log", "../testdata/shared/real/ingress-nginx-upstreaminfo.log"} {
		rows := [][]string{{"__topic__", "__source__", "__time__", "_container_name_", "_namespace_", "_pod_name_", "_source_", "_time_", "content"}}
		var jl bytes.Buffer
		for i, l := range fileLines(t, src) {
			at := fmt.Sprintf("2026-12-04T02:00:%02d.510779123Z", i%60)
			rows = append(rows, []string{"", "172.16.1.21", "1796349600", "controller", "kube-system", "ingress-abcde", "stdout", at, l})
			b, err := json.Marshal(map[string]string{"__topic__": "", "__time__": "1796349600", "_container_name_": "controller",
				"_pod_name_": "ingress-abcde", "_source_": "stdout", "_time_": at, "content": l})
			if err != nil {
				t.Fatal(err)
			}
			jl.Write(append(b, '\n'))
		}
		checkAsLines(t, src, ingest.EnvShipper, map[string][]byte{filepath.Join(dir, "sls-"+filepath.Base(src)+".json"): jl.Bytes()})
		checkAsLines(t, src, ingest.EnvRawCSV, map[string][]byte{filepath.Join(dir, "sls-"+filepath.Base(src)+".csv"): []byte(csvOf(t, rows))})
	}
}
