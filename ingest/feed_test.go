package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// batchSizes is a BatchSink that keeps the size of each batch, the bytes
// of uri its records hold, and a copy of each record's model,
// read while the batch is its.
type batchSizes struct {
	sizes, uris []int
	models      []string
}

func (s *batchSizes) Add(r *Record) { s.AddBatch([]Record{*r}) }

func (s *batchSizes) AddBatch(rs []Record) {
	s.sizes = append(s.sizes, len(rs))
	n := 0
	for i := range rs {
		s.models = append(s.models, string(rs[i].Text(FModel)))
		n += len(rs[i].Text(FURI))
	}
	s.uris = append(s.uris, n)
}

// TestBatchesHoldUnescapedText checks the batches a BatchSink is given:
// at most BatchSize records, every record read once and in
// order, with the text the parser unescaped for it intact though the
// lines after it were read before the batch was handed over; and, for
// lines whose unescaped text is long, batches handed over early, so
// that what the parser holds for them stays bounded (heldMax, and the
// line that passed it).
func TestBatchesHoldUnescapedText(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name   string
		repeat int // how long each line's escaped uri is
		lines  int
		short  bool // want a batch cut short before the last
	}{
		{"short.jsonl", 1, 1000, false},
		{"long.jsonl", 30_000, 40, true}, // 60 KB unescaped a line: 11 in a block
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			var want []string
			for i := range c.lines {
				model := fmt.Sprintf(`m\"%d\\`, i)
				want = append(want, fmt.Sprintf(`m"%d\`, i))
				fmt.Fprintf(&b, `{"time":"2026-11-29T10:00:%02dZ","model":"%s","request_time":0.5,"uri":"/%s"}`+"\n",
					i%60, model, strings.Repeat(`x\"`, c.repeat))
			}
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			sinks, _, err := Run([]string{path}, Options{Workers: 1, Location: time.UTC}, func() *batchSizes { return &batchSizes{} })
			if err != nil {
				t.Fatal(err)
			}
			s := sinks[0]
			if strings.Join(s.models, "|") != strings.Join(want, "|") {
				t.Fatalf("models read %q..., want %q...", s.models[:min(3, len(s.models))], want[:3])
			}
			cut := false
			for i, n := range s.sizes {
				if n < 1 || n > BatchSize {
					t.Fatalf("batch %d of %d records, want 1 to %d", i, n, BatchSize)
				}
				cut = cut || i < len(s.sizes)-1 && n < BatchSize
			}
			if cut != c.short {
				t.Errorf("batches %v: cut short %v, want %v", s.sizes, cut, c.short)
			}
			for i, n := range s.uris {
				if n > heldMax+2*c.repeat {
					t.Errorf("batch %d of %d records holds %d bytes of uri, over %d", i, s.sizes[i], n, heldMax+2*c.repeat)
				}
			}
		})
	}
}
