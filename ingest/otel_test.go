package ingest_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestOTelResource: a resource's attributes apply to its spans and to no
// others; a span's own attribute of the same name wins.
func TestOTelResource(t *testing.T) {
	path := writeTemp(t, "traces.jsonl", `{"resourceSpans":[{"resource":{"attributes":[{"key":"cloud.region","value":{"stringValue":"eu-west-1"}},{"key":"gen_ai.request.model","value":{"stringValue":"from-resource"}}]},"scopeSpans":[{"spans":[{"name":"chat a","kind":3,"startTimeUnixNano":"1764842400000000000","endTimeUnixNano":"1764842400250000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.request.model","value":{"stringValue":"a"}}]}]}]},{"scopeSpans":[{"spans":[{"name":"chat b","kind":3,"startTimeUnixNano":"1764842401000000000","endTimeUnixNano":"1764842401500000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.request.model","value":{"stringValue":"b"}}]}]}]}]}
`)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if res.BadLines() != 0 || len(got) != 2 || res.Files[0].Source != "otel" {
		t.Fatalf("%d records, %d bad, source %q, want 2, 0, otel: %v", len(got), res.BadLines(), res.Files[0].Source, res.Problems)
	}
	if got[0].region != "eu-west-1" || got[0].model != "a" || got[1].region != "" || got[1].model != "b" {
		t.Errorf("records %+v, want a in eu-west-1, then b without a region", got)
	}
	if got[0].rt != 0.25 || got[1].rt != 0.5 {
		t.Errorf("request times %v, %v s, want 0.25, 0.5", got[0].rt, got[1].rt)
	}
}

// TestOTelBadSpans: a span without times, one that ends before it starts,
// one with a malformed attribute is each a bad record with its line and
// why; the spans beside them are read.
func TestOTelBadSpans(t *testing.T) {
	const good = `"startTimeUnixNano":"1764842400000000000","endTimeUnixNano":"1764842401000000000"`
	attr := func(kv string) string {
		return `"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}` + kv + `]`
	}
	spans := []string{
		`{"name":"ok",` + good + `,` + attr("") + `}`,
		`{"name":"no start","endTimeUnixNano":"1764842401000000000",` + attr("") + `}`,
		`{"name":"no end","startTimeUnixNano":"1764842401000000000",` + attr("") + `}`,
		`{"name":"backwards","startTimeUnixNano":"1764842402000000000","endTimeUnixNano":"1764842401000000000",` + attr("") + `}`,
		`{"name":"zero","startTimeUnixNano":"0","endTimeUnixNano":"1764842401000000000",` + attr("") + `}`,
		`{"name":"text","startTimeUnixNano":"soon","endTimeUnixNano":"1764842401000000000",` + attr("") + `}`,
		`{"name":"int",` + good + `,` + attr(`,{"key":"gen_ai.usage.input_tokens","value":{"intValue":"many"}}`) + `}`,
		`{"name":"keyless",` + good + `,` + attr(`,{"value":{"stringValue":"x"}}`) + `}`,
		`{"name":"value",` + good + `,` + attr(`,{"key":"k","value":"x"}`) + `}`,
		`{"name":"ok too",` + good + `,` + attr("") + `}`,
	}
	doc := "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[\n" + strings.Join(spans, ",\n") + "\n]}]}]}\n"
	got, res := collect(t, []string{writeTemp(t, "bad.json", doc)}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 2 || res.BadLines() != 8 {
		t.Fatalf("%d records and %d bad, want 2 and 8: %v", len(got), res.BadLines(), res.Problems)
	}
	want := []string{"without startTimeUnixNano", "without endTimeUnixNano", "ends before it starts",
		"outside the years", `"soon"`, `intValue "many" is not an integer`, `without a "key"`, "value is not an object"}
	for i, p := range res.Problems {
		if p.Line != int64(i+3) || !strings.Contains(p.Reason, want[i]) {
			t.Errorf("problem %d: line %d %q, want line %d and %q", i, p.Line, p.Reason, i+3, want[i])
		}
	}
}

// TestOTelLookAlikes: JSON that is not an OTLP trace export is not read
// as one: a log line with an "attributes" list of the same shape, a
// line whose resourceSpans comes after its own fields, a Loki line of
// an OTLP export, OTLP logs (an export of none, no record and no bad
// line; a log record of no body, a bad line that says so) and metrics
// (each line a bad line that says only traces and logs are read).
func TestOTelLookAlikes(t *testing.T) {
	const attrs = `"attributes":[{"key":"gen_ai.request.model","value":{"stringValue":"m"}}]`
	for _, c := range []struct {
		name, text, source string
		records, bad       int
		reason             string
	}{
		{"attributes.jsonl", `{"time":"2025-12-04T10:00:00Z","request_time":0.5,"status":200,` + attrs + "}\n" +
			`{` + attrs + `,"time":"2025-12-04T10:00:01Z","request_time":0.7,"status":200}` + "\n", "", 2, 0, ""},
		{"after.jsonl", `{"time":"2025-12-04T10:00:00Z","request_time":0.5,"resourceSpans":[{"scopeSpans":[]}]}` + "\n", "", 1, 0, ""},
		{"loki.jsonl", `{"labels":{"job":"otel"},"line":"{\"resourceSpans\":[]}","timestamp":"2025-12-04T10:00:00Z"}` + "\n", "", 0, 1, "no field"},
		{"logs.json", "{\n  \"resourceLogs\": [\n    {\"scopeLogs\": []}\n  ]\n}\n", "", 0, 0, ""},
		{"logs.jsonl", `{"resourceLogs":[{"resource":{},"scopeLogs":[{"logRecords":[{"timeUnixNano":"1764842400000000000",` + attrs + `}]}]}]}` + "\n", "", 0, 1, "OTLP log record without a line"},
		{"metrics.jsonl", `{"resourceMetrics":[{"resource":{},"scopeMetrics":[{"metrics":[{"name":"gen_ai.client.operation.duration"}]}]}]}` + "\n", "", 0, 1, "OTLP export of metrics (resourceMetrics)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, res := collect(t, []string{writeTemp(t, c.name, c.text)}, ingest.Options{Workers: 1, Location: time.UTC})
			if f := res.Files[0]; f.Source != c.source || len(got) != c.records || res.BadLines() != int64(c.bad) {
				t.Errorf("source %q, %d records, %d bad; want %q, %d, %d: %v", f.Source, len(got), res.BadLines(), c.source, c.records, c.bad, res.Problems)
			}
			if c.reason != "" && (len(res.Problems) == 0 || !strings.Contains(res.Problems[0].Reason, c.reason)) {
				t.Errorf("problems %v, want one saying %q", res.Problems, c.reason)
			}
		})
	}
}

