package ingest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"sync"
	"time"
)

// MaxSeen is how many field names FileStats.Seen keeps.
const MaxSeen = 40

// MaxLine is the longest line read; a longer one is a bad line.
const MaxLine = 1 << 20

// chunkSize is how many bytes of a JSON document's elements one unit of
// work holds.
const chunkSize = 256 << 10

// Options configure a run of the pipeline.
type Options struct {
	Format Format // Auto detects per file
	// Source forces a source schema (SourceNames); "" detects it per file.
	Source string
	// LogFormats are log formats (nginx log_format or Envoy format
	// strings, or known formats' names) for text logs: each text file is
	// read with the one, given or known, that most of its first lines
	// follow.
	LogFormats []string
	Schema     *Schema        // field names; nil means the built-in one
	Location   *time.Location // zone of timestamps without one; nil is UTC
	Workers    int            // parallel parsers; 0 means one per CPU
	// MaxProblems is how many bad lines are sampled per file (default 20).
	MaxProblems int
	Stdin       io.Reader // read for the path "-"
	// Progress, when set, is updated as the run goes.
	Progress *Progress
	// blockSize is the bytes per read of a text file; 0 is blockSize.
	// Tests make it small to cut lines at every place.
	blockSize int
}

// Sink consumes records. Each worker has its own, so a Sink need not be
// safe for concurrent use; the record is valid only during the call.
type Sink interface {
	Add(r *Record)
}

// fileState is one input while it is read. The reader fills it before
// sending the file's first unit; workers only read it.
type fileState struct {
	index  int
	path   string
	format Format
	source string   // FileStats.Source
	seen   []string // FileStats.Seen
	cfg    parserConfig
	// Written by the reader only, read after the run.
	incomplete bool
	reason     string
	mapped     *fileMap // of a file read in place
	mapFirst   int64    // the line its first block begins at
}

// unit is one piece of work: a run of whole lines, the elements of a JSON
// document, or decoded records.
type unit struct {
	file  *fileState
	line  int64 // number of the first line in data
	data  []byte
	elems []docSpan // a document's elements in data; nil for lines
	buf   *[]byte   // returned to the pool when done
	// mapped is the mapping data is a part of, at off, block seq of
	// the file (mapped.go); line is then 1, the block's first.
	mapped *fileMap
	off    int
	seq    int
	cells  *cellBatch // rows of a columnar file as cells; returned to cellPool
	group  *pqGroup   // a row group of a Parquet file, for the worker to decode
}

