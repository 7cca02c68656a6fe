package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"golang.org/x/text/transform"
	"io"
	"iter"
	"os"
	"strings"
)

// readFile opens one input, detects its compression and format and sends
// its content to the workers. An error means the file was read only in
// part (or not at all); what was read before it counts.
func (p *pipeline) readFile(fs *fileState) error {
	rc, err := open(fs.path, p.opts.Stdin)
	if err != nil {
		return err
	}
	defer rc.Close()
	// A regular file's size when opened: an uncompressed text file
	// that gives fewer bytes was cut shorter while it was read
	// (logrotate's copytruncate), and is reported read in part.
	size := int64(-1)
	if f, ok := rc.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	got := &countingReader{r: rc, n: &p.opts.Progress.BytesRead, size: size, sized: size >= 0}
	return p.readStream(fs, input{r: got, raw: rc, size: size, got: got})
}

// input is the bytes of one file as readStream reads them.
type input struct {
	r    io.Reader // the file's bytes, perhaps compressed
	raw  io.Reader // what r reads: an *os.File for a file on disk
	size int64     // a regular file's size when opened; −1 when unknown
	// got counts what r read of a regular file (nil for an archive's
	// file, whose reader fails on a cut itself).
	got *countingReader
	// within: a file of an archive, where another archive is not read.
	within bool
	// table: the JSON lines of a Parquet or Arrow table's rows
	// (tablelines.go), whose format is theirs, not the one given to the
	// table (--format parquet).
	table bool
	// unstamped: the lines behind kubectl's times (unstamp.go), whose
	// times are not looked for again. dry: a head whose reading is only
	// planned (headRecords): readStream returns errDry once its lines'
	// parser is known, and reads nothing. split: a dump's lines, or one
	// service's of them (services.go), not split again.
	unstamped, dry, split bool
}

// readerPool keeps the buffered readers inputs were read with, for the
// next inputs: a megabyte of new memory for the lines and 64 KB for the
// magic bytes, cleared, for each of twenty thousand small files was
// half of their run. Only the reader's goroutine reads inputs (an
// archive's files within the archive's, each with readers of its own).
// What a reader held was copied out, into blocks of lines, chunks of
// elements or a columnar file's spool, before its input's reading
// returned and it was put back.
type readerPool struct{ free []*bufio.Reader }

// get returns a reader of r with a buffer of size bytes.
func (rp *readerPool) get(r io.Reader, size int) *bufio.Reader {
	if n := len(rp.free); n > 0 && rp.free[n-1].Size() == size {
		br := rp.free[n-1]
		rp.free = rp.free[:n-1]
		br.Reset(r)
		return br
	}
	return bufio.NewReaderSize(r, size)
}

// put gives back a reader of get.
func (rp *readerPool) put(br *bufio.Reader) {
	br.Reset(nil)
	rp.free = append(rp.free, br)
}

