package ingest_test

import (
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
