package ingest_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestDocOnOneLine: each source's fixture that is one JSON document
// reads the same when it is written on one line (json.Compact, as an
// API answers): an answer's "status" ("done", "Complete") after its
// list makes no JSON line of it.
func TestDocOnOneLine(t *testing.T) {
	dir := t.TempDir()
	n := 0
	for file := range sourceFixtures {
		path := filepath.Join("testdata", "sources", file)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var one bytes.Buffer
		if !json.Valid(raw) || json.Compact(&one, raw) != nil || bytes.Equal(one.Bytes(), bytes.TrimSpace(raw)) {
			continue // JSON lines, or on one line already
		}
		n++
		compact := filepath.Join(dir, file)
		if err := os.WriteFile(compact, one.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		want, wres := encodedRun(t, path, ingest.Options{Workers: 1, Location: time.UTC})
		got, res := encodedRun(t, compact, ingest.Options{Workers: 1, Location: time.UTC})
		if f, w := res.Files[0], wres.Files[0]; f.Records != w.Records || f.Source != w.Source || f.BadLines != w.BadLines || !bytes.Equal(got, want) {
			t.Errorf("%s on one line: %d records of %q as %s, %d bad lines; want %d of %q as %s, %d, the same accumulator",
				file, f.Records, f.Source, f.Format, f.BadLines, w.Records, w.Source, w.Format, w.BadLines)
		}
	}
	if n < 10 {
		t.Fatalf("%d documents among the fixtures; want at least 10", n)
	}
}