// readStream detects one input's compression and format and sends its
// content to the workers; a tar or zip archive's files are read in turn,
// each as a file of its own (readArchive).
func (p *pipeline) readStream(fs *fileState, in input) error {
	// A zstd stream's frames are decoded on goroutines of their own when
	// the workers parse faster than one core decodes: from three, with
	// about one decoder for two workers (a core decodes about twice the
	// text a worker parses).
	decoders := 0
	if w := p.opts.Workers; w >= 3 {
		decoders = min(maxDecoders, max(2, w/2))
	}
	hr := p.headReaders.get(in.r, headBuffer)
	r, name, err := decompress(hr, fs.path, decoders, &p.gzips)
	if err != nil {
		return err
	}
	// The head reader is kept for the next file unless a decompressor
	// may read it on after Close (zstd's frames, on goroutines); a gzip
	// stream is read on this goroutine only, and its reader is kept too
	// (a 64 KB buffer and a decompressor's window and tables made anew
	// per file were most of what a directory of small .gz files
	// allocated).
	gz, gzipped := r.(*gzipMembers)
	if gzipped {
		defer p.gzips.put(gz.zr)
	}
	if r == io.Reader(hr) || gzipped {
		defer p.headReaders.put(hr)
	}
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	br := p.lineReaders.get(r, MaxLine+1)
	defer p.lineReaders.put(br)
	if enc := utf16Of(br); enc != nil {
		// Windows PowerShell's "> file" and Excel's "Unicode text"
		// write UTF-16: read as the UTF-8 it decodes to. r too: the
		// blocks of text are read from it past br's buffer.
		r = transform.NewReader(br, enc.NewDecoder())
		br = p.lineReaders.get(r, MaxLine+1)
		defer p.lineReaders.put(br)
	}
	// A byte-order mark (what Windows tools write before UTF-8 text: a
	// CLS export saved again) is no part of the first line.
	if b, _ := br.Peek(len(utf8BOM)); bytes.Equal(b, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	nuls := skipNULs(br)
	head, _ := br.Peek(4096)
	if nuls > 0 && len(head) == 0 && !emptyTar(name, nuls) {
		// Zeros where a log was: a file a crash left allocated but
		// unwritten, no empty log (a copytruncate hole ends in the
		// lines written past it).
		return fmt.Errorf("damaged file: NUL bytes only (%d), no line", nuls)
	}
	if kind := archiveKind(head); kind != "" && !in.within {
		return p.readArchive(fs, kind, br, r, in)
	}
	if what := archiveOf(head); what != "" {
		return errors.New(what)
	}
	given := p.opts.Format
	if in.table {
		given = Auto
	}
	// The lines within an envelope's first lines tell the format and
	// source, which a name's extension then does not.
	var inner []byte
	{
		// A first line longer than the sniffing head is peeked whole.
		peek, _ := br.Peek(64 << 10)
		first := firstLine(peek)
		// A CSV export of log lines (EnvRawCSV), unless a format is
		// given: its rows' lines tell the format and source.
		var rawHead []byte
		raw, ok := rawCSVHeader(first, fs.cfg.schema)
		if ok && (given == Auto || given == "") {
			if rawHead = unwrapHeadOf(EnvRawCSV, peek, raw); raw.message && !p.rawMessages(rawHead) {
				rawHead = nil // a message column of a program's own text
			}
		}
		if rawHead != nil {
			fs.cfg.envelope, fs.cfg.raw = EnvRawCSV, raw
			inner, head = rawHead, rawHead
		} else if env := envelopeOfHead(first, peek); env != NoEnvelope && !((env == EnvShipper || env == EnvJournald || env == EnvCLS) && p.ownFields(first)) &&
			!(env == EnvShipper && nimOwnFile(first, br)) {
			if env == EnvCRI || env == EnvDocker {
				// Past a server's first messages on stderr.
				peek, _ = br.Peek(512 << 10)
			} else if _, _, ok := new(topReader).nimJSON(first); ok {
				// Past NIM's and vLLM's start-up records (nimjson.go).
				peek, _ = br.Peek(nimHeadLen)
			}
			switch {
			case env != EnvStamped:
			case fluentBitStdoutLine(first):
				fs.cfg.stamp = stampPrinted
			case fluentBitLTSVLine(first):
				fs.cfg.stamp = stampLTSV
			}
			fs.cfg.envelope, inner = env, unwrapHeadBy(env, peek, topReader{stamp: fs.cfg.stamp})
			// A container runtime's record within another's line: a
			// Docker json-file or CRI line that Promtail or Vector
			// shipped as it was, without its docker or cri stage; and
			// Fluent Bit's record of a line ({"log":"LINE"}) behind its
			// time, as its file output writes it, and Fluentd's
			// ({"message":"LINE"}) as its out_file writes it; and the
			// record of a line Vector read, within its native_json
			// codec's log event, unless a remap parsed the line there;
			// and WSO2 API Manager's analytics log as a shipper or a log
			// platform took its lines (Filebeat's message, Fluent Bit's
			// log, Datadog's message: WSO2's guides ship them so).
			innerFirst := firstLine(inner)
			in := envelopeOf(innerFirst)
			container := env == EnvCRI || env == EnvDocker
			// A program's lines behind their time, JSON after it (zap's
			// console encoder, from the first line or behind the
			// program's own first lines as in a file of them:
			// envelopeOfHead); not Fluent Bit's stdout output, whose
			// stamp is read otherwise (above).
			stamped := container && (in == EnvStamped && !fluentBitStdoutLine(innerFirst) && !fluentBitLTSVLine(innerFirst) ||
				in == NoEnvelope && zapConsoleHeadOf(inner))
			if stamped {
				in = EnvStamped
			}
			if env == EnvStamped && in == NoEnvelope {
				if _, _, _, err := (&topReader{lone: true}).shipped(innerFirst); err == nil {
					in = EnvShipper
				}
			}
			if in == NoEnvelope && env != EnvAPIMMetrics && apimMetricsHeadOf(inner) {
				in = EnvAPIMMetrics
			}
			if (in == EnvDocker || in == EnvCRI) && env != EnvDocker && env != EnvCRI ||
				in == EnvAPIMMetrics && env != EnvAPIMMetrics ||
				in == EnvShipper && (env == EnvStamped || env == EnvVector) && !p.ownFields(innerFirst) ||
				// A program's lines in a container runtime's are read as
				// they are in a file of them: zap's console lines, a
				// Python JSON logger's records (Ray Serve's, NIM's).
				stamped || container && in == EnvShipper && !p.ownFields(innerFirst) {
				fs.cfg.within, inner = in, unwrapHeadBy(in, inner, topReader{lone: env == EnvStamped})
			}
			head = inner
		} else if f := given; f == Auto || f == "" || f == Nginx {
			// A text format's lines behind a time (Envoy's behind
			// logcli's or aws logs tail's).
			if cut, lines, ok := p.stampedTextHead(peek); ok {
				fs.cfg.envelope, fs.cfg.stamp, inner = EnvStamped, cut, lines
				head = inner
			} else if !in.unstamped && !in.dry && !in.split && headServices(peek) {
				// Several programs' lines behind their services' names.
				return p.readServices(fs, br, in)
			} else if !in.unstamped && !in.dry && (kubectlHead(peek) || len(p.given) == 0 && sternHead(peek)) {
				// Any other log behind kubectl's times: read as the
				// lines within are (unstamp.go), behind the time as an
				// envelope's when they are plain lines, whose records
				// without a time of their own take it.
				if more, plain, cut := p.readsMoreUnstamped(fs, peek); more && plain {
					fs.cfg.envelope, fs.cfg.stamp, inner = EnvStamped, cut.stamp(), unstampHead(peek, cut)
					head = inner
				} else if more {
					return p.readStream(fs, input{r: newUnstamper(br, cut), size: -1, within: in.within, unstamped: true})
				}
			}
		}
	}
	// body is the lines the format, the source and the client are told
	// from: as much of the file as the first line was peeked in (a
	// proxy's start-up lines may fill the head), past a server's own
	// first lines (ownlog.go); the lines within an envelope's.
	body, raw := inner, inner
	if inner != nil && !tracingHead(inner) {
		// Within a container runtime's lines too: a server's first
		// lines (agentgateway's, one-hub's) are no request's, and no
		// format is told from them.
		body = pastOwnLog(inner)
		head = body
	}
	if body == nil {
		if (given == Auto || given == "" || given == Nginx) && !in.dry {
			p.skipOwnHead(fs, br) // (a planned reading counts nothing)
		}
		peek, _ := br.Peek(64 << 10)
		raw = peek
		if body = pastOwnLog(peek); tracingHead(peek) {
			body = peek // a tracing log's every line is dated and levelled
		}
		head = body[:min(len(body), 4096)]
	}
	fs.format = given
	forced := fs.format != Auto && fs.format != ""
	if !forced && inner == nil {
		fs.format = byExtension(name)
	}
	if fs.format == Auto || fs.format == "" {
		fs.format = sniff(body, p.given)
		if fs.format == JSONL && inner == nil && p.givenHAProxy(head) {
			fs.format = Nginx // an HAProxy log-format that writes JSON-like lines
		}
	}
	if inner != nil {
		switch fs.format {
		case JSONDoc, W3C, Parquet, Arrow:
			return fmt.Errorf("%s lines within a %s are not read", fs.format, fs.cfg.envelope.describe())
		}
	} else if fs.format == JSONDoc || fs.format == JSONL && !forced {
		fs.format = jsonShape(br, fs.cfg.schema)
	}
	if fs.format.columnar() {
		if in.dry {
			return errNotLines
		}
		return p.readColumnar(fs, br, r, in.raw, nuls)
	}
	if fs.format == JSONL {
		// The first line's keys tell the source; a long first line is
		// peeked further than the sniffing head.
		line := firstObjectLine(body)
		names := jsonKeys(line, maxNames)
		paths := jsonPaths(line, maxNames)
		p.applySource(fs, names, paths, laterRecords(body, clientLookahead))
		p.applyTrimmedSpans(fs, line, names, paths)
		if spanSource(fs.source) {
			fs.cfg.spans = true
			p.applySpans(fs, headLines(body, otelFirstSpans))
		}
		values := func(n string) [][]byte { return durationValues(body, n) }
		p.refuseUntimedSpans(fs, line, names, paths, values)
		fs.refuseImplausible(names, values)
		fs.mags = durationMagnitudes(body, names, fs.cfg.schema)
		if jsonOwnLog(fs.cfg.schema, names, nil) {
			// The first line is the program's own: the names shown and
			// offered to --map are its requests'.
			if seen := requestSeen(fs.cfg.schema, laterRecords(body, clientLookahead)); seen != nil {
				fs.seen = seen
			}
		}
		if jsonOwnLog(fs.cfg.schema, names, fs.mags) {
			fs.cfg.ownJSON, fs.source = true, jsonOwnLogName
		}
		if src := fs.cfg.schema.source; src != nil && src.twice != nil {
			// Each request logged twice (ASP.NET Core's Hosting and
			// HttpLogging events): one of its records is read.
			if kinds := src.twice(body); kinds != nil {
				fs.cfg.schema = fs.cfg.schema.withRequests(kinds)
			}
		}
		if src := fs.cfg.schema.source; src != nil && src.durationFormat != "" {
			if u, ok := durationUnit(durationValues(body, src.durationFormat)); ok {
				fs.cfg.schema = fs.cfg.schema.withUnit(src.durationFormat, u)
			}
		}
		fs.cfg.schema = fs.cfg.schema.ttftInSeconds(names, func(n string) [][]byte { return durationValues(body, n) })
		p.applyEpochZone(fs, names, func(a, b string) [][2][]byte { return jsonPairs(body, a, b) })
	} else if fs.format == CLB {
		fs.source = "clb"
		p.applySource(fs, nil, nil, nil)
	} else if fs.format == W3C {
		p.applyW3C(fs, head)
	} else if fs.format == LTSV {
		// Apache's LTSV: its labels' units are Apache's (apache-ltsv).
		if lines := headLines(head, 1); len(lines) > 0 {
			if labels := ltsvLabels(lines[0], maxNames); detectSource(labels, nil) == sourceByName("apache-ltsv") {
				p.applySource(fs, labels, nil, nil)
			}
		}
	}
	if fs.format == Fiber && fiberClockHead(head) {
		fs.clocks = []string{fiberNames[fiberTime]} // the default TimeFormat's
	}
	if fs.format == Phoenix && phoenixClockHead(head) {
		fs.clocks = []string{phxNames[phxTime]} // the default format's $time
	}
	if fs.format == Nginx && !forced && p.logfmtFile(head, raw) {
		fs.format = Logfmt
	}
	if fs.format == Logfmt {
		// The first line's keys tell the source, as a JSON line's do; a
		// program's own log (a level and a message, no request's key)
		// has its lines with no field but the time passed over.
		// The lines after it tell a source its keys do not (an app's own
		// logfmt line before Heroku's router's).
		keys := logfmtKeys(logfmtFirst(body), maxNames)
		p.applySource(fs, keys, nil, laterLines(body, clientLookahead, func(l []byte) ([]string, []string) {
			return logfmtKeys(l, maxNames), nil
		}))
		// As a JSON line's: a duration alias not in its unit, and the
		// magnitudes a report's --map hint is told from.
		values := func(n string) [][]byte { return logfmtValues(body, n) }
		fs.refuseImplausible(keys, values)
		fs.mags = magnitudesOf(keys, fs.cfg.schema, values)
		if jsonOwnLog(fs.cfg.schema, keys, nil) {
			fs.cfg.ownJSON, fs.source = true, jsonOwnLogName
		}
	}
	if fs.format == Nginx && !forced || fs.format == CSV {
		// A header of names cut by '|' or ';' (otherSep), or by spaces
		// (spacedHeader): the one --csv-header gives, when given, not
		// the file's first row, a record (whose user agent may hold
		// "; " twice).
		header, rows := firstLine(body), body
		if p.opts.CSVHeader != "" {
			header = []byte(p.opts.CSVHeader)
		} else if header != nil {
			rows = body[bytes.Index(body, header)+len(header):]
		}
		if sep := otherSep(header, p.opts.Schema, fs.format == CSV); sep != 0 {
			fs.format, fs.cfg.sep = CSV, sep
		} else if spacedHeader(header, rows, p.opts.Schema) {
			fs.format, fs.cfg.sep = CSV, ' '
		} else if h, ok := tableHeader(body); ok && otherSep(h, p.opts.Schema, false) == '|' {
			// An ASCII table (mysql -t): its rules and outer bars are
			// passed over, its cells read as a '|' file's.
			fs.format, fs.cfg.sep = CSV, '|'
		}
		if fs.format == CSV && p.opts.CSVHeader == "" {
			if sep := valueRowsSep(body); sep != 0 {
				// Rows of values cut by tabs or spaces, no header of
				// names (CLS's shipping to COS without its keys on the
				// first line): cut as the rows are, its first row is
				// named a row of values, and the report names
				// --csv-header, not a header cut by a ';' its user agent
				// holds.
				fs.cfg.sep = sep
			}
		}
	}
	if fs.format == Nginx {
		clientHead, formatHead := body, head
		if fs.cfg.decolor = coloured(clientHead); fs.cfg.decolor {
			formatHead = appendDecolored(nil, head)
			clientHead = appendDecolored(nil, clientHead)
		}
		fs.cfg.nginx, fs.pastFormat = p.textFormat(formatHead)
		if f := fs.cfg.nginx; f != nil && f.microD {
			fs.microD = microDMagnitude(f, clientHead)
		}
		if sep := delimitedRows(head); fs.cfg.nginx == nil && sep != 0 && !forced {
			// Rows of values cut by '|' or ';', no header of names
			// (Amazon Redshift's UNLOAD, '|' by default): a CSV whose
			// first row holds values, which the report says, naming
			// --csv-header.
			fs.format, fs.cfg.sep, fs.cfg.nginx = CSV, sep, nil
		} else {
			fs.cfg.client = textClientOf(fs.cfg.nginx, clientHead)
			p.applyServerLog(fs, raw)
		}
		if fs.format == Nginx && !looksText(head) && (fs.cfg.nginx == nil || len(p.given) == 0) {
			// (A known format may cut a random line into numbers.)
			fs.format = "" // no reader's: no text log's either
			if strings.HasSuffix(fs.path, ".snappy") {
				return errors.New("named .snappy, but not snappy's framing format (sNaPpY), the one read: raw snappy blocks are not; decompress it first and give the file")
			}
			return errors.New("binary content, not a log this reads: its first bytes are none of JSON, CSV, TSV, LTSV, Parquet, Arrow IPC, gzip, zstd, xz, bzip2, lz4, snappy, tar or zip, and not text")
		}
	}
	described := head
	if fs.format == Tracing {
		described = body // past TGI's start-up lines, to its router's
	}
	if src, seen := describeText(fs.format, &fs.cfg, described); src != "" || seen != nil {
		if fs.source == "" {
			fs.source = src
		}
		if fs.seen == nil {
			fs.seen = seen
		}
		if s := sourceByName(src); fs.format == Tracing && s != nil && s.loc != nil {
			fs.cfg.loc = s.loc // the SGLang router's times, UTC without a zone
		}
	}
	if fs.format == Nginx && fs.cfg.nginx == nil && fs.cfg.server == nil && !in.dry && (ownOnly(body) || fs.cfg.envelope == EnvShipper && pythonOwnOnly(br)) {
		return errOwnOnly // not "a format of its own": no request line to tell one from
	}
	if _, err := newLineParser(fs.format, &fs.cfg); err != nil {
		return err
	}
	if in.dry {
		return errDry
	}
	if fs.format == JSONDoc {
		return p.readDoc(fs, br)
	}
	var at func() (mapSource, bool) // where br is in the file, to map it from there
	if f, ok := in.raw.(*os.File); ok && r == io.Reader(hr) && in.got != nil && in.size >= 0 {
		at = func() (mapSource, bool) {
			return mapSource{f: f, start: in.got.read - int64(hr.Buffered()) - int64(br.Buffered()), read: in.got.read}, true
		}
	}
	if mapped, err := p.readLines(fs, br, r, at); err != nil || mapped {
		return err
	}
	if _, plain := r.(*bufio.Reader); plain && in.got != nil && in.got.read < in.size {
		return errChanged
	}
	return nil
}

// ownFields reports whether a JSON line carries a request field of its
// own (request_time, status or uri), or is an event of a source whose
// message is rendered from the event's own fields (source.rendered): a
// record to read as it is, not as the line in its message.
func (p *pipeline) ownFields(line []byte) bool {
	names, paths := jsonKeys(line, maxNames), jsonPaths(line, maxNames)
	src := sourceByName(p.opts.Source)
	if p.opts.Source == "" {
		src = detectSource(names, paths)
	}
	if src != nil && src.rendered {
		return true
	}
	return p.requestNames(names, paths)
}

// logfmtFile reports whether a text file whose first lines are head
// (raw: before any was skipped as a server's own) is logfmt: most of
// its first lines are, no log format given or known reads them, and
// they are no server's own log (Traefik v2's time="…" level=info
// msg="…") unless their keys carry a request's fields.
func (p *pipeline) logfmtFile(head, raw []byte) bool {
	if !logfmtHead(head) {
		return false
	}
	if f, _ := p.textFormat(head); f != nil && pickLogFormat(head, []*logFormat{f}) != nil {
		return false
	}
	return serverLogOf(raw) == nil || p.requestNames(logfmtKeys(logfmtFirst(head), maxNames), nil)
}

// requestNames reports whether a record of names (and nested paths)
// carries a request field: request_time, status or uri.
func (p *pipeline) requestNames(names, paths []string) bool {
	sch, _, _ := p.opts.Schema.ForNames(names, paths, p.opts.Source, nil)
	for _, n := range append(names, paths...) {
		for _, b := range sch.LookupString(n) {
			if b.Field == FRequestTime || b.Field == FStatus || b.Field == FURI {
				return true
			}
		}
	}
	return false
}

// rawMessages reports whether the messages of a CSV file's message
// column (inner, one a line) are log lines of a request: the first a
// JSON record with a request field of its own, or text lines that a log
// format given or known reads. A message column of a program's own text
// leaves the file a CSV of its columns.
func (p *pipeline) rawMessages(inner []byte) bool {
	first := firstLine(inner)
	if jsonLine(first) {
		return p.ownFields(first)
	}
	// textFormat falls back on a given format that reads none of them.
	head := inner[:min(len(inner), 4096)]
	f, _ := p.textFormat(head)
	return f != nil && pickLogFormat(head, []*logFormat{f}) != nil
}

// errChanged is the reason for a file cut shorter while it was read.
var errChanged = errors.New("the file was cut shorter while it was read")

// textFormat returns the format, given or known, that the most of the
// first lines of head follow; the first given one when none fits, so that
// the bad lines say why; nil when none is given and none fits. tail
// reports whether most of the lines it reads go on past its end.
func (p *pipeline) textFormat(head []byte) (f *logFormat, tail bool) {
	if f, tail = pickLogFormatTail(head, p.formats(), true); f != nil {
		return f, tail
	}
	if len(p.given) > 0 {
		return p.given[0], false
	}
	return nil, false
}

// formats returns the log formats given and known, in guessing order.
func (p *pipeline) formats() []*logFormat {
	if p.cands == nil { // once, on the reader's goroutine: a run of no text log compiles none
		p.cands = append(append([]*logFormat(nil), p.given...), compileKnown(p.opts.Schema)...)
	}
	return p.cands
}

// givenHAProxy reports whether an HAProxy log-format given reads some of
// the first lines of head: lines it writes like JSON objects
// ('{"ta":%Ta,…}', its timers in ms) are read with it, not as JSON. Other
// formats given leave a JSON file to the JSON reader, as before.
func (p *pipeline) givenHAProxy(head []byte) bool {
	var hap []*logFormat
	for _, f := range p.given {
		if f.haproxy {
			hap = append(hap, f)
		}
	}
	return len(hap) > 0 && pickLogFormat(head, hap) != nil
}

// readError names a read failure the way the report shows it.
func readError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("truncated: %w", err)
	}
	return err
}

