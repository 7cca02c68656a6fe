package ingest

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/ulikunitz/xz"
)

// expand turns the command-line paths into files: a directory gives every
// regular file below it (sorted, hidden ones skipped), symbolic links
// followed (a Kubernetes node's /var/log/containers holds nothing else),
// a glob its matches (hidden ones only where the pattern starts its name
// with a dot, as a shell's), "-" stays stdin. A file named twice (a glob
// and its directory, a link and its target, two hard links) is read
// once, where it was first named. A path that names nothing (a glob that
// matches nothing, a directory that cannot be read) is kept in its place
// with the reason in unopened, to be listed unread beside what the others
// give; a bad glob is an error. sizes holds each file's size when it is
// a regular file, else −1.
func expand(paths []string) (files []string, sizes []int64, unopened map[string]string, err error) {
	unopened = map[string]string{}
	out, err := expandPaths(paths, unopened)
	if err != nil {
		return nil, nil, nil, err
	}
	seen := make(map[fileKey]bool, len(out))
	kept := out[:0]
	for _, p := range out {
		size := int64(-1)
		if p != "-" {
			var key fileKey
			key, size = identify(p)
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		kept = append(kept, p)
		sizes = append(sizes, size)
	}
	return kept, sizes, unopened, nil
}

// fileKey names a file: by its device and inode where the system gives
// them, else by its absolute path with its links resolved.
type fileKey struct {
	dev, ino uint64
	path     string
}

// identify returns the key of the file path names, and its size when it
// is a regular file (else −1). One stat names a file by its inode, where
// resolving each link of its path took one per directory above it, per
// file: most of the work of listing a directory of many small files.
func identify(path string) (fileKey, int64) {
	size := int64(-1)
	st, err := os.Stat(path)
	if err == nil {
		if st.Mode().IsRegular() {
			size = st.Size()
		}
		if dev, ino, ok := fileID(st); ok {
			return fileKey{dev: dev, ino: ino}, size
		}
	}
	key := path // one that names nothing: by its absolute path too
	if abs, err := filepath.Abs(path); err == nil {
		key = abs
	}
	if real, err := filepath.EvalSymlinks(key); err == nil {
		key = real
	}
	return fileKey{path: key}, size
}

func expandPaths(paths []string, unopened map[string]string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "-" {
			out = append(out, p)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			if hasMeta(p) {
				matches, gerr := filepath.Glob(p)
				if gerr != nil {
					return nil, fmt.Errorf("bad glob %q: %w", p, gerr)
				}
				matches = unhidden(p, matches)
				if len(matches) == 0 {
					out, unopened[p] = append(out, p), fmt.Sprintf("no file matches %q", p)
					continue
				}
				sub, err := expandPaths(matches, unopened)
				if err != nil {
					return nil, err
				}
				out = append(out, sub...)
				continue
			}
			out, unopened[p] = append(out, p), fmt.Sprintf("cannot open %q: %v", p, unwrapPathError(err))
			continue
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		walkFiles(p, map[string]bool{}, &found, unopened)
		sort.Strings(found)
		out = append(out, committedOnly(found)...)
	}
	return out, nil
}

// walkFiles appends the regular files below directory root to found,
// hidden ones skipped, following symbolic links to files and
// directories; a directory already walked (a link back up) is not
// walked again. One that cannot be read is found, its reason in
// unopened.
func walkFiles(root string, walked map[string]bool, found *[]string, unopened map[string]string) error {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		if walked[real] {
			return nil
		}
		walked[real] = true
	}
	if st, err := os.Lstat(root); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		// WalkDir does not follow its root when that is a link; a
		// trailing separator does.
		root += string(filepath.Separator)
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			*found, unopened[path] = append(*found, path), fmt.Sprintf("cannot read %q: %v", path, unwrapPathError(err))
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if path != root && (hiddenName(d.Name()) || !d.IsDir() && queryMetadata(path)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() && path != root {
			if real, err := filepath.EvalSymlinks(path); err == nil {
				if walked[real] {
					return filepath.SkipDir
				}
				walked[real] = true
			}
		}
		switch {
		case d.Type().IsRegular():
			*found = append(*found, path)
		case d.Type()&fs.ModeSymlink != 0:
			st, err := os.Stat(path)
			if err != nil {
				return nil // a link to nothing: no file to read
			}
			if st.Mode().IsRegular() {
				*found = append(*found, path)
			} else if st.IsDir() {
				return walkFiles(path, walked, found, unopened)
			}
		}
		return nil
	})
}

