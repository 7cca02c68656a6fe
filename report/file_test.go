package report

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFile: a file is replaced whole and nothing is left beside it;
// a failed render leaves the old file; /dev/null is written, not
// replaced; an unwritable target is an error naming it.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := WriteFile(path, text("new")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, func(w io.Writer) error { return errors.New("render failed") }); err == nil || !strings.Contains(err.Error(), "render failed") {
		t.Errorf("failed render: %v", err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "new" {
		t.Errorf("file holds %q, %v; want new", b, err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v", st.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := WriteFile(os.DevNull, text("x")); err != nil {
		t.Errorf("%s: %v", os.DevNull, err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Errorf("%s was replaced", os.DevNull)
	}
	missing := filepath.Join(dir, "missing", "r.json")
	if err := WriteFile(missing, text("x")); err == nil || !strings.HasPrefix(err.Error(), `cannot write "`+missing+`": `) {
		t.Errorf("unwritable: %v", err)
	}
}