// applySource picks the file's schema from the field names its first
// record carries, and the paths of the values nested in it (or the
// --source given), and notes the names for the report.
func (p *pipeline) applySource(fs *fileState, names, paths []string, later iter.Seq2[[]string, []string]) {
	if fs.seen == nil && len(names) > 0 {
		fs.seen = names[:min(len(names), MaxSeen):min(len(names), MaxSeen)]
	}
	sch, name, loc := p.opts.Schema.ForNames(names, paths, p.opts.Source, later)
	fs.cfg.schema = sch
	if name != "" {
		fs.source = name
	}
	if loc != nil {
		fs.cfg.loc = loc
	}
}

// applyServerLog reads a text file as a server's own log when its first
// lines, raw (before any is skipped as a server's own), are one's.
func (p *pipeline) applyServerLog(fs *fileState, raw []byte) {
	if s := serverLogOf(raw); s != nil {
		fs.cfg.server, fs.source = s, s.name
	}
}

// applyEpochZone reads the file's times written without a zone in the
// zone its records' epochs tell (epochZone), when they tell one.
// A source that names its zone keeps it.
func (p *pipeline) applyEpochZone(fs *fileState, names []string, pairs func(a, b string) [][2][]byte) {
	if src := fs.cfg.schema.source; src != nil && src.loc != nil {
		return
	}
	if loc := epochZone(fs.cfg.schema, names, pairs, fs.cfg.loc); loc != nil {
		fs.cfg.loc, fs.zone = loc, loc.String()
	}
}

