package ingest_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/snappy"
	"github.com/ulikunitz/xz"

	"loganalyze/gen"
	"loganalyze/ingest"
)

// dumpFile is one file of a log dump as an archive holds it.
type dumpFile struct {
	name string
	data []byte
	dir  bool // a directory's entry
}

// logDump is a dump of logs as users archive them: JSON lines, nginx
// text compressed within, Parquet, in directories; and what is not a
// file to read: directories' entries, a hidden file, macOS's resource
// fork. want is the files read, in the archive's order.
func logDump(t *testing.T) (files []dumpFile, want []string) {
	jsonl, _ := encode(t, gen.Generate(gen.Config{Seed: 71, N: 300}), gen.WriteOptions{}, gen.WriteJSONL)
	nginx, _ := encode(t, gen.Generate(gen.Config{Seed: 72, N: 250}), gen.WriteOptions{}, gen.WriteNginx)
	pq, _ := encode(t, gen.Generate(gen.Config{Seed: 73, N: 200}), gen.WriteOptions{}, gen.WriteParquet)
	files = []dumpFile{
		{name: "./", dir: true},
		{name: "./gw-1/", dir: true},
		{name: "./gw-1/access.jsonl", data: jsonl},
		{name: "./gw-1/.access.jsonl.swp", data: []byte("not a log")},
		{name: "./gw-2/access.log.gz", data: gzipBytes(t, nginx)},
		{name: "__MACOSX/gw-2/._access.log.gz", data: []byte("\x00\x05\x16\x07")},
		{name: "requests.parquet", data: pq},
	}
	return files, []string{"gw-1/access.jsonl", "gw-2/access.log.gz", "requests.parquet"}
}

