package ingest

import (
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// A data lake's logs are often stored partitioned as Hive lays them out
// (Spark's partitionBy, DuckDB's COPY … PARTITION_BY, Athena, Firehose):
// a directory per value, named key=value, whose files do not hold the
// column: logs/region=ap-beijing/data_0.parquet. A record of such a file
// takes the value of each key loganalyze knows (region, model, status,
// …) from its directories when it does not carry the field itself, as
// DuckDB's hive_partitioning reads them; a key loganalyze does not know
// (year=2026, dt=…) is nothing to it.

// partConst is a field a file's records take from its directories.
type partConst struct {
	field Field
	put   putter
	val   []byte
}

// hivePartitions returns the key=value names of path's directories, in
// order, their values unescaped as Hive escapes them (%2F); Hive's name
// of a null value, __HIVE_DEFAULT_PARTITION__, is none.
func hivePartitions(path string) [][2]string {
	if path == "-" {
		return nil
	}
	var out [][2]string
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		k, v, ok := strings.Cut(dir, "=")
		if !ok || k == "" || v == "" || strings.ContainsAny(k, " =") || v == "__HIVE_DEFAULT_PARTITION__" {
			continue
		}
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

// partConsts returns the fields the file's records take from its
// directories (hivePartitions): the keys its schema binds to a field,
// each field once (the innermost directory wins), times left out (a
// date of a directory is no request's time).
func (fs *fileState) partConsts() []partConst {
	fs.partsOnce.Do(func() {
		parts := hivePartitions(fs.path)
		var taken [NumFields]bool
		for i := len(parts) - 1; i >= 0; i-- {
			bs := fs.cfg.schema.LookupString(parts[i][0])
			if len(bs) != 1 || taken[bs[0].Field] || fields[bs[0].Field].kind == KindTime {
				continue
			}
			taken[bs[0].Field] = true
			fs.parts = append(fs.parts, partConst{field: bs[0].Field, put: newPutters([]Bindings{bs})[0], val: []byte(parts[i][1])})
		}
	})
	return fs.parts
}

// addParts sets the fields r takes from its file's directories that it
// does not carry itself (Finish).
func (r *Record) addParts() {
	for i := range r.parts {
		if p := &r.parts[i]; !r.Has(p.field) {
			p.put.set(r, p.val, time.UTC, nil)
		}
	}
}
