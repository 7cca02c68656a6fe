package state

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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
	// An hour file written under a further name (a host's shard) is
	// that writer's, not this one's to prune.
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
	if want := names[:3]; !slices.Equal(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	want := []string{lockName, filepath.Base(hosted), "2026-11-28T19.sketch", "2026-11-28T20.sketch"}
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

// openShard opens one writer's share of dir, closed at the test's end.
func openShard(t *testing.T, dir, shard string) *Dir {
	t.Helper()
	d, err := OpenShard(dir, shard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// Two shards and the unsharded writer share a directory: each prunes its
// own files alone, measured from its own newest hour, whatever hours
// the others hold.
func TestPruneOwnWriterOnly(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC) // 10:00 +08:00
	a, b, own := openShard(t, dir, "a"), openShard(t, dir, "b"), open(t, dir)
	aNames := writeHours(t, a, day, 6)                          // 02–07 UTC
	bNames := writeHours(t, b, day.Add(24*time.Hour), 1)        // the next day
	ownNames := writeHours(t, own, day.Add(-9*24*time.Hour), 2) // nine days before
	now := day.Add(24*time.Hour + 30*time.Minute)

	// b's newest hour is a day after a's: a prune of b measured from any
	// writer's newest hour would take all of a's.
	if removed, err := b.Prune(3*time.Hour, now); err != nil || len(removed) != 0 {
		t.Errorf("shard b removed %q, %v; want nothing", removed, err)
	}
	if removed, err := own.Prune(time.Hour, now); err != nil || !slices.Equal(removed, ownNames[:1]) {
		t.Errorf("the unsharded writer removed %q, %v; want %q", removed, err, ownNames[:1])
	}
	// a measures from its own newest hour, 07 UTC: 3h leaves 05–07.
	if removed, err := a.Prune(3*time.Hour, now); err != nil || !slices.Equal(removed, aNames[:3]) {
		t.Errorf("shard a removed %q, %v; want %q", removed, err, aNames[:3])
	}
	var want []string
	for _, n := range append(append(append([]string{}, aNames[3:]...), bNames...), ownNames[1:]...) {
		want = append(want, filepath.Base(n))
	}
	want = append(want, lockName, lockName+".a", lockName+".b")
	sort.Strings(want)
	if got := listDir(t, dir); !slices.Equal(got, want) {
		t.Errorf("left %q\nwant %q", got, want)
	}
}

// Prune of a directory (a report's --keep) prunes every writer from its
// own newest hour under its own lock, and stops at a writer whose lock
// another run holds.
func TestPruneEveryWriter(t *testing.T) {
	dir := t.TempDir()
	first := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	a, b := openShard(t, dir, "a"), openShard(t, dir, "b")
	aNames := writeHours(t, a, first, 6)
	bNames := writeHours(t, b, first.Add(48*time.Hour), 4)
	own := open(t, dir)
	ownNames := writeHours(t, own, first.Add(-48*time.Hour), 2)
	stateFile, err := os.ReadFile(aNames[0])
	if err != nil {
		t.Fatal(err)
	}
	// No shard can be named "x.y": no writer owns the file.
	stray := filepath.Join(dir, "2026-11-20T00.x.y.sketch")
	if err := os.WriteFile(stray, stateFile, 0o644); err != nil {
		t.Fatal(err)
	}
	a.Close()
	own.Close()
	now := first.Add(72 * time.Hour)
	// Writers in name order: "" (2 hours, both within 3h of its newest),
	// then a (6: the oldest 3 go), then b (4: the oldest goes), whose
	// lock is held.
	removed, err := Prune(dir, 3*time.Hour, now)
	if err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("with shard b's lock held: %v, want a locked error", err)
	}
	if !slices.Equal(removed, aNames[:3]) {
		t.Errorf("with shard b's lock held: removed %q\nwant %q", removed, aNames[:3])
	}
	b.Close()
	if removed, err = Prune(dir, 3*time.Hour, now); err != nil || !slices.Equal(removed, bNames[:1]) {
		t.Errorf("removed %q, %v\nwant %q", removed, err, bNames[:1])
	}
	for _, n := range append(append(append([]string{stray}, ownNames...), aNames[3:]...), bNames[1:]...) {
		if _, err := os.Stat(n); err != nil {
			t.Errorf("%s: %v", filepath.Base(n), err)
		}
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