// clientLookahead is how many records after a JSON-lines file's first
// choose its client name when the first carries none (Schema.ForNames).
const clientLookahead = 64

// laterRecords yields the names and paths of the whole lines of b after
// its first that is not blank, at most n: the records the reader has
// peeked at beyond the first. Each range over it starts again.
func laterRecords(b []byte, n int) iter.Seq2[[]string, []string] {
	return laterLines(b, n, func(l []byte) ([]string, []string) { return jsonKeys(l, maxNames), jsonPaths(l, maxNames) })
}

// laterLines yields the names and paths keys reads of the whole lines
// of b after its first that is not blank, at most n, as laterRecords
// does for JSON lines.
func laterLines(b []byte, n int, keys func(line []byte) (names, paths []string)) iter.Seq2[[]string, []string] {
	return func(yield func([]string, []string) bool) {
		b, n := b, n
		first := true
		for n > 0 {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				return // none, or a line the peek cut
			}
			l := bytes.TrimRight(b[:i], "\r")
			b = b[i+1:]
			if blank(l) {
				continue
			}
			if first {
				first = false
				continue
			}
			n--
			if !yield(keys(l)) {
				return
			}
		}
	}
}

// firstLine returns the first line of b that is not blank, without its
// line end (cut at the end of b when b holds no full line).
// firstObjectLine returns the first line of b that starts a JSON object,
// or its first line when none does: a JSON-lines file's names are its
// records', not those of a first line cut short or a warning before
// them.
func firstObjectLine(b []byte) []byte {
	for rest := b; len(rest) > 0; {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if t := bytes.TrimLeft(l, " \t\ufeff"); len(t) > 0 && t[0] == '{' {
			return bytes.TrimRight(l, "\r")
		}
	}
	return firstLine(b)
}

