package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
)

// A MAP column (Spark's, Delta's and DuckDB's MAP<STRING, …>: Databricks'
// request_metadata of model_name, endpoint_name and model_version) is
// read for the keys the schema binds below it, "<map>.<key>" as a JSON
// log's nested object is: in each row, the value of the map's entry of
// that key, absent when the map is null, empty or lacks it. Parquet
// writes a map as a repeated group of a key and a value
// (apache/parquet-format LogicalTypes.md, "Maps"):
//
//	<map-repetition> group <name> (MAP) {
//	  repeated group key_value {
//	    required <key-type> key;
//	    <value-repetition> <value-type> value;
//	  }
//	}
//
// that is two leaf columns, the keys and the values, each with a level
// per entry: repetition level 0 starts a row, 1 goes on with its map; a
// key's definition level is its column's most where the row has an
// entry there, less for a null or empty map (one level, no entry); a
// value's is its column's most where the entry's value is not null. The
// two columns are read together, entry by entry. Old files (parquet-mr
// before the MAP logical type: Hive's, Spark 1.x's) annotate with
// converted types alone, the repeated group MAP_KEY_VALUE and named
// "map", its fields otherwise; they are taken by their place, and a group
// annotated MAP_KEY_VALUE in place of MAP is a map, as the spec's
// "Backward-compatibility rules" of "Maps" say, and Spark reads them
// (apache/spark ParquetSchemaConverter.scala, "case MAP | MAP_KEY_VALUE").
// Of two entries of one key, the last
// one's value is the map's ("the final value for that key must be the
// last value").

// pqMapKey is the key of a MAP column a pqSpec reads the value of.
type pqMapKey struct {
	key  []byte // lower case: matched in any case, as a JSON object's names are
	keys pqSpec // the map's keys' column: text, maxDef an entry's level
}

// pqMapKeys reads a map's keys beside its values' pqColumn: the two
// columns' repetition levels of their pages, and which entries of the
// keys' dictionary are the key.
type pqMapKeys struct {
	pqColumn
	want      []byte // the key (pqMapKey.key)
	rep, vrep []byte // the keys' page's and the values' page's
	match     []bool // of each entry of dict, whether it is the key
	of        parquet.Dictionary
}

// appendMapSpecs appends to specs a column for each key the schema binds
// below a MAP column of ps: a top-level one, or one within structs, not
// within a list. A file of flat columns, or whose groups the schema
// binds no name under (Schema.bindsBelow), costs a look at each top-level
// column.
func appendMapSpecs(specs []pqSpec, ps *parquet.Schema, meta *format.FileMetaData, sc *Schema) []pqSpec {
	for _, f := range ps.Fields() {
		if !f.Leaf() && !f.Repeated() && sc.bindsBelow(f.Name()) {
			specs = appendMapsBelow(specs, ps, meta, sc, []string{f.Name()}, f)
		}
	}
	return specs
}

// appendMapsBelow appends the columns of the keys bound below group n
// at path, a map or a struct that may hold maps.
func appendMapsBelow(specs []pqSpec, ps *parquet.Schema, meta *format.FileMetaData, sc *Schema, path []string, n parquet.Node) []pqSpec {
	if isMap(n, meta, path) {
		return appendMapKeys(specs, ps, sc, path, n)
	}
	for _, f := range n.Fields() {
		p := append(path[:len(path):len(path)], f.Name())
		if !f.Leaf() && !f.Repeated() && sc.bindsBelow(strings.Join(p, ".")) {
			specs = appendMapsBelow(specs, ps, meta, sc, p, f)
		}
	}
	return specs
}

// isMap reports whether group n at path is a map: annotated MAP, by its
// logical type or by an old writer's converted type alone (which
// parquet-go reads as the logical type), or annotated MAP_KEY_VALUE in
// MAP's place. parquet-go keeps no converted type of a group but MAP and
// LIST, so that one is looked up in the file's schema. The spec takes
// MAP_KEY_VALUE for MAP on a group no MAP group holds: the walk stops at
// a map, so none does.
func isMap(n parquet.Node, meta *format.FileMetaData, path []string) bool {
	if lt := n.Type().LogicalType(); lt != nil && isLogical[*format.MapType](lt) {
		return true
	}
	e := schemaElement(meta, path)
	return e != nil && e.ConvertedType.Valid && e.ConvertedType.V == deprecated.MapKeyValue
}

