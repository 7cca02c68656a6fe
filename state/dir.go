package state

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"loganalyze/sketch"
)

// lockName is the lock file in the state directory; it holds the pid of
// the run that has the lock.
const lockName = "lock"

// maxFileSize bounds the state file a run reads.
const maxFileSize = 256 << 20

// Dir is a locked state directory. Close releases the lock.
type Dir struct {
	path string
	lock *os.File
}

// Open creates the directory if needed and takes its lock without
// waiting: when another run holds it, the error names that run's pid.
func Open(path string) (*Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create state directory %q: %w", path, err)
	}
	f, err := os.OpenFile(filepath.Join(path, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock of state directory %q: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		pid := "unknown"
		if b, rerr := io.ReadAll(io.LimitReader(f, 32)); rerr == nil && len(strings.TrimSpace(string(b))) > 0 {
			pid = strings.TrimSpace(string(b))
		}
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("state directory %q is locked by another run (pid %s)", path, pid)
		}
		return nil, fmt.Errorf("cannot lock state directory %q: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Dir{path: path, lock: f}, nil
}

// Close releases the lock.
func (d *Dir) Close() error { return d.lock.Close() }

// FileName returns the path of an hour's file (the hour's start in Unix
// seconds): DIR/2026-11-29T10.sketch, in UTC.
func (d *Dir) FileName(hour int64) string {
	return filepath.Join(d.path, time.Unix(hour, 0).UTC().Format("2006-01-02T15")+".sketch")
}

// Write replaces an hour's file atomically (a temporary file in the
// directory, then rename), so a reader sees the old file or the new one.
func (d *Dir) Write(hour int64, set *sketch.Set) error {
	name := d.FileName(hour)
	f, err := os.CreateTemp(d.path, ".tmp-*.sketch")
	if err != nil {
		return fmt.Errorf("cannot write state file %q: %w", name, err)
	}
	err = f.Chmod(0o644)
	if err == nil {
		_, err = f.Write(Encode(hour, set))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cannot write state file %q: %w", name, err)
	}
	return nil
}

// Read returns an hour's set, or an error wrapping fs.ErrNotExist when the
// directory has no file for it. A damaged file is an error naming it.
func (d *Dir) Read(hour int64, m *sketch.Mapping, top int) (*sketch.Set, error) {
	name := d.FileName(hour)
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read state file %q: %w", name, err)
	}
	if len(b) > maxFileSize {
		return nil, fmt.Errorf("state file %q: larger than %d MiB", name, maxFileSize>>20)
	}
	h, set, err := Decode(b, m, top)
	if err != nil {
		return nil, fmt.Errorf("state file %q: %w", name, err)
	}
	if h != hour {
		return nil, fmt.Errorf("state file %q: %w: holds hour %s", name, errDamaged, time.Unix(h, 0).UTC().Format("2006-01-02T15"))
	}
	return set, nil
}