// lzopMagic begins an lzop file.
var lzopMagic = []byte("\x89LZO\x00\r\n\x1a\n")

// archiveOf names what head is when it is an archive or a compression
// that is not read, and how to read the logs within; "" when it is
// neither. head is past any gzip or zstd: a .tar.gz is a tar here. (A
// tar of one log was read as the log, its first line lost to the
// header, a tar of several with their headers among the lines.)
func archiveOf(head []byte) string {
	switch {
	case archiveKind(head) != "":
		return "a " + archiveKind(head) + " archive within an archive, whose files are not read: unpack the outer one and give the directory"
	case bytes.HasPrefix(head, []byte("7z\xbc\xaf\x27\x1c")):
		return "a 7z archive, whose files are not read: unpack it and give the directory"
	case bytes.HasPrefix(head, lzopMagic):
		// Tencent Cloud CLS ships logs to COS so, when asked.
		return "lzop-compressed, which is not read: decompress it first (lzop -d) and give the file"
	}
	return ""
}

func firstLine(b []byte) []byte {
	for len(b) > 0 {
		l := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		l = bytes.TrimRight(l, "\r")
		if !blank(l) {
			return l
		}
	}
	return nil
}

// csvSep is the file's separator of fields: a tab for TSV, a CSV file's
// own (parserConfig.sep), else ','.
func (c *parserConfig) csvSep() byte {
	if c.sep != 0 {
		return c.sep
	}
	return ','
}

