package ingest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"loganalyze/ingest"
)

// TestDurationMagnitudes: a JSON-lines file with no name of request_time
// says what its duration-like numbers were like (their median, whether
// whole); one that names request_time says nothing.
func TestDurationMagnitudes(t *testing.T) {
	var b strings.Builder
	var lat []float64
	for i := range 40 {
		l := float64(150 + (i*7919)%30000)
		lat = append(lat, l)
		fmt.Fprintf(&b, `{"created_at":"2026-12-05T10:00:%02dZ","model":"m","latency":%g,"generation_time":%g,"tokens":%d,"note":"x"}`+"\n", i%60, l, l/1000+0.5, i)
	}
	_, res, err := ingest.Run([]string{writeTemp(t, "or.jsonl", b.String())}, ingest.Options{Workers: 1}, func() *collector { return &collector{} })
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lat)
	m := res.Files[0].Magnitudes
	if got := m["latency"]; got.N != 40 || !got.Whole || got.Median != lat[20] {
		t.Errorf("latency: %+v, want 40 whole values of median %v", got, lat[20])
	}
	if got := m["generation_time"]; got.N != 40 || got.Whole || got.Median != lat[20]/1000+0.5 {
		t.Errorf("generation_time: %+v, want 40 fractions of median %v", got, lat[20]/1000+0.5)
	}
	if _, ok := m["tokens"]; ok {
		t.Errorf("tokens, no duration's name, has a magnitude")
	}
	_, res, err = ingest.Run([]string{writeTemp(t, "rt.jsonl", `{"time":"2026-12-05T10:00:00Z","request_time":0.5,"latency":900}`+"\n")},
		ingest.Options{Workers: 1}, func() *collector { return &collector{} })
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Files[0].Magnitudes; m != nil {
		t.Errorf("a file with request_time: magnitudes %v", m)
	}
}
