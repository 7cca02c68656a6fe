package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// otlpAnyValue is an AnyValue of OTLP/JSON, as the tests decode it.
type otlpAnyValue struct {
	StringValue *string  `json:"stringValue"`
	IntValue    *string  `json:"intValue"`
	DoubleValue *float64 `json:"doubleValue"`
	KvlistValue *struct {
		Values []otlpKeyValue `json:"values"`
	} `json:"kvlistValue"`
}

type otlpKeyValue struct {
	Key   string       `json:"key"`
	Value otlpAnyValue `json:"value"`
}

// otlpLogRecord is a LogRecord of OTLP/JSON
// (opentelemetry/proto/logs/v1/logs.proto), as the tests decode it.
type otlpLogRecord struct {
	TimeUnixNano         string         `json:"timeUnixNano"`
	ObservedTimeUnixNano string         `json:"observedTimeUnixNano"`
	Body                 otlpAnyValue   `json:"body"`
	Attributes           []otlpKeyValue `json:"attributes"`
}

// otlpRecords decodes the log records of an OTLP/JSON log export, one
// ExportLogsServiceRequest a line or one in the file, with encoding/json.
func otlpRecords(t *testing.T, path string) []otlpLogRecord {
	t.Helper()
	recs, _ := otlpExportRecords(t, path)
	return recs
}

// otlpExportRecords decodes the log records of the export at path and
// the cloud.region of each one's resource ("" for none), in their order.
func otlpExportRecords(t *testing.T, path string) (recs []otlpLogRecord, regions []string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	for dec.More() {
		var req struct {
			ResourceLogs []struct {
				Resource struct {
					Attributes []otlpKeyValue `json:"attributes"`
				} `json:"resource"`
				ScopeLogs []struct {
					LogRecords []otlpLogRecord `json:"logRecords"`
				} `json:"scopeLogs"`
			} `json:"resourceLogs"`
		}
		if err := dec.Decode(&req); err != nil {
			t.Fatal(err)
		}
		for _, rl := range req.ResourceLogs {
			region := otlpLogRecord{Attributes: rl.Resource.Attributes}.attr("cloud.region")
			for _, sl := range rl.ScopeLogs {
				recs = append(recs, sl.LogRecords...)
				for range sl.LogRecords {
					regions = append(regions, region)
				}
			}
		}
	}
	return recs, regions
}

// attr returns the string value of a record's attribute key, "" when it
// has none.
func (r otlpLogRecord) attr(key string) string {
	for _, kv := range r.Attributes {
		if kv.Key == key && kv.Value.StringValue != nil {
			return *kv.Value.StringValue
		}
	}
	return ""
}

// nginxTruth is what an nginx line of main + "$request_time
// $upstream_response_time" says, read by hand: its time, status and
// request time; ok false for a line of no such shape.
func nginxTruth(line string) (at time.Time, status int64, rt float64, ok bool) {
	f := strings.Fields(line)
	i, j := strings.IndexByte(line, '['), strings.IndexByte(line, ']')
	if len(f) < 12 || i < 0 || j < i {
		return at, 0, 0, false
	}
	at, err1 := time.Parse("02/Jan/2006:15:04:05 -0700", line[i+1:j])
	status, err2 := strconv.ParseInt(f[8], 10, 64)
	rt, err3 := strconv.ParseFloat(f[len(f)-2], 64)
	return at, status, rt, err1 == nil && err2 == nil && err3 == nil
}

