package ingest_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// TestManyFilesEachAsAlone: a directory of small files of every kind of
// stream, read one after the other in one run (with the buffers the
// inputs before them were read with), gives each file the records,
// format, source and bad lines it gives read alone. The files cycle
// through nginx text, JSON lines, CSV with its header, gzip, UTF-16
// and a JSON document, each of a different number of lines, the longer
// before the shorter, so that what a longer file left in a buffer
// would show in the shorter after it.
func TestManyFilesEachAsAlone(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 77, N: 400})
	nginx, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteNginx)
	jsonl, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteJSONL)
	csv, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteCSV)
	lines := func(b []byte) []string { return strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n") }
	nl, jl, cl := lines(nginx), lines(jsonl), lines(csv)
	header, cl := cl[0], cl[1:]
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	utf16 := func(b []byte) []byte {
		out := []byte{0xff, 0xfe}
		for _, c := range b {
			out = append(out, c, 0)
		}
		return out
	}
	at := 0
	for i := range 36 {
		n := 1 + (36-i)%13 // longer files first in each cycle
		pick := func(ls []string) []byte {
			var b []byte
			for k := range n {
				b = append(b, ls[(at+k)%len(ls)]...)
			}
			return b
		}
		switch name := fmt.Sprintf("f%03d", i); i % 6 {
		case 0:
			write(name+".log", pick(nl))
		case 1:
			write(name+".jsonl", pick(jl))
		case 2:
			write(name+".csv", append([]byte(header), pick(cl)...))
		case 3:
			write(name+".log.gz", gzipBytes(t, pick(nl)))
		case 4:
			write(name+".jsonl", utf16(pick(jl)))
		case 5:
			doc := strings.ReplaceAll(strings.TrimSuffix(string(pick(jl)), "\n"), "\n", ",\n")
			write(name+".json", []byte("[\n"+doc+"\n]\n"))
		}
		at += n
	}
	opts := ingest.Options{Workers: 2, Location: time.FixedZone("+0800", 8*3600)}
	all, res := collect(t, []string{dir}, opts)
	if len(res.Files) != 36 {
		t.Fatalf("%d files read; want 36", len(res.Files))
	}
	var alone []row
	for _, f := range res.Files {
		rows, one := collect(t, []string{f.Path}, opts)
		g := one.Files[0]
		if f.Records != g.Records || f.Format != g.Format || f.Source != g.Source || f.BadLines != g.BadLines || f.Records == 0 {
			t.Errorf("%s in the run: %d records, %s, %s, %d bad lines; alone: %d, %s, %s, %d",
				filepath.Base(f.Path), f.Records, f.Format, f.Source, f.BadLines, g.Records, g.Format, g.Source, g.BadLines)
		}
		alone = append(alone, rows...)
	}
	key := func(r row) string { return fmt.Sprintf("%+v", r) }
	a, b := make([]string, len(all)), make([]string, len(alone))
	for i := range all {
		a[i] = key(all[i])
	}
	for i := range alone {
		b[i] = key(alone[i])
	}
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("the run's %d records differ from the %d of the files read alone", len(a), len(b))
	}
}

// TestGzipFiles: gzip files read one after another in one run (each
// reader kept for the next) give every line of theirs, as a record or a
// bad line, and read as each does alone: one of two members, one cut
// short, one whose header is damaged, one within a tar.gz before a plain
// file larger than the line reader's buffer (the tar.gz's stream is
// still read after the .gz file within it is), and whole ones before and
// after them.
func TestGzipFiles(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 78, N: 300})
	nginx, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteNginx)
	ls := strings.SplitAfter(strings.TrimSuffix(string(nginx), "\n"), "\n")
	part := func(from, n int) []byte { return []byte(strings.Join(ls[from:from+n], "")) }
	big, _ := encode(t, gen.Generate(gen.Config{Seed: 79, N: 8000}), gen.WriteOptions{}, gen.WriteNginx)
	whole := gzipBytes(t, part(200, 40))
	cut := gzipBytes(t, part(0, 60))
	damaged := append([]byte{0x1f, 0x8b, 0x08, 0xff}, gzipBytes(t, part(60, 5))[4:]...)
	dir := t.TempDir()
	// lines: every line the file gives; −1 for one read in part (some of
	// its lines), 0 for one not read.
	files := []struct {
		name  string
		data  []byte
		lines int64
	}{
		{"a.log.gz", gzipBytes(t, part(100, 30)), 30},
		{"b.log.gz", append(gzipBytes(t, part(130, 20)), gzipBytes(t, part(150, 25))...), 45},
		{"c.log.gz", cut[:len(cut)*2/3], -1},
		{"d.log.gz", damaged, 0},
		{"e.tar.gz", gzipBytes(t, tarOf(t, []dumpFile{{name: "x.log.gz", data: gzipBytes(t, part(175, 10))}, {name: "y.log", data: big}})), 0},
		{"e.tar.gz!/x.log.gz", nil, 10},
		{"e.tar.gz!/y.log", nil, int64(bytes.Count(big, []byte("\n")))},
		{"f.log.gz", whole, 40},
		{"g.log.gz", whole[:len(whole)-3], -1},
		{"h.log.gz", gzipBytes(t, part(240, 50)), 50},
	}
	want := map[string]int64{}
	for _, f := range files {
		want[filepath.Join(dir, f.name)] = f.lines
		if f.data == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := ingest.Options{Workers: 2, Location: time.FixedZone("+0800", 8*3600)}
	_, res := collect(t, []string{dir}, opts)
	seen := 0
	for _, f := range res.Files {
		lines, ok := want[f.Path]
		if !ok {
			t.Errorf("%s: not a file of the test", f.Path)
			continue
		}
		seen++
		got := f.Records + f.BadLines
		switch {
		case lines > 0 && (got != lines || f.Incomplete):
			t.Errorf("%s: %d records and %d bad lines, incomplete %v (%s); want %d lines, whole", f.Path, f.Records, f.BadLines, f.Incomplete, f.Reason, lines)
		case lines < 0 && (got == 0 || !f.Incomplete):
			t.Errorf("%s: %d records and %d bad lines, incomplete %v; want some, in part", f.Path, f.Records, f.BadLines, f.Incomplete)
		case lines == 0 && got != 0:
			t.Errorf("%s: %d records and %d bad lines, want none", f.Path, f.Records, f.BadLines)
		}
		alone, _, _ := strings.Cut(f.Path, "!/") // an archive's file: the archive alone
		_, one := collect(t, []string{alone}, opts)
		for _, g := range one.Files {
			if g.Path == f.Path && (f.Records != g.Records || f.BadLines != g.BadLines || f.Incomplete != g.Incomplete || f.Reason != g.Reason) {
				t.Errorf("%s in the run: %d records, %d bad, incomplete %v (%s); alone: %d, %d, %v (%s)",
					f.Path, f.Records, f.BadLines, f.Incomplete, f.Reason, g.Records, g.BadLines, g.Incomplete, g.Reason)
			}
		}
	}
	if seen < len(files)-1 { // the tar.gz itself may be listed or not
		t.Errorf("%d files listed, want the %d of the test", seen, len(files))
	}
}
