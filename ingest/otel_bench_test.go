package ingest

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkOTelSpan reads the spans of the otel fixture, each with its
// resource, as the workers do.
func BenchmarkOTelSpan(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "sources", "otel.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSchema(nil)
	if err != nil {
		b.Fatal(err)
	}
	sch := s.derive(sourceByName("otel"), "user.id")
	type span struct{ text, res []byte }
	var spans []span
	n := 0
	d := newDocReader(bufioReader(data), sch, func(e *docElem) {
		spans = append(spans, span{bytes.Clone(e.text), bytes.Clone(e.res)})
		n += len(e.text)
	})
	if err := d.run(); err != nil || len(spans) != 11 {
		b.Fatalf("%d spans: %v", len(spans), err)
	}
	p := newOTelParser(&parserConfig{schema: sch, loc: time.UTC, otelCalls: true})
	var r Record
	b.ReportAllocs()
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, sp := range spans {
			p.res = sp.res
			r.reset(sch)
			if err := p.Parse(sp.text, &r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func bufioReader(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }
