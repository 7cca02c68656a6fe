package state

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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

// Prune deletes the hour files whose hour starts keep or longer before
// the newest stored hour, so that keep = 3h leaves the newest three
// hours. The newest hour is never taken after now: a file of a future
// hour (a log with a wrong clock) is kept but cannot prune the present.
// Only hour files are deleted: a regular file named as FileName names an
// hour (optionally with a further ".name" before ".sketch") that starts
// with the state file's magic; the lock, temporary files and anything
// else in the directory are left alone. It returns the paths removed,
// oldest first. The directory's lock is held, since d is open.
func (d *Dir) Prune(keep time.Duration, now time.Time) ([]string, error) {
	if keep <= 0 {
		return nil, fmt.Errorf("cannot prune state directory %q: want a positive retention, got %v", d.path, keep)
	}
	files, _, err := d.listHours()
	if err != nil {
		return nil, err
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
	path string
	hour time.Time
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
		hour, ok := hourOfName(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(d.path, e.Name())
		if !hasMagic(path) {
			foreign = append(foreign, path)
			continue
		}
		files = append(files, hourFile{path, hour})
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].hour.Before(files[j].hour) })
	return files, foreign, nil
}

// hourOfName returns the hour an hour file's name stands for:
// "2026-11-29T10.sketch", or "2026-11-29T10.NAME.sketch".
func hourOfName(name string) (time.Time, bool) {
	rest, ok := strings.CutSuffix(name, ".sketch")
	if !ok || len(rest) < len(hourLayout) {
		return time.Time{}, false
	}
	if len(rest) > len(hourLayout) && (rest[len(hourLayout)] != '.' || len(rest) == len(hourLayout)+1) {
		return time.Time{}, false
	}
	hour, err := time.ParseInLocation(hourLayout, rest[:len(hourLayout)], time.UTC)
	if err != nil || hour.Format(hourLayout) != rest[:len(hourLayout)] {
		return time.Time{}, false
	}
	return hour, true
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

// Prune opens the state directory at path, taking its lock, prunes it
// as Dir.Prune does and releases the lock.
func Prune(path string, keep time.Duration, now time.Time) ([]string, error) {
	d, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Prune(keep, now)
}
