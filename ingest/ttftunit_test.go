package ingest_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"loganalyze/ingest"
)

// ttftRow is TestTTFTSecondsOrMillis's record as a Parquet or Arrow
// file holds it.
type ttftRow struct {
	Time        int64   `parquet:"time,timestamp(millisecond)"`
	Model       string  `parquet:"model"`
	RequestTime float64 `parquet:"request_time"`
	TTFT        float64 `parquet:"time_to_first_token"`
}

// writeTTFTArrow writes rows as an Arrow IPC file named name.
func writeTTFTArrow(t *testing.T, name string, rows []ttftRow) string {
	t.Helper()
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
		{Name: "model", Type: arrow.BinaryTypes.String},
		{Name: "request_time", Type: arrow.PrimitiveTypes.Float64},
		{Name: "time_to_first_token", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(r.Time))
		b.Field(1).(*array.StringBuilder).Append(r.Model)
		b.Field(2).(*array.Float64Builder).Append(r.RequestTime)
		b.Field(3).(*array.Float64Builder).Append(r.TTFT)
	}
	rec := b.NewRecord()
	defer rec.Release()
	return writeArrowFile(t, name, rec)
}

// TestTTFTSecondsOrMillis: a JSON-lines, CSV, TSV, JSON-array, Parquet or
// Arrow file whose
// time_to_first_token (a name programs write in seconds or in
// milliseconds) has values of seconds — median under 10 — is read in
// seconds; one of milliseconds in milliseconds; --map decides over both.
func TestTTFTSecondsOrMillis(t *testing.T) {
	write := func(name string, scale float64) (string, []float64) {
		var b strings.Builder
		var want []float64
		var rows []ttftRow
		switch {
		case strings.HasSuffix(name, ".csv"):
			b.WriteString("time,model,request_time,time_to_first_token\r\n")
		case strings.HasSuffix(name, ".tsv"):
			b.WriteString("time\tmodel\trequest_time\ttime_to_first_token\n")
		}
		for i := range 40 {
			s := 0.15 + float64(i%17)*0.11 // 0.15 – 1.91 s
			want = append(want, s*1000)
			rows = append(rows, ttftRow{Time: 1796436000000 + int64(i)*1000, Model: "m", RequestTime: s + 1.5, TTFT: s * scale})
			switch {
			case strings.HasSuffix(name, ".csv"): // every value quoted, as CLS writes them
				fmt.Fprintf(&b, `"2026-12-05T10:00:%02dZ","m","%.3f","%g"`+"\r\n", i, s+1.5, s*scale)
			case strings.HasSuffix(name, ".tsv"):
				fmt.Fprintf(&b, "2026-12-05T10:00:%02dZ\tm\t%.3f\t%g\n", i, s+1.5, s*scale)
			default: // a JSON line, or an element of an array
				if strings.HasSuffix(name, ".json") && i == 0 {
					b.WriteString("[")
				} else if strings.HasSuffix(name, ".json") {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"time":"2026-12-05T10:00:%02dZ","model":"m","request_time":%.3f,"time_to_first_token":%g}`+"\n", i, s+1.5, s*scale)
			}
		}
		switch {
		case strings.HasSuffix(name, ".json"):
			b.WriteString("]\n")
		case strings.HasSuffix(name, ".parquet"):
			var pq bytes.Buffer
			if err := writeRows(&pq, rows); err != nil {
				t.Fatal(err)
			}
			return writeTemp(t, name, pq.String()), want
		case strings.HasSuffix(name, ".arrow"):
			return writeTTFTArrow(t, name, rows), want
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
	for _, ext := range []string{".csv", ".tsv", ".json", ".parquet", ".arrow"} {
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