// TestOTelForcedSource: --source names another source for an OTLP file:
// its spans are still read as spans, every one a record.
func TestOTelForcedSource(t *testing.T) {
	got, res := collect(t, []string{"testdata/sources/otel.jsonl"}, ingest.Options{Workers: 1, Location: time.UTC, Source: "tokenhub"})
	if res.Files[0].Source != "tokenhub" || len(got) != 11 || res.BadLines() != 0 {
		t.Errorf("source %q, %d records, %d bad; want tokenhub, 11, 0", res.Files[0].Source, len(got), res.BadLines())
	}
}

// TestOTelResourcesAcrossUnits: an export of many resources, whose spans
// fill several units of work, reads each span with its own resource:
// resource i's region is r<i>, its spans' model m<i>; as the Collector's
// file exporter writes it, a line a resource, and as one document.
func TestOTelResourcesAcrossUnits(t *testing.T) {
	const resources, perResource = 400, 9
	var rs []string
	for i := range resources {
		var b strings.Builder
		fmt.Fprintf(&b, `{"resource":{"attributes":[{"key":"cloud.region","value":{"stringValue":"r%d"}},{"key":"pad","value":{"stringValue":"%s"}}]},"scopeSpans":[{"spans":[`, i, strings.Repeat("x", 300))
		for j := range perResource {
			if j > 0 {
				b.WriteString(",\n")
			}
			start := int64(1764842400000000000) + int64(i*perResource+j)*1e9
			fmt.Fprintf(&b, `{"kind":3,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.request.model","value":{"stringValue":"m%d"}},{"key":"gen_ai.prompt","value":{"stringValue":"%s"}}]}`,
				start, start+int64(j+1)*1e6, i, strings.Repeat("y", 200))
		}
		b.WriteString("]}]}")
		rs = append(rs, b.String())
	}
	lines := `{"resourceSpans":[` + strings.Join(rs, "]}\n{\"resourceSpans\":[") + "]}\n"
	doc := "{\"resourceSpans\":[\n" + strings.Join(rs, ",\n") + "\n]}\n"
	for _, text := range []string{lines, doc} {
		if len(text) < 3*256<<10 {
			t.Fatalf("%d bytes: not several units", len(text))
		}
		got, res := collect(t, []string{writeTemp(t, "many.json", text)}, ingest.Options{Workers: 2, Location: time.UTC})
		if len(got) != resources*perResource || res.BadLines() != 0 {
			t.Fatalf("%d records, %d bad, want %d, 0: %v", len(got), res.BadLines(), resources*perResource, res.Problems)
		}
		for i, r := range got {
			if r.region != "r"+strings.TrimPrefix(r.model, "m") || r.model != fmt.Sprintf("m%d", i/perResource) {
				t.Fatalf("record %d: model %q in region %q", i, r.model, r.region)
			}
			if want := float64(i%perResource+1) / 1000; r.rt != want {
				t.Fatalf("record %d: request_time %v, want %v", i, r.rt, want)
			}
		}
	}
}

