package ingest_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"loganalyze/ingest"
)

// latencyRow and durationRow are request logs of a duration: under
// "latency" (a name no source reads), or "duration" (an alias of
// request_time), in ms by SPEC §3.
type latencyRow struct {
	Time    int64 `parquet:"time,timestamp(millisecond)"`
	Status  int32 `parquet:"status"`
	Latency int64 `parquet:"latency"`
}

type durationRow struct {
	Time     int64 `parquet:"time,timestamp(millisecond)"`
	Status   int32 `parquet:"status"`
	Duration int64 `parquet:"duration"`
}

// durationTables writes a request log of one value per row, vals, under
// column name ("latency" or "duration"), as each table and document
// format holds it: a JSON array, a CSV file, Parquet and Arrow IPC; the
// paths by format name. Row i is dated i seconds after 2026-12-05 10:00
// UTC, of status 200.
func durationTables(t *testing.T, name string, vals []int64) map[string]string {
	t.Helper()
	const start = 1796436000000 // ms
	var doc, csv strings.Builder
	fmt.Fprintf(&csv, "time,status,%s\n", name)
	doc.WriteString("[\n")
	var lrows []latencyRow
	var drows []durationRow
	for i, v := range vals {
		ms := start + int64(i)*1000
		ts := time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
		sep := ","
		if i == len(vals)-1 {
			sep = ""
		}
		fmt.Fprintf(&doc, `{"time":%q,"status":200,%q:%d}%s`+"\n", ts, name, v, sep)
		fmt.Fprintf(&csv, "%s,200,%d\n", ts, v)
		lrows = append(lrows, latencyRow{Time: ms, Status: 200, Latency: v})
		drows = append(drows, durationRow{Time: ms, Status: 200, Duration: v})
	}
	doc.WriteString("]\n")
	var pq bytes.Buffer
	var err error
	if name == "latency" {
		err = writeRows(&pq, lrows)
	} else {
		err = writeRows(&pq, drows)
	}
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"json":    writeTemp(t, "requests.json", doc.String()),
		"csv":     writeTemp(t, "requests.csv", csv.String()),
		"parquet": writeTemp(t, "requests.parquet", pq.String()),
		"arrow":   writeDurationArrow(t, name, start, vals),
	}
}

// writeDurationArrow writes durationTables' log as an Arrow IPC file.
func writeDurationArrow(t *testing.T, name string, start int64, vals []int64) string {
	t.Helper()
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
		{Name: "status", Type: arrow.PrimitiveTypes.Int32},
		{Name: name, Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, v := range vals {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(start + int64(i)*1000))
		b.Field(1).(*array.Int32Builder).Append(200)
		b.Field(2).(*array.Int64Builder).Append(v)
	}
	rec := b.NewRecord()
	defer rec.Release()
	return writeArrowFile(t, "requests.arrow", rec)
}

// writeArrowFile writes record batch rec as an Arrow IPC file named name
// in a temporary directory, and returns its path.
func writeArrowFile(t testing.TB, name string, rec arrow.Record) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDurationMagnitudesTables: a JSON array, a CSV file, a Parquet file
// and an Arrow file tell the magnitudes of their duration-like numbers,
// as a JSON-lines file does (a report's --map hint offers their unit
// from them: "latency" of whole numbers around 1500 is ms, not s).
func TestDurationMagnitudesTables(t *testing.T) {
	var vals []int64
	var lat []float64
	for i := range 40 {
		l := int64(150 + (i*7919)%3000)
		vals = append(vals, l)
		lat = append(lat, float64(l))
	}
	slices.Sort(lat)
	for format, path := range durationTables(t, "latency", vals) {
		_, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		f := res.Files[0]
		if m := f.Magnitudes["latency"]; f.Records != 40 || m.N != 40 || !m.Whole || m.Median != lat[20] {
			t.Errorf("%s: %d records, latency %+v; want 40, 40 whole values of median %v", format, f.Records, m, lat[20])
		}
	}
	// With a name of request_time, none are told, as in JSON lines.
	for format, path := range durationTables(t, "duration", vals) {
		_, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if m := res.Files[0].Magnitudes; m != nil {
			t.Errorf("%s, with request_time: magnitudes %v", format, m)
		}
	}
}

// TestImplausibleDurationsTables: Go's slog writes "duration" in ns,
// which SPEC §3 reads in ms. In a JSON array and an Arrow file, as in
// JSON lines, CSV and Parquet (TestImplausibleDurations), the name is
// left unread and named rather than read a million times too long; a
// duration of ms is read.
func TestImplausibleDurationsTables(t *testing.T) {
	for _, c := range []struct {
		scale   int64 // the value of a ms
		refused bool
	}{{1_000_000, true}, {1, false}} {
		var vals []int64
		for i := range 40 {
			vals = append(vals, int64(200+(i*7919)%3000)*c.scale)
		}
		for format, path := range durationTables(t, "duration", vals) {
			got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
			f := res.Files[0]
			if f.Records != 40 || c.refused != (len(f.Refused) == 1 && f.Refused[0].Name == "duration" && f.Refused[0].ReadIn == ingest.UnitNone) {
				t.Errorf("%s, %d per ms: %d records, refused %+v; want 40, refused %v", format, c.scale, f.Records, f.Refused, c.refused)
				continue
			}
			for i, r := range got {
				want := float64(vals[i]) / 1000
				if c.refused {
					want = math.NaN()
				}
				if !(math.IsNaN(want) && math.IsNaN(r.rt)) && math.Abs(r.rt-want) > 1e-9 {
					t.Errorf("%s, %d per ms: record %d request_time %v, want %v", format, c.scale, i, r.rt, want)
					break
				}
			}
		}
	}
}
