package ingest_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"

	"loganalyze/gen"
	"loganalyze/ingest"
)

func gzipBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func zstdBytes(t testing.TB, b []byte) []byte {
	return compressed(t, b, func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w) })
}

// compressed returns b written through the writer newWriter makes.
func compressed(t testing.TB, b []byte, newWriter func(io.Writer) (io.WriteCloser, error)) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, err := newWriter(&out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func encode(t testing.TB, reqs []gen.Request, o gen.WriteOptions,
	write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) ([]byte, int) {
	t.Helper()
	var buf bytes.Buffer
	bad, err := write(&buf, reqs, o)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), bad
}

// part is one file of a mixed directory and what it holds.
type part struct {
	name      string
	data      []byte
	reqs      []gen.Request
	bad       int
	format    ingest.Format
	whole     []gen.Request // the requests of all parts, for checkRows
	wantTotal int
}

// mixedParts makes four files of different formats and compressions,
// each from its own seed, with bad lines or rows in each.
func mixedParts(t *testing.T) []part {
	var parts []part
	add := func(name string, seed uint64, format ingest.Format,
		write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error), compress func(testing.TB, []byte) []byte) {
		reqs := gen.Generate(gen.Config{Seed: seed, N: 3000})
		data, bad := encode(t, reqs, gen.WriteOptions{BadEvery: 250}, write)
		if compress != nil {
			data = compress(t, data)
		}
		parts = append(parts, part{name: name, data: data, reqs: reqs, bad: bad, format: format})
	}
	add("a.parquet", 11, ingest.Parquet, gen.WriteParquet, nil)
	add("b.jsonl.zst", 12, ingest.JSONL, gen.WriteJSONL, zstdBytes)
	add("c.arrow", 13, ingest.Arrow, gen.WriteArrow, nil)
	add("d.jsonl.gz", 14, ingest.JSONL, gen.WriteJSONL, gzipBytes)
	add("e.csv", 15, ingest.CSV, gen.WriteCSV, nil)
	return parts
}

func TestMixedDirectory(t *testing.T) {
	parts := mixedParts(t)
	dir := t.TempDir()
	var all []gen.Request
	bad := 0
	for _, p := range parts {
		if err := os.WriteFile(filepath.Join(dir, p.name), p.data, 0o644); err != nil {
			t.Fatal(err)
		}
		all = append(all, p.reqs...)
		bad += p.bad
		if p.bad == 0 {
			t.Fatalf("%s has no bad lines", p.name)
		}
	}
	// The CSV's times carry no zone: they are the generator's +08:00.
	rows, res := collect(t, []string{dir}, ingest.Options{Workers: 3, Location: time.FixedZone("+0800", 8*3600)})
	if len(res.Files) != len(parts) {
		t.Fatalf("%d files read, want %d", len(res.Files), len(parts))
	}
	for i, p := range parts {
		f := res.Files[i]
		if f.Path != filepath.Join(dir, p.name) || f.Format != p.format || f.Records != int64(len(p.reqs)) ||
			f.BadLines != int64(p.bad) || f.Incomplete {
			t.Errorf("%s: %+v; want %s, %d records, %d bad", p.name, f, p.format, len(p.reqs), p.bad)
		}
	}
	if res.BadLines() != int64(bad) {
		t.Errorf("%d bad lines, want %d", res.BadLines(), bad)
	}
	checkRows(t, "directory", rows, all)

	// A glob picks the two JSON-lines files.
	rows, res = collect(t, []string{filepath.Join(dir, "*.jsonl.*")}, ingest.Options{})
	if len(res.Files) != 2 || res.BadLines() != int64(parts[1].bad+parts[3].bad) {
		t.Errorf("glob: %+v", res.Files)
	}
	checkRows(t, "glob", rows, append(append([]gen.Request(nil), parts[1].reqs...), parts[3].reqs...))
}

func TestStdin(t *testing.T) {
	for _, p := range mixedParts(t) {
		// Compress the columnar files too: stdin and compressed columnar
		// input are read into memory.
		data := p.data
		if !strings.Contains(p.name, ".jsonl.") {
			data = gzipBytes(t, data)
		}
		rows, res := collect(t, []string{"-"}, ingest.Options{Stdin: bytes.NewReader(data), Location: time.FixedZone("+0800", 8*3600)})
		if len(res.Files) != 1 || res.Files[0].Path != "-" || res.Files[0].Format != p.format ||
			res.BadLines() != int64(p.bad) || res.Incomplete() {
			t.Errorf("stdin %s: %+v; want %s, %d bad", p.name, res.Files, p.format, p.bad)
		}
		checkRows(t, "stdin "+p.name, rows, p.reqs)
	}
}