func tarOf(t *testing.T, files []dumpFile) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data)), Typeflag: tar.TypeReg}
		if f.dir {
			h.Typeflag, h.Mode = tar.TypeDir, 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zipOf(t *testing.T, files []dumpFile) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range files {
		w, err := zw.Create(strings.TrimPrefix(f.name, "./"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(f.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func snappyBytes(t *testing.T, b []byte) []byte {
	return compressed(t, b, func(w io.Writer) (io.WriteCloser, error) { return snappy.NewBufferedWriter(w), nil })
}

func xzBytes(t *testing.T, b []byte) []byte {
	return compressed(t, b, func(w io.Writer) (io.WriteCloser, error) { return xz.NewWriter(w) })
}

// plainCounts reads each file of a dump written out as a file of its
// own, and returns its records by name.
func plainCounts(t *testing.T, files []dumpFile) map[string]int64 {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, f := range files {
		if f.dir || strings.Contains(f.name, "/.") || strings.HasPrefix(f.name, "__MACOSX") {
			continue
		}
		p := filepath.Join(dir, strings.ReplaceAll(strings.TrimPrefix(f.name, "./"), "/", "_"))
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	_, res := collect(t, paths, ingest.Options{Workers: 2, Location: time.UTC})
	got := map[string]int64{}
	for i, f := range res.Files {
		if f.Records == 0 || f.Incomplete {
			t.Fatalf("%s as a file of its own: %d records, %q", paths[i], f.Records, f.Reason)
		}
		got[f.Path] = f.Records
	}
	return got
}

// TestArchiveFilesRead: each file of a tar (plain, within gzip, zstd or
// xz) or zip archive, on disk or on stdin, is read as a file of its
// own, named by the archive's path and its own, in the archive's order,
// with the records it holds as a file of its own; directories, hidden
// files and macOS's resource forks are not files to read, and the
// archive itself is not listed beside its files.
func TestArchiveFilesRead(t *testing.T) {
	files, want := logDump(t)
	plain := plainCounts(t, files)
	var wantTotal int64
	for _, n := range plain {
		wantTotal += n
	}
	tr := tarOf(t, files)
	for _, c := range []struct {
		name  string
		data  []byte
		stdin bool
	}{
		{"logs.tar", tr, false},
		{"logs.tar.gz", gzipBytes(t, tr), false},
		{"logs.tar.zst", zstdBytes(t, tr), false},
		{"logs.tar.xz", xzBytes(t, tr), false},
		{"logs.zip", zipOf(t, files), false},
		{"-", zipOf(t, files), true},
		{"-", gzipBytes(t, tr), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := ingest.Options{Workers: 2, Location: time.UTC}
			path := c.name
			tmp := t.TempDir() // where a zip on stdin is copied, and removed after
			t.Setenv("TMPDIR", tmp)
			if c.stdin {
				opts.Stdin = bytes.NewReader(c.data)
			} else {
				path = writeTemp(t, c.name, string(c.data))
			}
			rows, res := collect(t, []string{path}, opts)
			if len(res.Files) != len(want) {
				t.Fatalf("%d files listed, want %d: %+v", len(res.Files), len(want), res.Files)
			}
			for i, f := range res.Files {
				if f.Path != path+"!/"+want[i] {
					t.Errorf("file %d is %q, want %q", i, f.Path, path+"!/"+want[i])
				}
				base := strings.ReplaceAll(want[i], "/", "_")
				var n int64 = -1
				for p, c := range plain {
					if filepath.Base(p) == base {
						n = c
					}
				}
				if f.Records != n || f.Incomplete || f.Format == "" {
					t.Errorf("%s: %d records, incomplete %v (%q), format %q; want %d, as the file of its own", f.Path, f.Records, f.Incomplete, f.Reason, f.Format, n)
				}
			}
			if int64(len(rows)) != wantTotal {
				t.Errorf("%d records read, want %d", len(rows), wantTotal)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("%d temporary files left behind", len(left))
			}
		})
	}
}

// TestArchiveCut: a tar archive cut short keeps what it held before the
// cut: the files whole before it are read whole; the file it cut is
// read to the cut, incomplete and truncated; a cut between two files
// marks the last file read incomplete, for the archive was. A tar that
// holds no file, and an archive within an archive, are unread and say
// so.
func TestArchiveCut(t *testing.T) {
	files, _ := logDump(t)
	plain := plainCounts(t, files)
	jsonlN := int64(-1)
	for p, n := range plain {
		if strings.HasSuffix(p, "gw-1_access.jsonl") {
			jsonlN = n
		}
	}
	one := []dumpFile{files[2], files[4]} // JSON lines, then nginx within gzip
	tr := tarOf(t, one)
	// The first file's header and data, padded to 512 bytes.
	firstEnd := 512 + (len(one[0].data)+511)/512*512

	t.Run("within the second file", func(t *testing.T) {
		path := writeTemp(t, "cut.tar", string(tr[:firstEnd+512+300]))
		_, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
		if len(res.Files) != 2 {
			t.Fatalf("%d files listed, want 2: %+v", len(res.Files), res.Files)
		}
		if f := res.Files[0]; f.Records != jsonlN || f.Incomplete {
			t.Errorf("first file: %d records, incomplete %v; want %d, whole", f.Records, f.Incomplete, jsonlN)
		}
		if f := res.Files[1]; !f.Incomplete || !strings.Contains(f.Reason, "truncated") {
			t.Errorf("second file: incomplete %v, reason %q; want incomplete, truncated", f.Incomplete, f.Reason)
		}
	})
	t.Run("between files", func(t *testing.T) {
		path := writeTemp(t, "cut.tar", string(tr[:firstEnd+200]))
		_, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
		if len(res.Files) != 1 {
			t.Fatalf("%d files listed, want 1: %+v", len(res.Files), res.Files)
		}
		if f := res.Files[0]; f.Records != jsonlN || !f.Incomplete || !strings.Contains(f.Reason, "cut short after this file") {
			t.Errorf("first file: %d records, incomplete %v, reason %q; want %d, incomplete, the archive cut after it", f.Records, f.Incomplete, f.Reason, jsonlN)
		}
	})
	t.Run("no file", func(t *testing.T) {
		path := writeTemp(t, "empty.tar", string(tarOf(t, []dumpFile{{name: "logs/", dir: true}})))
		rows, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
		if f := res.Files[0]; len(res.Files) != 1 || len(rows) != 0 || !f.Incomplete || !strings.Contains(f.Reason, "no file in it") {
			t.Errorf("%d records, files %+v; want the archive alone, unread: no file in it", len(rows), res.Files)
		}
	})
	t.Run("archive within", func(t *testing.T) {
		inner := zipOf(t, one)
		path := writeTemp(t, "outer.tar", string(tarOf(t, []dumpFile{{name: "inner.zip", data: inner}, files[2]})))
		_, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
		if len(res.Files) != 2 {
			t.Fatalf("%d files listed, want 2: %+v", len(res.Files), res.Files)
		}
		if f := res.Files[0]; f.Path != path+"!/inner.zip" || f.Records != 0 || !strings.Contains(f.Reason, "zip archive within an archive") {
			t.Errorf("inner archive: %q, %d records, reason %q; want unread, named", f.Path, f.Records, f.Reason)
		}
		if f := res.Files[1]; f.Records != jsonlN {
			t.Errorf("the file after it: %d records, want %d", f.Records, jsonlN)
		}
	})
}

// TestCompressedBzip2Xz: a file compressed with bzip2 (a fixture the
// bzip2 tool wrote; two streams joined, as pbzip2 writes), xz or snappy
// (its framing format) is read as its text is; text that begins "BZh1"
// is text.
func TestCompressedBzip2Xz(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "compressed", "access.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	bz, err := os.ReadFile(filepath.Join("testdata", "compressed", "access.jsonl.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	lines := int64(bytes.Count(text, []byte("\n")))
	_, res := collect(t, []string{filepath.Join("testdata", "compressed", "access.jsonl")}, ingest.Options{Workers: 2, Location: time.UTC})
	want := res.Files[0].Records
	if want <= lines-5 {
		t.Fatalf("the text itself: %d records of %d lines", want, lines)
	}
	for _, c := range []struct {
		name string
		data []byte
		n    int64
	}{
		{"access.jsonl.bz2", bz, want},
		{"two.jsonl.bz2", append(append([]byte(nil), bz...), bz...), 2 * want},
		{"access.jsonl.xz", xzBytes(t, text), want},
		// Snappy's framing format, as CLS ships logs to COS with it.
		{"202612031500_000_1.snappy", snappyBytes(t, text), want},
		{"access.jsonl", snappyBytes(t, text), want}, // told by its bytes, not its name
	} {
		_, res := collect(t, []string{writeTemp(t, c.name, string(c.data))}, ingest.Options{Workers: 2, Location: time.UTC})
		if f := res.Files[0]; f.Records != c.n || f.Incomplete || f.Format != ingest.JSONL {
			t.Errorf("%s: %d records, incomplete %v (%q), format %q; want %d, whole, jsonl", c.name, f.Records, f.Incomplete, f.Reason, f.Format, c.n)
		}
	}
	csv := "BZh1 model,status,request_time\nqwen,200,0.5\n"
	_, res = collect(t, []string{writeTemp(t, "odd.csv", csv)}, ingest.Options{Workers: 2, Location: time.UTC})
	if f := res.Files[0]; f.Incomplete || f.Format != ingest.CSV {
		t.Errorf("a CSV whose header begins BZh1: format %q, incomplete %v (%q); want csv, read", f.Format, f.Incomplete, f.Reason)
	}
}

// TestCompressedLZ4: a file the lz4 tool compressed (v1.9.4: its frame
// format, and its legacy format, lz4 -l) is read as its text is; two
// frames joined are read whole; one cut short is named incomplete,
// truncated, and one whose header is damaged is unread with why.
func TestCompressedLZ4(t *testing.T) {
	dir := filepath.Join("testdata", "compressed")
	_, res := collect(t, []string{filepath.Join(dir, "access.jsonl")}, ingest.Options{Workers: 2, Location: time.UTC})
	want := res.Files[0].Records
	frame, err := os.ReadFile(filepath.Join(dir, "access.jsonl.lz4"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		n    int64
	}{
		{filepath.Join(dir, "access.jsonl.lz4"), want},
		{filepath.Join(dir, "access.jsonl.legacy.lz4"), want},
		{writeTemp(t, "two.jsonl.lz4", string(frame)+string(frame)), 2 * want},
	} {
		_, res := collect(t, []string{c.path}, ingest.Options{Workers: 2, Location: time.UTC})
		if f := res.Files[0]; f.Records != c.n || f.Incomplete || f.Format != ingest.JSONL {
			t.Errorf("%s: %d records, incomplete %v (%q), format %q; want %d, whole, jsonl", c.path, f.Records, f.Incomplete, f.Reason, f.Format, c.n)
		}
	}
	_, res = collect(t, []string{writeTemp(t, "cut.jsonl.lz4", string(frame[:len(frame)/2]))}, ingest.Options{Workers: 2, Location: time.UTC})
	if f := res.Files[0]; !f.Incomplete || !strings.Contains(f.Reason, "truncated") {
		t.Errorf("cut in half: incomplete %v, reason %q; want incomplete, truncated", f.Incomplete, f.Reason)
	}
	damaged := append([]byte(nil), frame...)
	damaged[6] ^= 0xff // the frame descriptor's header checksum no longer holds
	_, res = collect(t, []string{writeTemp(t, "bad.jsonl.lz4", string(damaged))}, ingest.Options{Workers: 2, Location: time.UTC})
	if f := res.Files[0]; f.Records != 0 || !f.Incomplete || !strings.Contains(f.Reason, "bad lz4 stream") {
		t.Errorf("damaged header: %d records, incomplete %v, reason %q; want none, a bad lz4 stream", f.Records, f.Incomplete, f.Reason)
	}
}

// TestColumnarSpooled: a Parquet or Arrow file that is no file on disk
// (stdin, gzip-compressed) is read as the file itself is, through a
// temporary file that is removed after, not its size in memory.
func TestColumnarSpooled(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 74, N: 400})
	for _, c := range []struct {
		name  string
		write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
	}{{"r.parquet", gen.WriteParquet}, {"r.arrow", gen.WriteArrow}} {
		data, _ := encode(t, reqs, gen.WriteOptions{}, c.write)
		_, plain := collect(t, []string{writeTemp(t, c.name, string(data))}, ingest.Options{Workers: 2, Location: time.UTC})
		want := plain.Files[0].Records
		if want == 0 {
			t.Fatalf("%s: no record read from the file itself", c.name)
		}
		for _, how := range []string{"stdin", "gzip"} {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			opts := ingest.Options{Workers: 2, Location: time.UTC}
			path := "-"
			if how == "stdin" {
				opts.Stdin = bytes.NewReader(data)
			} else {
				path = writeTemp(t, c.name+".gz", string(gzipBytes(t, data)))
			}
			_, res := collect(t, []string{path}, opts)
			if f := res.Files[0]; f.Records != want || f.Incomplete {
				t.Errorf("%s by %s: %d records, incomplete %v (%q); want %d", c.name, how, f.Records, f.Incomplete, f.Reason, want)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("%s by %s: %d temporary files left behind", c.name, how, len(left))
			}
		}
	}
}

// TestOfficeDocuments: a spreadsheet or document saved by an office
// suite is a zip of XML, no log: the file is named as what it is, with
// what to do, and not one of its members is read as a log of its own.
func TestOfficeDocuments(t *testing.T) {
	dir := t.TempDir()
	for name, files := range map[string][]dumpFile{
		"logs.xlsx": {{name: "[Content_Types].xml", data: []byte(`<?xml version="1.0" encoding="UTF-8"?><Types/>`)},
			{name: "xl/workbook.xml", data: []byte(`<workbook/>`)}, {name: "xl/worksheets/sheet1.xml", data: []byte(`<worksheet/>`)}},
		"notes.docx": {{name: "[Content_Types].xml", data: []byte(`<Types/>`)}, {name: "word/document.xml", data: []byte(`<document/>`)}},
		"logs.ods": {{name: "mimetype", data: []byte("application/vnd.oasis.opendocument.spreadsheet")},
			{name: "META-INF/manifest.xml", data: []byte(`<manifest/>`)}, {name: "content.xml", data: []byte(`<a b="1" c="2"/>`)}},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, zipOf(t, files), 0o644); err != nil {
			t.Fatal(err)
		}
		_, res := collect(t, []string{p}, ingest.Options{Workers: 1})
		if len(res.Files) != 1 || res.Files[0].Records != 0 || !strings.Contains(res.Files[0].Reason, "not a log this reads: save its sheet as CSV") {
			t.Errorf("%s: files %+v, want one unread, named an office document", name, res.Files)
		}
	}
	// A zip of logs that holds an XML file is still read member by member.
	logs := zipOf(t, []dumpFile{{name: "a.jsonl", data: []byte(`{"status":200,"request_time":0.5}` + "\n")}, {name: "config.xml", data: []byte(`<a/>`)}})
	p := filepath.Join(dir, "logs.zip")
	if err := os.WriteFile(p, logs, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, res := collect(t, []string{p}, ingest.Options{Workers: 1}); len(res.Files) != 2 || res.Files[0].Records != 1 {
		t.Errorf("a zip of logs: %+v", res.Files)
	}
}
