package ingest_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/lz4"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// readBytes reads one in-memory input through stdin.
func readBytes(t testing.TB, data []byte, f ingest.Format) *ingest.Result {
	t.Helper()
	_, res, err := ingest.Run([]string{"-"}, ingest.Options{Stdin: bytes.NewReader(data), Format: f, Workers: 1},
		func() *collector { return &collector{} })
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkAccounted asserts that damage is reported, never swallowed: a file
// read as complete must be readable by an independent reader (count),
// and every row of it is a record or a bad row; an incomplete file has a
// reason. count runs only on input loganalyze found whole, so that its
// reader is not exposed to sizes loganalyze refused.
func checkAccounted(t *testing.T, res *ingest.Result, count func() (int64, bool)) {
	t.Helper()
	f := res.Files[0]
	if f.Incomplete {
		if f.Reason == "" {
			t.Fatalf("incomplete without a reason: %+v", f)
		}
		return
	}
	rows, readable := count()
	if !readable {
		t.Fatalf("unreadable input not marked incomplete: %+v", f)
	}
	// A row its source marks as no request (Caddy's logger of another
	// log) is passed over, and counted so.
	if f.Records+f.BadLines+f.PassedOver != rows {
		t.Fatalf("%d records + %d bad rows + %d passed over, the file has %d rows", f.Records, f.BadLines, f.PassedOver, rows)
	}
}

// parquetRows counts a Parquet file's rows, false when the pages of a
// column loganalyze reads (a flat column of a supported type that the
// schema of source binds, the built-in one when "") cannot be read up to
// the row group's row count.
// A column a row group counts, whose pages are not read, is not either
// (TestParquetCountedColumns holds counting to reading).
func parquetRows(data []byte, source string) (n int64, ok bool) {
	if len(data) == 0 {
		return 0, true // no rows: the file is reported empty, not damaged
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	counted, err := ingest.FileCounted(data)
	if err != nil {
		return 0, false
	}
	// The page index and bloom filters are not needed to read rows.
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)),
		parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return 0, false
	}
	schema, err := ingest.NewSchema(nil)
	if err != nil {
		panic(err)
	}
	if source != "" {
		// The columns the file's source reads: another source's names
		// may be no field of its (Databricks' request, response, date).
		schema, _, _ = schema.ForNames(nil, nil, source, nil)
	}
	for g, rg := range pf.RowGroups() {
		for i, path := range pf.Schema().Columns() {
			leaf, _ := pf.Schema().Lookup(path...)
			if len(path) != 1 || leaf.MaxRepetitionLevel > 0 || leaf.MaxDefinitionLevel > 1 ||
				len(schema.LookupString(path[0])) == 0 || slices.Contains(counted[g], path[0]) {
				continue
			}
			switch leaf.Node.Type().Kind() {
			case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double, parquet.ByteArray:
			default:
				continue
			}
			pages := rg.ColumnChunks()[i].Pages()
			// Pages past the row group's row count are never read.
			for got := int64(0); got < rg.NumRows(); {
				p, err := pages.ReadPage()
				if err != nil {
					return n, false
				}
				got += p.NumRows()
			}
			pages.Close()
		}
		n += rg.NumRows()
	}
	return n, true
}

func fuzzSeeds(f *testing.F, sample string, write func(*bytes.Buffer, []gen.Request) error) {
	reqs := gen.Generate(gen.Config{Seed: 9, N: 60})
	var buf bytes.Buffer
	if err := write(&buf, reqs); err != nil {
		f.Fatal(err)
	}
	small := buf.Bytes()
	f.Add(small)
	f.Add(small[:len(small)/2])
	f.Add(small[:len(small)-20])
	data, err := os.ReadFile(filepath.Join(sharedDir(f), "examples", sample))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
}

