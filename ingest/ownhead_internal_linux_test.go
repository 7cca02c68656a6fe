package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongOwnHeadMapped: the start-up lines skipOwnHead passes over are
// counted and numbered alike whether the file is read in place (mapped)
// or a block at a time, whatever the blocks' size and the workers.
func TestLongOwnHeadMapped(t *testing.T) {
	var b strings.Builder
	const own, requests = 5000, 40
	for i := range own {
		fmt.Fprintf(&b, "INFO 2025-09-05 09:%02d:%02d.%03d model_loader.py:%d] Loading shard %d of %d\n", i/60%60, i%60, i%1000, 100+i%50, i, own)
	}
	var bad []int64
	for i := range requests {
		fmt.Fprintf(&b, "INFO 2025-09-05 10:%02d:%02d.951 httptools_impl.py:481] 10.0.3.1:5980 - \"POST /v1/chat/completions HTTP/1.1\" 200\n", i/60, i%60)
		if i%10 == 3 {
			b.WriteString("\x00\x01 no line of any format's\n")
			bad = append(bad, int64(own+i+len(bad)+2))
		}
	}
	path := filepath.Join(t.TempDir(), "nim.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []mapMode{mapAlways, mapNever} {
		for _, size := range []int{4096, 64 << 10} {
			for _, workers := range []int{1, 3} {
				sinks, res, err := Run([]string{path}, Options{Workers: workers, blockSize: size, MaxProblems: 100, mapping: mode},
					func() *countSink { return &countSink{} })
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, s := range sinks {
					n += s.n
				}
				var lines []int64
				for _, p := range res.Problems {
					lines = append(lines, p.Line)
				}
				f := res.Files[0]
				if n != requests || f.PassedOver != own || fmt.Sprint(lines) != fmt.Sprint(bad) {
					t.Errorf("map %d, block %d, %d workers: %d records, %d passed over, bad lines at %v; want %d, %d, %v",
						mode, size, workers, n, f.PassedOver, lines, requests, own, bad)
				}
			}
		}
	}
}

type countSink struct{ n int }

func (s *countSink) Add(*Record) { s.n++ }