// hiddenName reports whether a file or directory a directory's walk
// finds is passed over: a hidden one (a dot first: an rsync's temporary
// copy, an editor's swap file, Hadoop's .crc checksums), or one whose
// name begins with "_", as Hadoop's and Spark's readers pass them over
// (FileInputFormat's hiddenFileFilter, Spark's InMemoryFileIndex
// shouldFilterOutPathName): a job's _SUCCESS marker, which the S3A
// and manifest committers write as a JSON summary of the job,
// Databricks' _started_ and _committed_ files, and _temporary, where a
// running or failed job's attempts write their parts.
func hiddenName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// committedOnly returns the files of found (a directory's walk) but
// those a Databricks job wrote and did not commit. Its DBIO commit
// protocol names each data file with the job's transaction,
// part-…-tid-<id>-…, writes _started_<id> as the job starts and
// _committed_<id>, {"added":[…],"removed":[…]}, as it commits: a
// directory read as a directory holds only the files a commit added and
// none removed, while an aborted or running job's stay until VACUUM
// (docs.databricks.com/archive/legacy/dbio-commit.html: reading the
// path returns only committed changes, its "path/*" every file). A
// directory without such markers is read whole.
func committedOnly(found []string) []string {
	type commit struct{ Added, Removed []string }
	byDir := map[string]map[string]bool{} // of a DBIO directory: the files committed
	kept := found[:0]
	for _, f := range found {
		dir, name := filepath.Split(f)
		committed, seen := byDir[dir]
		if !seen {
			entries, _ := os.ReadDir(dir)
			var removed []string
			for _, e := range entries {
				id, started := strings.CutPrefix(e.Name(), "_started_")
				if c, ok := strings.CutPrefix(e.Name(), "_committed_"); ok {
					id, started = c, true
					var cm commit
					if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && json.Unmarshal(b, &cm) == nil {
						if committed == nil {
							committed = map[string]bool{}
						}
						for _, a := range cm.Added {
							committed[a] = true
						}
						removed = append(removed, cm.Removed...)
					}
				}
				if started && id != "" && committed == nil {
					committed = map[string]bool{} // a transaction, none committed yet
				}
			}
			for _, r := range removed {
				delete(committed, r)
			}
			byDir[dir] = committed
		}
		if committed == nil || committed[name] || !strings.Contains(name, "-tid-") {
			kept = append(kept, f)
		}
	}
	return kept
}

// queryMetadata reports whether path is the metadata Amazon Athena writes
// beside a query's result, X.metadata beside X (a binary file:
// docs.aws.amazon.com/athena/latest/ug/querying-finding-output-files.html),
// which a directory's walk passes over.
func queryMetadata(path string) bool {
	data, ok := strings.CutSuffix(path, ".metadata")
	if !ok {
		return false
	}
	st, err := os.Stat(data)
	return err == nil && st.Mode().IsRegular()
}

// unhidden drops the matches of glob pattern whose names are hidden
// (hiddenName: a dot or "_" first) where the pattern's are not: a
// shell's "*" matches no name of a dot, and Hadoop's and Spark's
// readers match none of "_" either (part-* and _SUCCESS beside it).
func unhidden(pattern string, matches []string) []string {
	pat := strings.Split(filepath.ToSlash(pattern), "/")
	kept := matches[:0]
	for _, m := range matches {
		parts := strings.Split(filepath.ToSlash(m), "/")
		hidden := false
		for i, part := range parts {
			if i < len(pat) && hasMeta(pat[i]) && !hiddenName(pat[i]) && hiddenName(part) {
				hidden = true
				break
			}
		}
		if !hidden {
			kept = append(kept, m)
		}
	}
	return kept
}