// checkDamaged reads one damaged file: no panic, some records kept (at
// least minRecords, fewer than all), the file marked incomplete with a
// reason.
func checkDamaged(t *testing.T, name string, data []byte, minRecords, total int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, res := collect(t, []string{path}, ingest.Options{Workers: 2})
	f := res.Files[0]
	if !f.Incomplete || f.Reason == "" {
		t.Errorf("%s: not marked incomplete: %+v", name, f)
	}
	if f.Records < minRecords || f.Records >= total {
		t.Errorf("%s: %d records kept, want [%d, %d)", name, f.Records, minRecords, total)
	}
	t.Logf("%s: %d of %d records kept; %s", name, f.Records, total, f.Reason)
}

func TestDamagedInput(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 5, N: 30000})
	n := int64(len(reqs))
	jsonl, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteJSONL)
	gz, zs := gzipBytes(t, jsonl), zstdBytes(t, jsonl)
	checkDamaged(t, "cut.jsonl.gz", gz[:len(gz)*3/4], n/2, n)
	checkDamaged(t, "cut.jsonl.zst", zs[:len(zs)*3/4], n/2, n)

	pq, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteParquet)
	checkDamaged(t, "cut.parquet", pq[:len(pq)-100], 0, n)
	// Overwrite the middle of the last row group's request_time column:
	// the row groups before it are kept.
	pf, err := parquet.OpenFile(bytes.NewReader(pq), int64(len(pq)))
	if err != nil {
		t.Fatal(err)
	}
	groups := pf.Metadata().RowGroups
	if len(groups) < 3 {
		t.Fatalf("%d row groups, want several", len(groups))
	}
	last := groups[len(groups)-1]
	col := -1
	for i, c := range pf.Schema().Columns() {
		if len(c) == 1 && c[0] == "request_time" {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("no request_time column")
	}
	md := last.Columns[col].MetaData
	bad := append([]byte(nil), pq...)
	mid := md.DataPageOffset + md.TotalCompressedSize/2
	for i := mid; i < mid+64 && i < int64(len(bad)); i++ {
		bad[i] ^= 0x5a
	}
	before := n - last.NumRows
	checkDamaged(t, "corrupt.parquet", bad, before, n)

	for _, w := range []struct {
		name  string
		write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
	}{{"cut.arrow", gen.WriteArrow}, {"cut.arrows", gen.WriteArrowStream}} {
		data, _ := encode(t, reqs, gen.WriteOptions{}, w.write)
		// Cut in the fourth record batch of gen.ArrowBatch rows: three are kept.
		cut := len(data) * (3*gen.ArrowBatch + gen.ArrowBatch/2) / len(reqs)
		checkDamaged(t, w.name, data[:cut], 3*gen.ArrowBatch, n)
	}
	// A cut gzip'd stream is read into memory: what decompressed before
	// the cut still counts.
	stream, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteArrowStream)
	gzs := gzipBytes(t, stream)
	checkDamaged(t, "cut.arrows.gz", gzs[:len(gzs)*3/4], gen.ArrowBatch, n)
}

// skippable is a zstd skippable frame (RFC 8878 §3.1.2) of the given
// nibble and payload, as pzstd writes before each frame.
func skippable(nibble byte, payload []byte) []byte {
	out := []byte{0x50 | nibble, 0x2a, 0x4d, 0x18, 0, 0, 0, 0}
	out[4], out[5], out[6], out[7] = byte(len(payload)), byte(len(payload)>>8), byte(len(payload)>>16), byte(len(payload)>>24)
	return append(out, payload...)
}

