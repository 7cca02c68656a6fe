package ingest

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Format is an input format.
type Format string

// The input formats of SPEC §3. Auto detects by extension, then content.
const (
	Auto    Format = "auto"
	JSONL   Format = "jsonl"
	JSONDoc Format = "json" // a JSON document: array, pretty-printed objects, envelope
	CSV     Format = "csv"
	TSV     Format = "tsv"
	Nginx   Format = "nginx"
	LTSV    Format = "ltsv"
	Logfmt  Format = "logfmt" // key=value pairs: Go's loggers, Heroku's router
	CLB     Format = "clb"
	HAProxy Format = "haproxy" // HAProxy's HTTP log (option httplog)
	Gin     Format = "gin"     // Gin's request log (Ollama, one-api, new-api)
	Fiber   Format = "fiber"   // Fiber's logger middleware's default text
	Rails   Format = "rails"   // Rails' default request log (Started … Completed)
	Phoenix Format = "phoenix" // Plug.Logger's lines through Elixir's console logger
	W3C     Format = "w3c"     // W3C extended log files: IIS, CloudFront
	Tracing Format = "tracing" // Rust tracing's text log: TGI, TEI
	Parquet Format = "parquet"
	Arrow   Format = "arrow"
)

// ParseFormat reads an --input-format value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case Auto, JSONL, JSONDoc, CSV, TSV, Nginx, CLB, LTSV, Logfmt, HAProxy, Gin, Fiber, Rails, Phoenix, W3C, Tracing, Parquet, Arrow:
		return f, nil
	case "ndjson":
		return JSONL, nil
	}
	return "", fmt.Errorf("unknown input format %q (want auto, jsonl, json, csv, tsv, nginx, clb, ltsv, logfmt, haproxy, gin, fiber, rails, phoenix, w3c, tracing, parquet or arrow)", s)
}

// lineParser reads one line of a text format into a record. A parser is
// used by one goroutine; the record's text may point into the line or the
// parser's buffers until the next call.
type lineParser interface {
	Parse(line []byte, r *Record) error
}

// columnar reports whether f is read as columns rather than lines.
func (f Format) columnar() bool { return f == Parquet || f == Arrow }

// byExtension guesses the format from a file name, after any compression
// suffix is removed; Auto when the name does not tell.
func byExtension(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return JSONL
	case ".json":
		return JSONDoc
	case ".csv":
		return CSV
	case ".tsv":
		return TSV
	case ".ltsv":
		return LTSV
	case ".parquet", ".pq":
		return Parquet
	case ".arrow", ".arrows", ".ipc", ".feather":
		return Arrow
	}
	return Auto
}

// sniff guesses the format from the first bytes of the (decompressed)
// content.
func sniff(head []byte, given []*logFormat) Format {
	if len(bytes.TrimSpace(head)) == 0 {
		return JSONL // nothing but blank lines: any line format reads none
	}
	if bytes.HasPrefix(head, []byte("PAR1")) {
		return Parquet
	}
	if bytes.HasPrefix(head, []byte("ARROW1")) || bytes.HasPrefix(head, []byte{0xff, 0xff, 0xff, 0xff}) {
		return Arrow
	}
	line := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	switch {
	case len(line) > 0 && line[0] == '{':
		return JSONL // or a document: jsonShape tells
	case looksW3C(line):
		return W3C
	case looksCLB(line) && !givenReadsWhole(head, given):
		return CLB
	case opensArray(line):
		return JSONDoc
	case looksLTSV(line):
		return LTSV
	case mostLines(head, jsonRecordLine):
		// A first line that is none of the file's: a line cut short
		// (tail -c, split -b, a copytruncate), a program's warning.
		return JSONL
	case mostLines(head, looksCLB) && !givenReadsWhole(head, given):
		return CLB
	case len(given) > 0 && pickLogFormat(head, given) != nil:
		return Nginx // a --log-format reads its lines
	case haproxyHead(head):
		return HAProxy
	case tracingHead(head):
		return Tracing
	case ginHead(head):
		return Gin
	case fiberHead(head): // its columns cut by '|': no table's
		return Fiber
	case railsHead(head):
		return Rails
	case phoenixHead(head):
		return Phoenix
	case looksALB(line): // its quoted lists hold commas: not CSV
		return Nginx
	case !looksText(head):
		return Nginx // random bytes' tabs and commas are no table's: the text reader names them binary
	case bytes.Count(line, []byte{'\t'}) >= 2 && !logfmtHead(head):
		// Lines of logfmt pairs after words cut by tabs (agentgateway's
		// "date\tlevel\trequest k=v …") are no table's rows: the text
		// reader tells them logfmt (logfmtFile).
		return TSV
	case bytes.Count(line, []byte{','}) >= 2 && !bytes.Contains(line, []byte{'['}):
		return CSV
	case bytes.Count(line, []byte{','}) >= 2 && bracketedHeader(head):
		return CSV
	}
	return Nginx
}