func FuzzParquet(f *testing.F) {
	fuzzSeeds(f, "tokenhub-sample.parquet", func(b *bytes.Buffer, reqs []gen.Request) error {
		_, err := gen.WriteParquet(b, reqs, gen.WriteOptions{BadEvery: 7})
		return err
	})
	var nested bytes.Buffer // struct columns, nulls at two levels
	if err := parquet.Write(&nested, caddyPQRows(40), parquet.MaxRowsPerRowGroup(16)); err != nil {
		f.Fatal(err)
	}
	f.Add(nested.Bytes())
	// The same without bounds for its user_id, "" in every row: read
	// for its first rows (unfilledColumn).
	var bare bytes.Buffer
	if err := parquet.Write(&bare, caddyPQRows(40), parquet.MaxRowsPerRowGroup(16), parquet.SkipPageBounds("user_id")); err != nil {
		f.Fatal(err)
	}
	f.Add(bare.Bytes())
	// Spark's INT96 times, a null among them, beside a TIMESTAMP.
	type sparkRow struct {
		Time        *deprecated.Int96 `parquet:"time,optional"`
		RequestTime float64           `parquet:"request_time"`
		Wall        int64             `parquet:"start_time,timestamp(microsecond)"`
	}
	var spark []sparkRow
	for i := range 30 {
		ts := time.Date(2026, 12, 5, 9, i, 0, 0, time.UTC)
		v := int96Of(ts)
		r := sparkRow{Time: &v, RequestTime: float64(i) / 10, Wall: ts.UnixMicro()}
		if i%7 == 3 {
			r.Time = nil
		}
		spark = append(spark, r)
	}
	var int96 bytes.Buffer
	if err := parquet.Write(&int96, spark, parquet.MaxRowsPerRowGroup(8)); err != nil {
		f.Fatal(err)
	}
	f.Add(int96.Bytes())
	// Databricks' inference tables: a MAP and a LIST column beside
	// those read, JSON bodies as strings.
	f.Add(dbxParquet(f, dbxCalls(40), false))
	f.Add(dbxParquet(f, dbxCalls(40), true))
	// Its MAP's model_name read entry by entry: among other keys, twice
	// in a row, with a null value, missing; the map null or empty; its
	// keys and values dictionary-encoded.
	f.Add(dbxMapParquet(f, mapRows(40), true))
	// The same map in an old writer's layout: MAP_KEY_VALUE in MAP's
	// place, found in the file's schema.
	f.Add(relayoutMap(f, dbxMapParquet(f, mapRows(40), true), "request_metadata", legacyMapLayouts[1].layout))
	// LZ4 pages, which are checked before parquet-go decodes them.
	var lz bytes.Buffer
	if _, err := gen.WriteParquet(&lz, gen.Generate(gen.Config{Seed: 3, N: 40}), gen.WriteOptions{BadEvery: 9, Codec: &lz4.Codec{}}); err != nil {
		f.Fatal(err)
	}
	f.Add(lz.Bytes())
	f.Add([]byte{}) // an empty file given as Parquet
	f.Fuzz(func(t *testing.T, data []byte) {
		res := readBytes(t, data, ingest.Parquet)
		checkAccounted(t, res, func() (int64, bool) { return parquetRows(data, res.Files[0].Source) })
	})
}

// FuzzParquetRowGroups reads a Parquet file of eight row groups, damaged
// anywhere, with one worker (the reader decodes the row groups) and with
// two (the workers do): both must give the same records, bad rows and
// reason, and account for every row.
func FuzzParquetRowGroups(f *testing.F) {
	data := manyRowGroups(f.Fatal)
	f.Add(data)
	f.Add(data[:len(data)/2])
	for _, at := range []int{len(data) / 5, len(data) / 3, len(data) / 2} {
		d := append([]byte(nil), data...)
		d[at] ^= 0xff
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got [2]ingest.FileStats
		for i, workers := range []int{1, 2} {
			_, res, err := ingest.Run([]string{"-"}, ingest.Options{Stdin: bytes.NewReader(data), Format: ingest.Parquet, Workers: workers},
				func() *collector { return &collector{} })
			if err != nil {
				t.Fatal(err)
			}
			checkAccounted(t, res, func() (int64, bool) { return parquetRows(data, res.Files[0].Source) })
			got[i] = res.Files[0]
		}
		a, b := got[0], got[1]
		if a.Records != b.Records || a.BadLines != b.BadLines || a.Incomplete != b.Incomplete || a.Reason != b.Reason {
			t.Fatalf("one worker: %d records, %d bad, %q; two: %d records, %d bad, %q",
				a.Records, a.BadLines, a.Reason, b.Records, b.BadLines, b.Reason)
		}
	})
}