// csvQuote is the quote of the file's fields: its own
// (parserConfig.quote), else '"'.
func (c *parserConfig) csvQuote() byte {
	if c.quote != 0 {
		return c.quote
	}
	return '"'
}

// fieldSep is the separator of format f's fields read with c.
func fieldSep(f Format, c *parserConfig) byte {
	if f == TSV {
		return '\t'
	}
	return c.csvSep()
}

// tableHeader returns the header of an ASCII table as mysql -t draws
// it, its cells without the outer bars (tableRow), when b's first line
// is a rule (tableRule) and its next the header; or of a Markdown table
// (DuckDB's .mode markdown, pandas' to_markdown), its first line, when
// the next is the rule under it.
func tableHeader(b []byte) ([]byte, bool) {
	first := firstLine(b)
	second := firstLine(b[bytes.Index(b, first)+len(first):])
	if tableRule(first) {
		return tableRow(second)
	}
	if markdownRule(second) {
		return tableRow(first) // a Markdown table's header, its rule under it
	}
	return nil, false
}

// otherSep returns the separator of a CSV header that is no comma: '|'
// or ';' (Tencent CLS's shipping to COS offers both, Excel writes ';' in
// much of Europe), when the header holds at least two of it, more than
// commas, and, unless forced, each of its fields is a name and one of
// them a name the schema reads; else 0. A text log whose fields are cut
// by '|' has values, not names, in its first line.
func otherSep(header []byte, s *Schema, forced bool) byte {
	header = bytes.TrimPrefix(header, utf8BOM)
	seps := []byte{'|', ';'}
	if forced {
		// A tab-separated file named .csv (DuckDB's DELIMITER '\t',
		// a spreadsheet's "CSV" of tabs): its header has tabs, no commas.
		seps = append(seps, '\t')
	}
	for _, sep := range seps {
		n := bytes.Count(header, []byte{sep})
		if n < 2 || n <= bytes.Count(header, []byte{','}) {
			continue
		}
		if forced {
			return sep
		}
		known := false
		for _, f := range bytes.Split(header, []byte{sep}) {
			f = bytes.Trim(bytes.TrimSpace(f), `"`)
			if !isColumnName(f) {
				known = false
				break
			}
			known = known || len(s.Lookup(f)) > 0
		}
		if known {
			return sep
		}
	}
	return 0
}