// TestOTelLogsLines: the OpenTelemetry Collector's file exporter's log
// export of an nginx access log that its filelog receiver read, a batch
// of records a line: each record's body is read as an nginx line, the
// record that is no such line a bad line that says which of its line's
// records it is.
func TestOTelLogsLines(t *testing.T) {
	const path = "testdata/otlp/filelog-nginx.jsonl"
	recs := otlpRecords(t, path)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
	f := res.Files[0]
	if f.Envelope != ingest.EnvOTelLogs || f.Format != ingest.Nginx {
		t.Fatalf("read as %q %s, want otlp-logs nginx", f.Envelope, f.Format)
	}
	var want []row
	for _, r := range recs {
		if at, status, rt, ok := nginxTruth(*r.Body.StringValue); ok {
			want = append(want, row{timeNS: at.UnixNano(), status: status, rt: rt})
		}
	}
	if len(got) != len(want) || res.BadLines() != int64(len(recs)-len(want)) {
		t.Fatalf("%d records, %d bad, want %d and %d: %v", len(got), res.BadLines(), len(want), len(recs)-len(want), res.Problems)
	}
	sameRows(t, got, want, false)
	if p := res.Problems[0]; p.Line != 1 || !strings.HasPrefix(p.Reason, "log record 3 on the line: ") {
		t.Errorf("problem %v, want line 1's log record 3", p)
	}
}

// TestOTelLogsAttributes: a record whose attributes carry a request's
// fields (the filelog receiver's regex_parser put them there, its
// parse_to's default) is read as the JSON object of them, not by its
// line; its time timeUnixNano when the attributes have none.
func TestOTelLogsAttributes(t *testing.T) {
	const path = "testdata/otlp/filelog-regex-attributes.jsonl"
	recs := otlpRecords(t, path)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.EnvOTelLogs || f.Format != ingest.JSONL || len(got) != len(recs) || res.BadLines() != 0 {
		t.Fatalf("read as %q %s: %d records, %d bad; want otlp-logs jsonl, %d, 0: %v", f.Envelope, f.Format, len(got), res.BadLines(), len(recs), res.Problems)
	}
	for i, r := range recs {
		at, err := time.Parse("02/Jan/2006:15:04:05 -0700", r.attr("time_local"))
		if err != nil {
			ns, _ := strconv.ParseInt(r.TimeUnixNano, 10, 64)
			at = time.Unix(0, ns)
		}
		status, _ := strconv.ParseInt(r.attr("status"), 10, 64)
		rt, _ := strconv.ParseFloat(r.attr("request_time"), 64)
		if g := got[i]; g.timeNS != at.UnixNano() || g.status != status || !nearSrc(g.rt, rt) {
			t.Errorf("record %d: %v, %d, %g s; want %v, %d, %g s", i, time.Unix(0, g.timeNS).UTC(), g.status, g.rt, at.UTC(), status, rt)
		}
	}
}

// TestOTelLogsMapBody: a record whose body is a map (the json_parser's
// parse_to: body) is read as the JSON object of its members, its
// intValue a number; its time its own, else timeUnixNano. A record of
// no body, or of a body that is neither a line nor a map, is a bad line
// that says so, with the line it starts on.
func TestOTelLogsMapBody(t *testing.T) {
	const path = "testdata/otlp/kvlist-body.json"
	recs := otlpRecords(t, path)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	var want []row
	for _, r := range recs {
		if r.Body.KvlistValue == nil {
			continue
		}
		var w row
		ns, _ := strconv.ParseInt(r.TimeUnixNano, 10, 64)
		w.timeNS = ns
		for _, kv := range r.Body.KvlistValue.Values {
			switch v := kv.Value; kv.Key {
			case "time_iso8601":
				at, err := time.Parse(time.RFC3339, *v.StringValue)
				if err != nil {
					t.Fatal(err)
				}
				w.timeNS = at.UnixNano()
			case "status":
				w.status, _ = strconv.ParseInt(*v.IntValue, 10, 64)
			case "request_time":
				w.rt = *v.DoubleValue
			case "model":
				w.model = *v.StringValue
			}
		}
		want = append(want, w)
	}
	if f := res.Files[0]; f.Envelope != ingest.EnvOTelLogs || len(got) != len(want) || res.BadLines() != int64(len(recs)-len(want)) {
		t.Fatalf("read as %q: %d records, %d bad; want otlp-logs, %d and %d: %v", f.Envelope, len(got), res.BadLines(), len(want), len(recs)-len(want), res.Problems)
	}
	sameRows(t, got, want, true)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for _, p := range res.Problems {
		// A pretty-printed export, a record a line: no record's place.
		if p.Line < 1 || strings.TrimSpace(lines[p.Line-1]) != "{" || !strings.HasPrefix(p.Reason, "an OTLP log record without a line or a map") {
			t.Errorf("problem %v, want a record's first line and why", p)
		}
	}
}