// TestZstdFrames: a zstd log in several frames, each after a skippable
// frame (pzstd's layout), or starting with one, is read whole: every
// line a record, from a file and from stdin, as the same log plain.
func TestZstdFrames(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 9, N: 3000})
	jsonl, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteJSONL)
	lines := int64(bytes.Count(jsonl, []byte("\n")))
	cut := bytes.IndexByte(jsonl[len(jsonl)/3:], '\n') + len(jsonl)/3 + 1
	cut2 := bytes.IndexByte(jsonl[2*len(jsonl)/3:], '\n') + 2*len(jsonl)/3 + 1
	var pz []byte // pzstd: a skippable frame of the next frame's size before each
	for _, part := range [][]byte{jsonl[:cut], jsonl[cut:cut2], jsonl[cut2:]} {
		z := zstdBytes(t, part)
		pz = append(pz, skippable(0, []byte{byte(len(z)), byte(len(z) >> 8), byte(len(z) >> 16), byte(len(z) >> 24)})...)
		pz = append(pz, z...)
	}
	inputs := map[string][]byte{
		"pzstd":             pz,
		"skippable first":   append(skippable(0xf, []byte("seek table, or anything")), zstdBytes(t, jsonl)...),
		"empty skippable":   append(skippable(3, nil), zstdBytes(t, jsonl)...),
		"frames, no header": append(zstdBytes(t, jsonl[:cut]), zstdBytes(t, jsonl[cut:])...),
	}
	dir := t.TempDir()
	for name, data := range inputs {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jsonl.zst")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// Two workers read the stream on one goroutine, four on frame
		// decoders of their own.
		for _, w := range []int{2, 4} {
			_, res := read(t, []string{path}, ingest.Options{Workers: w})
			if res.Records() != lines || res.BadLines() != 0 || res.Incomplete() || res.Files[0].Format != ingest.JSONL {
				t.Errorf("%s file, %d workers: %d records, %d bad, incomplete %v, format %s; want %d jsonl", name, w, res.Records(), res.BadLines(), res.Incomplete(), res.Files[0].Format, lines)
			}
			_, res = read(t, []string{"-"}, ingest.Options{Stdin: bytes.NewReader(data), Workers: w})
			if res.Records() != lines || res.Incomplete() {
				t.Errorf("%s stdin, %d workers: %d records, incomplete %v; want %d", name, w, res.Records(), res.Incomplete(), lines)
			}
		}
	}
	// Cut short, a file of frames keeps the frames before the cut and
	// is marked incomplete, whichever way it is read.
	for _, w := range []int{2, 4} {
		path := filepath.Join(dir, "cut.jsonl.zst")
		if err := os.WriteFile(path, pz[:len(pz)*2/3], 0o644); err != nil {
			t.Fatal(err)
		}
		_, res := read(t, []string{path}, ingest.Options{Workers: w})
		if !res.Incomplete() || res.Records() < lines/3 || res.Records() >= lines || !strings.Contains(res.Files[0].Reason, "zstd") {
			t.Errorf("cut pzstd file, %d workers: %d of %d records, incomplete %v (%s)", w, res.Records(), lines, res.Incomplete(), res.Files[0].Reason)
		}
	}
}