// Run reads every path (files, directories, globs, "-" for stdin) with
// opts.Workers parallel workers, each feeding its own sink from newSink.
// It returns the sinks for the caller to merge. The error is for a run that
// cannot start (a missing path); damaged input is reported in the Result.
func Run[S Sink](paths []string, opts Options, newSink func() S) ([]S, *Result, error) {
	inputs, err := expand(paths)
	if err != nil {
		return nil, nil, err
	}
	if opts.Format == "" {
		opts.Format = Auto
	}
	if opts.Schema == nil {
		opts.Schema, _ = NewSchema(nil)
	}
	if opts.Location == nil {
		opts.Location = time.UTC
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.MaxProblems <= 0 {
		opts.MaxProblems = 20
	}
	if opts.Stdin == nil {
		opts.Stdin = emptyReader{}
	}
	if opts.Progress == nil {
		opts.Progress = &Progress{}
	}
	opts.Progress.TotalBytes.Store(fileSizes(inputs))
	opts.Progress.FileCount.Store(int64(len(inputs)))

	p := &pipeline{opts: opts, work: make(chan unit, 2*opts.Workers), known: compileKnown(opts.Schema)}
	for _, s := range opts.LogFormats {
		f, err := compileLogFormat(s, opts.Schema)
		if err != nil {
			return nil, nil, fmt.Errorf("log format %q: %w", s, err)
		}
		p.given = append(p.given, f)
	}
	p.pool.New = func() any { b := make([]byte, 0, chunkSize+MaxLine+1); return &b }
	p.blocks = newBlocks(cap(p.work)+opts.Workers+2, opts.blockSize)
	sinks := make([]S, opts.Workers)
	tallies := make([]*tally, opts.Workers)
	var wg sync.WaitGroup
	for w := range opts.Workers {
		sinks[w] = newSink()
		tallies[w] = &tally{max: opts.MaxProblems, badN: &opts.Progress.BadLines}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.worker(sinks[w], tallies[w])
		}()
	}
	p.reader = &tally{max: opts.MaxProblems, badN: &opts.Progress.BadLines}
	var files []*fileState
	for i, in := range inputs {
		fs := &fileState{index: i, path: in, cfg: parserConfig{schema: opts.Schema, loc: opts.Location}}
		files = append(files, fs)
		p.opts.Progress.Files.Add(1)
		before := p.opts.Progress.BytesRead.Load()
		if err := p.readFile(fs); err != nil {
			fs.incomplete, fs.reason = true, err.Error()
		}
		// Columnar files are read in place, not through the counter.
		if st, err := os.Stat(in); in != "-" && err == nil && st.Mode().IsRegular() {
			p.opts.Progress.BytesRead.Store(before + st.Size())
		}
	}
	close(p.work)
	wg.Wait()
	for _, fs := range files {
		fs.afterMapped(tallies)
	}

	res := &Result{}
	for _, fs := range files {
		st := FileStats{Path: fs.path, Format: fs.format, Source: fs.source, Seen: fs.seen, Incomplete: fs.incomplete, Reason: fs.reason}
		var probs []Problem
		for _, t := range append(tallies, p.reader) {
			if fs.index < len(t.files) {
				c := &t.files[fs.index]
				st.Records += c.records
				st.BadLines += c.bad
				probs = append(probs, c.problems...)
			}
		}
		sort.Slice(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
		if len(probs) > opts.MaxProblems {
			probs = probs[:opts.MaxProblems]
		}
		res.Files = append(res.Files, st)
		res.Problems = append(res.Problems, probs...)
	}
	return sinks, res, nil
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, io.EOF }

type pipeline struct {
	opts   Options
	work   chan unit
	pool   sync.Pool // the buffers of JSON documents' elements
	blocks *blocks   // the buffers of text files' lines
	reader *tally    // bad lines found by the reader (over-long lines, bad rows)
	// The compiled log formats: given (Options.LogFormats), then known.
	given, known []*logFormat
}

func (p *pipeline) worker(sink Sink, t *tally) {
	parsers := map[*fileState]lineParser{}
	var rec Record
	for u := range p.work {
		if u.cells != nil {
			p.cellRows(&u, sink, t, &rec)
			continue
		}
		if u.group != nil {
			p.parquetGroup(&u, sink, t, &rec)
			continue
		}
		lp := parsers[u.file]
		if lp == nil {
			var err error
			if lp, err = newLineParser(u.file.format, &u.file.cfg); err != nil {
				// The reader checks this before sending; unreachable.
				panic("BUG: " + err.Error())
			}
			parsers[u.file] = lp
		}
		if u.elems != nil {
			p.parseDoc(u, lp, sink, t, &rec)
			p.pool.Put(u.buf)
			continue
		}
		if u.mapped != nil {
			p.mappedLines(&u, lp, sink, t, &rec)
		} else {
			p.lines(&u, lp, sink, t, &rec)
		}
		if u.buf != nil {
			p.blocks.put(u.buf)
		}
	}
}

// lines cuts a unit of lines and parses each into the worker's sink,
// and returns how many it cut.
func (p *pipeline) lines(u *unit, lp lineParser, sink Sink, t *tally, rec *Record) int64 {
	c := t.get(u.file.index)
	data, line := u.data, u.line
	records := c.records
	defer func() { p.opts.Progress.Records.Add(c.records - records) }()
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		long := len(l) > MaxLine
		if n := len(l); n > 0 && l[n-1] == '\r' {
			l = l[:n-1]
		}
		if long {
			t.bad(u.file, line, errLongLine)
		} else if !blank(l) {
			rec.reset(u.file.cfg.schema)
			if err := lp.Parse(l, rec); err != nil {
				t.bad(u.file, line, err.Error())
			} else if rec.Fields() == 0 {
				// Well-formed, but nothing in it is a request field:
				// a header-less CSV, a foreign log, an empty object.
				t.bad(u.file, line, errNoField)
			} else {
				c.records++
				sink.Add(rec)
			}
		}
		line++
	}
	return line - u.line
}

// errNoField is the reason for a line with no field loganalyze knows.
const errNoField = "no field loganalyze knows (see --map)"

func blank(l []byte) bool {
	for _, c := range l {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}
