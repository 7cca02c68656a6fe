package ingest_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// numTextRow is a row of TestParquetNumbersAsText's files.
type numTextRow struct {
	Time     int64  `parquet:"time,timestamp(millisecond)"`
	RT       string `parquet:"request_time"`
	Upstream string `parquet:"upstream_response_time"`
	Status   string `parquet:"status"`
}

// TestParquetNumbersAsText reads numbers written as text columns — an
// upstream time list as nginx writes it, request_time and status as
// strings — as the text formats read them: a list's sum, a bad
// request_time a bad row, an unreadable status absent.
func TestParquetNumbersAsText(t *testing.T) {
	in := []numTextRow{
		{1764381600000, "0.020", "0.018", "200"},
		{1764381601000, "1.5", "0.5, 0.25", "429"},
		{1764381602000, "-0.5", "0.1", "200"}, // a negative request_time: bad
		{1764381603000, "2", "-", "20x"},
		{1764381604000, "0.75", "", "503"},
		{1764381605000, "3.25", "1e-1", "-"},
		{1764381606000, "abc", "0.1", "200"}, // bad
		{1764381607000, "+4.5", "12.5", "+204"},
		{1764381608000, "20000000", "0.5", "200"}, // past the bound of a duration (10⁷ s): bad
		{1764381609000, "5", "30000000", "200"},   // an upstream time past it: absent
	}
	// The same rows in dictionary pages, and with the upstream time
	// optional (a null every third row, absent as "" is).
	type dictRow struct {
		Time     int64  `parquet:"time,timestamp(millisecond)"`
		RT       string `parquet:"request_time,dict"`
		Upstream string `parquet:"upstream_response_time,dict"`
		Status   string `parquet:"status,dict"`
	}
	type optRow struct {
		Time     int64   `parquet:"time,timestamp(millisecond)"`
		RT       string  `parquet:"request_time"`
		Upstream *string `parquet:"upstream_response_time,optional"`
		Status   string  `parquet:"status"`
	}
	var dict []dictRow
	var opt []optRow
	inOpt := append([]numTextRow(nil), in...) // what opt.parquet holds
	for i, r := range in {
		dict = append(dict, dictRow(r))
		o := optRow{Time: r.Time, RT: r.RT, Status: r.Status}
		if i%3 != 2 {
			o.Upstream = &in[i].Upstream
		} else {
			inOpt[i].Upstream = ""
		}
		opt = append(opt, o)
	}
	checkNumbersAsText(t, writeParquetRows(t, "text.parquet", in), in)
	checkNumbersAsText(t, writeParquetRows(t, "dict.parquet", dict), in)
	checkNumbersAsText(t, writeParquetRows(t, "opt.parquet", opt), inOpt)
}

// checkNumbersAsText reads the file at path, which holds rows in, and
// checks each record against strconv's reading of its texts.
func checkNumbersAsText(t *testing.T, path string, in []numTextRow) {
	t.Helper()
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 2})
	if res.BadLines() != 3 {
		t.Errorf("%s: %d bad rows, want 3 (%v)", path, res.BadLines(), res.Problems)
	}
	const maxS = 1e7 // the bound a duration is kept under
	// What each good row must read as, from strconv.
	sum := func(list string) float64 {
		if list == "" || list == "-" {
			return math.NaN()
		}
		s := 0.0
		for _, p := range strings.Split(list, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				t.Fatalf("%q: %v", list, err)
			}
			s += v
		}
		if s > maxS {
			return math.NaN()
		}
		return s
	}
	var want []numTextRow
	for _, r := range in {
		if v, err := strconv.ParseFloat(r.RT, 64); err == nil && v >= 0 && v <= maxS {
			want = append(want, r)
		}
	}
	if len(rows) != len(want) {
		t.Fatalf("%d records, want %d", len(rows), len(want))
	}
	for i, w := range want {
		g := rows[i]
		if g.timeNS != w.Time*1e6 {
			t.Errorf("row %d: time %d, want %d", i, g.timeNS, w.Time*1e6)
		}
		rt, _ := strconv.ParseFloat(w.RT, 64)
		if g.rt != rt {
			t.Errorf("row %d: request_time %v, want %v", i, g.rt, rt)
		}
		if u := sum(w.Upstream); math.IsNaN(u) != math.IsNaN(g.urt) || !math.IsNaN(u) && math.Abs(g.urt-u) > 1e-12 {
			t.Errorf("%s, row %d: upstream_response_time %v, want %v (%q)", path, i, g.urt, u, w.Upstream)
		}
		st, err := strconv.ParseInt(w.Status, 10, 64)
		if g.hasStatus != (err == nil) || err == nil && g.status != st {
			t.Errorf("row %d: status %d (present %v), want %q", i, g.status, g.hasStatus, w.Status)
		}
	}
}

// TestParquetDurationBound reads duration columns in ms (duration,
// mapped, is request_time, upstream_service_time upstream_response_time) at and
// past the bound a duration is kept under (10⁷ s): at it kept, in s;
// past it a request_time makes the row bad and another is absent.
func TestParquetDurationBound(t *testing.T) {
	type msRow struct {
		Time     int64   `parquet:"time,timestamp(millisecond)"`
		Duration float64 `parquet:"duration"`
		Upstream float64 `parquet:"upstream_service_time"`
	}
	in := []msRow{
		{1764381600000, 1500, 1200},
		{1764381601000, 1e10, 1e10},        // both at the bound
		{1764381602000, 1e10 + 1, 1},       // request_time past it: bad
		{1764381603000, 250, 1e10 + 1},     // upstream past it: absent
		{1764381604000, 0.5, 2e10},         // absent
		{1764381605000, math.Inf(1), 3},    // bad
		{1764381606000, -0.0, math.Inf(1)}, // -0 is 0; absent
	}
	path := writeParquetRows(t, "ms.parquet", in)
	// Mapped: values this size would have the alias left unread
	// (TestImplausibleDurationsParquet); the bound is the same.
	schema, err := ingest.NewSchema([]string{"request_time=duration:ms"})
	if err != nil {
		t.Fatal(err)
	}
	rows, res := collect(t, []string{path}, ingest.Options{Workers: 1, Schema: schema})
	const maxS = 1e7
	var want []msRow
	for _, r := range in {
		if s := r.Duration / 1000; s >= 0 && s <= maxS {
			want = append(want, r)
		}
	}
	if res.BadLines() != int64(len(in)-len(want)) || len(rows) != len(want) {
		t.Fatalf("%d records, %d bad (%v); want %d and %d", len(rows), res.BadLines(), res.Problems, len(want), len(in)-len(want))
	}
	for i, w := range want {
		g := rows[i]
		if g.rt != w.Duration/1000 {
			t.Errorf("row %d: request_time %v s, want %v ms", i, g.rt, w.Duration)
		}
		u := w.Upstream / 1000
		if !(u >= 0 && u <= maxS) {
			u = math.NaN()
		}
		if math.IsNaN(u) != math.IsNaN(g.urt) || !math.IsNaN(u) && g.urt != u {
			t.Errorf("row %d: upstream_response_time %v s, want %v (%v ms)", i, g.urt, u, w.Upstream)
		}
	}
}

// writeParquetRows writes rows to a Parquet file name in a temporary
// directory and returns its path.
func writeParquetRows[T any](t *testing.T, name string, rows []T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := parquet.Write(f, rows); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
