package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeText renders s.
func writeText(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestWriteFile: a file is replaced whole, keeping its mode, and nothing
// is left beside it; a failed render leaves the old file; /dev/null is
// written, not replaced; an unwritable target is an error naming it.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, writeText("new")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, func(w io.Writer) error { return errors.New("render failed") }); err == nil || !strings.Contains(err.Error(), "render failed") {
		t.Errorf("failed render: %v", err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "new" {
		t.Errorf("file holds %q, %v; want new", b, err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want -rw-------", st.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := WriteFile(os.DevNull, writeText("x")); err != nil {
		t.Errorf("%s: %v", os.DevNull, err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Errorf("%s was replaced", os.DevNull)
	}
	missing := filepath.Join(dir, "missing", "r.json")
	if err := WriteFile(missing, writeText("x")); err == nil || !strings.HasPrefix(err.Error(), `cannot write "`+missing+`": `) {
		t.Errorf("unwritable: %v", err)
	}
}

// TestWriteFileKeepsMode: a replaced file keeps its permission bits; a
// new file is 0644 whatever the umask lets through.
func TestWriteFileKeepsMode(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []os.FileMode{0o640, 0o600, 0o664} {
		path := filepath.Join(dir, fmt.Sprintf("r%o.prom", mode))
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		if err := WriteFile(path, writeText("new")); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(path); err != nil || st.Mode() != mode {
			t.Errorf("%s: mode %v, %v; want %v", path, st.Mode(), err, mode)
		}
		if b, _ := os.ReadFile(path); string(b) != "new" {
			t.Errorf("%s holds %q, want new", path, b)
		}
	}
	path := filepath.Join(dir, "new.prom")
	if err := WriteFile(path, writeText("new")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode() != 0o644 {
		t.Errorf("new file: mode %v, %v; want -rw-r--r--", st.Mode(), err)
	}
}

// TestWriteFileThroughSymlink: a report path that is a symbolic link
// (relative, absolute, a chain, or to a file not made yet) has the file
// it names replaced, in that file's directory, keeping its mode, and
// stays the same link.
func TestWriteFileThroughSymlink(t *testing.T) {
	root := t.TempDir()
	www, data := filepath.Join(root, "www"), filepath.Join(root, "data")
	for _, d := range []string{www, data} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	type link struct{ name, to string } // in www
	for _, c := range []struct {
		name   string
		links  []link // the report is written to the first
		target string // in data
		exists bool
	}{
		{"relative", []link{{"a.json", "../data/a.json"}}, "a.json", true},
		{"absolute", []link{{"b.json", filepath.Join(data, "b.json")}}, "b.json", true},
		{"chain", []link{{"c1.json", "c2.json"}, {"c2.json", "../data/c.json"}}, "c.json", true},
		{"dangling", []link{{"d.json", "../data/d.json"}}, "d.json", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := filepath.Join(data, c.target)
			wantMode := os.FileMode(0o644)
			if c.exists {
				wantMode = 0o640
				if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(target, wantMode); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range c.links {
				if err := os.Symlink(l.to, filepath.Join(www, l.name)); err != nil {
					t.Fatal(err)
				}
			}
			want := "new " + c.name
			if err := WriteFile(filepath.Join(www, c.links[0].name), writeText(want)); err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(target); err != nil || string(b) != want {
				t.Errorf("target holds %q, %v; want %q", b, err, want)
			}
			if st, err := os.Stat(target); err != nil || st.Mode() != wantMode {
				t.Errorf("target mode %v, %v; want %v", st.Mode(), err, wantMode)
			}
			for _, l := range c.links {
				st, err := os.Lstat(filepath.Join(www, l.name))
				if err != nil || st.Mode()&os.ModeSymlink == 0 {
					t.Errorf("%s is no longer a link: %v, %v", l.name, st.Mode(), err)
					continue
				}
				if got, _ := os.Readlink(filepath.Join(www, l.name)); got != l.to {
					t.Errorf("%s points to %q, want %q", l.name, got, l.to)
				}
			}
		})
	}
	for _, d := range []string{www, data} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp") {
				t.Errorf("temporary file %s left in %s", e.Name(), d)
			}
		}
	}
}

// TestWriteFileSymlinkLoop: links that name each other are an error
// naming the path, and no file is made.
func TestWriteFileSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.Symlink("b", a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", b); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(a, writeText("x")); err == nil || !strings.HasPrefix(err.Error(), `cannot write "`+a+`": `) {
		t.Errorf("loop: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files made beside the links: %v", entries)
	}
}

// TestWriteFileStdStreams: the process's standard output named as a
// path is written where the stream is, as "-" is: after what a shell
// wrote before it to the same file, which is not replaced; a pipe named
// by /proc/self/fd/N is written, though the kernel's link names no path.
func TestWriteFileStdStreams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "comb.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("HEADER\n"); err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = f
	defer func() { os.Stdout = stdout }()
	for _, name := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		if err := WriteFile(name, writeText(name+"\n")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	os.Stdout = stdout
	if _, err := f.WriteString("FOOTER\n"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "HEADER\n/dev/stdout\n/dev/fd/1\n/proc/self/fd/1\nFOOTER\n" {
		t.Errorf("file holds %q, %v", b, err)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := make(chan string)
	go func() { b, _ := io.ReadAll(r); got <- string(b) }()
	err = WriteFile(fmt.Sprintf("/proc/self/fd/%d", w.Fd()), writeText("through the pipe"))
	w.Close()
	if s := <-got; err != nil || s != "through the pipe" {
		t.Errorf("pipe: read %q, %v", s, err)
	}
}
