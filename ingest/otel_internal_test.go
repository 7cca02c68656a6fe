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

// FuzzOTel reads arbitrary bytes as an OTLP trace export, as readDoc
// does: no panic, no hang, every span and error on a line of the input,
// every record's time within the years read and its request time a
// finite duration within bounds, every reason one line of text.
func FuzzOTel(f *testing.F) {
	// The fixtures' first lines, cut to their first spans: the fuzzer
	// minimizes each input it finds, which for a large one takes long.
	for _, name := range []string{"otel.jsonl", "otel-http.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "sources", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 1200)])
	}
	for _, s := range []string{
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":"1","endTimeUnixNano":"0"}]}]}]}`,
		`{"resourceSpans":[{"resource":{"attributes":[{"key":"cloud.region","value":{"intValue":"x"}}]},"scopeSpans":[{"spans":[{}]}]}]}`,
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"kind":"SPAN_KIND_SERVER","startTimeUnixNano":1764842400000000000,"endTimeUnixNano":9223372036854775807,"attributes":[{"value":{"boolValue":true}}]}]}]}]}`,
		`{"resourceSpans":[1,{"scopeSpans":[2,{"spans":[3,[],{"attributes":[{"key":"k","value":{"arrayValue":{"values":[{"stringValue":"\u0000"}]}}}]}]}]}]}`,
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"startTimeUnixNano":"99999999999999999999"`,
	} {
		f.Add([]byte(s))
	}
	s, err := NewSchema([]string{"client=service.name", "request_time=x.ms:ms"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := int64(bytes.Count(data, []byte{'\n'})) + 1
		var src *source
		for _, c := range sources {
			if c.name == "otel" {
				src = c
			}
		}
		sch := s.derive(src, "")
		for _, calls := range []bool{true, false} {
			p := newOTelParser(&parserConfig{schema: sch, loc: time.UTC, otelCalls: calls})
			d := newDocReader(bufio.NewReaderSize(bytes.NewReader(data), 16), sch, func(e *docElem) {
				if e.line < 1 || e.line > lines {
					t.Fatalf("span on line %d of %d", e.line, lines)
				}
				if e.bad != "" || !d0(e) {
					return
				}
				p.res = e.res
				var r Record
				r.reset(sch)
				if err := p.Parse(e.text, &r); err != nil {
					if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
						t.Fatalf("unhelpful error %q", msg)
					}
					return
				}
				if !r.Has(FTime) || r.TimeNS < MinTimeNS || r.TimeNS >= MaxTimeNS {
					t.Fatalf("time %d (present %v) from %q", r.TimeNS, r.Has(FTime), e.text)
				}
				if v, ok := r.Float(FRequestTime); !ok || v < 0 || v != v || v > MaxDurationS {
					t.Fatalf("request_time %v (present %v) from %q", v, ok, e.text)
				}
				if k := r.Text(FKind); string(k) != "call" && string(k) != "span" {
					t.Fatalf("kind %q", k)
				}
			})
			if err := d.run(); err != nil {
				if de, ok := err.(*docError); ok && (de.line < 1 || de.line > lines) {
					t.Fatalf("error %v on line %d of %d", err, de.line, lines)
				}
			}
		}
	})
}

// d0 reports whether an element is a span of an OTLP export.
func d0(e *docElem) bool { return e.resGen > 0 }