// schemaElement returns the element of the file's schema at path, a
// name per level below the root; nil when there is none. The schema is
// its tree's elements depth first, each group's children after it.
func schemaElement(meta *format.FileMetaData, path []string) *format.SchemaElement {
	s := meta.Schema
	if len(s) == 0 {
		return nil
	}
	at := 0 // the group whose children are searched
	for _, name := range path {
		j, found := at+1, -1
		for c := int32(0); c < s[at].NumChildren.V && j < len(s); c++ {
			if s[j].Name == name {
				found = j
				break
			}
			j = pastElement(s, j)
		}
		if found < 0 {
			return nil
		}
		at = found
	}
	return &s[at]
}

// pastElement returns the index of the element after the subtree of
// element j.
func pastElement(s []format.SchemaElement, j int) int {
	for left := 1; left > 0 && j < len(s); j++ {
		left += int(max(s[j].NumChildren.V, 0)) - 1
	}
	return j
}

// appendMapKeys appends the columns of the keys the schema binds below
// map n at path, when it is a map of text keys to text or numbers.
func appendMapKeys(specs []pqSpec, ps *parquet.Schema, sc *Schema, path []string, n parquet.Node) []pqSpec {
	kv := n.Fields()
	if len(kv) != 1 || kv[0].Leaf() || !kv[0].Repeated() {
		return specs
	}
	pair := kv[0].Fields()
	if len(pair) != 2 || !pair[0].Leaf() || !pair[0].Required() || !pair[1].Leaf() || pair[1].Repeated() {
		return specs
	}
	group := append(path[:len(path):len(path)], kv[0].Name())
	key, ok := ps.Lookup(append(group, pair[0].Name())...)
	if !ok || key.MaxRepetitionLevel != 1 || key.MaxDefinitionLevel > math.MaxUint8 || key.Node.Type().Kind() != parquet.ByteArray {
		return specs
	}
	val, ok := ps.Lookup(append(group, pair[1].Name())...)
	if !ok || val.MaxRepetitionLevel != 1 || val.MaxDefinitionLevel > math.MaxUint8 {
		return specs
	}
	kind := mapValueKind(val.Node.Type())
	if kind == 0 {
		return specs
	}
	name := strings.Join(path, ".")
	for _, k := range sc.keysUnder(name) {
		bs := sc.LookupString(name + "." + k)
		if len(bs) == 0 {
			continue
		}
		sp := pqSpec{name: name + "." + k, chunk: val.ColumnIndex, bs: bs, kind: kind, maxDef: byte(val.MaxDefinitionLevel), text: textOnly(bs),
			mapKey: &pqMapKey{key: []byte(k), keys: pqSpec{name: name, chunk: key.ColumnIndex, kind: vkBytes, maxDef: byte(key.MaxDefinitionLevel)}}}
		sp.plainOf(bs)
		specs = append(specs, sp)
	}
	return specs
}

// mapValueKind is how a map's values of type t are read: text, or plain
// integers and floats; 0 for others (a decimal, a time, a date), not
// read.
func mapValueKind(t parquet.Type) valueKind {
	lt := t.LogicalType()
	switch t.Kind() {
	case parquet.ByteArray:
		if lt == nil || isLogical[*format.StringType](lt) {
			return vkBytes
		}
	case parquet.Int32, parquet.Int64:
		if lt != nil && !isLogical[*format.IntType](lt) {
			return 0
		}
		if _, dec := decimalOf(t); dec {
			return 0
		}
		if ns, _ := timestampUnit(t); ns != 0 {
			return 0
		}
		if t.Kind() == parquet.Int32 {
			return vkInt32
		}
		return vkInt64
	case parquet.Float:
		return vkFloat
	case parquet.Double:
		return vkDouble
	}
	return 0
}

// bindsBelow is IsPrefix for a string name.
func (s *Schema) bindsBelow(name string) bool {
	_, ok := s.prefixes[strings.ToLower(name)]
	return ok
}

