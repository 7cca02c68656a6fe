package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	// Window, when it has a bound, places the bad lines, elements and
	// rows in or outside it (FileStats.BadLinesOutside; badPlacer);
	// records are the sink's to keep or skip.
	Window Window
	// Source forces a source schema (SourceNames); "" detects it per file.
	Source string
	// LogFormats are log formats (nginx log_format or Envoy format
	// strings, or known formats' names) for text logs: each text file is
	// read with the one, given or known, that most of its first lines
	// follow.
	LogFormats []string
	// CSVHeader, when set, is the header row of CSV and TSV files written
	// without one ("time,region,request_time", cut as the file's rows
	// are): a file whose first row is not this row has it as a record.
	CSVHeader string
	Schema    *Schema        // field names; nil means the built-in one
	Location  *time.Location // zone of timestamps without one; nil is UTC
	Workers   int            // parallel parsers; 0 means one per CPU
	// MaxProblems is how many bad lines are sampled per file (default 20).
	MaxProblems int
	Stdin       io.Reader // read for the path "-"
	// Progress, when set, is updated as the run goes.
	Progress *Progress
	// blockSize is the bytes per read of a text file; 0 is blockSize.
	// Tests make it small to cut lines at every place.
	blockSize int
	// mapping says whether plain text files are mapped (mapped.go);
	// tests take each way.
	mapping mapMode
}

// Sink consumes records. Each worker has its own, so a Sink need not be
// safe for concurrent use; the record is valid only during the call.
type Sink interface {
	Add(r *Record)
}

// BatchSink is a Sink that takes records a batch at a time, up to
// BatchSize of them, in the order they were read: it may then do each
// step of adding a record over the whole batch before the next, each
// step's tables staying in the cache through it. The records of a batch
// are its only until AddBatch returns.
type BatchSink interface {
	Sink
	AddBatch(rs []Record)
}

// BatchSize is the most records a BatchSink is given at once: enough
// that a step's tables are brought into the cache once for hundreds of
// records, and that a columnar file's batch of 1,024 rows is set into
// records a column at a time and added in four rounds, not sixteen (each
// round's setup per column and per step paid a quarter as often); few
// enough that the records stay in a core's second-level cache between
// the steps (1 KB each). At 64, a Parquet run took 5 % longer; the text
// formats take the same time at 64, 128 and 256.
const BatchSize = 256

// scratchParser is a line parser whose records may point into a buffer
// of its own: the text it made, such as values it unescaped. It empties
// the buffer for each line unless held; then the buffer only grows until
// release, and a batch of records read one after the other (BatchSink)
// stays whole until it is handed over.
type scratchParser interface {
	hold()
	heldBytes() int
	release()
}

// holding is a scratchParser's buffer, embedded: scratch, and whether it
// is held.
type holding struct {
	scratch []byte
	held    bool
}

func (h *holding) hold()          { h.held = true }
func (h *holding) heldBytes() int { return len(h.scratch) }
func (h *holding) release()       { h.scratch = h.scratch[:0] }

// errPassOver is what a line parser returns, wrapped, for a line that
// is well formed and no request: passed over, counted in PassedOver.
var errPassOver = errors.New("not a request")

// newLine empties the buffer for the next line, unless it is held.
func (h *holding) newLine() {
	if !h.held {
		h.release()
	}
}

// heldMax bounds the bytes a held parser's buffer holds: past it, the
// batch is handed over early, and the buffer emptied.
const heldMax = 256 << 10

// feed hands a worker's records to its sink: one at a time, each read
// into the worker's record, or, to a BatchSink, a batch at a time, each
// read into a record of the batch. Every unit's records are handed over
// by its end (flush), while the bytes they point into are the unit's.
type feed struct {
	sink  Sink
	batch BatchSink // sink, when it takes batches
	rec   Record
	recs  []Record
	n     int           // records read into recs
	held  scratchParser // the parser reading into recs, held
	keys  dictKeys      // cellRows', the records' DictKeys
	file  int32         // the index of the file the records are read from
}

