package ingest_test

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// TestHivePartitions: files stored as Hive lays them out, a directory
// per value (region=ap-beijing/), without the column, give each record
// the value of its directories, in Parquet, JSON lines and CSV; a
// record that carries the field keeps its own; Hive's null directory is
// no value; a key loganalyze does not know (dt=) is nothing.
func TestHivePartitions(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 71, N: 1500})
	want := map[string]int{}
	byRegion := map[string][]gen.Request{}
	for _, r := range reqs {
		want[r.Region]++
		region := r.Region
		r.Region = "" // the column is in the directories only
		byRegion[region] = append(byRegion[region], r)
	}
	for _, c := range []struct {
		ext   string
		write func(*testing.T, []gen.Request) []byte
	}{
		{"parquet", func(t *testing.T, rs []gen.Request) []byte {
			b, _ := encode(t, rs, gen.WriteOptions{}, gen.WriteParquet)
			return b
		}},
		{"jsonl", func(t *testing.T, rs []gen.Request) []byte {
			b, _ := encode(t, rs, gen.WriteOptions{}, gen.WriteJSONL)
			return b
		}},
		{"csv", func(t *testing.T, rs []gen.Request) []byte {
			b, _ := encode(t, rs, gen.WriteOptions{}, gen.WriteCSV)
			return b
		}},
	} {
		t.Run(c.ext, func(t *testing.T) {
			root := t.TempDir()
			for region, rs := range byRegion {
				dir := filepath.Join(root, "dt=2026-11-29", "region="+region)
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "part-0."+c.ext), c.write(t, rs), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// Hive's null: records with no region.
			null := filepath.Join(root, "dt=2026-11-29", "region=__HIVE_DEFAULT_PARTITION__")
			if err := os.MkdirAll(null, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(null, "part-0."+c.ext), c.write(t, byRegion["ap-beijing"][:10]), 0o644); err != nil {
				t.Fatal(err)
			}
			// Records that carry the field keep their own.
			own := filepath.Join(root, "dt=2026-11-29", "region=elsewhere")
			if err := os.MkdirAll(own, 0o755); err != nil {
				t.Fatal(err)
			}
			carried := append([]gen.Request(nil), byRegion["ap-beijing"][:5]...)
			for i := range carried {
				carried[i].Region = "ap-beijing"
			}
			if err := os.WriteFile(filepath.Join(own, "part-0."+c.ext), c.write(t, carried), 0o644); err != nil {
				t.Fatal(err)
			}
			rows, res := collect(t, []string{root}, ingest.Options{Workers: 2, Location: time.FixedZone("+0800", 8*3600)})
			got := map[string]int{}
			for _, r := range rows {
				got[r.region]++
			}
			wantAll := maps.Clone(want)
			wantAll[""] += 10
			wantAll["ap-beijing"] += 5
			if !maps.Equal(got, wantAll) || res.BadLines() != 0 {
				t.Errorf("regions %v, want %v; %d bad lines", got, wantAll, res.BadLines())
			}
		})
	}
}
