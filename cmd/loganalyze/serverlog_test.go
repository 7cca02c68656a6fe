package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestServerLogDirectory: loganalyze run on a directory of nginx's logs,
// access.log beside error.log as nginx writes them, exits 0 with the
// access log's requests and the error log's lines passed over: the error
// log is no file that could not be read, which would fail every hourly
// run on the directory.
func TestServerLogDirectory(t *testing.T) {
	dir := t.TempDir()
	for src, dst := range map[string]string{"nginx-combined-rt.log": "access.log", "nginx-error.log": "error.log"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "ingest", "testdata", "text", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := reportOf(t, "--tz", "UTC", "--json", "-", dir) // exit 0, or it fails
	if len(rep.Input.Files) != 2 || rep.Input.BadLines != 0 || rep.Input.Records == 0 {
		t.Fatalf("files %+v, %d records, %d bad lines", rep.Input.Files, rep.Input.Records, rep.Input.BadLines)
	}
	if f := rep.Input.Files[1]; f.Source != "nginx-error" || f.Records != 0 || f.PassedOver != 11 {
		t.Errorf("error.log: %+v, want nginx-error, its 11 lines passed over", f)
	}
}