func newFeed(sink Sink) *feed {
	f := &feed{sink: sink}
	if b, ok := sink.(BatchSink); ok {
		f.batch, f.recs = b, make([]Record, BatchSize)
	}
	return f
}

// use makes the records of the next lines, read by lp, keep what they
// point into in lp until they are handed over: a batch's are read into
// as many records.
func (f *feed) use(lp lineParser) {
	f.held = nil
	if sp, ok := lp.(scratchParser); ok && f.batch != nil {
		sp.hold()
		f.held = sp
	}
}

// record returns the record to read the next one into.
func (f *feed) record() *Record {
	if f.batch == nil {
		return &f.rec
	}
	return &f.recs[f.n]
}

// add hands over the record read into record's.
func (f *feed) add() {
	if f.batch == nil {
		f.rec.File = f.file
		f.sink.Add(&f.rec)
	} else if f.n++; f.n == len(f.recs) || f.held != nil && f.held.heldBytes() > heldMax {
		f.flush()
	}
}

// addRead hands over the n records read into f.recs from f.n on (a
// batch sink's), as n calls of add would.
func (f *feed) addRead(n int) {
	if f.n += n; f.n == len(f.recs) {
		f.flush()
	}
}

// flush hands over the records read and not handed over yet.
func (f *feed) flush() {
	if n := f.n; n > 0 {
		f.n = 0 // first: a panic in AddBatch does not give them twice
		for i := range f.recs[:n] {
			f.recs[i].File = f.file
		}
		f.batch.AddBatch(f.recs[:n])
	}
	if f.held != nil {
		f.held.release()
	}
}

// fileState is one input while it is read. The reader fills it before
// sending the file's first unit; workers only read it.
type fileState struct {
	index   int
	path    string
	format  Format
	source  string               // FileStats.Source
	seen    []string             // FileStats.Seen
	mags    map[string]Magnitude // FileStats.Magnitudes
	refused []Refused            // FileStats.Refused
	instant []string             // FileStats.Instants
	clocks  []string             // FileStats.Clocks
	microD  Magnitude            // FileStats.MicroD
	zone    string               // FileStats.Zone
	cfg     parserConfig
	// Written by the reader only, read after the run.
	incomplete bool
	reason     string
	mapped     *fileMap // of a file read in place (mapped.go)
	// mapFirst is the line a mapped file's first unit begins at;
	// mapSkips[u] counts the lines over MaxLine its reader passed over
	// before unit u (resolveMapped).
	mapFirst int64
	mapSkips []int64
	// pastFormat: most of the first lines go on past the end of the
	// known format read (FileStats.PastFormat).
	pastFormat bool
	// archive: a tar or zip archive whose files were read as files of
	// their own (readArchive), listed in its place.
	archive bool
	// unopened: nothing of it was seen (FileStats.Unopened).
	unopened bool
	// ownHead counts the program's own first lines passed over before
	// its format was told (skipOwnHead): its lines are numbered from
	// ownHead+1.
	ownHead int64
	// parts are the fields its records take from its directories
	// (partConsts), made once its schema is known.
	partsOnce sync.Once
	parts     []partConst
}

// unit is one piece of work: a run of whole lines, the elements of a JSON
// document, or decoded records.
type unit struct {
	file   *fileState
	line   int64 // number of the first line in data
	data   []byte
	elems  []docSpan // a document's elements in data; nil for lines
	bads   []docBad  // the document's bad elements among elems, in order
	fields []byte    // a W3C file's #Fields line in force at data's start
	buf    *[]byte   // returned to the pool when done
	mapped *fileMap  // the mapping data is a part of, as unit seq of its file (mapped.go)
	seq    int
	cells  *cellBatch    // rows of a columnar file as cells; returned to cellPool
	groups chan *pqGroup // a run of row groups of a Parquet file, for the worker to decode in turn
}