// TestLinksHiddenAndTwice: a directory's symbolic links are read, to
// files and to directories (a Kubernetes node's /var/log/containers,
// all links), a link back up walked once; a glob's "*" skips hidden
// files as a shell's does, and ".*" takes them; a file named twice (its
// directory and itself, a link and its target, two hard links) is read
// once, and counted once in the bytes the progress shows.
func TestLinksHiddenAndTwice(t *testing.T) {
	parts := mixedParts(t)
	pods := t.TempDir()
	for _, p := range parts {
		if err := os.WriteFile(filepath.Join(pods, p.name), p.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	containers := t.TempDir()
	if err := os.Symlink(filepath.Join(pods, parts[0].name), filepath.Join(containers, "gw_"+parts[0].name)); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(containers, "sub")
	if err := os.Symlink(pods, sub); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(containers, filepath.Join(pods, "up")); err != nil { // a loop
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(pods, "gone"), filepath.Join(containers, "dangling.log")); err != nil {
		t.Fatal(err)
	}
	want := int64(0)
	for _, p := range parts {
		want += int64(len(p.reqs))
	}
	_, res := collect(t, []string{containers}, ingest.Options{Workers: 2})
	if got := res.Records(); got != want || len(res.Files) != len(parts) {
		t.Errorf("links: %d records in %d files, want %d in %d: %+v", got, len(res.Files), want, len(parts), res.Files)
	}
	if res.Files[0].Path != filepath.Join(containers, "gw_"+parts[0].name) {
		t.Errorf("first file %q, want the link's own path", res.Files[0].Path)
	}

	// Named twice: the directory, then a file in it.
	_, res = collect(t, []string{pods, filepath.Join(pods, parts[1].name)}, ingest.Options{})
	if got := res.Records(); got != want || len(res.Files) != len(parts) {
		t.Errorf("twice: %d records in %d files, want %d in %d", got, len(res.Files), want, len(parts))
	}

	// Two hard links of one file, and a relative path to it: one file.
	hard := t.TempDir()
	first := filepath.Join(hard, "access.log")
	if err := os.WriteFile(first, parts[1].data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(first, filepath.Join(hard, "access.log.1")); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, first)
	if err != nil {
		t.Fatal(err)
	}
	prog := &ingest.Progress{}
	_, res = collect(t, []string{hard, rel}, ingest.Options{Progress: prog})
	if got := res.Records(); got != int64(len(parts[1].reqs)) || len(res.Files) != 1 || res.Files[0].Path != first {
		t.Errorf("hard links: %d records in %+v, want %d in %q", got, res.Files, len(parts[1].reqs), first)
	}
	if n := int64(len(parts[1].data)); prog.TotalBytes.Load() != n || prog.BytesRead.Load() != n {
		t.Errorf("hard links: progress %d of %d bytes, want %d of %d", prog.BytesRead.Load(), prog.TotalBytes.Load(), n, n)
	}

	hidden := t.TempDir()
	for _, name := range []string{"a.jsonl", ".a.jsonl.Xy12Ab"} {
		if err := os.WriteFile(filepath.Join(hidden, name), parts[1].data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	one := int64(len(parts[1].reqs))
	for _, c := range []struct {
		glob    string
		records int64
	}{{"*", one}, {"*.jsonl*", one}, {".*", one}, {"*a*", one}} {
		_, res := collect(t, []string{filepath.Join(hidden, c.glob)}, ingest.Options{})
		if got := res.Records(); got != c.records {
			t.Errorf("glob %q: %d records, want %d", c.glob, got, c.records)
		}
	}
}

// TestFirstLineNotTheFiles: a JSON-lines or CLB file whose first line is
// none of its own (a program's warning, a line cut short by tail -c or
// split -b, garbage) is read as what its other lines are, that one line
// bad; named .log, so that only its content tells.
func TestFirstLineNotTheFiles(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 21, N: 400})
	jsonl, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteJSONL)
	clb, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteCLB)
	cut := func(b []byte) []byte { return b[bytes.IndexByte(b, ',')+1:] } // the first line's start lost
	for _, c := range []struct {
		name   string
		data   []byte
		format ingest.Format
		want   int
	}{
		{"warning", append([]byte("nginx: [warn] could not build optimal types_hash, you should increase types_hash_max_size\n"), jsonl...), ingest.JSONL, len(reqs)},
		{"cut", cut(jsonl), ingest.JSONL, len(reqs) - 1},
		{"garbage", append([]byte("\x1b[0m#!garbage line\n"), jsonl...), ingest.JSONL, len(reqs)},
		{"clb", append([]byte("=== log rotated ===\n"), clb...), ingest.CLB, len(reqs)},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, "access.log", string(c.data))
			rows, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
			f := res.Files[0]
			if f.Format != c.format || len(rows) != c.want || f.BadLines != 1 {
				t.Errorf("%s, %d records, %d bad lines; want %s, %d, 1: %v", f.Format, len(rows), f.BadLines, c.format, c.want, res.Problems)
			}
			if len(res.Problems) > 0 && res.Problems[0].Line != 1 {
				t.Errorf("the bad line is line %d, want 1", res.Problems[0].Line)
			}
		})
	}
}

// TestGzipMembersAndPadding: a gzip file of two members (cat a.gz b.gz)
// reads both; zero bytes after the last member (a copy padded to a
// block) are its end, not damage, as gzip -t takes them; anything else
// after it makes the file incomplete, what was read before kept.
func TestGzipMembersAndPadding(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 31, N: 300})
	jsonl, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteJSONL)
	one := gzipBytes(t, jsonl)
	for _, c := range []struct {
		name       string
		data       []byte
		records    int
		incomplete bool
	}{
		{"two members", append(append([]byte(nil), one...), one...), 2 * len(reqs), false},
		{"zero padding", append(append([]byte(nil), one...), make([]byte, 4096)...), len(reqs), false},
		{"two members, padded between and after", append(append(append(append([]byte(nil), one...), make([]byte, 512)...), one...), make([]byte, 10)...), 2 * len(reqs), false},
		{"text after", append(append([]byte(nil), one...), "garbage\n"...), len(reqs), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, res := collect(t, []string{writeTemp(t, "a.jsonl.gz", string(c.data))}, ingest.Options{Workers: 2, Location: time.UTC})
			if f := res.Files[0]; len(rows) != c.records || f.Incomplete != c.incomplete {
				t.Errorf("%d records, incomplete %v (%s); want %d, %v", len(rows), f.Incomplete, f.Reason, c.records, c.incomplete)
			}
		})
	}
}

