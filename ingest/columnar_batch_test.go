package ingest_test

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// TestColumnarBatchesAsRows reads Parquet and Arrow files into a sink of
// batches, whose records are set a column at a time, and into a sink of
// single records, set a row at a time: both must see the same records,
// field for field, in the same order, and the same bad rows with the
// same reasons. The files hold bad rows, nulls, alias columns of one
// field (the better alias before the other, and after it), integers that are not whole, durations out of range, numbers
// in text columns, booleans and timestamps.
func TestColumnarBatchesAsRows(t *testing.T) {
	dir := t.TempDir()
	paths := []string{
		filepath.Join("..", "testdata", "logs", "tokenhub-5.parquet"),
		filepath.Join("..", "testdata", "logs", "tokenhub-6.arrow"),
	}
	reqs := gen.Generate(gen.Config{Seed: 8, N: 3000})
	for _, w := range columnarWriters {
		path := filepath.Join(dir, "bad"+w.ext)
		writeFile(t, path, reqs, gen.WriteOptions{BadEvery: 37}, w.write)
		paths = append(paths, path)
	}
	type odd struct {
		Time     int64    `parquet:"timestamp,timestamp(millisecond)"`
		Endpoint *string  `parquet:"endpoint_region,optional,dict"`
		Region   *string  `parquet:"region,optional,dict"`
		Server   *string  `parquet:"server_region,optional,dict"`
		Model    string   `parquet:"model,dict"`
		Status   float64  `parquet:"status"`
		Duration float64  `parquet:"request_time"`
		Alias    *float64 `parquet:"duration,optional"`
		Upstream string   `parquet:"upstream_response_time"`
		Stream   *bool    `parquet:"stream,optional"`
		Client   string   `parquet:"app_id"`
	}
	var rows []odd
	for i := range 3000 {
		r := odd{Time: 1795917600000 + int64(i)*250, Model: []string{"m1", "m2", "-", ""}[i%4],
			Status: []float64{200, 429, 200.5, -3, 1e300}[i%5], Duration: float64(i%50) / 10,
			Upstream: []string{"0.123", "-", "1.5, 0.2", "x", ""}[i%5], Client: fmt.Sprint("c", i%7)}
		if i%3 != 0 {
			reg := []string{"ap-beijing", "eu-frankfurt"}[i%2]
			r.Region = &reg
		}
		if i%5 != 0 {
			srv := []string{"srv-a", "-", "srv-b"}[i%3]
			r.Server = &srv
		}
		if i%7 != 0 {
			ep := []string{"ep-a", "ep-b", "-"}[i%3]
			r.Endpoint = &ep
		}
		if i%4 != 0 {
			v := []float64{0.5, -1, math.Inf(1), 2e9}[i%4/1]
			r.Alias = &v
		}
		if i%11 == 0 {
			r.Duration = -0.5 // a request_time refused: the row is bad
		}
		if i%2 == 0 {
			s := i%4 == 0
			r.Stream = &s
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[odd](&buf, parquet.MaxRowsPerRowGroup(500))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "odd.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, path)
	// Required columns, without a null: each set in a loop of its own
	// (setRows), times out of range among them.
	type plain struct {
		Time     int64   `parquet:"timestamp,timestamp(millisecond)"`
		Stream   bool    `parquet:"stream"`
		Duration float64 `parquet:"request_time"`
		Status   int32   `parquet:"status"`
		Model    string  `parquet:"model,dict"`
	}
	var prow []plain
	for i := range 3000 {
		r := plain{Time: 1795917600000 + int64(i)*250, Stream: i%3 == 0, Duration: float64(i%40) / 8,
			Status: []int32{200, 429, 500}[i%3], Model: []string{"m1", "m2", "-"}[i%3]}
		switch i % 13 {
		case 4:
			r.Time = 1 << 62 // overflows in ns
		case 9:
			r.Time = 900_000_000_000 // 1998: before the times read
		}
		if i%17 == 5 {
			r.Duration = -1
		}
		prow = append(prow, r)
	}
	path = filepath.Join(dir, "plain.parquet")
	writeDictRows(t, path, prow, 700)
	paths = append(paths, path)
	for _, path := range paths {
		for _, workers := range []int{1, 2} {
			opts := ingest.Options{Workers: workers, MaxProblems: 1000}
			batched, bres, err := ingest.Run([]string{path}, opts, func() *batchDigestSink { return &batchDigestSink{} })
			if err != nil {
				t.Fatal(err)
			}
			single, sres, err := ingest.Run([]string{path}, opts, func() *digestSink { return &digestSink{} })
			if err != nil {
				t.Fatal(err)
			}
			if bres.Records() == 0 {
				t.Fatalf("%s: no record read", path)
			}
			// Which worker takes which row group varies: with two, the
			// records of all the sinks are compared in sorted order.
			var b, s []byte
			for i := range batched {
				b, s = append(b, batched[i].b...), append(s, single[i].b...)
			}
			if workers > 1 {
				b, s = sortedLines(b), sortedLines(s)
			}
			if !bytes.Equal(b, s) {
				t.Fatalf("%s, %d workers: records set a column at a time differ from those set a row at a time", path, workers)
			}
			if bres.BadLines() != sres.BadLines() || len(bres.Problems) != len(sres.Problems) {
				t.Fatalf("%s, %d workers: %d bad rows, %d sampled; a row at a time %d, %d", path, workers,
					bres.BadLines(), len(bres.Problems), sres.BadLines(), len(sres.Problems))
			}
			for i, p := range bres.Problems {
				if p != sres.Problems[i] {
					t.Fatalf("%s, %d workers: bad row %+v, a row at a time %+v", path, workers, p, sres.Problems[i])
				}
			}
			if filepath.Base(path) == "odd.parquet" && bres.BadLines() != 3000/11+1 {
				t.Errorf("odd.parquet: %d bad rows, want %d", bres.BadLines(), 3000/11+1)
			}
			if want := plainBad(3000); filepath.Base(path) == "plain.parquet" && bres.BadLines() != want {
				t.Errorf("plain.parquet: %d bad rows, want %d", bres.BadLines(), want)
			}
		}
	}
}

// plainBad counts the bad rows of plain.parquet's n: a time out of
// range or a negative request_time.
func plainBad(n int) int64 {
	bad := int64(0)
	for i := range n {
		if i%13 == 4 || i%13 == 9 || i%17 == 5 {
			bad++
		}
	}
	return bad
}

// sortedLines returns b's lines sorted.
func sortedLines(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	slices.SortFunc(lines, bytes.Compare)
	return bytes.Join(lines, nil)
}

// TestParquetDictionaryIndexDamage damages each byte of a required
// dictionary text column's chunk in turn, and reads the file into a
// sink of batches, as the analysis does: every row is a record, a bad
// row, or after the damage of an incomplete file, and the sink holds
// the records counted. (The data pages carry a checksum, which finds a
// damaged index.) Then the dictionary page's header claims a value
// fewer, which no checksum covers: the third value's index is outside
// the dictionary, and must make the file incomplete, never reach a
// record (a worker looking it up would panic).
func TestParquetDictionaryIndexDamage(t *testing.T) {
	type row struct {
		Region      string  `parquet:"region,dict"`
		RequestTime float64 `parquet:"request_time"`
	}
	rows := make([]row, 300)
	for i := range rows {
		rows[i] = row{Region: []string{"ap-beijing", "ap-shanghai", "eu-frankfurt"}[i*7%3], RequestTime: float64(i) / 100}
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf, parquet.Compression(&parquet.Uncompressed))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	md := f.Metadata().RowGroups[0].Columns[0].MetaData
	if md.PathInSchema[0] != "region" {
		t.Fatalf("first column %v", md.PathInSchema)
	}
	from := md.DataPageOffset
	if md.DictionaryPageOffset > 0 {
		from = min(from, md.DictionaryPageOffset)
	}
	to := from + md.TotalCompressedSize
	dir := t.TempDir()
	read := func(name string, damaged []byte) ingest.FileStats {
		path := filepath.Join(dir, "damaged.parquet")
		if err := os.WriteFile(path, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		sinks, res, err := ingest.Run([]string{path}, ingest.Options{Workers: 1, MaxProblems: 1}, func() *batchDigestSink { return &batchDigestSink{} })
		if err != nil {
			t.Fatal(err)
		}
		file := res.Files[0]
		if !file.Incomplete && file.Records+file.BadLines != int64(len(rows)) {
			t.Fatalf("%s: %d records and %d bad rows of %d, and complete", name, file.Records, file.BadLines, len(rows))
		}
		if n := bytes.Count(sinks[0].b, []byte("\n")); int64(n) != file.Records {
			t.Fatalf("%s: the sink has %d records, the file %d", name, n, file.Records)
		}
		return file
	}
	for at := from; at < to; at++ {
		damaged := bytes.Clone(data)
		damaged[at] ^= 0xff
		read(fmt.Sprintf("byte %d", at), damaged)
	}

	// The data page's indexes, damaged a byte at a time with the page's
	// checksum made again: a byte of bit-packed indexes of two bits
	// flipped turns an index 0 into 3, outside the dictionary of three.
	at := md.DataPageOffset
	var h format.PageHeader
	dec := thrift.NewDecoder(new(thrift.CompactProtocol).NewReader(bytes.NewReader(data[at:])))
	if err := dec.Decode(&h); err != nil || h.Type != format.DataPageV2 || h.CRC == 0 {
		t.Fatalf("data page header %+v: %v", h, err)
	}
	hdr, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil || !bytes.HasPrefix(data[at:], hdr) {
		t.Fatalf("the header encoded again differs: %v", err)
	}
	page := data[at+int64(len(hdr)) : at+int64(len(hdr))+int64(h.CompressedPageSize)]
	outOfRange := 0
	for i := range page {
		damaged := bytes.Clone(data)
		dpage := damaged[at+int64(len(hdr)) : at+int64(len(hdr))+int64(len(page))]
		dpage[i] ^= 0xff
		h.CRC = int32(crc32.ChecksumIEEE(dpage))
		dhdr, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
		if err != nil || len(dhdr) != len(hdr) {
			continue // the checksum's varint of another length
		}
		copy(damaged[at:], dhdr)
		file := read(fmt.Sprintf("index byte %d", i), damaged)
		if strings.Contains(file.Reason, "dictionary index 3 out of range") {
			outOfRange++
			if !file.Incomplete {
				t.Errorf("index byte %d: an index out of range, and the file complete", i)
			}
		}
	}
	if outOfRange == 0 {
		t.Error("no damaged byte gave an index out of the dictionary")
	}
}
