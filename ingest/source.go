package ingest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// expand turns the command-line paths into files: a directory gives every
// regular file below it (sorted, hidden ones skipped), a glob its matches,
// "-" stays stdin. A path that names nothing is an error.
func expand(paths []string) ([]string, error) {
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
				if len(matches) == 0 {
					return nil, fmt.Errorf("no file matches %q", p)
				}
				sub, err := expand(matches)
				if err != nil {
					return nil, err
				}
				out = append(out, sub...)
				continue
			}
			return nil, fmt.Errorf("cannot open %q: %w", p, unwrapPathError(err))
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return fmt.Errorf("cannot read %q: %w", path, unwrapPathError(err))
			}
			name := d.Name()
			if path != p && strings.HasPrefix(name, ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
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
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open %q: %w", path, unwrapPathError(err))
	}
	return f, nil
}

// decompress recognises gzip and zstd by their magic bytes (a zstd
// stream by its first frame's, skippable or not) and returns the
// decompressed stream, and the name without its compression suffix (for
// the format's extension).
//
// With decoders of 2 or more, a zstd stream is decoded a frame per
// goroutine on that many (zstdFrames); a reader that is an io.Closer is
// to be closed.
func decompress(r io.Reader, name string, decoders int) (io.Reader, string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, _ := br.Peek(4)
	base := name
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		base = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".gzip")
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, base, fmt.Errorf("bad gzip header: %w", err)
		}
		return zr, base, nil
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

// zstdReader reports a stream cut short as io.ErrUnexpectedEOF.
type zstdReader struct{ d *zstd.Decoder }

func (z zstdReader) Read(p []byte) (int, error) {
	n, err := z.d.Read(p)
	if err != nil && err != io.EOF {
		return n, fmt.Errorf("zstd: %w", err)
	}
	return n, err
}
