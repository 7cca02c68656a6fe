package ingest

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// An archive's kinds that readArchive reads.
const (
	tarArchive = "tar"
	zipArchive = "zip"
)

// archiveKind returns tarArchive or zipArchive when head begins one (a
// POSIX or GNU tar: "ustar" at byte 257; a zip's first local file
// header), else "".
func archiveKind(head []byte) string {
	switch {
	case len(head) > 262 && string(head[257:262]) == "ustar":
		return tarArchive
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return zipArchive
	}
	return ""
}

// memberSep joins an archive's path and the name of a file within it,
// as the report lists the file: "logs.tar.gz!/nginx/access.log".
const memberSep = "!/"

// readArchive reads each regular file of a tar (within gzip or zstd
// too) or zip archive as a file of its own, after fs in the files the
// report lists, in the archive's order: its format, source and bad
// lines are its own, as a directory's files are. Directories, links and
// hidden files (a name or directory beginning with a dot, macOS's
// __MACOSX) are not files to read; an archive within one is named, not
// read. fs itself is then not listed, unless no file of it was read (a
// damaged first header, an archive of none): the error says so. An
// archive cut short marks the last file read from it incomplete.
func (p *pipeline) readArchive(fs *fileState, kind string, br *bufio.Reader, r io.Reader, in input) error {
	fs.archive = true
	files := 0
	var last *fileState
	member := func(name string, open func() (io.ReadCloser, error)) {
		name = path.Clean("/" + strings.ReplaceAll(name, "\\", "/"))[1:]
		if name == "" || hiddenMember(name) {
			return
		}
		files++
		m := p.newFile(fs.path + memberSep + name)
		last = m
		rc, err := open()
		if err == nil {
			err = p.readStream(m, input{r: rc, raw: rc, size: -1, within: true})
			rc.Close()
		}
		if err != nil {
			m.incomplete, m.reason = true, err.Error()
		}
	}
	switch kind {
	case tarArchive:
		tr := tar.NewReader(br)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				err = readError(err)
				if last == nil {
					return fmt.Errorf("a tar archive whose first file does not read: %w", err)
				}
				// The archive was read in part: its files read are
				// listed, the last one with where the rest was lost
				// (already when the cut was within it).
				if !last.incomplete {
					last.incomplete, last.reason = true, "the tar archive is damaged or cut short after this file: "+err.Error()
				}
				return nil
			}
			if h.Typeflag != tar.TypeReg { // (the reader gives the old '\x00' as TypeReg)
				continue
			}
			member(h.Name, func() (io.ReadCloser, error) { return io.NopCloser(tr), nil })
		}
	case zipArchive:
		src, size, done, err := readerAt(br, r, in)
		defer done()
		if err != nil {
			return readError(fmt.Errorf("a zip archive not read whole: %w", err))
		}
		zr, err := zip.NewReader(src, size)
		if err != nil {
			return fmt.Errorf("a zip archive whose directory does not read: %w", err)
		}
		if doc := officeDocument(zr.File); doc != "" {
			return fmt.Errorf("%s, not a log this reads: save its sheet as CSV (UTF-8) and give that file", doc)
		}
		for _, f := range zr.File {
			if !f.Mode().IsRegular() {
				continue
			}
			member(f.Name, func() (io.ReadCloser, error) {
				rc, err := f.Open()
				if errors.Is(err, zip.ErrAlgorithm) {
					return nil, fmt.Errorf("compressed with method %d, which zip readers seldom read: unpack it (unzip) and give the file", f.Method)
				}
				return rc, err
			})
		}
	}
	if files == 0 {
		return fmt.Errorf("a %s archive with no file in it", kind)
	}
	return nil
}

