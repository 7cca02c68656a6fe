package ingest_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// dictRow is a row of the Parquet files of TestDictKeysSameAsTuples:
// every dimension a dictionary column, optional where a value may be
// missing.
type dictRow struct {
	Time         int64    `parquet:"time,timestamp(millisecond)"`
	Region       *string  `parquet:"region,optional,dict"`
	Model        string   `parquet:"model,dict"`
	App          *string  `parquet:"app_id,optional,dict"`
	Addr         string   `parquet:"remote_addr,dict"`
	ClientRegion *string  `parquet:"client_region,optional,dict"`
	URI          string   `parquet:"uri,dict"`
	Status       int32    `parquet:"status"`
	Stream       *bool    `parquet:"stream,optional"`
	RequestTime  float64  `parquet:"request_time"`
	TTFT         *float64 `parquet:"first_token_ms,optional"`
}

// plainRow has a dimension in a plain (not dictionary) column.
type plainRow struct {
	Time        int64   `parquet:"time,timestamp(millisecond)"`
	Region      string  `parquet:"region,dict"`
	Model       string  `parquet:"model"`
	Status      int32   `parquet:"status"`
	RequestTime float64 `parquet:"request_time"`
}

// derivedRow has no client column, and a request line for the uri:
// Finish derives the client from remote_addr and the uri from request.
type derivedRow struct {
	Time        int64   `parquet:"time,timestamp(millisecond)"`
	Region      string  `parquet:"region,dict"`
	Addr        string  `parquet:"remote_addr,dict"`
	Request     string  `parquet:"request,dict"`
	Status      int32   `parquet:"status"`
	RequestTime float64 `parquet:"request_time"`
}

// twoClientRow binds the client by two columns.
type twoClientRow struct {
	Time        int64   `parquet:"time,timestamp(millisecond)"`
	Region      string  `parquet:"region,dict"`
	App         *string `parquet:"app_id,optional,dict"`
	Key         string  `parquet:"api_key_id,dict"`
	Status      int32   `parquet:"status"`
	RequestTime float64 `parquet:"request_time"`
}

func writeDictRows[T any](t *testing.T, path string, rows []T, perGroup int64) {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, parquet.MaxRowsPerRowGroup(perGroup))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pick returns list[i] for row i of row group g: the lists are rotated
// by the row group, so that each group's dictionary holds the values in
// another order.
func pick[T any](list []T, i, g int) T { return list[(i+g)%len(list)] }