// Run reads every path (files, directories, globs, "-" for stdin) with
// opts.Workers parallel workers, each feeding its own sink from newSink.
// It returns the sinks for the caller to merge. The error is for a run that
// cannot start (a missing path); damaged input is reported in the Result.
func Run[S Sink](paths []string, opts Options, newSink func() S) ([]S, *Result, error) {
	inputs, sizes, unopened, err := expand(paths)
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
	var total int64
	for _, n := range sizes {
		total += max(n, 0)
	}
	opts.Progress.TotalBytes.Store(total)
	opts.Progress.FileCount.Store(int64(len(inputs)))

	p := &pipeline{opts: opts, work: make(chan unit, 2*opts.Workers)}
	for _, s := range opts.LogFormats {
		fs, err := compileLogFormats(s, opts.Schema)
		if err != nil {
			return nil, nil, fmt.Errorf("log format %q: %w", s, err)
		}
		for _, f := range fs {
			f.given = true
		}
		p.given = append(p.given, fs...)
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
	for i, in := range inputs {
		fs := p.newFile(in)
		p.opts.Progress.Files.Add(1)
		if why, no := unopened[in]; no {
			fs.incomplete, fs.unopened, fs.reason = true, true, why
			continue
		}
		before := p.opts.Progress.BytesRead.Load()
		if err := p.readFile(fs); err != nil {
			var oe *openError
			fs.incomplete, fs.reason, fs.unopened = true, err.Error(), errors.As(err, &oe)
		}
		// Columnar files are read in place, not through the counter.
		if sizes[i] >= 0 {
			p.opts.Progress.BytesRead.Store(before + sizes[i])
		}
	}
	close(p.work)
	wg.Wait()
	for _, fs := range p.files {
		if fs.mapped == nil {
			continue
		}
		resolveMapped(fs, append(tallies, p.reader))
		if fs.mapped.faulted.Load() && !fs.incomplete {
			fs.incomplete, fs.reason = true, errChanged.Error()
		}
	}

	res := &Result{}
	for _, fs := range p.files {
		if fs.archive && !fs.incomplete {
			continue // its files are listed, each read as any other
		}
		st := FileStats{Path: fs.path, Format: fs.format, Source: fs.source, Envelope: fs.cfg.envelope, Seen: fs.seen, Magnitudes: fs.mags, Refused: fs.refused, Instants: fs.instant, Clocks: fs.clocks, MicroD: fs.microD, Zone: fs.zone, Incomplete: fs.incomplete, Reason: fs.reason, Unopened: fs.unopened,
			PastFormat: fs.pastFormat && fs.cfg.nginx != nil && fs.cfg.nginx.lenient}
		var probs, vprobs []Problem
		for _, t := range append(tallies, p.reader) {
			if fs.index < len(t.files) {
				c := &t.files[fs.index]
				st.Records += c.records
				st.BadLinesOutside += c.badOut
				st.WithoutRequestTime += c.noRT
				st.TimeNumbers += c.timeNumbers
				st.BadLines += c.bad
				st.PassedOver += c.passed
				probs = append(probs, c.problems...)
				vprobs = append(vprobs, c.valueProblems...)
				for f, n := range c.unread {
					if n > 0 {
						if st.UnreadValues == nil {
							st.UnreadValues = map[Field]int64{}
						}
						st.UnreadValues[Field(f)] += n
					}
				}
			}
		}
		res.Files = append(res.Files, st)
		res.Problems = append(res.Problems, firstProblems(probs, opts.MaxProblems)...)
		res.ValueProblems = append(res.ValueProblems, firstProblems(vprobs, opts.MaxProblems)...)
	}
	return sinks, res, nil
}

// firstProblems returns the first max of one file's problems, in line
// order.
func firstProblems(ps []Problem, max int) []Problem {
	sort.Slice(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps[:min(len(ps), max)]
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, io.EOF }

type pipeline struct {
	opts   Options
	files  []*fileState // in the order read: each path, an archive's files after it
	work   chan unit
	pool   sync.Pool // the buffers of JSON documents' elements
	blocks *blocks   // the buffers of text files' lines
	reader *tally    // bad lines found by the reader (over-long lines, bad rows)
	// The log formats given (Options.LogFormats), and what a text file's
	// format is chosen among: those, then the known ones, compiled when a
	// text log is first read (textFormat).
	given, cands []*logFormat
	// The readers inputs were read with, for the next (readerPool).
	headReaders, lineReaders readerPool
	gzips                    gzipPool
	// timed times the probe's touch and read (probeMap); nil is
	// timeOf, tests give their own. probed is what the run's probe
	// found, mapNever or mapAlways; mapAuto before it (the reader's).
	timed  func(read bool, f func()) time.Duration
	probed mapMode
}

// Window is a run's [Since, Until) in Unix nanoseconds, each bound only
// when its Has flag is set.
type Window struct {
	Since, Until       int64
	HasSince, HasUntil bool
}

// holds reports whether time ns is within the window.
func (w *Window) holds(ns int64) bool {
	return (!w.HasSince || ns >= w.Since) && (!w.HasUntil || ns < w.Until)
}

// badPlacer places a unit's bad lines (or elements, or rows) in or
// outside a window, as the timed record before each in the unit is;
// before the unit's first, as that one is; in, in a unit without one.
// A bad line has no time of its own, and is its neighbours' in its file:
// so the hourly runs of a cron over one growing file, each of its own
// hour, count each bad line once between them (FileStats.BadLinesOutside).
type badPlacer struct {
	win           *Window
	on            bool  // the window has a bound
	placed        int64 // the file's bad lines placed so far (counters.bad)
	timed, prevIn bool  // a timed record was met; the last one was in
}

func newBadPlacer(win *Window, c *counters) badPlacer {
	return badPlacer{win: win, on: win.HasSince || win.HasUntil, placed: c.bad, prevIn: true}
}

// record places the bad lines since the last timed record at rec, a
// good record of the unit.
func (b *badPlacer) record(c *counters, rec *Record) {
	if !b.on || !rec.Has(FTime) {
		return
	}
	in := b.win.holds(rec.TimeNS)
	if b.timed && !b.prevIn || !b.timed && !in {
		c.badOut += c.bad - b.placed
	}
	b.placed, b.timed, b.prevIn = c.bad, true, in
}

// end places the bad lines after the unit's last timed record.
func (b *badPlacer) end(c *counters) {
	if b.on && b.timed && !b.prevIn {
		c.badOut += c.bad - b.placed
	}
}

// newFile starts the state of one more file to read, on the reader's
// goroutine.
func (p *pipeline) newFile(path string) *fileState {
	fs := &fileState{index: len(p.files), path: path, cfg: parserConfig{schema: p.opts.Schema, loc: p.opts.Location}}
	p.files = append(p.files, fs)
	return fs
}

func (p *pipeline) worker(sink Sink, t *tally) {
	// The parser of the file of the last unit: the reader sends a file's
	// units before the next file's, so a worker that has a unit of a
	// file is given none of the files before it again. (Kept for every
	// file, the parsers of 20,000 small files held 55 MB.)
	var lpFile *fileState
	var lp lineParser
	var pq pqReader // the Parquet columns and buffers row groups reuse
	f := newFeed(sink)
	for u := range p.work {
		f.file = int32(u.file.index)
		if u.cells != nil {
			p.cellRows(&u, f, t)
			continue
		}
		if u.groups != nil {
			for g := range u.groups {
				p.parquetGroup(u.file, g, f, t, &pq)
			}
			continue
		}
		if lpFile != u.file {
			var err error
			if lp, err = newLineParser(u.file.format, &u.file.cfg); err != nil {
				// The reader checks this before sending; unreachable.
				panic("BUG: " + err.Error())
			}
			lpFile = u.file
		}
		if u.elems != nil {
			p.parseDoc(u, lp, f, t)
			p.pool.Put(u.buf)
			continue
		}
		if w, ok := lp.(*w3cParser); ok {
			w.use(u.fields)
		}
		if u.mapped != nil {
			p.mappedLines(&u, lp, f, t)
		} else {
			p.lines(&u, lp, f, t)
		}
		if u.buf != nil {
			p.blocks.put(u.buf)
		}
	}
}

// lines cuts a unit of lines and parses each into the worker's sink,
// and returns how many it cut.
func (p *pipeline) lines(u *unit, lp lineParser, f *feed, t *tally) int64 {
	c := t.get(u.file.index)
	data, line := u.data, u.line
	records := c.records
	f.use(lp)
	fix, tcp := statusFixOf(u.file.source), tcpLines(u.file.source)
	parts := u.file.partConsts()
	partAt := int64(0) // the first line of a cut line's parts
	joined := int64(0) // the lines a CSV row took after its first
	place := newBadPlacer(&p.opts.Window, c)
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
		hole := false
		if len(l) > 0 && l[0] == 0 {
			l = bytes.TrimLeft(l, "\x00") // a copytruncate hole before the line (skipNULs)
			hole = len(l) == 0
		}
		if long {
			t.bad(u.file, line, errLongLine)
		} else if hole {
			t.bad(u.file, line, errNULLine)
		} else if !blank(l) {
			rec := f.record()
			rec.reset(u.file.cfg.schema)
			rec.parts = parts
			err := lp.Parse(l, rec)
			if err != nil && len(data) > 0 && openQuote(err) {
				// A CSV row whose quoted field holds a line break: it goes
				// on in the next lines (of this unit: one cut at the
				// unit's end stays bad lines).
				if row, rest, n, bad := joinQuoted(lp, l, data, rec, u.file.cfg.schema); n > 0 {
					l, data, err = row, rest, bad
					joined = int64(n)
				}
			}
			switch {
			case err == errDirective, err == errEmpty: // a W3C directive, an envelope's blank line: no request
			case errors.Is(err, errPassOver): // a request's own event, not a request
				c.passed++
			case err == errPartial: // its line's next parts follow
				if partAt == 0 {
					partAt = line
				}
				line++
				continue
			case err != nil:
				t.badErr(u.file, line, err, err.Error())
			case u.file.cfg.ownJSON && rec.set&^(1<<FTime|1<<FKind) == 0:
				c.passed++ // a program's own log line (jsonOwnLog)
			case rec.Fields() == 0:
				// Well-formed, but nothing in it is a request field:
				// a header-less CSV, a foreign log, an empty object.
				t.bad(u.file, line, noFieldReason(l))
			case !u.file.cfg.schema.request(rec), tcp != nil && tcp(rec):
				c.passed++
			case u.file.cfg.schema.stray(rec):
				t.bad(u.file, line, errOnlyTime)
			default:
				fixStatus(rec, fix)
				place.record(c, rec)
				c.records++
				c.noRT += rec.lacks(FRequestTime)
				if rec.unread != 0 {
					t.unreadValues(u.file, line, rec)
				}
				f.add()
			}
		}
		partAt = 0
		line += 1 + joined
		joined = 0
	}
	if e, ok := lp.(*envParser); ok && e.pending() {
		// The line's end is in the next unit, which reads it alone.
		t.bad(u.file, partAt, errCutLine)
		e.drop()
	}
	place.end(c)
	f.flush()
	p.opts.Progress.Records.Add(c.records - records)
	return line - u.line
}

// errCutLine is the reason for the first parts of a line that a
// container runtime cut, read apart from their end.
const errCutLine = "a line the container runtime cut in parts, read apart from its last part"

// errNoField is the reason for a line with no field loganalyze knows.
const errNoField = "no field loganalyze knows (see --map)"

// errOnlyTime is the reason for a record of a source's file with a time
// and no other field loganalyze knows (Schema.stray).
const errOnlyTime = "a time and no other field of the source's requests: the server's own log line, not a request"

func blank(l []byte) bool {
	for _, c := range l {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}