// readerAt returns an archive's bytes for random access (a zip's
// directory is at its end): the file on disk itself when it is one, not
// compressed; else a copy in a temporary file, which done removes, so
// that a zip on stdin takes no memory of its size (in memory only when
// no temporary file can be made).
func readerAt(br *bufio.Reader, r io.Reader, in input) (src io.ReaderAt, size int64, done func(), err error) {
	if f, ok := in.raw.(*os.File); ok && isPlain(r) && in.size >= 0 {
		return f, in.size, func() {}, nil
	}
	return spool(br)
}

// spool copies what r gives to a temporary file for random access, which
// done removes; into memory when no temporary file can be made, or when
// writing it fails (a full disk): what it held is read back first, so
// nothing r gave is lost.
func spool(r io.Reader) (src io.ReaderAt, size int64, done func(), err error) {
	inMemory := func(head []byte) (io.ReaderAt, int64, func(), error) {
		buf := bytes.NewBuffer(head) // the rest read after it, not copied again
		_, err := buf.ReadFrom(r)
		return bytes.NewReader(buf.Bytes()), int64(buf.Len()), func() {}, err
	}
	tmp, err := createTemp()
	if err != nil {
		return inMemory(nil)
	}
	done = func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}
	w := &spoolWriter{f: tmp}
	size, err = io.Copy(w, r)
	if w.err != nil { // the file is short of what was read: memory then
		head := make([]byte, w.n, w.n+int64(len(w.rest)))
		if _, rerr := tmp.ReadAt(head, 0); rerr != nil && rerr != io.EOF {
			done()
			return nil, 0, func() {}, fmt.Errorf("cannot read back a temporary copy: %w", rerr)
		}
		done()
		return inMemory(append(head, w.rest...))
	}
	return tmp, size, done, err
}

// spoolFile is a temporary file as spool uses it.
type spoolFile interface {
	io.Writer
	io.ReaderAt
	Close() error
	Name() string
}

// createTemp makes spool's temporary file (a test's, one that fills).
var createTemp = func() (spoolFile, error) { return os.CreateTemp("", "loganalyze-*") }

// spoolWriter writes to a temporary file and, once a write fails, keeps
// the rest of that write for memory (spool): n bytes are in the file.
type spoolWriter struct {
	f    spoolFile
	n    int64
	err  error
	rest []byte
}

func (w *spoolWriter) Write(b []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	k, err := w.f.Write(b)
	w.n += int64(k)
	if err != nil {
		w.err, w.rest = err, append([]byte(nil), b[k:]...)
		return len(b), errSpoolFull // the caller stops; spool reads on
	}
	return k, nil
}

// errSpoolFull stops io.Copy at a failed write of a temporary copy.
var errSpoolFull = errors.New("temporary copy not written")

// hiddenMember reports whether an archive's file is hidden, as a
// directory's walk passes it over (hiddenName): a name or a directory
// that begins with a dot (an editor's swap file, macOS's ._ resource
// forks) or with "_" (a Spark job's _SUCCESS and _temporary; macOS's
// __MACOSX directory of its resource forks).
func hiddenMember(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if hiddenName(part) {
			return true
		}
	}
	return false
}

// officeDocument names the office document a zip archive is, or "": an
// Office Open XML one (Excel's .xlsx, Word's .docx, PowerPoint's .pptx:
// "[Content_Types].xml" and the application's folder) or an
// OpenDocument one (its first member "mimetype"). Its members are XML,
// no log's lines.
func officeDocument(files []*zip.File) string {
	types, dirs := false, map[string]bool{}
	for _, f := range files {
		if f.Name == "[Content_Types].xml" {
			types = true
		}
		if dir, _, ok := strings.Cut(f.Name, "/"); ok {
			dirs[dir] = true
		}
	}
	switch {
	case types && dirs["xl"]:
		return "an Excel workbook (.xlsx)"
	case types && (dirs["word"] || dirs["ppt"]):
		return "an Office document (.docx, .pptx)"
	case len(files) > 0 && files[0].Name == "mimetype" && dirs["META-INF"]:
		return "an OpenDocument file (.ods, .odt)"
	}
	return ""
}
