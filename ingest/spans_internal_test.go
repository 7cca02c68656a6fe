package ingest

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzSpans reads arbitrary bytes as a document of Jaeger's or Zipkin's
// spans, and each line as one, as readDoc and a JSON-lines file do: no
// panic, no hang, every error one line of text, every record's time
// within the years read (a file of spans trimmed of their start: when
// it has one) and its request time, when it has one, a finite duration
// within bounds.
func FuzzSpans(f *testing.F) {
	for _, name := range []string{"jaeger.jsonl", "jaeger-es.json", "zipkin.json", "zipkin-v1.json", "jaeger-trimmed.jsonl", "zipkin-kindless.jsonl",
		"jaeger-untimed.jsonl", "zipkin-untimed.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", "sources", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 1500)])
	}
	for _, s := range []string{
		`{"startTime":1796464804201000,"duration":-1,"tags":[{"key":"span.kind","value":"server"},{"key":"http.method","value":"GET"}]}`,
		`{"timestamp":9223372036854775807,"duration":1e300,"kind":"SERVER","tags":{"http.method":"GET","http.status_code":"abc"}}`,
		`{"timestamp":1,"annotations":[{"timestamp":5,"value":"ss"},{"timestamp":9,"value":"sr"}],"binaryAnnotations":[{"key":"error"}]}`,
		`{"startTime":"1796464804201000","tag":{"span@kind":"server","http@method":[1],"@":null},"remoteEndpoint":{"ipv4":7}}`,
		`{"data":[{"traceID":"a","spans":[{"traceID":"a","spanID":"b","startTime":1796464804201000,"duration":5}],"processes":{}}]}`,
		`[[{"traceId":"a","id":"b","timestamp":1796464804201000,"duration":5,"kind":"SERVER"}],[1,[2]]]`,
		`{"traceId":"0123456789abcdef","id":"0123456789ABCDEF","timestamp":999999999999999,"duration":1}`,
		`{"traceID":"0123456789abcdef0123456789abcdef","spanID":"\u0030123456789abcdef","startTime":4133980799999999}`,
	} {
		f.Add([]byte(s))
	}
	s, err := NewSchema(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := int64(bytes.Count(data, []byte{'\n'})) + 1
		// A trimmed span is told by its first record alone: whatever it
		// is, the answer is one of the span sources, or none.
		if src := trimmedSpanSource(data); src != "" && !spanSource(src) {
			t.Fatalf("trimmed span of %q", src)
		}
		if src := untimedSpanSource(data, jsonKeys(data, maxNames), jsonPaths(data, maxNames), s); src != "" && !spanSource(src) {
			t.Fatalf("untimed span of %q", src)
		}
		for _, name := range []string{"jaeger", "zipkin"} {
			sch := s.derive(sourceByName(name), "")
			for i := range 4 {
				calls, untimed := i&1 != 0, i&2 != 0
				p := newSpanParser(&parserConfig{schema: sch, loc: time.UTC, otelCalls: calls, spans: true, untimedSpans: untimed})
				check := func(text []byte) {
					var r Record
					r.reset(sch)
					if err := p.Parse(text, &r); err != nil {
						if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
							t.Fatalf("unhelpful error %q", msg)
						}
						return
					}
					if !r.Has(FTime) && !untimed || r.Has(FTime) && (r.TimeNS < MinTimeNS || r.TimeNS >= MaxTimeNS) {
						t.Fatalf("time %d (present %v) from %q", r.TimeNS, r.Has(FTime), text)
					}
					if v, ok := r.Float(FRequestTime); ok && (v < 0 || v != v || v > MaxDurationS) {
						t.Fatalf("request_time %v from %q", v, text)
					}
					if k := r.Text(FKind); string(k) != "call" && string(k) != "span" {
						t.Fatalf("kind %q", k)
					}
				}
				for _, l := range bytes.Split(data, []byte{'\n'}) {
					check(l)
				}
				d := newDocReader(bufio.NewReaderSize(bytes.NewReader(data), 16), sch, func(e *docElem) {
					if e.line < 1 || e.line > lines {
						t.Fatalf("span on line %d of %d", e.line, lines)
					}
					if e.bad == "" {
						check(e.text)
					}
				})
				if err := d.run(); err != nil {
					if de, ok := err.(*docError); ok && (de.line < 1 || de.line > lines) {
						t.Fatalf("error %v on line %d of %d", err, de.line, lines)
					}
				}
			}
		}
	})
}