// genParquet writes the generator's requests of seed, groups row groups
// of them, as Parquet, and returns them, the file, its row groups (at
// least minGroups) and the request_time column's index, for a test to
// damage.
func genParquet(t *testing.T, seed uint64, groups, minGroups int) ([]gen.Request, []byte, []format.RowGroup, int) {
	t.Helper()
	reqs := gen.Generate(gen.Config{Seed: seed, N: groups * gen.ParquetRowGroup})
	var buf bytes.Buffer
	if _, err := gen.WriteParquet(&buf, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rgs := pf.Metadata().RowGroups
	if len(rgs) < minGroups {
		t.Fatalf("%d row groups, want %d or more", len(rgs), minGroups)
	}
	col, ok := pf.Schema().Lookup("request_time")
	if !ok {
		t.Fatal("no request_time column")
	}
	return reqs, data, rgs, col.ColumnIndex
}

// TestParquetDamagedRowGroup damages a page header of the third of five
// or more row groups, which is checked before any of its pages is
// decoded: with any number of workers, the file gives every row but
// those of the damaged row group, and names the damage.
func TestParquetDamagedRowGroup(t *testing.T) {
	reqs, data, groups, col := genParquet(t, 5, 5, 5)
	md := groups[2].Columns[col].MetaData
	copy(data[md.DataPageOffset:], bytes.Repeat([]byte{0xff}, 16))
	path := filepath.Join(t.TempDir(), "damaged.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	first := groups[0].NumRows + groups[1].NumRows // rows before the damaged row group
	want := append(append([]gen.Request(nil), reqs[:first]...), reqs[first+groups[2].NumRows:]...)
	where := fmt.Sprintf("column %q: page header at byte %d:", "request_time", md.DataPageOffset)
	for _, workers := range []int{1, 2, 3, 5} {
		rows, res := collect(t, []string{path}, ingest.Options{Workers: workers})
		f := res.Files[0]
		if !f.Incomplete || !strings.Contains(f.Reason, where) || f.BadLines != 0 {
			t.Errorf("workers=%d: %d bad rows, incomplete %v (%q); want incomplete, %s", workers, f.BadLines, f.Incomplete, f.Reason, where)
		}
		checkRows(t, fmt.Sprintf("workers=%d", workers), rows, want)
	}
}

// TestParquetChunksHeldOrRead reads a file of a dozen row groups with
// the column chunks read at once into memory (the default), none of
// them (all read from the file as they are decoded), and some of each
// (a bound that a row group's chunks pass part way): every way, with
// one worker and with three, the file gives every row.
func TestParquetChunksHeldOrRead(t *testing.T) {
	reqs, data, groups, _ := genParquet(t, 7, 12, 10)
	path := filepath.Join(t.TempDir(), "held.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var chunks int64 // the bytes of the second row group's chunks
	for _, c := range groups[1].Columns {
		chunks += c.MetaData.TotalCompressedSize
	}
	for _, bound := range []int{4 << 20, 0, int(chunks / 3)} {
		old := ingest.HeldChunks(bound)
		for _, workers := range []int{1, 3} {
			rows, res := collect(t, []string{path}, ingest.Options{Workers: workers})
			if f := res.Files[0]; f.Incomplete || f.BadLines != 0 {
				t.Errorf("bound %d, workers=%d: incomplete %v (%q), %d bad rows", bound, workers, f.Incomplete, f.Reason, f.BadLines)
			}
			checkRows(t, fmt.Sprintf("bound %d, workers=%d", bound, workers), rows, reqs)
		}
		ingest.HeldChunks(old)
	}
}

// TestParquetDamagedPages damages the values of the third of a dozen row
// groups, which only decoding its pages finds: with one worker the
// reader decodes the row groups, with more the workers do, and either
// way the file gives every row but those of the damaged row group (its
// first page is the damaged one), and names the damage at its first row.
func TestParquetDamagedPages(t *testing.T) {
	reqs, data, groups, col := genParquet(t, 6, 12, 10) // two per worker at 5
	// The first zstd frame of the column chunk is its first page's
	// values: without its magic number, the page cannot be decompressed,
	// and its header, which the reader checks, is whole.
	md := groups[2].Columns[col].MetaData
	chunk := data[md.DataPageOffset : md.DataPageOffset+md.TotalCompressedSize]
	at := bytes.Index(chunk, []byte{0x28, 0xb5, 0x2f, 0xfd})
	if at < 0 {
		t.Fatal("no zstd frame in the column chunk")
	}
	copy(chunk[at:], []byte{0, 0, 0, 0})
	path := filepath.Join(t.TempDir(), "damaged.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	first := groups[0].NumRows + groups[1].NumRows // rows before the damaged row group
	want := append(append([]gen.Request(nil), reqs[:first]...), reqs[first+groups[2].NumRows:]...)
	where := fmt.Sprintf("column %q near row %d:", "request_time", first+1)
	for _, workers := range []int{1, 2, 3, 5} {
		rows, res := collect(t, []string{path}, ingest.Options{Workers: workers})
		f := res.Files[0]
		if !f.Incomplete || !strings.Contains(f.Reason, where) || f.BadLines != 0 {
			t.Errorf("workers=%d: %d bad rows, incomplete %v (%q); want incomplete, %s", workers, f.BadLines, f.Incomplete, f.Reason, where)
		}
		checkRows(t, fmt.Sprintf("workers=%d", workers), rows, want)
	}
}
