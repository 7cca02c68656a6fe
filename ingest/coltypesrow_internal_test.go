package ingest

import (
	"bytes"
	"testing"
)

// FuzzColumnTypesRow: any text under a header of any width is told a
// types row or not without a panic, and one told so is a whole line of
// n cells or more bytes: never an empty one.
func FuzzColumnTypesRow(f *testing.F) {
	f.Add([]byte("DateTime64(3)\tNullable(Float64)\tUInt16\n2026"), byte('\t'), 3)
	f.Add([]byte(`"Decimal(9, 2)",Map(String, UInt64),Int8`+"\r\n"), byte(','), 3)
	f.Add([]byte("String,Date\n"), byte(','), 2)
	f.Add([]byte("Nullable((\n"), byte(','), 1)
	f.Add([]byte(")Int8(\n"), byte(','), 1)
	f.Fuzz(func(t *testing.T, b []byte, sep byte, n int) {
		if columnTypesRow(b, sep, n) {
			i := bytes.IndexByte(b, '\n')
			if i <= 0 || n <= 0 || i < n {
				t.Fatalf("%q under %d columns cut by %q: a types row", b, n, sep)
			}
		}
	})
}