// spacedHeader reports whether header is a CSV header of names cut by
// single spaces, as CLS's shipping to COS writes its keys on the first
// line with a space for its separator (spaceSep): at least two spaces,
// more than commas, each field a name and one of them a name the schema
// reads, as otherSep asks of a '|' or ';' header; and, since a text
// log's first line may be words too, most of the rows after it (the
// whole lines of rows, at most 16) cut by spaces into as many fields,
// a field that holds a space quoted with a double or a single quote.
func spacedHeader(header, rows []byte, s *Schema) bool {
	header = bytes.TrimPrefix(header, utf8BOM)
	n := bytes.Count(header, []byte{' '})
	if n < 2 || n <= bytes.Count(header, []byte{','}) {
		return false
	}
	known := false
	for _, f := range bytes.Split(header, []byte{' '}) {
		if f = bytes.Trim(f, `"`); !isColumnName(f) {
			return false
		}
		known = known || len(s.Lookup(f)) > 0
	}
	if !known {
		return false
	}
	lines := headLines(rows, 16)
	best := 0
	for _, quote := range []byte{'"', '\''} {
		p := &csvParser{sep: ' ', quote: quote}
		same := 0
		for _, l := range lines {
			if cells, err := p.split(l); err == nil && len(cells) == n+1 {
				same++
			}
		}
		best = max(best, same)
	}
	return len(lines) > 0 && 2*best > len(lines)
}

// valueRowsSep returns the separator, a tab or a space, that cuts each
// of the first lines of b (at least two, at most 16, whole) into as many
// fields as the others, three at least, a field that holds it quoted
// with a double or a single quote, when the first line holds more of it
// than of ',', ';' or '|' and more than half of its fields that are not
// empty are values (valueCell), as the report tells a row of values from
// names: rows of values with no header of names, as CLS's shipping to
// COS writes them when told not to put its keys on the first line
// (CsvInfo.PrintKey, spaceSep); 0 when none does.
func valueRowsSep(b []byte) byte {
	lines := headLines(b, 16)
	if len(lines) < 2 {
		return 0
	}
	for _, sep := range []byte{'\t', ' '} {
		first := lines[0]
		if n := bytes.Count(first, []byte{sep}); n <= bytes.Count(first, []byte{','}) ||
			n <= bytes.Count(first, []byte{';'}) || n <= bytes.Count(first, []byte{'|'}) {
			continue
		}
		for _, quote := range []byte{'"', '\''} {
			p := &csvParser{sep: sep, quote: quote}
			cells, err := p.split(lines[0])
			n := len(cells)
			if err != nil || n < 3 {
				continue
			}
			values, filled := 0, 0
			for _, c := range cells {
				if len(c) > 0 { // as the header's names are: none empty (headerNames)
					filled++
					if valueCell(c) {
						values++
					}
				}
			}
			same := 2*values > filled
			for _, l := range lines[1:] {
				if !same {
					break
				}
				cells, err := p.split(l)
				same = err == nil && len(cells) == n
			}
			if same {
				return sep
			}
		}
	}
	return 0
}

// valueCell reports whether a row's field is a value no header would
// name a column by: a number or a time (a digit first, then digits and
// the marks of numbers, dates and times), an absent value (isAbsent), or
// a flag.
func valueCell(c []byte) bool {
	if isAbsent(c) || string(c) == "true" || string(c) == "false" {
		return true
	}
	if len(c) == 0 || !isDigit(c[0]) {
		return false
	}
	for _, b := range c {
		if !isDigit(b) && bytes.IndexByte([]byte(".:-+/TZ "), b) < 0 {
			return false
		}
	}
	return true
}