// bracketedHeader reports whether head opens with a CSV header whose names
// hold brackets, which the check above leaves to the text reader, for an
// nginx line's "[time]" between commas: Azure's portal writes the time's
// zone in its column's name ("TimeGenerated [UTC]") when it exports a
// query's results. Every name is a name (a letter first, then words,
// brackets and punctuation a name holds), and the rows below it have as
// many cells, read as CSV (quotes around a cell's commas).
func bracketedHeader(head []byte) bool {
	lines := headLines(head, 6)
	if len(lines) < 2 {
		return false
	}
	names := bytes.Split(lines[0], []byte{','})
	for _, n := range names {
		if !headerCell(n) {
			return false
		}
	}
	for _, l := range lines[1:] {
		r := csv.NewReader(bytes.NewReader(l))
		r.FieldsPerRecord = len(names)
		if _, err := r.Read(); err != nil {
			return false
		}
	}
	return true
}

// headerCell reports whether n reads as a column's name in a header:
// a letter, '_' or '@' first, then letters, digits, spaces and the marks
// names hold (`TimeGenerated [UTC]`, `Duration (ms)`, `req.uri`).
func headerCell(n []byte) bool {
	n = bytes.TrimSpace(n)
	if len(n) == 0 || len(n) > 80 {
		return false
	}
	if c := n[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '@') {
		return false
	}
	for _, c := range n {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case bytes.IndexByte([]byte(" _.-[]()/:@"), c) >= 0:
		default:
			return false
		}
	}
	return true
}

// givenReadsWhole reports whether a --log-format given reads each of
// head's first lines whole: a log of the user's own bracketed format
// ("[$request_id] [$time_local] …") that looks like Tencent CLB's is
// read with the format the user gave, as --input-format nginx would.
func givenReadsWhole(head []byte, given []*logFormat) bool {
	if len(given) == 0 {
		return false
	}
	return readsWhole(guessedLines(head), given) != nil
}

// sniffLines is how many of a file's first lines mostLines looks at.
const sniffLines = 20

// mostLines reports whether most of head's first non-blank lines after
// the first (up to sniffLines; one cut short by head's end left out),
// and at least two, are of the kind is tells. The first is left out: it
// is the one sniff read, and of no kind it knows.
func mostLines(head []byte, is func([]byte) bool) bool {
	lines := headLines(head, sniffLines+1)
	if len(lines) < 3 {
		return false
	}
	yes := 0
	for _, l := range lines[1:] {
		if is(l) {
			yes++
		}
	}
	return yes >= 2 && 2*yes > len(lines)-1
}

// jsonLine reports whether line looks like a JSON object's line.
func jsonLine(line []byte) bool {
	line = bytes.TrimSpace(line)
	return len(line) >= 2 && line[0] == '{' && line[len(line)-1] == '}'
}

// jsonRecordLine reports whether line looks like a JSON object's line
// that is no server's own log line beside a text access log's (the vLLM
// production-stack router's, ownLogLine): a file of uvicorn's text
// access lines and more of the router's JSON lines is a text log.
func jsonRecordLine(line []byte) bool {
	return jsonLine(line) && !ownLogLine(line)
}

// opensArray reports whether a line starts a JSON array of objects or
// arrays ("[", "[{", "[ ]"), not a bracketed text log.
func opensArray(line []byte) bool {
	if len(line) == 0 || line[0] != '[' {
		return false
	}
	rest := bytes.TrimLeft(line[1:], " \t\r")
	return len(rest) == 0 || rest[0] == '{' || rest[0] == '[' || rest[0] == ']'
}

// looksCLB reports whether a line starts like a Tencent CLB access log:
// "[request id] [29/Nov/2026:10:00:00 +0800] ...".
func looksCLB(line []byte) bool {
	if len(line) < 2 || line[0] != '[' {
		return false
	}
	i := bytes.IndexByte(line, ']')
	if i < 0 || i+3 > len(line) || line[i+1] != ' ' || line[i+2] != '[' {
		return false
	}
	ts := line[i+3:]
	return len(ts) >= 20 && ts[2] == '/' && ts[6] == '/' && ts[11] == ':'
}

