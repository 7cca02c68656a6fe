package ingest_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestFlatSpansInMicroseconds: Jaeger's and Zipkin's spans one a line
// (jq '.data[].spans[]' of Jaeger's answer, Zipkin's spans) are read as
// spans, not as records of SPEC §3's generic names, whose duration is
// ms: each server span a request of its duration in µs, its client and
// local children passed over. Read as ms, a gateway's spans are
// requests of minutes, whose children pull the median under the 1000 s
// that tells a duration written in a smaller unit. So are the same
// spans trimmed by jq to a few names, too few for the sources'
// signatures ({traceID, spanID, startTime, duration, tags}; Zipkin's
// {traceId, id, kind, timestamp, duration, tags}): told by their ids
// and their start in µs. Zipkin's spans trimmed of their kind are none
// a server's: no request is read of them, rather than their durations
// as ms.
func TestFlatSpansInMicroseconds(t *testing.T) {
	var zipkin []map[string]any
	b, err := os.ReadFile(filepath.Join("testdata", "sources", "zipkin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &zipkin); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range zipkin {
		l, _ := json.Marshal(s)
		lines = append(lines, string(l))
	}
	files := map[string]string{
		filepath.Join("testdata", "sources", "jaeger.jsonl"):          "jaeger",
		writeTemp(t, "zipkin.jsonl", strings.Join(lines, "\n")+"\n"):  "zipkin",
		filepath.Join("testdata", "sources", "jaeger-trimmed.jsonl"):  "jaeger",
		filepath.Join("testdata", "sources", "zipkin-trimmed.jsonl"):  "zipkin",
		filepath.Join("testdata", "sources", "zipkin-kindless.jsonl"): "zipkin",
	}
	for path, src := range files {
		// What the spans say, decoded by encoding/json: each span's
		// duration (µs), and whether it is a server's.
		var all, servers []float64
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var s struct {
				Duration *float64
				Kind     string
				Tags     any
			}
			if err := json.Unmarshal([]byte(l), &s); err != nil {
				t.Fatal(err)
			}
			if s.Duration == nil {
				continue
			}
			all = append(all, *s.Duration)
			tags, _ := json.Marshal(s.Tags)
			if (s.Kind == "SERVER" || strings.Contains(string(tags), `"value":"server"`)) && strings.Contains(string(tags), "method") {
				servers = append(servers, *s.Duration/1e6)
			}
		}
		slices.Sort(all)
		if median := all[len(all)/2] / 1000; median >= 1000 {
			t.Fatalf("%s: the spans' median read as ms is %g s: the guard of implausible durations would tell it", path, median)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if res.Files[0].Source != src || res.Files[0].Format != ingest.JSONL {
			t.Fatalf("%s read as %s of %q, want JSON lines of %q", path, res.Files[0].Format, res.Files[0].Source, src)
		}
		rts := sortedTimes(got)
		slices.Sort(servers)
		if !slices.Equal(rts, servers) {
			t.Errorf("%s: request times %v s, want the server spans' %v", path, rts, servers)
		}
	}
}

// TestTraceDocuments: the answers of Jaeger's, Zipkin's and Tempo's APIs
// that wrap spans are read span by span, as the spans they hold: Jaeger's
// traces ({"data":[{"traceID","spans":[…],"processes":{…}}]}), Zipkin's
// lists of traces ([[span,…],…], v2 and v1), and OTLP's resourceSpans
// under Tempo's "batches" (1.x's instrumentationLibrarySpans), Tempo
// v2's "trace" and Jaeger v2's /api/v3 "result". What each span means is
// worked out from the document decoded by encoding/json, by the source's
// oracle.
func TestTraceDocuments(t *testing.T) {
	cases := []struct {
		file, src string
		spans     func(doc any) []rawDoc
	}{
		{"jaeger-api.json", "jaeger", func(doc any) []rawDoc {
			var out []rawDoc
			for _, tr := range doc.(map[string]any)["data"].([]any) {
				for _, s := range tr.(map[string]any)["spans"].([]any) {
					out = append(out, s.(map[string]any))
				}
			}
			return out
		}},
		{"zipkin-traces.json", "zipkin", zipkinTraces},
		{"zipkin-v1-traces.json", "zipkin", zipkinTraces},
		{"tempo-batches.json", "otel", func(doc any) []rawDoc { return otlpSpans(t, doc.(map[string]any)["batches"]) }},
		{"tempo-1x.json", "otel", func(doc any) []rawDoc { return otlpSpans(t, doc.(map[string]any)["batches"]) }},
		{"tempo-v2.json", "otel", func(doc any) []rawDoc {
			return otlpSpans(t, doc.(map[string]any)["trace"].(map[string]any)["resourceSpans"])
		}},
		{"jaeger-v3.json", "otel", func(doc any) []rawDoc {
			return otlpSpans(t, doc.(map[string]any)["result"].(map[string]any)["resourceSpans"])
		}},
	}
	for _, c := range cases {
		path := filepath.Join("testdata", "jsondoc", c.file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.UseNumber()
		var doc any
		if err := dec.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		var wants []sourceWant
		passed := int64(0)
		for _, d := range c.spans(doc) {
			if w := sourceOracles[c.src](d); w.passed {
				passed++
			} else {
				wants = append(wants, w)
			}
		}
		slices.SortStableFunc(wants, func(a, b sourceWant) int {
			if a.timeNS != b.timeNS {
				return int(a.timeNS - b.timeNS)
			}
			return int(a.rt - b.rt)
		})
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		f := res.Files[0]
		if f.Source != c.src || res.BadLines() != 0 || len(got) != len(wants) || f.PassedOver != passed {
			t.Errorf("%s: source %q, %d records, %d bad lines, %d passed over; want %q, %d, 0, %d: %v",
				c.file, f.Source, len(got), res.BadLines(), f.PassedOver, c.src, len(wants), passed, res.Problems)
			continue
		}
		for i, w := range wants {
			checkSourceRecord(t, i, got[i], w)
		}
	}
}

// zipkinTraces returns the spans of Zipkin's list of traces.
func zipkinTraces(doc any) []rawDoc {
	var out []rawDoc
	for _, tr := range doc.([]any) {
		for _, s := range tr.([]any) {
			out = append(out, s.(map[string]any))
		}
	}
	return out
}

// otlpSpans returns the spans of OTLP resourceSpans, a scope's spans
// under scopeSpans or, before OTLP 0.15, instrumentationLibrarySpans.
func otlpSpans(t *testing.T, resourceSpans any) []rawDoc {
	for _, r := range resourceSpans.([]any) {
		m := r.(map[string]any)
		if ils, ok := m["instrumentationLibrarySpans"]; ok {
			m["scopeSpans"] = ils
		}
	}
	docs := otelSpans(t, map[string]any{"resourceSpans": resourceSpans})
	markOTelCalls(docs)
	return docs
}

// TestTraceDocumentLookAlikes: JSON that only looks like the traces'
// documents is read as before: a record with a "spans" list but no
// traceID before it, a "batches" list of no OTLP resource, and a "trace"
// object among a record's fields are records; a list of lists of records
// is read as their records, and of other values as a bad line each.
func TestTraceDocumentLookAlikes(t *testing.T) {
	cases := []struct {
		name, doc string
		rts       []float64 // the records' request times, s
		bad       int
	}{
		{"spans.json", `[{"time":"2026-12-05T10:00:00Z","request_time":0.5,"spans":[{"id":1}]}]`, []float64{0.5}, 0},
		{"batches.json", `{"batches":[{"id":1}],"time":"2026-12-05T10:00:00Z","request_time":0.5}`, []float64{0.5}, 0},
		{"trace.json", `{"trace":{"id":"abc"},"time":"2026-12-05T10:00:00Z","request_time":0.25}`, []float64{0.25}, 0},
		{"lists.json", "[[{\"time\":\"2026-12-05T10:00:00Z\",\"request_time\":0.5}],\n[{\"time\":\"2026-12-05T10:00:01Z\",\"request_time\":0.25},\n{\"time\":\"2026-12-05T10:00:02Z\",\"request_time\":2}]]", []float64{0.5, 0.25, 2}, 0},
		{"values.json", "[[1,2],\n[3]]", nil, 1}, // rows of values: one bad line that says so
	}
	for _, c := range cases {
		got, res := collect(t, []string{writeTemp(t, c.name, c.doc)}, ingest.Options{Workers: 1, Location: time.UTC})
		var rts []float64
		for _, r := range got {
			rts = append(rts, r.rt)
		}
		if !slices.Equal(rts, c.rts) || res.BadLines() != int64(c.bad) {
			t.Errorf("%s: request times %v and %d bad lines, want %v and %d: %v", c.name, rts, res.BadLines(), c.rts, c.bad, res.Problems)
		}
	}
}

// TestTrimmedSpans: Zipkin's spans trimmed by jq and written as one list
// (jq '[.[] | {traceId, id, kind, timestamp, duration, tags}]') are read
// as Zipkin's, each server span a request of its duration in µs; and the
// records that carry a trace's id, an id and a duration without being a
// span's, an app's own log lines (OpenTelemetry's log bridges write the
// trace's id), are read by SPEC §3's generic names as before, their
// duration in ms: their time is a text, or an epoch in ms, not a span's
// start in µs; or their ids are no span's.
func TestTrimmedSpans(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "sources", "zipkin-trimmed.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var spans []json.RawMessage
	var want []float64 // the server spans' durations, s
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var s struct {
			Kind     string
			Duration *float64
		}
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatal(err)
		}
		spans = append(spans, json.RawMessage(l))
		if s.Kind == "SERVER" && s.Duration != nil {
			want = append(want, *s.Duration/1e6)
		}
	}
	doc, _ := json.MarshalIndent(spans, "", " ")
	got, res := collect(t, []string{writeTemp(t, "spans.json", string(doc))}, ingest.Options{Workers: 1, Location: time.UTC})
	rts := sortedTimes(got)
	slices.Sort(want)
	if res.Files[0].Source != "zipkin" || !slices.Equal(rts, want) {
		t.Errorf("a list of trimmed spans: source %q, request times %v s; want zipkin, %v", res.Files[0].Source, rts, want)
	}

	const trace, id = "63ca828dd5f4b3b2e4b06ce60741c7a8", "9b810e766ec9d286"
	for _, c := range []struct{ name, line string }{
		{"text time", `{"timestamp":"2026-12-05T10:00:04.201Z","level":"info","traceId":"` + trace + `","id":"` + id + `","msg":"done","duration":1327,"status":200}`},
		{"epoch ms", `{"timestamp":1796464804201,"traceId":"` + trace + `","id":"` + id + `","duration":1327,"status":200}`},
		{"request id", `{"timestamp":1796464804201000,"traceId":"` + trace + `","id":"req-7","duration":1327,"status":200}`},
		{"jaeger's names", `{"time":"2026-12-05T10:00:04.201Z","traceID":"` + trace + `","spanID":"` + id + `","duration":1327,"status":200}`},
	} {
		got, res := collect(t, []string{writeTemp(t, "app.jsonl", c.line+"\n")}, ingest.Options{Workers: 1, Location: time.UTC})
		// 1327 ms, as SPEC §3 reads "duration", and the line's status.
		if res.Files[0].Source != "" || len(got) != 1 || got[0].rt != 1.327 || got[0].status != 200 {
			t.Errorf("%s: source %q, %d records %+v; want none, one of 1.327 s and status 200", c.name, res.Files[0].Source, len(got), got)
		}
	}
}