// TestUTF16: text in UTF-16 (Windows PowerShell's "> file", Excel's
// "Unicode text"), with its byte-order mark or without, little or big
// endian, is read as the UTF-8 it decodes to: every record, no bad line.
func TestUTF16(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 51, N: 2000})
	jsonl, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteJSONL)
	tsv, _ := encode(t, reqs, gen.WriteOptions{}, gen.WriteTSV)
	// utf16 writes ASCII text b in UTF-16: each byte beside a zero.
	utf16 := func(b []byte, bom []byte, big bool) []byte {
		out := append([]byte(nil), bom...)
		for _, c := range b {
			if c >= 0x80 {
				t.Fatalf("not ASCII: %q", c)
			}
			if big {
				out = append(out, 0, c)
			} else {
				out = append(out, c, 0)
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"a.jsonl", utf16(jsonl, []byte{0xff, 0xfe}, false)},
		{"b.jsonl", utf16(jsonl, []byte{0xfe, 0xff}, true)},
		{"c.log", utf16(jsonl, nil, false)},
		{"d.txt", utf16(tsv, []byte{0xff, 0xfe}, false)},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, res := collect(t, []string{writeTemp(t, c.name, string(c.data))}, ingest.Options{Workers: 2, Location: time.FixedZone("+0800", 8*3600)})
			if res.BadLines() != 0 {
				t.Errorf("%d bad lines: %v", res.BadLines(), res.Problems)
			}
			checkRows(t, c.name, rows, reqs)
		})
	}
}

// TestProseIsNoKnownFormat: a README in a log directory is unread as a
// text of its own format, not taken for a known format that cuts its
// prose into fields and reads no line of it (it was an AWS ALB log,
// every line bad).
func TestProseIsNoKnownFormat(t *testing.T) {
	const readme = "# alp-json\n\n" +
		"- Repository: tkuchiki/alp — `example/logs/json_access.log`; commit adb01416feb3b2ecec3cb07a94346c55ac669be0; MIT\n" +
		"- Format: JSON lines from an nginx `log_format ... escape=json`: `time` (RFC 3339 +09:00), `method`, `uri`, `status`, `body_bytes`, `response_time` (seconds; `\"-\"` when absent); the last line also has `request_time`.\n\n" +
		"## Independent facts\n" +
		"- 14 lines, all valid JSON objects. Status 200 11, 400 2, 504 1.\n" +
		"- response_time (ms, n=11, `-` excluded): p50 123, p95/p99 lower-rank 432 / nearest 60000; max 60000.\n" +
		"- response_time-or-request_time (n=12): p50 123, p95/p99 lower-rank 432; mean 5159.7; max 60000.\n"
	_, res := collect(t, []string{writeTemp(t, "SOURCE.md", readme)}, ingest.Options{Workers: 1, Location: time.UTC})
	f := res.Files[0]
	if f.Source != "" || f.Records != 0 || !strings.Contains(f.Reason, "a format of its own") {
		t.Errorf("source %q, %d records, reason %q; want no source, unread as a format of its own", f.Source, f.Records, f.Reason)
	}
}

// TestArchivesNamed: an archive that is not read (7z) is unread with a
// reason that names it and says how to give its logs; binary content
// is unread as no log; never a log read with a record lost to a header.
// (Tar and zip archives, bzip2 and xz are read: archive_test.go.)
func TestArchivesNamed(t *testing.T) {
	for _, c := range []struct {
		name, data, want string
	}{
		{"logs.7z", "7z\xbc\xaf\x27\x1c\x00\x04\x8d\x9b\xd5\x0f", "a 7z archive"},
		// lzop's magic and header, as CLS ships logs to COS with lzop.
		{"202612031500_000_2.lzo", "\x89LZO\x00\r\n\x1a\n\x10\x40\x20\xa0\x09\x40\x01\x05\x03\x00\x00\x01", "lzop-compressed"},
		// Raw snappy blocks under snappy's name: no framing to tell them.
		{"202612031500_000_3.snappy", "\xa5\x8c\x11\x98{\"request_time\":\x01\x02\xfe\x00\x00\x13", "not snappy's framing format"},
		{"random.bin", "\x00\x01\x02\xfe\x88\x97binary\x00\x13\x07\x1b\xff\xd8\x01\x02\x03\x04\x05\x06", "binary content"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, res := collect(t, []string{writeTemp(t, c.name, c.data)}, ingest.Options{Workers: 1, Location: time.UTC})
			// No reader's format either: none read it.
			if f := res.Files[0]; len(rows) != 0 || !strings.Contains(f.Reason, c.want) || f.Format != "" {
				t.Errorf("%d records, format %q, reason %q; want none, no format, %q", len(rows), f.Format, f.Reason, c.want)
			}
		})
	}
}
