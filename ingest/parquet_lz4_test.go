package ingest_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/lz4"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// lz4Parquet writes the generator's requests of seed, groups row groups
// of them, as Parquet whose pages are LZ4_RAW blocks (what pyarrow and
// DuckDB write for compression='lz4'), and returns them, the file and its
// row groups (at least groups).
func lz4Parquet(t *testing.T, seed uint64, groups int) ([]gen.Request, []byte, []format.RowGroup) {
	t.Helper()
	reqs := gen.Generate(gen.Config{Seed: seed, N: groups * gen.ParquetRowGroup})
	var buf bytes.Buffer
	if _, err := gen.WriteParquet(&buf, reqs, gen.WriteOptions{Codec: &lz4.Codec{}}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rgs := pf.Metadata().RowGroups
	if len(rgs) < groups {
		t.Fatalf("%d row groups, want %d or more", len(rgs), groups)
	}
	for _, rg := range rgs {
		for _, c := range rg.Columns {
			if c.MetaData.Codec != format.Lz4Raw {
				t.Fatalf("column %v is %v, want LZ4_RAW", c.MetaData.PathInSchema, c.MetaData.Codec)
			}
		}
	}
	return reqs, data, rgs
}

// TestParquetLZ4 reads a Parquet file whose pages are LZ4-compressed:
// with any number of workers, every row, as the generator wrote it.
func TestParquetLZ4(t *testing.T) {
	reqs, data, _ := lz4Parquet(t, 11, 3)
	path := filepath.Join(t.TempDir(), "lz4.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 3} {
		rows, res := collect(t, []string{path}, ingest.Options{Workers: workers})
		if f := res.Files[0]; f.Incomplete || f.BadLines != 0 {
			t.Errorf("workers=%d: incomplete %v (%q), %d bad rows", workers, f.Incomplete, f.Reason, f.BadLines)
		}
		checkRows(t, fmt.Sprintf("workers=%d", workers), rows, reqs)
	}
}

// TestParquetLZ4DamagedBlock zeroes the LZ4 block of the first page of a
// column in the second of four row groups (parquet-go's decoder would
// double its buffer without end on it): the page is checked before it
// is decoded, and the file gives every row but that row group's, and
// names the page.
func TestParquetLZ4DamagedBlock(t *testing.T) {
	reqs, data, groups := lz4Parquet(t, 12, 4)
	col := -1
	for i, c := range groups[1].Columns {
		if strings.Join(c.MetaData.PathInSchema, ".") == "request_time" {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("no request_time column")
	}
	md := groups[1].Columns[col].MetaData
	// The page header is thrift; the block follows it.
	r := bytes.NewReader(data[md.DataPageOffset:])
	var ph format.PageHeader
	if err := thrift.NewDecoder(new(thrift.CompactProtocol).NewReader(r)).Decode(&ph); err != nil {
		t.Fatal(err)
	}
	body := md.DataPageOffset + int64(len(data[md.DataPageOffset:])-r.Len())
	clear(data[body : body+int64(ph.CompressedPageSize)])
	path := filepath.Join(t.TempDir(), "damaged.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	first := groups[0].NumRows
	want := append(append([]gen.Request(nil), reqs[:first]...), reqs[first+groups[1].NumRows:]...)
	where := fmt.Sprintf("column %q: page at byte %d: its LZ4 block", "request_time", body)
	for _, workers := range []int{1, 2, 3} {
		rows, res := collect(t, []string{path}, ingest.Options{Workers: workers})
		f := res.Files[0]
		if !f.Incomplete || !strings.Contains(f.Reason, where) || f.BadLines != 0 {
			t.Errorf("workers=%d: %d bad rows, incomplete %v (%q); want incomplete, %s", workers, f.BadLines, f.Incomplete, f.Reason, where)
		}
		checkRows(t, fmt.Sprintf("workers=%d", workers), rows, want)
	}
}
