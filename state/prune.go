package state

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// hourLayout is the hour in an hour file's name, in UTC.
const hourLayout = "2006-01-02T15"

// ParseKeep reads a retention: a whole number of days ("14d"), or a
// duration of hours and minutes as time.ParseDuration reads it ("36h",
// "90m", "1h30m"). It must be positive.
func ParseKeep(s string) (time.Duration, error) {
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseInt(days, 10, 64)
		if err != nil || n > int64(1<<63-1)/int64(24*time.Hour) {
			return 0, fmt.Errorf("cannot parse %q as a duration (like 14d, 36h or 90m)", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("cannot parse %q as a duration (like 14d, 36h or 90m)", s)
		}
	}
	if d <= 0 {
		return 0, fmt.Errorf("want a positive duration, got %q", s)
	}
	return d, nil
}

// Prune deletes this writer's hour files (its shard's, or the
// unsharded files of a directory opened with Open) whose hour starts
// keep or longer before this writer's newest stored hour, so that keep
// = 3h leaves its newest three hours. Other writers' files are theirs:
// they are neither deleted nor measured, since their locks are not
// held. The newest hour is never taken after now: a file of a future
// hour (a log with a wrong clock) is kept but cannot prune the present.
// Only hour files are deleted: a regular file named as FileName names an
// hour (optionally with a further ".name" before ".sketch") that starts
// with the state file's magic; the lock, temporary files and anything
// else in the directory are left alone. It returns the paths removed,
// oldest first. This writer's lock is held, since d is open.
func (d *Dir) Prune(keep time.Duration, now time.Time) ([]string, error) {
	if keep <= 0 {
		return nil, fmt.Errorf("cannot prune state directory %q: want a positive retention, got %v", d.path, keep)
	}
	all, _, err := d.listHours()
	if err != nil {
		return nil, err
	}
	var files []hourFile
	for _, f := range all {
		if f.writer == d.shard && !f.link { // a link's file is another directory's
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, nil
	}
	newest := files[len(files)-1].hour
	if limit := now.UTC().Truncate(time.Hour); newest.After(limit) {
		newest = limit
	}
	var removed []string
	for _, f := range files {
		if newest.Sub(f.hour) < keep {
			break
		}
		if err := os.Remove(f.path); err != nil {
			return removed, fmt.Errorf("cannot remove state file %q: %w", f.path, err)
		}
		removed = append(removed, f.path)
	}
	return removed, nil
}

// hourFile is one hour file of the directory.
type hourFile struct {
	path   string
	hour   time.Time
	writer string // the shard, "" for the directory's own files
	link   bool   // a symbolic link to the file: read, never pruned
}

// listHours lists the directory's hour files, oldest first (by hour,
// then by name), and the files named as hour files that do not start as
// one (foreign).
func (d *Dir) listHours() (files []hourFile, foreign []string, err error) {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read state directory %q: %w", d.path, err)
	}
	for _, e := range entries {
		hour, writer, ok := hourOfName(e.Name())
		if !ok || e.IsDir() {
			continue
		}
		path := filepath.Join(d.path, e.Name())
		link := !e.Type().IsRegular()
		if link {
			// A link is read as the file it names (an hour copied from
			// another host's directory by a link); a link to nothing, a
			// pipe or a device named as an hour file is no hour file,
			// and is said to be one, never opened.
			if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
				foreign = append(foreign, path)
				continue
			}
		}
		if !hasMagic(path) {
			foreign = append(foreign, path)
			continue
		}
		files = append(files, hourFile{path, hour, writer, link})
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].hour.Before(files[j].hour) })
	return files, foreign, nil
}

// hourOfName returns the hour an hour file's name stands for and the
// writer that names it: "2026-11-29T10.sketch" ("" writer), or
// "2026-11-29T10.NAME.sketch" (NAME).
func hourOfName(name string) (hour time.Time, writer string, ok bool) {
	rest, ok := strings.CutSuffix(name, ".sketch")
	if !ok || len(rest) < len(hourLayout) {
		return time.Time{}, "", false
	}
	if len(rest) > len(hourLayout) {
		if rest[len(hourLayout)] != '.' || len(rest) == len(hourLayout)+1 {
			return time.Time{}, "", false
		}
		writer = rest[len(hourLayout)+1:]
	}
	hour, err := time.ParseInLocation(hourLayout, rest[:len(hourLayout)], time.UTC)
	if err != nil || hour.Format(hourLayout) != rest[:len(hourLayout)] {
		return time.Time{}, "", false
	}
	return hour, writer, true
}

// hasMagic says whether the file at path starts as a state file does.
func hasMagic(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(magic))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == magic
}

// Prune prunes every writer's hour files in the state directory at
// path, as Dir.Prune does: each writer's (the directory's own, each
// shard's) from its own newest hour, under its own lock, taken and
// released in turn. A writer whose lock another run holds is an error;
// the writers pruned before it stay pruned. Files named for a writer
// no shard can be (CheckShard) are left alone. It returns the paths
// removed, writer by writer in name order, oldest first.
func Prune(path string, keep time.Duration, now time.Time) ([]string, error) {
	if keep <= 0 {
		return nil, fmt.Errorf("cannot prune state directory %q: want a positive retention, got %v", path, keep)
	}
	files, _, err := (&Dir{path: path}).listHours()
	if err != nil {
		return nil, err
	}
	var writers []string
	for _, f := range files {
		if CheckShard(f.writer) == nil && !slices.Contains(writers, f.writer) {
			writers = append(writers, f.writer)
		}
	}
	sort.Strings(writers)
	var removed []string
	for _, w := range writers {
		r, err := pruneWriter(path, w, keep, now)
		removed = append(removed, r...)
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// pruneWriter prunes one writer's files under its lock.
func pruneWriter(path, shard string, keep time.Duration, now time.Time) ([]string, error) {
	d, err := OpenShard(path, shard)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Prune(keep, now)
}
