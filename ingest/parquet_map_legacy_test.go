package ingest_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"loganalyze/ingest"
)

// legacyMapLayouts are the map layouts of files written before the MAP
// logical type (apache/parquet-format LogicalTypes.md, "Maps",
// "Backward-compatibility rules"): each rewrites the schema of
// dbxMapParquet's request_metadata, given its elements (the map's group,
// its repeated group, the key and the value), as an old writer names
// and annotates them, with converted types alone.
var legacyMapLayouts = []struct {
	name   string
	layout func(m, kv, k, v *format.SchemaElement)
}{
	// parquet-mr's ConversionPatterns.mapType, as Hive and Spark 1.x
	// wrote it: the repeated group named "map", annotated MAP_KEY_VALUE.
	{"map (MAP) of map (MAP_KEY_VALUE)", func(m, kv, k, v *format.SchemaElement) {
		annotate(m, deprecated.Map)
		kv.Name = "map"
		annotate(kv, deprecated.MapKeyValue)
		annotate(k, deprecated.UTF8)
		annotate(v, deprecated.UTF8)
	}},
	// The spec's second example: MAP_KEY_VALUE in place of MAP, on a
	// group that no MAP group holds.
	{"map (MAP_KEY_VALUE) of map", func(m, kv, k, v *format.SchemaElement) {
		annotate(m, deprecated.MapKeyValue)
		kv.Name = "map"
		kv.ConvertedType, kv.LogicalType = thrift.Null[deprecated.ConvertedType]{}, format.LogicalType{}
		annotate(k, deprecated.UTF8)
		annotate(v, deprecated.UTF8)
	}},
	// The spec's first example: the key and value named otherwise,
	// taken by their place.
	{"map (MAP) of map {str, num}", func(m, kv, k, v *format.SchemaElement) {
		annotate(m, deprecated.Map)
		kv.Name, k.Name, v.Name = "map", "str", "num"
		kv.ConvertedType, kv.LogicalType = thrift.Null[deprecated.ConvertedType]{}, format.LogicalType{}
		annotate(k, deprecated.UTF8)
		annotate(v, deprecated.UTF8)
	}},
}

// annotate gives e converted type ct and no logical type, as a writer
// before the logical types did.
func annotate(e *format.SchemaElement, ct deprecated.ConvertedType) {
	e.ConvertedType, e.LogicalType = thrift.New(ct), format.LogicalType{}
}

// relayoutMap rewrites the footer of file, a Parquet file whose schema
// has a map group named name (at any depth), by layout: its schema's elements and its
// column chunks' paths.
func relayoutMap(tb testing.TB, file []byte, name string, layout func(m, kv, k, v *format.SchemaElement)) []byte {
	tb.Helper()
	n := len(file)
	size := int(binary.LittleEndian.Uint32(file[n-8:]))
	var meta format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), file[n-8-size:n-8], &meta); err != nil {
		tb.Fatal(err)
	}
	i := slices.IndexFunc(meta.Schema, func(e format.SchemaElement) bool { return e.Name == name })
	if i < 0 || i+3 >= len(meta.Schema) {
		tb.Fatalf("no map %q in the schema", name)
	}
	s := meta.Schema
	old := []string{s[i+1].Name, s[i+2].Name, s[i+3].Name}
	layout(&s[i], &s[i+1], &s[i+2], &s[i+3])
	for g := range meta.RowGroups {
		for c := range meta.RowGroups[g].Columns {
			md := &meta.RowGroups[g].Columns[c].MetaData
			p := md.PathInSchema
			if k := len(p) - 3; k >= 0 && p[k] == name && p[k+1] == old[0] {
				leaf := s[i+2].Name
				if p[k+2] == old[2] {
					leaf = s[i+3].Name
				}
				md.PathInSchema = append(slices.Clip(p[:k+1]), s[i+1].Name, leaf)
			}
		}
	}
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &meta)
	if err != nil {
		tb.Fatal(err)
	}
	out := slices.Clip(file[:n-8-size])
	out = append(out, b...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(b)))
	return append(out, "PAR1"...)
}

// TestParquetLegacyMapLayouts is TestDatabricksMapEntries for the map
// layouts of old writers: each record's model is the value of its
// request_metadata's last model_name entry, whatever the layout.
func TestParquetLegacyMapLayouts(t *testing.T) {
	rows := mapRows(100)
	for _, l := range legacyMapLayouts {
		for _, dict := range []bool{false, true} {
			name := fmt.Sprintf("%s, dictionary %v", l.name, dict)
			path := filepath.Join(t.TempDir(), "inference.parquet")
			if err := os.WriteFile(path, relayoutMap(t, dbxMapParquet(t, rows, dict), "request_metadata", l.layout), 0o644); err != nil {
				t.Fatal(err)
			}
			got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
			if f := res.Files[0]; f.Source != "databricks" || f.Incomplete || len(got) != len(rows) {
				t.Fatalf("%s: %d records of %d, %+v", name, len(got), len(rows), f)
			}
			checkMapModels(t, name, got, rows)
		}
	}
}

// TestParquetLegacyMapInStruct is TestParquetMapInStruct for a map of
// each old layout within a nullable struct (--map model=meta.tags.model):
// absent where the struct or the map is null.
func TestParquetLegacyMapInStruct(t *testing.T) {
	schema, err := ingest.NewSchema([]string{"model=meta.tags.model"})
	if err != nil {
		t.Fatal(err)
	}
	file, want := structMapParquet(t)
	for _, l := range legacyMapLayouts {
		path := filepath.Join(t.TempDir(), "nested.parquet")
		if err := os.WriteFile(path, relayoutMap(t, file, "tags", l.layout), 0o644); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC, Schema: schema})
		if f := res.Files[0]; f.Incomplete || len(got) != len(want) {
			t.Fatalf("%s: %d records of %d, %+v", l.name, len(got), len(want), f)
		}
		for i, m := range want {
			if g := got[i]; g.model != m || g.hasModel != (m != "") {
				t.Errorf("%s: record %d has model %q (%v), want %q", l.name, i, g.model, g.hasModel, m)
			}
		}
	}
}
