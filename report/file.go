package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes a report rendered by render to path (SPEC §7). A
// regular file (or a new one) is written atomically: a temporary file in
// the same directory, then a rename, so a reader never sees half a
// report. A symbolic link is followed: the file it names is the one
// replaced, in that file's directory, and the link stays. A replaced
// file keeps its permission bits; a new one is 0644. Anything else
// (/dev/null, a pipe) is written directly, never replaced.
//
// The process's own standard output and error, named as a path
// (/dev/stdout, /dev/fd/2, /proc/self/fd/1), are written as "-" is: in
// a shell's "{ …; } > file" or a pipe, at the stream's place, the file
// never replaced.
func WriteFile(path string, render func(io.Writer) error) error {
	if f := stdStream(path); f != nil {
		w := bufio.NewWriter(f)
		if err := render(w); err != nil {
			return fmt.Errorf("cannot write %q: %w", path, err)
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
		}
		return nil
	}
	// A link the kernel makes to what is no file (/proc/self/fd/N of a
	// pipe, "pipe:[…]") resolves to no path: its own stat tells.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return writeDirect(path, path, render)
	}
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		if !st.Mode().IsRegular() {
			return writeDirect(path, target, render)
		}
		mode = st.Mode().Perm()
	}
	dir, base := filepath.Split(target)
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
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
	}
	return nil
}

// stdStream returns os.Stdout or os.Stderr when path names the process's
// own, nil otherwise.
func stdStream(path string) *os.File {
	switch filepath.Clean(path) {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return os.Stdout
	case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2":
		return os.Stderr
	}
	return nil
}

// writeDirect writes to target, a file that is not a regular one, in
// place.
func writeDirect(path, target string, render func(io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
	}
	if err := render(f); err != nil {
		f.Close()
		return fmt.Errorf("cannot write %q: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write %q: %w", path, unwrap(err))
	}
	return nil
}

// maxLinks is how many symbolic links resolve follows, as Linux's
// ELOOP limit.
const maxLinks = 40

// resolve returns the file path names once its symbolic links are
// followed: path itself when it is no link, the link's target
// otherwise, which need not exist yet (a link made before the first
// report).
func resolve(path string) (string, error) {
	for range maxLinks {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			return real, nil
		}
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			// Missing, or in a directory that cannot be read: the
			// write names the error, if any.
			return path, nil
		}
		// A link to a file that does not exist (yet).
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			// Neither filepath.Join nor Dir, which clean "sub/../x" by
			// its text when sub may itself be a link.
			dir, _ := filepath.Split(path)
			link = dir + link
		}
		path = link
	}
	return "", errors.New("too many levels of symbolic links")
}

func unwrap(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
