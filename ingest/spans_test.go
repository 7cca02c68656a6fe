package ingest_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestFlatSpansInMicroseconds: Jaeger's and Zipkin's spans one a line
// (jq '.data[].spans[]' of Jaeger's answer, Zipkin's spans) are read as
// spans, not as records of SPEC §3's generic names, whose duration is
// ms: each server span a request of its duration in µs, its client and
// local children passed over. Read as ms, a gateway's spans are
// requests of minutes, whose children pull the median under the 1000 s
// that tells a duration written in a smaller unit.
func TestFlatSpansInMicroseconds(t *testing.T) {
	var zipkin []map[string]any
	b, err := os.ReadFile(filepath.Join("testdata", "sources", "zipkin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &zipkin); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range zipkin {
		l, _ := json.Marshal(s)
		lines = append(lines, string(l))
	}
	files := map[string]string{
		filepath.Join("testdata", "sources", "jaeger.jsonl"):         "jaeger",
		writeTemp(t, "zipkin.jsonl", strings.Join(lines, "\n")+"\n"): "zipkin",
	}
	for path, src := range files {
		// What the spans say, decoded by encoding/json: each span's
		// duration (µs), and whether it is a server's.
		var all, servers []float64
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var s struct {
				Duration *float64
				Kind     string
				Tags     any
			}
			if err := json.Unmarshal([]byte(l), &s); err != nil {
				t.Fatal(err)
			}
			if s.Duration == nil {
				continue
			}
			all = append(all, *s.Duration)
			tags, _ := json.Marshal(s.Tags)
			if (s.Kind == "SERVER" || strings.Contains(string(tags), `"value":"server"`)) && strings.Contains(string(tags), "method") {
				servers = append(servers, *s.Duration/1e6)
			}
		}
		slices.Sort(all)
		if median := all[len(all)/2] / 1000; median >= 1000 {
			t.Fatalf("%s: the spans' median read as ms is %g s: the guard of implausible durations would tell it", path, median)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if res.Files[0].Source != src || res.Files[0].Format != ingest.JSONL {
			t.Fatalf("%s read as %s of %q, want JSON lines of %q", path, res.Files[0].Format, res.Files[0].Source, src)
		}
		var rts []float64
		for _, r := range got {
			if !math.IsNaN(r.rt) {
				rts = append(rts, r.rt)
			}
		}
		slices.Sort(rts)
		slices.Sort(servers)
		if !slices.Equal(rts, servers) {
			t.Errorf("%s: request times %v s, want the server spans' %v", path, rts, servers)
		}
	}
}
