package state

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"
)

// writeHours stores n consecutive hours from first and returns their
// file names.
func writeHours(t *testing.T, d *Dir, first time.Time, n int) []string {
	t.Helper()
	set, _ := hourSet(mapping(t), 7, 50)
	var names []string
	for i := range n {
		h := first.Add(time.Duration(i) * time.Hour).Unix()
		if err := d.writeSet(h, set); err != nil {
			t.Fatal(err)
		}
		names = append(names, d.FileName(h))
	}
	return names
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestPruneKeepsNewestHours(t *testing.T) {
	first := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	now := first.Add(30 * time.Hour)
	for _, c := range []struct {
		keep time.Duration
		left int
	}{
		{3 * time.Hour, 3},
		{90 * time.Minute, 2},
		{time.Hour, 1},
		{30 * time.Minute, 1},
		{6 * time.Hour, 6},
		{14 * 24 * time.Hour, 6},
	} {
		dir := t.TempDir()
		d := open(t, dir)
		names := writeHours(t, d, first, 6)
		removed, err := d.Prune(c.keep, now)
		if err != nil {
			t.Fatal(err)
		}
		if want := names[:6-c.left]; !slices.Equal(removed, want) {
			t.Errorf("keep %v: removed %q, want %q", c.keep, removed, want)
		}
		var want []string
		for _, n := range names[6-c.left:] {
			want = append(want, filepath.Base(n))
		}
		want = append(want, lockName)
		sort.Strings(want)
		if got := listDir(t, dir); !slices.Equal(got, want) {
			t.Errorf("keep %v: left %q, want %q", c.keep, got, want)
		}
		d.Close()
	}
}

func TestPruneLeavesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	d := open(t, dir)
	first := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	names := writeHours(t, d, first, 6)
	stateFile, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	// An hour file written under a further name (a host) is an hour file.
	hosted := filepath.Join(dir, "2026-11-28T23.gw-1.sketch")
	if err := os.WriteFile(hosted, stateFile, 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := map[string][]byte{
		"notes.txt":                 []byte("keep me"),
		"2026-11-28T10.sketch.bak":  stateFile,
		"2026-11-28T11.sketch~":     stateFile,
		"2026-11-28T12.sketch":      []byte("not a state file"),
		"2026-11-28T13.sketch.gz":   stateFile,
		"2026-11-28T14..sketch":     stateFile,
		"2026-11-28T15x.sketch":     stateFile,
		"2026-11-28T99.sketch":      stateFile,
		"26-11-28T16.sketch":        stateFile,
		".tmp-123.sketch":           stateFile,
		"2026-11-28T17.sketch.tmp":  stateFile,
		"2026-11-28T18.sketch.lock": nil,
		"LGASTATE":                  stateFile,
	}
	for name, b := range foreign {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A directory and a symbolic link named as hour files.
	if err := os.Mkdir(filepath.Join(dir, "2026-11-28T19.sketch"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	target := filepath.Join(other, "2026-11-28T20.sketch")
	if err := os.WriteFile(target, stateFile, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "2026-11-28T20.sketch")); err != nil {
		t.Fatal(err)
	}

	removed, err := d.Prune(3*time.Hour, first.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]string{hosted}, names[:3]...); !slices.Equal(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	want := []string{lockName, "2026-11-28T19.sketch", "2026-11-28T20.sketch"}
	for name := range foreign {
		want = append(want, name)
	}
	for _, n := range names[3:] {
		want = append(want, filepath.Base(n))
	}
	sort.Strings(want)
	if got := listDir(t, dir); !slices.Equal(got, want) {
		t.Errorf("left %q\nwant %q", got, want)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != string(stateFile) {
		t.Errorf("the link's target was touched: %v", err)
	}
}

func TestPruneFutureHourDoesNotPrunePresent(t *testing.T) {
	dir := t.TempDir()
	d := open(t, dir)
	first := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	names := writeHours(t, d, first, 4)
	set, _ := hourSet(mapping(t), 7, 50)
	future := time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	if err := d.writeSet(future, set); err != nil {
		t.Fatal(err)
	}
	// Now is the last stored hour's last minute: keep 2h leaves it and the
	// hour before, and the future file.
	removed, err := d.Prune(2*time.Hour, first.Add(3*time.Hour+59*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, names[:2]) {
		t.Errorf("removed %q, want %q", removed, names[:2])
	}
	want := []string{filepath.Base(names[2]), filepath.Base(names[3]), filepath.Base(d.FileName(future)), lockName}
	sort.Strings(want)
	if got := listDir(t, dir); !slices.Equal(got, want) {
		t.Errorf("left %q, want %q", got, want)
	}
}

func TestPruneEmptyAndBadKeep(t *testing.T) {
	d := open(t, t.TempDir())
	if removed, err := d.Prune(time.Hour, time.Now()); err != nil || removed != nil {
		t.Errorf("empty directory: %q, %v", removed, err)
	}
	if _, err := d.Prune(0, time.Now()); err == nil {
		t.Error("keep 0 was accepted")
	}
}

func TestParseKeep(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"14d", 14 * 24 * time.Hour, true},
		{"1d", 24 * time.Hour, true},
		{"36h", 36 * time.Hour, true},
		{"90m", 90 * time.Minute, true},
		{"1h30m", 90 * time.Minute, true},
		{"0d", 0, false},
		{"0h", 0, false},
		{"-3h", 0, false},
		{"-2d", 0, false},
		{"", 0, false},
		{"d", 0, false},
		{"3", 0, false},
		{"1.5d", 0, false},
		{"two weeks", 0, false},
		{"99999999999d", 0, false},
		{"14D", 0, false},
	} {
		got, err := ParseKeep(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseKeep(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}