// keysUnder returns what follows "prefix." in the names the schema binds
// below prefix, a MAP column's keys, sorted.
func (s *Schema) keysUnder(prefix string) []string {
	p := strings.ToLower(prefix) + "."
	var keys []string
	for n, e := range s.byName {
		if k, ok := strings.CutPrefix(n, p); ok && k != "" && !e.ignored {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

var (
	errMapLevels = errors.New("a map's keys and values disagree in their levels")
	errMapStart  = errors.New("a row begins with a repeated map entry")
)

// fillMap sets the next n rows of a map's values column, the value of
// its key in each, into the batch's column col, reading the keys' column
// beside it: entry by entry, the two columns' levels in step. Levels
// that disagree, or a page short of the values its levels promise, are
// an error.
func (c *pqColumn) fillMap(b *cellBatch, col, n int) error {
	k := c.keys
	cells, nulls := b.column(col)
	entry, full := k.spec.maxDef, c.spec.maxDef // an entry's level, a value's
	for j := range n {
		var x uint64
		found := false
		for first := true; ; first = false {
			kOK, err := k.level(&k.rep)
			if err != nil {
				return err
			}
			if kOK && k.idx != nil && k.dict != k.of {
				k.matchDict()
			}
			vOK, err := c.level(&k.vrep)
			if err != nil {
				return err
			}
			if !kOK || !vOK {
				switch {
				case kOK != vOK:
					return errMapLevels
				case first:
					return errShortColumn
				}
				break // the chunk's end: the last row's
			}
			r := k.rep[k.pos]
			if r != k.vrep[c.pos] {
				return errMapLevels
			}
			if r == 0 && !first {
				break // the next row's
			}
			if r != 0 && first {
				return errMapStart
			}
			kd, vd := k.def[k.pos], c.def[c.pos]
			k.pos++
			c.pos++
			if kd != entry {
				// A null or empty map: the row's only level.
				if kd > entry || vd >= entry || !first {
					return errMapLevels
				}
				continue
			}
			if vd < entry || vd > full {
				return errMapLevels
			}
			is, err := k.isKey()
			if err != nil {
				return err
			}
			if vd != full { // a null value
				if is {
					found = false
				}
				continue
			}
			v, err := c.mapValue(b, col, is)
			if err != nil {
				return err
			}
			if is {
				x, found = v, true
			}
		}
		if found {
			cells[j] = x
		} else {
			nulls[j], b.nullIn[col] = true, true
		}
	}
	return nil
}

// level makes sure the column has a level to read, from its next page
// when its page is read, that page's repetition levels in *rep; false
// at the end of its pages.
func (c *pqColumn) level(rep *[]byte) (bool, error) {
	if c.page != nil && c.pos < c.rows {
		return true, nil
	}
	if err := c.nextPage(); err != nil {
		if err == errShortColumn {
			return false, nil
		}
		return false, err
	}
	*rep = c.page.RepetitionLevels()
	if len(*rep) < c.rows {
		return false, fmt.Errorf("page has %d repetition levels for %d values", len(*rep), c.rows)
	}
	return true, nil
}

// matchDict marks the entries of the keys' dictionary that are the key.
func (k *pqMapKeys) matchDict() {
	k.of = k.dict
	k.match = k.match[:0]
	for _, s := range k.dvals.strs {
		k.match = append(k.match, bytes.EqualFold(s, k.want))
	}
}

// isKey reads the next key and reports whether it is the one sought.
func (k *pqMapKeys) isKey() (bool, error) {
	i := k.vi
	k.vi++
	if k.idx != nil {
		if i >= len(k.idx) {
			return false, errShortColumn
		}
		d := k.idx[i]
		if uint32(d) >= uint32(len(k.match)) {
			return false, fmt.Errorf("dictionary index %d out of range", d)
		}
		return k.match[d], nil
	}
	if i >= k.vals.n {
		return false, errShortColumn
	}
	return bytes.EqualFold(k.vals.data[k.vals.offs[i]:k.vals.offs[i+1]], k.want), nil
}

// mapValue reads the next value of a map's values column and, when keep
// is set, returns its cell for the batch's column col: a text copied
// into the batch's arena, or the index of the dictionary's copy, or a
// number's float64 bits.
func (c *pqColumn) mapValue(b *cellBatch, col int, keep bool) (uint64, error) {
	i := c.vi
	c.vi++
	v := &c.vals
	if c.idx != nil {
		if i >= len(c.idx) {
			return 0, errShortColumn
		}
		d := c.idx[i]
		if uint32(d) >= uint32(c.dvals.n) {
			return 0, fmt.Errorf("dictionary index %d out of range", d)
		}
		v, i = &c.dvals, int(d)
	} else if i >= v.n {
		return 0, errShortColumn
	}
	if !keep {
		return 0, nil
	}
	switch c.spec.kind {
	case vkBytes:
		if v.strs != nil { // a dictionary's copy, which outlives the page
			b.dicts[col] = v.strs
			return uint64(i), nil
		}
		return textCell(b, v.data[v.offs[i]:v.offs[i+1]]), nil
	case vkInt32:
		return math.Float64bits(float64(v.i32[i])), nil
	case vkInt64:
		return math.Float64bits(float64(v.i64[i])), nil
	case vkFloat:
		return math.Float64bits(float64(v.f32[i])), nil
	default:
		return math.Float64bits(v.f64[i]), nil
	}
}
