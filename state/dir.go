package state

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// lockName is the lock file in the state directory; it holds the pid of
// the run that has the lock.
const lockName = "lock"

// maxFileSize bounds the state file a run reads.
const maxFileSize = 256 << 20

// Dir is a locked state directory, or one writer's share of it. Close
// releases the lock.
type Dir struct {
	path  string
	shard string
	lock  *os.File
}

// Open creates the directory if needed and takes its lock without
// waiting: when another run holds it, the error names that run's pid.
func Open(path string) (*Dir, error) { return OpenShard(path, "") }

// OpenShard is Open for one writer of a directory several write (one
// per gateway host, say): its hour files are named with shard
// (2026-11-29T10.SHARD.sketch) and its lock is its own (lock.SHARD), so
// writers for different shards never clobber each other's hours, and
// two runs of one shard still cannot overlap. "" is Open.
func OpenShard(path, shard string) (*Dir, error) {
	if err := CheckShard(shard); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create state directory %q: %w", path, err)
	}
	lock := lockName
	if shard != "" {
		lock += "." + shard
	}
	f, err := os.OpenFile(filepath.Join(path, lock), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock of state directory %q: %w", path, err)
	}
	if err := lockFile(f); err != nil {
		pid := "unknown"
		if b, rerr := io.ReadAll(io.LimitReader(f, 32)); rerr == nil && len(strings.TrimSpace(string(b))) > 0 {
			pid = strings.TrimSpace(string(b))
		}
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("state directory %q is locked by another run (pid %s)", path, pid)
		}
		return nil, fmt.Errorf("cannot lock state directory %q: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Dir{path: path, shard: shard, lock: f}, nil
}

// CheckShard accepts a shard name that can stand in a file name:
// letters, digits, '-' and '_', at most 64 bytes; "" is the directory's
// own writer.
func CheckShard(shard string) error {
	if len(shard) > 64 {
		return fmt.Errorf("shard name %q: longer than 64 bytes", shard)
	}
	for _, c := range shard {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("shard name %q: only letters, digits, - and _", shard)
		}
	}
	return nil
}

// Close releases the lock.
func (d *Dir) Close() error { return d.lock.Close() }

// FileName returns the path of an hour's file (the hour's start in Unix
// seconds): DIR/2026-11-29T10.sketch, in UTC, or
// DIR/2026-11-29T10.SHARD.sketch for a shard.
func (d *Dir) FileName(hour int64) string {
	name := time.Unix(hour, 0).UTC().Format(hourLayout)
	if d.shard != "" {
		name += "." + d.shard
	}
	return filepath.Join(d.path, name+".sketch")
}

// Write replaces an hour's file atomically (a temporary file in the
// directory, then rename), so a reader sees the old file or the new one.
// collectors name acc's collectors (rules.Config.CollectorNames).
func (d *Dir) Write(hour int64, acc *aggregate.Accumulator, collectors []string) error {
	return d.WriteSpans(hour, acc, collectors, nil, Input{})
}

// WriteSpans is Write of a file that says which spans of the hour it
// holds the records of (Hour.Spans).
func (d *Dir) WriteSpans(hour int64, acc *aggregate.Accumulator, collectors []string, spans [][2]int64, in Input) error {
	name := d.FileName(hour)
	f, err := os.CreateTemp(d.path, ".tmp-*.sketch")
	if err != nil {
		return fmt.Errorf("cannot write state file %q: %w", name, err)
	}
	err = f.Chmod(0o644)
	if err == nil {
		err = WriteTo(f, hour, acc, collectors, spans, in) // three writes: no buffer needed
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

// Read returns the hour of this writer's file, or an error wrapping
// fs.ErrNotExist when the directory has none. A damaged file is an
// error naming it.
func (d *Dir) Read(hour int64, opts aggregate.Options, collectors []string) (Hour, error) {
	name := d.FileName(hour)
	h, err := ReadFile(name, opts, collectors)
	if err != nil {
		return Hour{}, err
	}
	if h.Start != hour {
		return Hour{}, fmt.Errorf("state file %q: %w: holds hour %s", name, errDamaged, time.Unix(h.Start, 0).UTC().Format(hourLayout))
	}
	return h, nil
}

// Spans returns the spans of the hour this writer's file holds the
// records of (Hour.Spans), read from its head alone, without the
// checksum a whole read checks; none when the file does not say, and an
// error wrapping fs.ErrNotExist when there is no file.
func (d *Dir) Spans(hour int64, m *sketch.Mapping, collectors []string) ([][2]int64, error) {
	name := d.FileName(hour)
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHead))
	if err != nil {
		return nil, fmt.Errorf("cannot read state file %q: %w", name, err)
	}
	_, start, spans, _, _, err := decodeHead(b, m, collectors)
	if err == nil && start != hour {
		err = fmt.Errorf("%w: holds hour %s", errDamaged, time.Unix(start, 0).UTC().Format(hourLayout))
	}
	if err != nil {
		return nil, fmt.Errorf("state file %q: %w", name, err)
	}
	return spans, nil
}

// maxHead is more than a state file's head takes: its names (three lists
// of at most maxNames names of maxName bytes), spans and input.
const maxHead = 3*maxNames*(maxName+2) + 16 + maxSpans*20 + 3*maxProblems*(maxText+10) + 64

// ReadFile reads one hour file (Decode). An error names the file; one
// wrapping fs.ErrNotExist when it is not there.
func ReadFile(name string, opts aggregate.Options, collectors []string) (Hour, error) {
	f, err := os.Open(name)
	if err != nil {
		return Hour{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return Hour{}, fmt.Errorf("cannot read state file %q: %w", name, err)
	}
	if len(b) > maxFileSize {
		return Hour{}, fmt.Errorf("state file %q: larger than %d MiB", name, maxFileSize>>20)
	}
	h, err := Decode(b, opts, collectors)
	if err != nil {
		return Hour{}, fmt.Errorf("state file %q: %w", name, err)
	}
	if want, _, ok := hourOfName(filepath.Base(name)); ok && want.Unix() != h.Start {
		return Hour{}, fmt.Errorf("state file %q: %w: holds hour %s", name, errDamaged, time.Unix(h.Start, 0).UTC().Format(hourLayout))
	}
	return h, nil
}

// HourFiles lists the hour files of the directory at path, every
// writer's, oldest first, without taking its lock (files are replaced
// by rename, so each is whole): the paths and the hours they name. A
// file that does not start as a state file is in foreign.
func HourFiles(path string) (files []string, hours []int64, foreign []string, err error) {
	d := &Dir{path: path}
	hf, foreign, err := d.listHours()
	if err != nil {
		return nil, nil, nil, err
	}
	for _, f := range hf {
		files, hours = append(files, f.path), append(hours, f.hour.Unix())
	}
	return files, hours, foreign, nil
}