// TestOTelRecordsRule: an LLM call among a file's first spans, after a
// hundred HTTP server spans, makes its records the LLM calls; a
// non-finite doubleValue, as the protobuf JSON mapping writes it, is a
// value no field takes, not a flaw of the span.
func TestOTelRecordsRule(t *testing.T) {
	var spans []string
	for i := range 100 {
		spans = append(spans, fmt.Sprintf(`{"kind":2,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[{"key":"http.request.method","value":{"stringValue":"POST"}},{"key":"http.response.status_code","value":{"intValue":200}}]}`,
			int64(1764842400000000000)+int64(i)*1e9, int64(1764842400100000000)+int64(i)*1e9))
	}
	spans = append(spans, `{"kind":3,"startTimeUnixNano":"1764842500000000000","endTimeUnixNano":"1764842500800000000","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.request.model","value":{"stringValue":"m"}},{"key":"gen_ai.response.time_to_first_chunk","value":{"doubleValue":"NaN"}},{"key":"gen_ai.request.temperature","value":{"doubleValue":"Infinity"}}]}`)
	doc := `{"resourceSpans":[{"scopeSpans":[{"spans":[` + strings.Join(spans, ",\n") + "]}]}]}\n"
	got, res := collect(t, []string{writeTemp(t, "rule.json", doc)}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 1 || res.BadLines() != 0 || res.Files[0].PassedOver != 100 {
		t.Fatalf("%d records, %d bad, %d passed over; want 1, 0, 100: %v", len(got), res.BadLines(), res.Files[0].PassedOver, res.Problems)
	}
	if got[0].model != "m" || got[0].rt != 0.8 || !math.IsNaN(got[0].ttft) {
		t.Errorf("record %+v, want model m, 0.8 s, no ttft", got[0])
	}
}

// TestOTelLineOverMaxLine: a line of the Collector's file exporter is a
// batch, which may pass MaxLine; its spans, each within it, are read.
func TestOTelLineOverMaxLine(t *testing.T) {
	var spans []string
	for i := range 4000 {
		start := int64(1764842400000000000) + int64(i)*1e8
		spans = append(spans, fmt.Sprintf(`{"kind":3,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.prompt","value":{"stringValue":"%s"}}]}`,
			start, start+5e8, strings.Repeat("y", 300)))
	}
	line := `{"resourceSpans":[{"scopeSpans":[{"spans":[` + strings.Join(spans, ",") + "]}]}]}\n"
	if len(line) <= ingest.MaxLine {
		t.Fatalf("a line of %d bytes", len(line))
	}
	got, res := collect(t, []string{writeTemp(t, "batch.jsonl", line+line)}, ingest.Options{Workers: 2, Location: time.UTC})
	if len(got) != 8000 || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad, want 8000, 0: %v", len(got), res.BadLines(), res.Problems)
	}
}

// TestOTelCallStatus: an LLM call's span has no HTTP status of its own:
// a success (status UNSET or OK) is a 200; a failure (status code 2, or
// STATUS_CODE_ERROR by name) the status its error.type names, the
// provider's code or an SDK's exception for one status (the OpenAI
// SDK's RateLimitError: 429), and none when it names none (a time-out),
// counted unreadable.
func TestOTelCallStatus(t *testing.T) {
	span := func(i int, status, errorType string) string {
		attrs := `{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.request.model","value":{"stringValue":"gpt-4o"}}`
		if errorType != "" {
			attrs += `,{"key":"error.type","value":{"stringValue":"` + errorType + `"}}`
		}
		return fmt.Sprintf(`{"traceId":"t","spanId":"s%d","name":"chat gpt-4o","kind":3,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[%s],"status":%s}`,
			i, 1764842400000000000+int64(i)*1e9, 1764842400500000000+int64(i)*1e9, attrs, status)
	}
	spans := []string{
		span(0, `{}`, ""),
		span(1, `{"code":1}`, ""),
		span(2, `{"code":2,"message":"Error code: 429"}`, "openai.RateLimitError"),
		span(3, `{"code":"STATUS_CODE_ERROR"}`, "503"),
		span(4, `{"code":2,"message":"Request timed out."}`, "timeout"),
		span(5, `{"code":2}`, "openai.BadRequestError"),
	}
	want := []int{200, 200, 429, 503, 0, 400}
	line := `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"x"},"spans":[` + strings.Join(spans, ",") + `]}]}]}` + "\n"
	got, res := collect(t, []string{writeTemp(t, "calls.jsonl", line)}, ingest.Options{Workers: 1, Location: time.UTC})
	if res.Files[0].Source != "otel" || len(got) != len(want) {
		t.Fatalf("source %q, %d records; want otel, %d", res.Files[0].Source, len(got), len(want))
	}
	for i, r := range got {
		if int(r.status) != want[i] || r.hasStatus != (want[i] != 0) {
			t.Errorf("span %d: status %v (present %v), want %d", i, r.status, r.hasStatus, want[i])
		}
	}
	if n := res.Files[0].UnreadValues[ingest.FStatus]; n != 1 {
		t.Errorf("unreadable statuses %d (%v), want 1: the time-out's", n, res.Files[0].UnreadValues)
	}
}