// TestDictKeysSameAsTuples: a Parquet run whose records carry DictKeys
// (their combinations found by dictionary indexes) gives the same
// accumulator, to the byte, as the run without them, at 1, 2 and 3
// workers and by hour: over row groups whose dictionaries hold the same
// values in other orders, absent ("-", "") and null values, a client
// derived from remote_addr where app_id is null, statuses past the
// key's 10 bits and negative, URIs of one path with other queries; a
// dimension in a plain column; a client bound by two columns; a client
// and a uri Finish derives (from remote_addr and the request line);
// more regions than the key has ids for.
func TestDictKeysSameAsTuples(t *testing.T) {
	dir := t.TempDir()
	// Few values, so that a row group holds each combination several
	// times: its records after the first find it by their DictKey.
	regions := []string{"ap-beijing", "-", "eu-frankfurt", ""}
	models := []string{"m1", "-", "m2"}
	apps := []string{"a1", "a2", "a3"}
	uris := []string{"/v1/chat/completions", "/v1/chat/completions?x=1", "/v1/embeddings"}
	statuses := []int32{200, 1500, -3, 1022, 1023, 500, 22}
	var rows []dictRow
	const perGroup = 2000
	for i := range 12000 {
		g := i / perGroup
		r := dictRow{
			Time:        1795917600000 + int64(i)*750, // 2.5 hours
			Model:       pick(models, i, g),
			Addr:        fmt.Sprintf("10.0.%d.%d:443", i%3, i%5),
			URI:         pick(uris, i/3, g),
			Status:      pick(statuses, i/2, g),
			RequestTime: float64(i%97) / 20,
		}
		if i%9 != 0 {
			r.Region = new(pick(regions, i/2, g))
		}
		if i%13 != 0 {
			r.App = new(pick(apps, i*7, g))
		}
		if i%4 != 0 {
			r.ClientRegion = new(pick(regions[:2], i/5, g))
		}
		if h := uint32(i) * 2654435761 >> 20; h%3 != 0 { // apart from the other dimensions
			r.Stream = new(h%3 == 1)
		}
		if i%3 != 0 {
			r.TTFT = new(float64(i % 300))
		}
		rows = append(rows, r)
	}
	dictPath := filepath.Join(dir, "dict.parquet")
	writeDictRows(t, dictPath, rows, perGroup)
	var plain []plainRow
	var two []twoClientRow
	for i := range 3000 {
		g := i / perGroup
		plain = append(plain, plainRow{Time: 1795917600000 + int64(i)*1000, Region: pick(regions, i, g), Model: pick(models, i, g),
			Status: pick(statuses, i, g), RequestTime: float64(i%31) / 10})
		tc := twoClientRow{Time: 1795917600000 + int64(i)*1000, Region: pick(regions, i, g), Key: pick(apps, i+3, g),
			Status: pick(statuses, i, g), RequestTime: float64(i%31) / 10}
		if i%2 == 0 {
			tc.App = new(pick(apps, i, g))
		}
		two = append(two, tc)
	}
	var derived []derivedRow
	for i := range 3000 {
		g := i / perGroup
		derived = append(derived, derivedRow{Time: 1795917600000 + int64(i)*1000, Region: pick(regions, i, g),
			Addr: fmt.Sprintf("10.1.%d.%d:80", i%7, i%3), Request: "POST " + pick(uris, i/4, g) + " HTTP/1.1",
			Status: pick(statuses, i, g), RequestTime: float64(i%31) / 10})
	}
	// More regions than a key's 8 bits give ids: the last have no key.
	type manyRow struct {
		Time        int64   `parquet:"time,timestamp(millisecond)"`
		Region      string  `parquet:"region,dict"`
		Model       string  `parquet:"model,dict"`
		Status      int32   `parquet:"status"`
		RequestTime float64 `parquet:"request_time"`
	}
	var many []manyRow
	for i := range 6000 {
		many = append(many, manyRow{Time: 1795917600000 + int64(i)*500, Region: fmt.Sprintf("r%d", (i*7)%300),
			Model: models[i%2], Status: 200, RequestTime: float64(i%31) / 10})
	}
	manyPath := filepath.Join(dir, "many.parquet")
	writeDictRows(t, manyPath, many, 1000)
	plainPath, twoPath := filepath.Join(dir, "plain.parquet"), filepath.Join(dir, "two.parquet")
	derivedPath := filepath.Join(dir, "derived.parquet")
	writeDictRows(t, plainPath, plain, perGroup)
	writeDictRows(t, twoPath, two, perGroup)
	writeDictRows(t, derivedPath, derived, perGroup)

	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	run := func(path string, workers int, hourly, off bool) []byte {
		t.Helper()
		ingest.DictKeysOff(off)
		defer ingest.DictKeysOff(false)
		accs, res, err := ingest.Run([]string{path}, ingest.Options{Workers: workers, MaxProblems: 100}, func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: m, Top: 1000, Hourly: hourly})
		})
		if err != nil || res.Records() == 0 || res.Incomplete() {
			t.Fatalf("%s: %d records, %v, %+v", path, res.Records(), err, res.Files)
		}
		return aggregate.MergeAll(accs).AppendBinary(nil)
	}
	for _, path := range []string{dictPath, plainPath, twoPath, derivedPath, manyPath} {
		for _, hourly := range []bool{false, true} {
			want := run(path, 1, hourly, true)
			for _, w := range []int{1, 2, 3} {
				if got := run(path, w, hourly, false); !bytes.Equal(got, want) {
					t.Errorf("%s, %d workers, hourly %v: the accumulator with DictKeys differs from the one without", filepath.Base(path), w, hourly)
				}
			}
		}
	}
}
