package ingest_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// decimalRow is a row as DuckDB writes CAST(x AS DECIMAL(10,3)): the
// integer of x·10³ in an int64, DECIMAL(9,2) in an int32.
type decimalRow struct {
	Time     int64  `parquet:"time,timestamp(millisecond)"`
	RT       int64  `parquet:"request_time,decimal(3:10)"`
	Upstream *int32 `parquet:"upstream_response_time,decimal(2:9),optional"`
	Status   int32  `parquet:"status"`
}

// decimalDictRow is decimalRow's times in dictionary pages.
type decimalDictRow struct {
	Time     int64  `parquet:"time,timestamp(millisecond)"`
	RT       int64  `parquet:"request_time,decimal(3:10),dict"`
	Upstream *int32 `parquet:"upstream_response_time,decimal(2:9),dict,optional"`
	Status   int32  `parquet:"status"`
}

// decimalWideRow is a DECIMAL of more digits than an int64 holds
// (Spark's decimal(38,6), DuckDB's DECIMAL(30,6)): a 13-byte big-endian
// two's complement integer of x·10⁶.
type decimalWideRow struct {
	Time   int64    `parquet:"time,timestamp(millisecond)"`
	RT     [13]byte `parquet:"request_time,decimal(6:30)"`
	Status int32    `parquet:"status"`
}

// TestParquetDecimal: a DECIMAL column's value is its stored integer
// divided by 10^scale: 591486 in a DECIMAL(10,3) request_time is 591.486
// s, not 591,486 (DuckDB's COPY of a CAST to DECIMAL writes these).
func TestParquetDecimal(t *testing.T) {
	var rows []decimalRow
	for i := range 200 {
		r := decimalRow{Time: 1764381600000 + int64(i)*1000, RT: int64(20 + 37*i), Status: 200}
		if i%5 != 0 {
			u := int32(1 + 3*i) // hundredths of a second
			r.Upstream = &u
		}
		rows = append(rows, r)
	}
	dict := make([]decimalDictRow, len(rows))
	wide := make([]decimalWideRow, len(rows))
	for i, r := range rows {
		dict[i] = decimalDictRow(r)
		wide[i] = decimalWideRow{Time: r.Time, Status: r.Status}
		binary.BigEndian.PutUint64(wide[i].RT[5:], uint64(r.RT)*1000) // ms·10³: the value·10⁶
	}
	dir := t.TempDir()
	for name, write := range map[string]func(*bytes.Buffer) error{
		"plain.parquet": func(b *bytes.Buffer) error { return writeRows(b, rows) },
		"dict.parquet":  func(b *bytes.Buffer) error { return writeRows(b, dict) },
		"wide.parquet":  func(b *bytes.Buffer) error { return writeRows(b, wide) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(got) != len(rows) || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad lines %v; want %d, 0", name, len(got), res.BadLines(), res.Problems, len(rows))
		}
		for i, r := range rows {
			rt := float64(r.RT) / 1e3
			urt := math.NaN()
			if r.Upstream != nil && name != "wide.parquet" {
				urt = float64(*r.Upstream) / 1e2
			}
			if g := got[i]; math.Abs(g.rt-rt) > 1e-12 || math.IsNaN(urt) != math.IsNaN(g.urt) || !math.IsNaN(urt) && math.Abs(g.urt-urt) > 1e-12 {
				t.Errorf("%s row %d: request_time %v s, upstream %v s; want %v and %v", name, i, g.rt, g.urt, rt, urt)
			}
		}
	}
}

// writeRows writes rows to b as one Parquet file.
func writeRows[T any](b *bytes.Buffer, rows []T) error {
	w := parquet.NewGenericWriter[T](b, parquet.MaxRowsPerRowGroup(64))
	if _, err := w.Write(rows); err != nil {
		return err
	}
	return w.Close()
}
