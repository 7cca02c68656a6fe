package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes a report rendered by render to path (SPEC §7). A
// regular file (or a new one) is written atomically: a temporary file in
// the same directory, then a rename, so a reader never sees half a
// report. Anything else (/dev/null, a pipe) is written directly, never
// replaced.
func WriteFile(path string, render func(io.Writer) error) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
		}
		if err := render(f); err != nil {
			f.Close()
			return fmt.Errorf("cannot write %q: %w", path, err)
		}
		return f.Close()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
	}
	w := bufio.NewWriter(tmp)
	if err := render(w); err != nil {
		return fail(err)
	}
	if err := w.Flush(); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
	}
	return nil
}

func unwrap(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
