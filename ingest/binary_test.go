package ingest_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loganalyze/ingest"
)

// A file of binary content is not called a text log in a format of its
// own: its reason says it is binary. Text in another encoding, which no
// known format matches, is still a text log whose log_format must be
// given.
func TestBinaryNamed(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 8192)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	// Random bytes whose first line holds tabs, or commas, as a table's
	// header would.
	tabbed := append([]byte("\x01\x9f\t\xfe\x02\t\x88\t\x00\n"), random[:512]...)
	commas := append([]byte("\x01\x9f,\xfe\x02,\x88,\x00\n"), random[:512]...)
	files := map[string][]byte{
		"random.bin": random,
		"tabbed.bin": tabbed,
		"commas.bin": commas,
		"x.png":      append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), random[:512]...),
		"gbk.txt":    []byte("GET \xb2\xe2\xca\xd4 some text in GBK\nPOST \xb2\xe2 more\n"),
	}
	var paths []string
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	_, res, err := ingest.Run(paths, ingest.Options{Workers: 2}, func() *countSink { return &countSink{} })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != len(files) {
		t.Fatalf("%d files in the result, want %d", len(res.Files), len(files))
	}
	for _, f := range res.Files {
		binary := strings.Contains(f.Reason, "binary content")
		want := filepath.Base(f.Path) != "gbk.txt"
		if f.Records != 0 || f.Reason == "" || binary != want {
			t.Errorf("%s: %d records, reason %q; want none, binary named %v", filepath.Base(f.Path), f.Records, f.Reason, want)
		}
		if !want && !strings.Contains(f.Reason, "log_format must be given") {
			t.Errorf("%s: reason %q does not ask for its log_format", filepath.Base(f.Path), f.Reason)
		}
	}
}