func hasMeta(p string) bool { return strings.ContainsAny(p, "*?[") }

func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// open opens a file, or stdin for "-".
func open(path string, stdin io.Reader) (io.ReadCloser, error) {
	if path == "-" {
		return io.NopCloser(stdin), nil
	}
	f, err := openFile(path)
	if err != nil {
		return nil, &openError{fmt.Errorf("cannot open %q: %w", path, unwrapPathError(err))}
	}
	return f, nil
}

// openError is a file that could not be opened: nothing of it was seen.
type openError struct{ err error }

func (e *openError) Error() string { return e.err.Error() }
func (e *openError) Unwrap() error { return e.err }

// headBuffer is the buffer decompress is given its input in, from
// which it peeks the magic bytes.
const headBuffer = 64 << 10

// decompress recognises gzip and zstd by their magic bytes (a zstd
// stream by its first frame's, skippable or not) in br, an input's
// bytes buffered, and returns the decompressed stream (br itself for
// plain bytes), and the name without its compression suffix (for the
// format's extension).
//
// With decoders of 2 or more, a zstd stream is decoded a frame per
// goroutine on that many (zstdFrames); a reader that is an io.Closer is
// to be closed.
//
// A gzip reader is taken from gz (nil: a new one), to be put back once
// the stream is read (gzipMembers.zr).
func decompress(br *bufio.Reader, name string, decoders int, gz *gzipPool) (io.Reader, string, error) {
	magic, _ := br.Peek(4)
	base := name
	switch head, _ := br.Peek(10); {
	case bzip2Magic(head):
		base = strings.TrimSuffix(strings.TrimSuffix(name, ".bz2"), ".bzip2")
		return bzip2.NewReader(br), base, nil
	case bytes.HasPrefix(head, xzMagic):
		base = strings.TrimSuffix(name, ".xz")
		zr, err := xz.NewReader(br)
		if err != nil {
			return nil, base, fmt.Errorf("bad xz stream: %w", err)
		}
		return zr, base, nil
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		base = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".gzip")
		zr, err := gz.get(br)
		if err != nil {
			return nil, base, fmt.Errorf("bad gzip header: %w", err)
		}
		zr.Multistream(false)
		return &gzipMembers{zr: zr, br: br}, base, nil
	case bytes.HasPrefix(head, snappyMagic):
		// Snappy's framing format (snappy's framing_format.txt): what
		// Tencent Cloud CLS ships to COS with snappy compression.
		base = strings.TrimSuffix(name, ".snappy")
		return streamReader{snappy.NewReader(br), "snappy"}, base, nil
	case len(magic) == 4 && lz4FrameMagic(binary.LittleEndian.Uint32(magic)):
		base = strings.TrimSuffix(name, ".lz4")
		zr := lz4.NewReader(br) // frames one after another, on the caller's goroutine
		return streamReader{zr, "lz4"}, base, nil
	case len(magic) == 4 && zstdFrameMagic(binary.LittleEndian.Uint32(magic)):
		base = strings.TrimSuffix(strings.TrimSuffix(name, ".zst"), ".zstd")
		if decoders > 1 {
			zr, err := newZstdFrames(br, decoders)
			if err != nil {
				return nil, base, fmt.Errorf("bad zstd stream: %w", err)
			}
			return zr, base, nil
		}
		zr, err := newZstdStream(br)
		if err != nil {
			return nil, base, fmt.Errorf("bad zstd stream: %w", err)
		}
		return zstdReader{zr}, base, nil
	}
	return br, base, nil
}