// isColumnName reports whether f is a name as a table's header has one:
// a letter or _ first, then letters, digits, _ . - only.
func isColumnName(f []byte) bool {
	if len(f) == 0 || !(f[0] == '_' || f[0]|0x20 >= 'a' && f[0]|0x20 <= 'z') {
		return false
	}
	for _, c := range f {
		if !(c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
	}
	return true
}

// headerNames splits a CSV or TSV header into column names, a name
// that holds the separator quoted with quote (a first row of values
// whose request line holds the spaces that cut it: spaceSep); a header
// it cannot so split is cut at every separator.
func headerNames(header []byte, sep, quote byte) []string {
	header = bytes.TrimPrefix(header, utf8BOM)
	fields, err := (&csvParser{sep: sep, quote: quote}).split(header)
	if err != nil {
		fields = bytes.Split(header, []byte{sep})
	}
	var names []string
	for _, n := range fields {
		n, _ = headerName(bytes.Trim(bytes.TrimSpace(n), `"`))
		if len(n) > 0 {
			names = append(names, string(n))
		}
	}
	return names
}

// utcSuffix is what Azure's portal puts after the name of a column of
// times in its CSV exports of a query's results (Log Analytics, Azure
// Data Explorer: "TimeGenerated [UTC]"): the times, written without a
// zone, are UTC's.
var utcSuffix = []byte(" [UTC]")

// headerName returns a CSV header's column name as it is read, without
// a " [UTC]" after it, and whether it had one.
func headerName(n []byte) ([]byte, bool) {
	if m, ok := bytes.CutSuffix(n, utcSuffix); ok && len(m) > 0 {
		return m, true
	}
	return n, false
}

// utcTimes reports whether a CSV header names the column of the
// records' time with " [UTC]" after it (headerName).
func utcTimes(header []byte, sep byte, s *Schema) bool {
	for _, n := range bytes.Split(bytes.TrimPrefix(header, utf8BOM), []byte{sep}) {
		if m, utc := headerName(bytes.Trim(bytes.TrimSpace(n), `"`)); utc {
			for _, b := range s.Lookup(m) {
				if b.Field == FTime {
					return true
				}
			}
		}
	}
	return false
}

// firstRow returns the first row of b that is not blank, without its line
// end, and what follows it: its lines joined while a quoted field holds
// line breaks (an odd count of quotes), at most maxQuotedLines more; nil
// when b holds no whole row. In a file quoted with single quotes (quote),
// where one is text within a field too ("O'Reilly"), a line is a row.
func firstRow(b []byte, quote byte) (row, rest []byte) {
	start := 0
	for start < len(b) {
		i := bytes.IndexByte(b[start:], '\n')
		if i < 0 {
			return nil, nil
		}
		if !blank(bytes.TrimRight(b[start:start+i], "\r")) {
			break
		}
		start += i + 1
	}
	end := start
	for range maxQuotedLines + 1 {
		i := bytes.IndexByte(b[end:], '\n')
		if i < 0 {
			return nil, nil
		}
		end += i
		if quote != '"' || bytes.Count(b[start:end], []byte{'"'})%2 == 0 {
			return bytes.TrimRight(b[start:end], "\r"), b[end+1:]
		}
		end++
	}
	return nil, nil
}

// filledNames returns the names of the columns that any of the first n
// rows of b (cut by sep, fields quoted with quote) fills (not empty, "-"
// or \N), in the header's order, and the paths of the values in their
// JSON cells (cellPaths); nil when b holds no whole row.
func filledNames(names []string, b []byte, sep, quote byte, n int) (filled, paths []string) {
	fills := make([]bool, len(names))
	seen := map[string]bool{}
	rows := 0
	for ; rows < n; rows++ {
		row, rest := firstRow(b, quote)
		if row == nil {
			break
		}
		b = rest
		cells, _ := (&csvParser{sep: sep, quote: quote}).split(row)
		for i, c := range cells {
			if i < len(names) && !isAbsent(bytes.TrimSpace(c)) {
				fills[i] = true
			}
		}
		for _, p := range cellPaths(names, row, sep, quote) {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	if rows == 0 {
		return nil, nil
	}
	filled = []string{}
	for i, f := range fills {
		if f {
			filled = append(filled, names[i])
		}
	}
	return filled, paths
}

// cellPaths returns the dotted paths of the values in the JSON objects a
// CSV or TSV row holds in its cells (LiteLLM's metadata,
// {"user_api_key_alias":…}), under the names of their columns, as
// jsonPaths gives a JSON line's nested values: the first row's tell the
// file's source and client too.
func cellPaths(names []string, row []byte, sep, quote byte) []string {
	if len(row) == 0 {
		return nil
	}
	cells, _ := (&csvParser{sep: sep, quote: quote}).split(row)
	var paths []string
	for i, c := range cells {
		if i >= len(names) || len(c) == 0 || c[0] != '{' {
			continue
		}
		for _, k := range append(jsonKeys(c, maxNames), jsonPaths(c, maxNames)...) {
			paths = append(paths, names[i]+"."+k)
		}
	}
	return paths
}

// emptyTar reports whether a file named name of n NUL bytes alone is a
// tar archive of no file: its end, two blocks of 512 zeros, padded to a
// whole record (GNU tar's 10240 bytes), and a name that says tar.
func emptyTar(name string, n int64) bool {
	lower := strings.ToLower(name)
	return n >= 1024 && n%512 == 0 && (strings.HasSuffix(lower, ".tar") || strings.HasSuffix(lower, ".tgz"))
}

// looksText reports whether head, a file's first bytes, may be a text
// log: no NUL byte, and few control bytes (not a tab or a line's end).
// Bytes past ASCII are left alone: a log may be in GBK as well as UTF-8.
// skipNULs discards the NUL bytes a file begins with, and returns how
// many: the hole that logrotate's copytruncate leaves when the program
// writing the log keeps its offset (it does not append), its next lines
// written past it.
func skipNULs(br *bufio.Reader) int64 {
	var skipped int64
	for {
		b, _ := br.Peek(64 << 10)
		n := 0
		for n < len(b) && b[n] == 0 {
			n++
		}
		if n == 0 {
			return skipped
		}
		br.Discard(n)
		skipped += int64(n)
		if n < len(b) {
			return skipped
		}
	}
}

func looksText(head []byte) bool {
	control := 0
	for i, c := range head {
		switch {
		case c == 0 && (i == 0 || head[i-1] == '\n' || head[i-1] == 0):
			// A run of NULs where a line begins: a hole logrotate's
			// copytruncate left (nulLead), no binary content.
		case c == 0:
			return false
		case c < ' ' && c != '\t' && c != '\n' && c != '\r' && c != 0x1b, c == 0x7f: // ESC: a terminal's colours
			control++
		}
	}
	return control*32 <= len(head)
}

// delimitedRows returns the separator, '|' or ';', that cuts each of the
// first lines of head (at least three, the last maybe cut short left
// out) into as many cells as the others, two at least; 0 when none
// does: rows of values with no header of names (Amazon Redshift's
// UNLOAD writes '|' by default and no header). Spaces are no such
// separator here (valueRowsSep is asked of a file read as CSV only): a
// web server's log in a format of its own cuts its lines so too.
func delimitedRows(head []byte) byte {
	lines := headLines(head, 16)
	if len(lines) > 0 && !bytes.HasSuffix(head, []byte("\n")) {
		lines = lines[:len(lines)-1] // cut by the peek
	}
	if len(lines) < 3 {
		return 0
	}
	for _, sep := range []byte{'|', ';'} {
		n := bytes.Count(lines[0], []byte{sep})
		same := n >= 2
		for _, l := range lines[1:] {
			same = same && bytes.Count(l, []byte{sep}) == n
		}
		if same {
			return sep
		}
	}
	return 0
}