// otlpExport returns the lines as the Collector's file exporter writes
// the filelog receiver's records of them: per of them an export a line,
// each record's time observedTimeUnixNano; or, when per is 0, all in one
// export, pretty-printed.
func otlpExport(t *testing.T, lines []string, per int) []byte {
	t.Helper()
	export := func(lines []string, from int) map[string]any {
		var recs []map[string]any
		for i, l := range lines {
			recs = append(recs, map[string]any{
				"observedTimeUnixNano": strconv.FormatInt(time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC).UnixNano()+int64(from+i)*1e9, 10),
				"body":                 map[string]any{"stringValue": l},
				"attributes":           []any{map[string]any{"key": "log.file.name", "value": map[string]any{"stringValue": "access.log"}}},
				"traceId":              "", "spanId": "",
			})
		}
		return map[string]any{"resourceLogs": []any{map[string]any{
			"resource":  map[string]any{"attributes": []any{map[string]any{"key": "host.name", "value": map[string]any{"stringValue": "gw-1"}}}},
			"scopeLogs": []any{map[string]any{"scope": map[string]any{}, "logRecords": recs}},
		}}}
	}
	if per == 0 {
		return jsonOf(t, export(lines, 0), "  ")
	}
	var b bytes.Buffer
	for i := 0; i < len(lines); i += per {
		writeJSONLine(t, &b, export(lines[i:min(i+per, len(lines))], i))
	}
	return b.Bytes()
}

// TestOTelLogsAsLines: lines of any format, JSON or text, as the
// Collector's file exporter writes them, batches a line or one
// pretty-printed export, read as the lines alone.
func TestOTelLogsAsLines(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		name := filepath.Base(src)
		lines := fileLines(t, src)
		checkAsLines(t, src, ingest.EnvOTelLogs, map[string][]byte{
			filepath.Join(dir, "batches-"+name+".jsonl"): otlpExport(t, lines, 7),
			filepath.Join(dir, "one-"+name+".json"):      otlpExport(t, lines, 0),
		})
	}
}

// TestOTelLogsTime: a line of no time of its own takes its record's
// timeUnixNano, else, when that is absent or 0 (unknown), its
// observedTimeUnixNano; a line with its own time keeps it.
func TestOTelLogsTime(t *testing.T) {
	base := time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC)
	ns := func(d time.Duration) string { return strconv.FormatInt(base.Add(d).UnixNano(), 10) }
	recs := []map[string]any{
		{"timeUnixNano": ns(1500 * time.Microsecond), "observedTimeUnixNano": ns(time.Second), "body": map[string]any{"stringValue": `{"status":200,"request_time":0.1}`}},
		{"observedTimeUnixNano": ns(2 * time.Second), "body": map[string]any{"stringValue": `{"status":200,"request_time":0.2}`}},
		{"timeUnixNano": "0", "observedTimeUnixNano": ns(3 * time.Second), "body": map[string]any{"stringValue": `{"status":200,"request_time":0.3}`}},
		{"timeUnixNano": ns(4 * time.Second), "body": map[string]any{"stringValue": `{"time":"2026-12-04T10:30:00+08:00","status":200,"request_time":0.4}`}},
	}
	want := map[float64]int64{
		0.1: base.Add(1500 * time.Microsecond).UnixNano(),
		0.2: base.Add(2 * time.Second).UnixNano(),
		0.3: base.Add(3 * time.Second).UnixNano(),
		0.4: time.Date(2026, 12, 4, 2, 30, 0, 0, time.UTC).UnixNano(),
	}
	doc := jsonOf(t, map[string]any{"resourceLogs": []any{map[string]any{"scopeLogs": []any{map[string]any{"logRecords": recs}}}}}, "")
	got, res := collect(t, []string{writeTemp(t, "times.jsonl", string(doc)+"\n")}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != len(recs) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad, want %d, 0: %v", len(got), res.BadLines(), len(recs), res.Problems)
	}
	checkTimesByRT(t, "otlp", got, want)
}