// lz4FrameMagic reports whether magic begins an LZ4 frame, as the lz4
// command writes it (a .lz4 file), or its legacy frame (lz4 -l). A
// skippable frame's magic, which LZ4 and zstd share, is read as zstd's.
func lz4FrameMagic(magic uint32) bool { return magic == 0x184D2204 || magic == 0x184C2102 }

// streamReader says what failed of a decompressed stream (an LZ4 or a
// snappy one): a stream cut short is truncated, as a gzip one is, any
// other error bad, named.
type streamReader struct {
	r    io.Reader
	what string // "lz4", "snappy"
}

func (z streamReader) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	if err != nil && err != io.EOF {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return n, io.ErrUnexpectedEOF
		}
		err = fmt.Errorf("bad %s stream: %w", z.what, err)
	}
	return n, err
}

// snappyMagic begins a stream of snappy's framing format: its stream
// identifier chunk.
var snappyMagic = []byte("\xff\x06\x00\x00sNaPpY")

// xzMagic begins an xz stream.
var xzMagic = []byte("\xfd7zXZ\x00")

// bzip2Magic reports whether head begins a bzip2 stream: "BZh", the
// block size's digit, then a block's magic (π's digits) or the empty
// stream's end (√π's), so that a text line beginning "BZh1" is not one.
func bzip2Magic(head []byte) bool {
	if len(head) < 10 || string(head[:3]) != "BZh" || head[3] < '1' || head[3] > '9' {
		return false
	}
	m := string(head[4:10])
	return m == "\x31\x41\x59\x26\x53\x59" || m == "\x17\x72\x45\x38\x50\x90"
}

// gzipPool keeps the gzip readers files were read with, for the next
// on the same goroutine: a reader's window and tables, made and cleared
// anew for each file, were a fifth of reading a directory of many small
// .gz files (rotated logs). A file within an archive takes one of its
// own while the archive's is in use.
type gzipPool struct{ free []*gzip.Reader }

// get returns a reader of the gzip stream r: a kept one reset to it, or
// a new one; nil gz makes a new one.
func (gz *gzipPool) get(r io.Reader) (*gzip.Reader, error) {
	if gz == nil || len(gz.free) == 0 {
		return gzip.NewReader(r)
	}
	zr := gz.free[len(gz.free)-1]
	gz.free = gz.free[:len(gz.free)-1]
	if err := zr.Reset(r); err != nil {
		gz.free = append(gz.free, zr) // Reset makes it anew the next time
		return nil, err
	}
	return zr, nil
}

// put keeps zr, whose stream is read, for a later get.
func (gz *gzipPool) put(zr *gzip.Reader) { gz.free = append(gz.free, zr) }

// gzipMembers reads a gzip file's members one after another (cat a.gz
// b.gz), as gzip -d does, and its zero bytes after the last as its end:
// a file padded to a block's size (a tape's, a copy's) holds them, which
// gzip -t accepts and a reader that takes them for the next member's
// header calls damage.
type gzipMembers struct {
	zr *gzip.Reader
	br *bufio.Reader
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		if n > 0 {
			return n, nil
		}
		if !g.nextMember() {
			return 0, io.EOF
		}
		if err := g.zr.Reset(g.br); err != nil {
			return 0, err
		}
		g.zr.Multistream(false)
	}
}

// nextMember skips zero bytes and reports whether anything follows them,
// the next member (or what Reset then refuses).
func (g *gzipMembers) nextMember() bool {
	for {
		b, err := g.br.Peek(1)
		if err != nil {
			return false
		}
		if b[0] != 0 {
			return true
		}
		if _, err := g.br.Discard(1); err != nil {
			return false
		}
	}
}

// zstdReader reports a stream cut short as io.ErrUnexpectedEOF.
type zstdReader struct{ d *zstd.Decoder }

func (z zstdReader) Read(p []byte) (int, error) {
	n, err := z.d.Read(p)
	if err != nil && err != io.EOF {
		return n, fmt.Errorf("zstd: %w", err)
	}
	return n, err
}