// TestUntimedSpans: spans trimmed of their start as well (jq -c
// '.data[].spans[] | {traceID, spanID, duration, tags}', Zipkin's
// {traceId, id, kind, duration, tags} or {traceId, id, name, duration,
// tags}), one a line or in a list, carry no epoch in µs to tell them
// spans by: their duration is left unread, not read as SPEC §3's ms,
// and the file names the source that reads them (FileStats.Refused).
// Given that source, each server span is a request of its duration in
// µs and of no time; Zipkin's trimmed of their kind are none a server's.
// Records with a time, or without a span's ids, or whose duration is no
// whole number, are read by the generic names as before, in ms.
func TestUntimedSpans(t *testing.T) {
	for _, c := range []struct{ file, src string }{
		{"jaeger-untimed.jsonl", "jaeger"},
		{"zipkin-untimed.jsonl", "zipkin"},
		{"zipkin-untimed-kindless.jsonl", "zipkin"},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "sources", c.file))
		if err != nil {
			t.Fatal(err)
		}
		// What the spans say, decoded by encoding/json: the server
		// spans' durations (µs, as s) of those that have one.
		var servers []float64
		var elems []json.RawMessage
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var s struct {
				Duration *float64
				Kind     string
				Tags     any
			}
			if err := json.Unmarshal([]byte(l), &s); err != nil {
				t.Fatal(err)
			}
			elems = append(elems, json.RawMessage(l))
			tags, _ := json.Marshal(s.Tags)
			if s.Duration != nil && (s.Kind == "SERVER" || strings.Contains(string(tags), `"value":"server"`)) && strings.Contains(string(tags), "method") {
				servers = append(servers, *s.Duration/1e6)
			}
		}
		slices.Sort(servers)
		list, _ := json.MarshalIndent(elems, "", " ")
		lines := filepath.Join("testdata", "sources", c.file)
		for _, path := range []string{lines, writeTemp(t, "spans.json", string(list))} {
			got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
			f := res.Files[0]
			refused := len(f.Refused) == 1 && f.Refused[0].Name == "duration" && f.Refused[0].Spans == c.src && f.Refused[0].ReadIn == ingest.UnitNone
			if f.Source != "" || !refused {
				t.Errorf("%s: source %q, refused %+v; want none, duration left unread as %s's spans'", path, f.Source, f.Refused, c.src)
			}
			for _, r := range got {
				if !math.IsNaN(r.rt) {
					t.Errorf("%s: a record of request time %g s, want none read", path, r.rt)
				}
			}

			got, res = collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC, Source: c.src})
			var rts []float64
			for _, r := range got {
				if r.hasTime {
					t.Errorf("%s --source %s: a record at %d, want none timed", path, c.src, r.timeNS)
				}
				if !math.IsNaN(r.rt) {
					rts = append(rts, r.rt)
				}
			}
			slices.Sort(rts)
			if res.BadLines() != 0 || !slices.Equal(rts, servers) {
				t.Errorf("%s --source %s: request times %v s, %d bad lines; want the server spans' %v, none: %v", path, c.src, rts, res.BadLines(), servers, res.Problems)
			}
		}
	}

	const trace, span = "63ca828dd5f4b3b2e4b06ce60741c7a8", "9b810e766ec9d286"
	for _, c := range []struct {
		name, line string
		rt         float64 // s: the line's duration, ms
	}{
		{"text time", `{"time":"2026-12-05T10:00:04.201Z","traceID":"` + trace + `","spanID":"` + span + `","duration":1327,"status":200}`, 1.327},
		{"epoch ms", `{"timestamp":1796464804201,"traceId":"` + trace + `","id":"` + span + `","duration":1327,"status":200}`, 1.327},
		{"no span id", `{"traceId":"` + trace + `","id":"req-7","duration":1327,"status":200}`, 1.327},
		{"no ids", `{"request":"POST /v1/chat/completions HTTP/1.1","duration":1327,"status":200}`, 1.327},
		{"fraction", `{"traceID":"` + trace + `","spanID":"` + span + `","duration":1327.5,"status":200}`, 1.3275},
	} {
		got, res := collect(t, []string{writeTemp(t, "app.jsonl", c.line+"\n")}, ingest.Options{Workers: 1, Location: time.UTC})
		f := res.Files[0]
		if f.Source != "" || len(f.Refused) != 0 || len(got) != 1 || math.Abs(got[0].rt-c.rt) > 1e-9 || got[0].status != 200 {
			t.Errorf("%s: source %q, refused %+v, %d records %+v; want none, none, one of %g s and status 200", c.name, f.Source, f.Refused, len(got), got, c.rt)
		}
	}
}

// sortedTimes returns the request times the rows carry, in order.
func sortedTimes(rows []row) []float64 {
	var rts []float64
	for _, r := range rows {
		if !math.IsNaN(r.rt) {
			rts = append(rts, r.rt)
		}
	}
	slices.Sort(rts)
	return rts
}