// TestOTelLogsBigBatch: a line of the file exporter far longer than a
// line may be (1 MiB) is read record by record.
func TestOTelLogsBigBatch(t *testing.T) {
	var lines []string
	for i := range 6000 {
		lines = append(lines, fmt.Sprintf(`{"time":"2026-12-04T02:%02d:%02dZ","status":200,"request_time":%d.5,"pad":"%s"}`, i/60%60, i%60, i%7, strings.Repeat("x", 200)))
	}
	text := otlpExport(t, lines, len(lines))
	if len(text) < 2*ingest.MaxLine {
		t.Fatalf("%d bytes: not past a line's bound", len(text))
	}
	got, res := collect(t, []string{writeTemp(t, "big.jsonl", string(text))}, ingest.Options{Workers: 2, Location: time.UTC})
	if len(got) != len(lines) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad, want %d, 0: %v", len(got), res.BadLines(), len(lines), res.Problems)
	}
}

// TestOTelLogsResourceRegion: each record of an export's resources is
// read with its resource's cloud.region, of a resource of none without
// one, beside what its line says.
func TestOTelLogsResourceRegion(t *testing.T) {
	const path = "testdata/otlp/resource-regions.json"
	recs, regions := otlpExportRecords(t, path)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.EnvOTelLogs || f.Format != ingest.Nginx || len(got) != len(recs) || res.BadLines() != 0 {
		t.Fatalf("read as %q %s: %d records, %d bad; want otlp-logs nginx, %d, 0: %v", f.Envelope, f.Format, len(got), res.BadLines(), len(recs), res.Problems)
	}
	for i, r := range recs {
		at, status, rt, ok := nginxTruth(*r.Body.StringValue)
		if !ok {
			t.Fatalf("record %d: no nginx line", i)
		}
		if g := got[i]; g.timeNS != at.UnixNano() || g.status != status || !nearSrc(g.rt, rt) || g.region != regions[i] {
			t.Errorf("record %d: %v, %d, %g s, %q; want %v, %d, %g s, %q", i, time.Unix(0, g.timeNS).UTC(), g.status, g.rt, g.region,
				at.UTC(), status, rt, regions[i])
		}
	}
}

// TestOTelLogsResourceRegionOwn: a record read by its attributes keeps
// its own region over its resource's cloud.region; the others take
// their resource's, its escapes decoded.
func TestOTelLogsResourceRegionOwn(t *testing.T) {
	const path = "testdata/otlp/resource-regions-attributes.jsonl"
	recs, regions := otlpExportRecords(t, path)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.EnvOTelLogs || f.Format != ingest.JSONL || len(got) != len(recs) || res.BadLines() != 0 {
		t.Fatalf("read as %q %s: %d records, %d bad; want otlp-logs jsonl, %d, 0: %v", f.Envelope, f.Format, len(got), res.BadLines(), len(recs), res.Problems)
	}
	for i, r := range recs {
		ns, _ := strconv.ParseInt(r.TimeUnixNano, 10, 64)
		status, _ := strconv.ParseInt(r.attr("status"), 10, 64)
		rt, _ := strconv.ParseFloat(r.attr("request_time"), 64)
		region := r.attr("region")
		if region == "" {
			region = regions[i]
		}
		if g := got[i]; g.timeNS != ns || g.status != status || !nearSrc(g.rt, rt) || g.region != region {
			t.Errorf("record %d: %v, %d, %g s, %q; want %v, %d, %g s, %q", i, time.Unix(0, g.timeNS).UTC(), g.status, g.rt, g.region,
				time.Unix(0, ns).UTC(), status, rt, region)
		}
	}
}
