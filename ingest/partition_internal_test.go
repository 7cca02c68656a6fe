package ingest

import (
	"slices"
	"strings"
	"testing"
)

// FuzzHivePartitions: any path gives key=value pairs of its directories
// only, each key and value non-empty, the key without '=' or a space.
func FuzzHivePartitions(f *testing.F) {
	f.Add("logs/dt=2026-11-29/region=ap-beijing/part-0.parquet")
	f.Add("region=__HIVE_DEFAULT_PARTITION__/x.jsonl")
	f.Add("model=gpt%2D4o/a=/=b/c==d/%zz=1/f")
	f.Fuzz(func(t *testing.T, path string) {
		for _, kv := range hivePartitions(path) {
			if kv[0] == "" || kv[1] == "" || strings.ContainsAny(kv[0], "= ") {
				t.Fatalf("%q: pair %q", path, kv)
			}
		}
	})
}

// TestHivePartitionNames: the directories' pairs in order, the file's
// own name not one, a value unescaped as Hive escapes it.
func TestHivePartitionNames(t *testing.T) {
	got := hivePartitions("logs/dt=2026-11-29/model=gpt%2D4o/x=/region=ap-beijing/k=v.parquet")
	want := [][2]string{{"dt", "2026-11-29"}, {"model", "gpt-4o"}, {"region", "ap-beijing"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
