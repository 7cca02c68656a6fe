package ingest_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// limitedAllocator refuses allocations over a limit, so that the test's
// own reader survives crafted sizes.
type limitedAllocator struct {
	limit int
	memory.GoAllocator
}

func (m *limitedAllocator) Allocate(size int) []byte {
	if size > m.limit {
		panic("allocation over the limit")
	}
	return m.GoAllocator.Allocate(size)
}

func (m *limitedAllocator) Reallocate(size int, b []byte) []byte {
	if size > m.limit {
		panic("allocation over the limit")
	}
	return m.GoAllocator.Reallocate(size, b)
}

// arrowRows counts an Arrow IPC file's or stream's rows with the ipc
// package's readers, false when it cannot read them all.
func arrowRows(data []byte) (n int64, ok bool) {
	if len(data) == 0 {
		return 0, true // no rows: the file is reported empty, not damaged
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	mem := ipc.WithAllocator(&limitedAllocator{limit: 16*len(data) + 16<<20})
	if bytes.HasPrefix(data, []byte("ARROW1")) {
		fr, err := ipc.NewFileReader(bytes.NewReader(data), mem)
		if err != nil {
			return 0, false
		}
		defer fr.Close()
		for i := range fr.NumRecords() {
			rec, err := fr.Record(i)
			if err != nil {
				return n, false
			}
			n += rec.NumRows()
		}
		return n, true
	}
	rd, err := ipc.NewReader(bytes.NewReader(data), mem)
	if err != nil {
		return 0, false
	}
	defer rd.Release()
	for rd.Next() {
		n += rd.Record().NumRows()
	}
	err = rd.Err()
	return n, err == nil || errors.Is(err, io.EOF)
}

func FuzzArrow(f *testing.F) {
	fuzzSeeds(f, "tokenhub-sample.arrow", func(b *bytes.Buffer, reqs []gen.Request) error {
		_, err := gen.WriteArrow(b, reqs, gen.WriteOptions{BadEvery: 7})
		return err
	})
	fuzzSeeds(f, "tokenhub-sample.arrow", func(b *bytes.Buffer, reqs []gen.Request) error {
		_, err := gen.WriteArrowStream(b, reqs, gen.WriteOptions{BadEvery: 7})
		return err
	})
	// A struct column, null in some rows, in two batches.
	rec := caddyArrowRecord(memory.NewGoAllocator(), caddyPQRows(40))
	first, second := rec.NewSlice(0, 15), rec.NewSlice(15, 40)
	f.Add(arrowStream(f, first, second))
	first.Release()
	second.Release()
	rec.Release()
	// A Databricks table's request_metadata, a map whose model_name is
	// read, in two batches.
	dbx := dbxMapArrow(memory.NewGoAllocator(), mapRows(30))
	first, second = dbx.NewSlice(0, 11), dbx.NewSlice(11, 30)
	f.Add(arrowStream(f, first, second))
	first.Release()
	second.Release()
	dbx.Release()
	// Date32 days, string views, decimal128 and durations.
	more, _ := moreTypesRecord(memory.NewGoAllocator())
	f.Add(arrowStream(f, more))
	more.Release()
	f.Add([]byte{}) // an empty file given as Arrow
	f.Fuzz(func(t *testing.T, data []byte) {
		res := readBytes(t, data, ingest.Arrow)
		checkAccounted(t, res, func() (int64, bool) { return arrowRows(data) })
	})
}
