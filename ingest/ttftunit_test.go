package ingest_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestTTFTSecondsOrMillis: a JSON-lines, CSV or TSV file whose
// time_to_first_token (a name programs write in seconds or in
// milliseconds) has values of seconds — median under 10 — is read in
// seconds; one of milliseconds in milliseconds; --map decides over both.
func TestTTFTSecondsOrMillis(t *testing.T) {
	write := func(name string, scale float64) (string, []float64) {
		var b strings.Builder
		var want []float64
		switch {
		case strings.HasSuffix(name, ".csv"):
			b.WriteString("time,model,request_time,time_to_first_token\r\n")
		case strings.HasSuffix(name, ".tsv"):
			b.WriteString("time\tmodel\trequest_time\ttime_to_first_token\n")
		}
		for i := range 40 {
			s := 0.15 + float64(i%17)*0.11 // 0.15 – 1.91 s
			want = append(want, s*1000)
			switch {
			case strings.HasSuffix(name, ".csv"): // every value quoted, as CLS writes them
				fmt.Fprintf(&b, `"2026-12-05T10:00:%02dZ","m","%.3f","%g"`+"\r\n", i, s+1.5, s*scale)
			case strings.HasSuffix(name, ".tsv"):
				fmt.Fprintf(&b, "2026-12-05T10:00:%02dZ\tm\t%.3f\t%g\n", i, s+1.5, s*scale)
			default:
				fmt.Fprintf(&b, `{"time":"2026-12-05T10:00:%02dZ","model":"m","request_time":%.3f,"time_to_first_token":%g}`+"\n", i, s+1.5, s*scale)
			}
		}
		return writeTemp(t, name, b.String()), want
	}
	check := func(what string, got []row, want []float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d records, want %d", what, len(got), len(want))
		}
		var sg, sw float64
		for i, r := range got {
			sg += r.ttft
			sw += want[i]
		}
		if math.Abs(sg-sw) > 1e-6*sw {
			t.Errorf("%s: ttft sums to %v ms, the file's to %v ms", what, sg, sw)
		}
	}
	for _, ext := range []string{".csv", ".tsv"} {
		sec, want := write("s"+ext, 1)
		got, _ := collect(t, []string{sec}, ingest.Options{Workers: 2, Location: time.UTC})
		check(ext+" seconds", got, want)
		ms, _ := write("ms"+ext, 1000)
		got, _ = collect(t, []string{ms}, ingest.Options{Workers: 2, Location: time.UTC})
		check(ext+" milliseconds", got, want)
	}
	sec, want := write("s.jsonl", 1)
	got, _ := collect(t, []string{sec}, ingest.Options{Workers: 2, Location: time.UTC})
	check("seconds", got, want)
	ms, _ := write("ms.jsonl", 1000)
	got, _ = collect(t, []string{ms}, ingest.Options{Workers: 2, Location: time.UTC})
	check("milliseconds", got, want)
	// --map says the unit: seconds read as milliseconds if it says so.
	schema, err := ingest.NewSchema([]string{"ttft=time_to_first_token:ms"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = collect(t, []string{sec}, ingest.Options{Workers: 1, Location: time.UTC, Schema: schema})
	milli := make([]float64, len(want))
	for i, w := range want {
		milli[i] = w / 1000
	}
	check("--map ms", got, milli)
}