// parserConfig is what a file's parsers need to know, fixed when the file
// is opened.
type parserConfig struct {
	schema *Schema
	loc    *time.Location
	nginx  *logFormat // nginx text: the format its lines follow
	client textClient // nginx text: where its records' client is from
	// decolor: nginx text whose lines hold terminal escapes, read
	// without them (appendDecolored).
	decolor bool
	header  []byte // CSV/TSV: the header line
	// sep is a CSV file's separator: ',' but for a header of another
	// (csvSep); 0 for ','.
	sep byte
	// quote is a CSV or TSV file's quote: a double quote but for rows
	// quoted with single quotes (rowsQuote); 0 for a double quote.
	quote byte
	// envelope wraps the file's lines: each is read as the line within;
	// within, when set, wraps those lines in turn (a Docker record in a
	// Loki line).
	envelope, within Envelope
	// unwrapped: a document's reader hands on the lines within its
	// elements (readDoc), which the parser reads as they are.
	unwrapped bool
	// raw is the layout of an EnvRawCSV file.
	raw rawColumns
	// stamp is how an EnvStamped file's lines are cut from their time.
	stamp stampCut
	// server: a text file no log format reads, which is a server's own
	// log (serverlog.go): each of its lines is passed over.
	server *serverLog
	// ownJSON: a JSON-lines file that is a program's own log
	// (jsonOwnLog): its records with no field but the time are passed
	// over.
	ownJSON bool
	// otel: the document is an OTLP trace export, whose spans are read
	// (otel.go); otelCalls: its records are the spans of LLM calls,
	// else those of HTTP servers.
	otel, otelCalls bool
	// spans: the file's records are Jaeger's or Zipkin's spans
	// (spans.go), whose records are picked as an OTLP file's
	// (otelCalls).
	spans bool
	// untimedSpans: the file's first span has no start, a span export
	// trimmed of it, whose spans are read without a time (spans.go).
	untimedSpans bool
}

// newLineParser returns a parser for one worker and one file.
func newLineParser(f Format, c *parserConfig) (lineParser, error) {
	lp, err := formatParser(f, c)
	if err != nil || !c.envelope.wrapsLines() || c.unwrapped {
		return lp, err
	}
	if c.within.wrapsLines() {
		in := newEnvParser(c.within, lp, c.loc)
		in.d.lone = c.envelope == EnvStamped
		lp = in
	}
	ep := newEnvParser(c.envelope, lp, c.loc)
	ep.d.raw, ep.d.stamp = c.raw, c.stamp
	return ep, nil
}

// formatParser returns a parser of format f's lines.
func formatParser(f Format, c *parserConfig) (lineParser, error) {
	switch f {
	case JSONDoc:
		if c.otel {
			return newOTelParser(c), nil
		}
		if c.spans {
			return newSpanParser(c), nil
		}
		return newJSONParser(c.schema, c.loc), nil
	case JSONL:
		if c.spans {
			return newSpanParser(c), nil
		}
		return newJSONParser(c.schema, c.loc), nil
	case Nginx:
		if c.server != nil {
			return newServerLogParser(c.server), nil
		}
		p, err := newNginxParser(c)
		if err != nil {
			return nil, err
		}
		return p, nil
	case LTSV:
		return newLTSVParser(c), nil
	case Logfmt:
		return newLogfmtParser(c), nil
	case CSV, TSV, CLB:
		return newTextParser(f, c), nil
	case HAProxy:
		return newHAProxyParser(c), nil
	case Gin:
		return newGinParser(c), nil
	case Fiber:
		return newFiberParser(c), nil
	case Rails:
		return newRailsParser(c), nil
	case Phoenix:
		return newPhoenixParser(c), nil
	case W3C:
		return newW3CParser(c), nil
	case Tracing:
		return newTracingParser(c), nil
	}
	return nil, fmt.Errorf("the %s format is not supported yet", f)
}

// describeText names the source of a text file and the field names its
// lines carry (FileStats.Source and Seen): the matched log format and its
// variables, or the labels of an LTSV file's first line.
func describeText(f Format, c *parserConfig, head []byte) (source string, seen []string) {
	switch {
	case f == Nginx && c.nginx != nil:
		return c.nginx.source, c.nginx.varNames(MaxSeen)
	case f == LTSV:
		if lines := headLines(head, 1); len(lines) > 0 {
			seen = ltsvLabels(lines[0], MaxSeen)
		}
		return "ltsv", seen
	case f == Logfmt:
		return "logfmt", logfmtKeys(logfmtFirst(head), MaxSeen)
	case f == HAProxy:
		return "haproxy", hapNames[:hapUpstream:hapUpstream]
	case f == Gin:
		return "gin", ginNames[:]
	case f == Fiber:
		return "fiber", fiberNames[:]
	case f == Rails:
		return "rails", railsNames[:]
	case f == Phoenix:
		return "phoenix", phxNames[:]
	case f == Tracing:
		src := tracingSource(head)
		return src, tracingSeen(src)
	}
	return "", nil
}
