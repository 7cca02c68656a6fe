package ingest

import (
	"bytes"
	"errors"
	"math"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// A MAP column of an Arrow file (DuckDB's, polars' and Spark's MAP<STRING,
// …>: Databricks' request_metadata of model_name, endpoint_name and
// model_version) is read as a Parquet file's is (parquet_map.go): for the
// keys the schema binds below it, "<map>.<key>", the value of the row's
// last entry of that key, matched in any case; absent when the map is
// null, empty or lacks it, or that entry's value is null. Arrow lays a
// map out as a list of entries, a struct of a key and a value
// (apache/arrow format/Schema.fbs, "Map"; docs/source/format/
// Columnar.rst, "Map Layout"):
//
//	Map<entries: Struct<key: K not null, value: V>>
//
// the row's entries between two of its offsets. Keys are text, values
// text or plain integers and floats, as a Parquet map's. A file whose
// schema binds no key below a map has no such column, and pays nothing.

// errArrowMapEntries is a map whose offsets point outside its entries.
var errArrowMapEntries = errors.New("a map's offsets point outside its entries")

// appendArrowMapKeys appends to cols a column for each key sc binds
// below map column m of type t, when its keys are text and its values
// text or numbers.
func appendArrowMapKeys(cols []arrowColumn, sc *Schema, m arrowColumn, t *arrow.MapType) []arrowColumn {
	switch t.KeyType().ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.STRING_VIEW, arrow.BINARY_VIEW:
	default:
		return cols
	}
	if !arrowMapValue(t.ItemType()) {
		return cols
	}
	for _, k := range sc.keysUnder(m.name) {
		name := m.name + "." + k
		bs := sc.LookupString(name)
		if len(bs) == 0 {
			continue
		}
		if sp := arrowSpec(name, t.ItemType(), bs); sp != nil {
			cols = append(cols, arrowColumn{index: m.index, path: m.path, name: name, spec: sp, key: k})
		}
	}
	return cols
}

// arrowMapValue reports whether a map's values of type t are read: text,
// or plain integers and floats (a decimal, a time, a duration is not, as
// in a Parquet map).
func arrowMapValue(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.STRING_VIEW, arrow.BINARY_VIEW,
		arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64, arrow.FLOAT32, arrow.FLOAT64:
		return true
	}
	return false
}

// checkArrowMap checks that a, a map bound by a key, holds its first rows
// entries within its keys and values, so that filling it cannot fail
// half-way through a record batch.
func checkArrowMap(a arrow.Array, rows int) error {
	m, ok := a.(*array.Map)
	if !ok {
		return errors.New("not a map")
	}
	entries, ok := m.ListValues().(*array.Struct)
	if !ok || entries.NumField() != 2 {
		return errors.New("a map's entries are not keys and values")
	}
	n := int64(min(entries.Field(0).Len(), entries.Field(1).Len()))
	if len(m.Offsets()) < m.Data().Offset()+rows+1 {
		return errArrowMapEntries
	}
	for i := range rows {
		if m.IsNull(i) {
			continue
		}
		start, end := m.ValueOffsets(i)
		if start < 0 || end < start || end > n {
			return errArrowMapEntries
		}
	}
	return nil
}

// fillArrowMap sets rows [off, off+n) of map m into the batch's column
// col: in each, the value of the last entry of key (lower case), matched
// in any case. checkArrowMap has checked the map's offsets.
func fillArrowMap(m *array.Map, key string, b *cellBatch, col, off, n int) {
	entries := m.ListValues().(*array.Struct)
	keys, items := entries.Field(0), entries.Field(1)
	is := mapKeyMatch(keys, key)
	value := mapValueCell(items, b)
	if value == nil { // values of another type than the schema's
		ignoreColumn(b, col, n)
		return
	}
	cells, nulls := b.column(col)
	for k := range n {
		i := off + k
		found := -1
		if !m.IsNull(i) {
			start, end := m.ValueOffsets(i)
			for j := int(start); j < int(end); j++ {
				if !keys.IsNull(j) && is(j) {
					found = j
				}
			}
		}
		if found < 0 || items.IsNull(found) {
			nulls[k], b.nullIn[col] = true, true
			continue
		}
		cells[k] = value(found)
	}
}

// mapKeyMatch returns whether the key of entry j of keys is key.
func mapKeyMatch(keys arrow.Array, key string) func(j int) bool {
	text := func(get func(int) string) func(int) bool {
		return func(j int) bool { return strings.EqualFold(get(j), key) }
	}
	bin := func(get func(int) []byte) func(int) bool {
		want := []byte(key)
		return func(j int) bool { return bytes.EqualFold(get(j), want) }
	}
	switch a := keys.(type) {
	case *array.String:
		return text(a.Value)
	case *array.LargeString:
		return text(a.Value)
	case *array.StringView:
		return text(a.Value)
	case *array.Binary:
		return bin(a.Value)
	case *array.LargeBinary:
		return bin(a.Value)
	case *array.BinaryView:
		return bin(a.Value)
	}
	return func(int) bool { return false }
}

// mapValueCell returns the cell of entry j of items: a text copied into
// the batch's arena, or a number's float64 bits.
func mapValueCell(items arrow.Array, b *cellBatch) func(j int) uint64 {
	num := func(get func(int) float64) func(int) uint64 {
		return func(j int) uint64 { return math.Float64bits(get(j)) }
	}
	switch a := items.(type) {
	case *array.String:
		return func(j int) uint64 { return textCell(b, a.Value(j)) }
	case *array.LargeString:
		return func(j int) uint64 { return textCell(b, a.Value(j)) }
	case *array.StringView:
		return func(j int) uint64 { return textCell(b, a.Value(j)) }
	case *array.Binary:
		return func(j int) uint64 { return textCell(b, a.Value(j)) }
	case *array.LargeBinary:
		return func(j int) uint64 { return textCell(b, a.Value(j)) }
	case *array.BinaryView:
		return func(j int) uint64 { return textCell(b, a.Value(j)) }
	case *array.Int8:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Int16:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Int32:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Int64:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Uint8:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Uint16:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Uint32:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Uint64:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Float32:
		return num(func(j int) float64 { return float64(a.Value(j)) })
	case *array.Float64:
		return num(a.Value)
	}
	return nil
}
