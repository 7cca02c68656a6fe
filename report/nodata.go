package report

import (
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/rules"
)

// VerdictNoData is the verdict of a report that could not judge latency:
// no record in the window carries request_time (SPEC §3 "Never OK about
// what was not read").
const VerdictNoData = "no_data"

// MissingField is the field whose absence makes a report no_data.
const MissingField = "request_time"

// NoData says why a report could not judge latency. Every string in it
// that comes from the input (paths, field names, reasons) is unescaped;
// each renderer escapes it.
type NoData struct {
	// Records are the records in the window; Outside those read but
	// outside --since/--until.
	Records, Outside int64
	// Carried are the canonical fields the window's records carry.
	Carried []string
	// Seen are the field names the input files' first records carried,
	// in their own spelling, without repeats, in file order.
	Seen  []string
	Files []FileReason
	Hints []Hint
}

// FileReason is one input file as the no_data reason tells it.
type FileReason struct {
	Path     string
	Format   string
	Source   string
	Records  int64
	BadLines int64
	// Why is what kept the file from giving request_time, in English.
	Why string
	// why says it in a report's language; nil for a reason given as is.
	why *fileWhyInput
}

// fileWhyInput is what fileWhy says why a file gave no record from.
type fileWhyInput struct {
	file     ingest.FileStats
	problems []ingest.Problem
	windowed bool
}

// text is the reason in m's language.
func (w fileWhyInput) text(m printer) string { return fileWhy(m, w.file, w.problems, w.windowed) }

// Hint is a flag that may let the next run read the latency: Flag is the
// flag as typed, Why what it would do.
type Hint struct {
	Flag, Why string
	// id and arg make Why in a report's language.
	id  msgID
	arg []any
}

// newHint is a hint whose reason is the message id filled with args.
func newHint(flag string, id msgID, args ...any) Hint {
	return Hint{Flag: flag, Why: english.f(id, args...), id: id, arg: args}
}

// why is the hint's reason in m's language.
func (h Hint) why(m printer) string {
	if h.id == "" {
		return h.Why
	}
	return m.f(h.id, h.arg...)
}

// UnreadFile is an input file that held data of which not one record
// could be read: exit 1 (SPEC §3 "Bad input").
type UnreadFile struct {
	Path, Reason string
}

// VerdictName names the report's verdict: no_data when no record in the
// window carries request_time, else the worst finding's severity (ok,
// warn, crit).
func (r *Report) VerdictName() string {
	if r.NoData != nil {
		return VerdictNoData
	}
	return r.Verdict.String()
}

// FailSeverity is what --fail-on is compared with: the worst finding,
// and at least warn when the verdict is no_data.
func (r *Report) FailSeverity() rules.Severity {
	if r.NoData != nil {
		return max(r.Verdict, rules.Warn)
	}
	return r.Verdict
}

// unreadFiles lists the files that held data (bad lines, or content that
// could not be parsed or decompressed) of which not one record was read,
// with the reason: the file's own, else its first bad line. An empty file
// is not among them, nor one whose records its source marks as no
// requests (passed over) are at least as many as its bad lines: it was
// read (Langfuse's spans and a line cut short). One of more bad lines
// than such records was not: new-api's requests all bad beside its
// top-ups.
func unreadFiles(in *ingest.Result) []UnreadFile {
	var out []UnreadFile
	for _, f := range in.Files {
		if f.Records > 0 || f.PassedOver > 0 && f.PassedOver >= f.BadLines || f.BadLines == 0 && !f.Incomplete {
			continue
		}
		out = append(out, UnreadFile{Path: f.Path, Reason: fileWhy(english, f, in.Problems, false)})
	}
	return out
}

// mostlyUnread lists the files of which records were read, but more of
// whose lines were bad than read (a log in the wrong unit, 498 of its 500
// durations refused): an OK verdict is not about them either.
func mostlyUnread(in *ingest.Result) []UnreadFile {
	var out []UnreadFile
	for _, f := range in.Files {
		if f.Records == 0 || f.BadLines <= f.Records {
			continue
		}
		out = append(out, UnreadFile{Path: f.Path, Reason: badWhy(english, f, in.Problems)})
	}
	return out
}

// badWhy says how many of a file's lines were bad, as what, and the first.
func badWhy(m printer, f ingest.FileStats, problems []ingest.Problem) string {
	why := m.f("why.badas", m.n(int(f.BadLines), "n.badline"), string(f.Format))
	for _, p := range problems {
		if p.File == f.Path {
			why += m.f("why.firstat", p.Line, p.Reason)
			break
		}
	}
	return why
}

// fileWhy says why a file gave no record with request_time, and, when
// its duration was left unread as spans' (ingest.Refused.Spans), the
// flag that reads them: said where the file is named unread too.
// windowed is set when --since or --until left records out.
func fileWhy(m printer, f ingest.FileStats, problems []ingest.Problem, windowed bool) string {
	why := readWhy(m, f, problems, windowed)
	if r, ok := spanRefusal(f); ok {
		why += m.t("semicolon") + spanNote(m, r)
	}
	return why
}

// readWhy says why a file gave no record with request_time, from what
// was read of it.
func readWhy(m printer, f ingest.FileStats, problems []ingest.Problem, windowed bool) string {
	switch {
	case f.Records == 0 && f.Incomplete && f.BadLines == 0:
		return f.Reason
	case f.Records == 0 && f.BadLines > 0:
		why := badWhy(m, f, problems)
		if f.Incomplete {
			why += m.t("semicolon") + f.Reason
		}
		if (f.Format == ingest.CSV || f.Format == ingest.TSV) && valuesRow(f.Seen) {
			why += m.t("semicolon") + m.t("why.noheader")
		}
		if f.PassedOver > 0 {
			// Its other lines were read, each no request (a request's
			// other events, a tracing log's 625 beside one bad line):
			// said first when they are as many as the bad ones, which
			// alone would make the file look unread.
			passed := m.f("note.passedover", m.n(int(f.PassedOver), "n.record"), f.Source)
			if f.PassedOver >= f.BadLines {
				return passed + m.t("semicolon") + why
			}
			why += m.t("semicolon") + passed
		}
		return why
	case f.Records == 0 && f.PassedOver > 0 && ingest.ServerLogTitle(f.Source) != "":
		// A server's own log (nginx's error.log beside its access log).
		return m.f("why.serverlog", m.t(msgID("srv."+f.Source)), m.n(int(f.PassedOver), "n.line"))
	case f.Records == 0 && f.PassedOver > 0 && f.Source == "zipkin" && !slices.Contains(f.Seen, "kind"):
		// Zipkin's spans trimmed of their kind ({traceId, id, timestamp,
		// duration, tags}): none is a server's, the only spans that are
		// requests, for want of the name that would say so.
		return m.f("why.zipkinkind", m.n(int(f.PassedOver), "n.record"))
	case f.Records == 0 && f.PassedOver > 0:
		// Read, every one a record its source says is no request
		// (Langfuse's spans and events).
		return m.f("why.allpassed", m.n(int(f.PassedOver), "n.record"), f.Source)
	case f.Records == 0 && (f.Format == ingest.CSV || f.Format == ingest.TSV) && len(f.Seen) > 0:
		// Its one line was taken for a header: not empty, and maybe not
		// a table at all.
		return m.f("why.headeronly", string(f.Format))
	case f.Records == 0:
		return m.t("why.empty")
	case windowed:
		return m.f("why.nonewindow", m.n(int(f.Records), "n.record"), MissingField)
	}
	if f.Source == "uvicorn" {
		return m.f("why.uvicorn", m.n(int(f.Records), "n.record"), MissingField)
	}
	if f.Source == "aws-elb" {
		return m.f("why.awselb", m.n(int(f.Records), "n.record"), MissingField)
	}
	if f.Source == "linkerd" && f.Format == ingest.Nginx {
		return m.f("why.linkerd", m.n(int(f.Records), "n.record"), MissingField)
	}
	if f.Source == "llama-server" {
		return m.f("why.llamaserver", m.n(int(f.Records), "n.record"), MissingField)
	}
	if f.Source == "django" || f.Source == "werkzeug" {
		return m.f("why.pydev", m.n(int(f.Records), "n.record"), MissingField, f.Source)
	}
	if f.Source == "cloudflare" {
		return m.f("why.cloudflare", m.n(int(f.Records), "n.record"), MissingField)
	}
	if f.Source == "databricks-usage" {
		return m.f("why.dbxusage", m.n(int(f.Records), "n.record"), MissingField)
	}
	return m.f("why.without", m.n(int(f.Records), "n.record"), MissingField)
}

// formatLabel is a file's format as the reports name it: with its
// envelope, "jsonl (cri)".
func formatLabel(f ingest.FileStats) string {
	if f.Envelope != ingest.NoEnvelope {
		return string(f.Format) + " (" + string(f.Envelope) + ")"
	}
	return string(f.Format)
}

// noData returns why no record in the window carries request_time, or
// nil when some record does.
func noData(acc *aggregate.Accumulator, in *ingest.Result) *NoData {
	if acc.Present()[ingest.FRequestTime] > 0 {
		return nil
	}
	n := &NoData{Records: acc.Records, Outside: acc.Skipped, Carried: carried(acc), Seen: seenNames(in.Files)}
	for _, f := range in.Files {
		why := fileWhyInput{file: f, problems: in.Problems, windowed: acc.Skipped > 0}
		n.Files = append(n.Files, FileReason{
			Path: f.Path, Format: formatLabel(f), Source: f.Source,
			Records: f.Records, BadLines: f.BadLines, Why: why.text(english), why: &why,
		})
	}
	n.Hints = hints(n, in.Files)
	return n
}

// carried lists the canonical fields some record in the window carries.
func carried(acc *aggregate.Accumulator) []string {
	var out []string
	for _, fc := range fieldCoverage(acc) {
		out = append(out, fc.Field)
	}
	return out
}

// seenNames merges the files' Seen lists, without repeats.
func seenNames(files []ingest.FileStats) []string {
	var out []string
	had := map[string]bool{}
	for _, f := range files {
		for _, s := range f.Seen {
			if !had[s] {
				had[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// valuesRow reports whether the names a CSV file's header gave are a
// row of values: more than half of them numbers or times (a digit first, then
// digits and the marks of numbers, dates and times).
func valuesRow(names []string) bool {
	values := 0
	for _, n := range names {
		switch {
		case n != "" && n[0] >= '0' && n[0] <= '9' && strings.Trim(n, "0123456789.:-+/TZ ") == "":
			values++ // a number or a time
		case n == "", n == "-", n == `\N`, n == "NULL", n == "true", n == "false":
			values++ // a missing value or a flag: no column's name
		}
	}
	return 2*values > len(names)
}

// maxMapHints is how many --map suggestions a no_data reason makes.
const maxMapHints = 3

// hints are the flags that may let the next run read request_time. A
// file whose every record its source marks as no request needs none:
// its names are not offered to --map.
func hints(n *NoData, files []ingest.FileStats) []Hint {
	var out []Hint
	var mappable []ingest.FileStats
	opened := files[:0:0]
	for _, f := range files {
		if !f.Unopened { // nothing of it seen: no flag reads it
			opened = append(opened, f)
		}
	}
	files = opened
	for _, f := range files {
		// A log that writes no request time has no name to map to one
		// (its reason says so): the Classic Load Balancer's times all
		// end when the response began (why.awselb), and a format's own
		// variable, uvicorn's time behind SGLang's logger, is its time.
		if (f.Records > 0 || f.PassedOver == 0) && !writesNoRequestTime(f) {
			mappable = append(mappable, f)
		}
	}
	// A file whose lines were bad for a time that was a number: the
	// name read as the time holds a duration.
	for _, f := range mappable {
		if f.Records > 0 || f.TimeNumbers == 0 || 2*f.TimeNumbers < f.BadLines {
			continue
		}
		if name := numberTimeName(f); name != "" && len(out) < maxMapHints && !hasHint(out, name) {
			out = append(out, newHint("--map "+MissingField+"="+name+":"+unitFor(name, []ingest.FileStats{f}), "hint.numtime", name))
		}
	}
	// A name read by default in a unit its values cannot be in (Go's
	// slog writes a duration in ns, under the name "duration", read in
	// ms): the unit they tell. Spans' duration, left unread for want of
	// a time to tell them spans by: the source that reads them.
	for _, f := range mappable {
		for _, r := range f.Refused {
			if r.Spans != "" {
				if h := spanHint(f, r); len(out) < maxMapHints && !slices.ContainsFunc(out, func(o Hint) bool { return o.Flag == h.Flag }) {
					out = append(out, h)
				}
				continue
			}
			if r.ReadIn == ingest.UnitNone && len(out) < maxMapHints && !hasHint(out, r.Name) {
				out = append(out, newHint("--map "+MissingField+"="+r.Name+":"+refusedUnit(r), "hint.refused",
					r.Name, unitText[r.Unit], strconv.FormatFloat(r.Median, 'f', -1, 64), refusedLength(r)))
			}
		}
	}
	for _, name := range durationNames(mappable) {
		if len(out) == maxMapHints {
			break
		}
		out = append(out, newHint("--map "+MissingField+"="+name+":"+unitFor(name, mappable), "hint.map", name))
	}
	var text, unknown, nginxRead, gunicorn, lighttpd bool
	past, headerless, headerlessText := "", "", false
	for _, f := range files {
		if f.Records > 0 && f.PastFormat && past == "" && f.Source != "lighttpd" {
			past = f.Source
		}
		_, spans := spanRefusal(f)
		switch {
		case spans:
			// Spans whose duration was left unread: its hint tells the
			// flag, and no format or log_format would read them.
		case f.Records > 0 && (writesNoRequestTime(f) || f.Source == "linkerd"):
			// No format of uvicorn's or llama.cpp's server's has a
			// request time, nor Linkerd's apache one: the file's reason
			// says so, and no flag would read one.
		case f.Records > 0 && f.Source == "gunicorn":
			gunicorn = true
		case f.Records > 0 && f.Source == "lighttpd":
			// Its default logs no duration, and a number appended to it
			// does not say its unit: lighttpd's own directives do.
			lighttpd = true
		case f.Records > 0 && f.Format == ingest.Nginx:
			nginxRead = true
		case f.Records == 0 && (f.Format == ingest.CSV || f.Format == ingest.TSV) && valuesRow(f.Seen):
			// Its header is a row of values: no log_format would help.
			if headerless == "" {
				headerless = filepath.Base(f.Path)
				// Not named a table: rows cut by '|' or ';' may be a
				// web server's log_format's.
				ext := strings.ToLower(filepath.Ext(f.Path))
				headerlessText = ext != ".csv" && ext != ".tsv" && ext != ".psv"
			}
		case f.Records == 0 && (f.BadLines > 0 || f.Incomplete) && f.Format != ingest.Parquet && f.Format != ingest.Arrow:
			// A log_format describes a text log, never JSON, nor a
			// W3C log, whose #Fields directive describes it.
			text = text || f.Format != ingest.JSONL && f.Format != ingest.JSONDoc && f.Format != ingest.W3C
			unknown = unknown || f.Format != ingest.Nginx
		}
	}
	if headerless != "" {
		id := "hint.csvheader"
		if headerlessText {
			id = "hint.csvtext"
		}
		out = append(out, newHint("--csv-header", msgID(id), headerless))
	}
	if gunicorn && n.Records > 0 {
		out = append(out, newHint("--log-format", "hint.gunicorn"))
	}
	if lighttpd && n.Records > 0 {
		out = append(out, newHint("--log-format", "hint.lighttpd"))
	}
	if past != "" && n.Records > 0 {
		out = append(out, newHint("--log-format", "hint.pastformat", past))
	} else if nginxRead && n.Records > 0 {
		out = append(out, newHint("--log-format", "hint.nginx"))
	} else if text {
		out = append(out, newHint("--log-format", "hint.logformat"))
	}
	if unknown {
		out = append(out, newHint("--input-format", "hint.inputfmt"))
	}
	if n.Records == 0 && n.Outside > 0 {
		out = append(out, newHint("--since/--until", "hint.window"))
	}
	return out
}

// numberTimeName is the name file f carried that loganalyze reads as the
// time and that most likely held the numbers its time was refused for
// (FileStats.TimeNumbers): of those read as the time, the first whose
// name says no time of day (a "time" beside a "timestamp"), else the
// first; "" when none.
func numberTimeName(f ingest.FileStats) string {
	base, _ := ingest.NewSchema(nil)
	schema := schemaOf(base, f)
	first := ""
	for _, name := range f.Seen {
		if !plainName(name) || !bindsTime(schema.LookupString(name)) {
			continue
		}
		if !containsAny(strings.ToLower(name), timeOfDayWords...) {
			return name
		}
		if first == "" {
			first = name
		}
	}
	return first
}

// timeOfDayWords are what a name that holds a time of day, not a
// duration, is likely to hold.
// (handletime: Alibaba API Gateway's requestHandleTime, a GMT instant.)
var timeOfDayWords = []string{"stamp", "date", "start", "end", "create", "update", "local", "iso", "utc", "zone", "handletime",
	// Azure Log Analytics' TimeGenerated, Vertex AI's logging_time, a
	// shipper's received and ingestion times: instants.
	"generated", "logging_time", "received", "ingest",
	// Gloo's systemTime, Envoy's %START_TIME% by its documentation.
	"systemtime"}

func bindsTime(bs ingest.Bindings) bool {
	for _, b := range bs {
		if b.Field == ingest.FTime {
			return true
		}
	}
	return false
}

// hasHint reports whether hints already offer --map for name.
func hasHint(hints []Hint, name string) bool {
	for _, h := range hints {
		if strings.HasPrefix(h.Flag, "--map "+MissingField+"="+name+":") {
			return true
		}
	}
	return false
}

// durationNames are the names files carried that look like a duration
// and that loganalyze does not already read (as a time of day or
// anything else) from the file they were seen in: a source's names as
// the source reads them, so that one it leaves unread for want of a
// documented unit is offered, in the files' order without repeats. A
// "cost" is a duration only with a unit of time in its name (cost_ms):
// in an LLM gateway's log it is money.
func durationNames(files []ingest.FileStats) []string {
	names := unreadNames(files, func(name string) bool {
		l := strings.ToLower(name)
		return l != "time" && // a time of day where a reader of its own reads it (W3C)
			!strings.HasPrefix(l, "__") && // a log service's own (SLS's __time__, an instant)
			(ingest.DurationWord(name) || containsAny(l, "cost") && unitGuess(name) != "s") &&
			!containsAny(l, timeOfDayWords...) &&
			!instantValues(name, files)
	})
	// A whole request's first (Alibaba's API Gateway: totalLatency
	// before serviceLatency, the backend's), the files' order kept
	// otherwise.
	sort.SliceStable(names, func(i, j int) bool { return wholeName(names[i]) && !wholeName(names[j]) })
	return names
}

// instantValues reports whether a file's first values of name are
// instants, not durations: epoch seconds, ms, µs or ns of the years
// 2001 to 2100 (Akamai's reqTimeSec, 1733565600.123), which no request
// lasts in any unit but ns, and which a duration in ns of 1 to 4
// seconds does not write with a fraction; or dates and times written
// as text (FileStats.Instants: Python logging's asctime).
func instantValues(name string, files []ingest.FileStats) bool {
	for _, f := range files {
		if slices.Contains(f.Instants, name) {
			return true
		}
		m, ok := f.Magnitudes[name]
		if !ok || m.N == 0 {
			continue
		}
		for _, lo := range []float64{1e9, 1e12, 1e15, 1e18} {
			if m.Median >= lo && m.Median < 4.2*lo && (lo > 1e9 || !m.Whole) {
				return true
			}
		}
	}
	return false
}

// writesNoRequestTime reports whether file f's log writes no request
// time in any configuration: uvicorn's, llama.cpp's server's, Django's
// and werkzeug's development servers', Linkerd's apache format, the
// Classic Load Balancer's, Databricks' usage table (its reason, readWhy,
// says so for each).
func writesNoRequestTime(f ingest.FileStats) bool {
	switch f.Source {
	case "uvicorn", "llama-server", "django", "werkzeug", "aws-elb", "databricks-usage":
		return true
	case "linkerd":
		return f.Format == ingest.Nginx
	}
	return false
}

// wholeName reports whether a duration's name says it is the whole
// request's.
func wholeName(name string) bool {
	return containsAny(strings.ToLower(name), "total", "request_time", "requesttime", "request_duration", "response_time")
}

// unreadNames are the names files carried that keep accepts and that
// loganalyze does not already read from the file they were seen in: a
// source's names as the source reads them, in the files' order without
// repeats, each one --map can take as it is.
func unreadNames(files []ingest.FileStats, keep func(name string) bool) []string {
	base, _ := ingest.NewSchema(nil)
	var out []string
	had := map[string]bool{}
	for _, f := range files {
		schema := schemaOf(base, f)
		for _, name := range f.Seen {
			if had[name] || !plainName(name) || len(schema.LookupString(name)) > 0 || !keep(name) {
				continue
			}
			had[name] = true
			out = append(out, name)
		}
	}
	return out
}

// schemaOf is the schema file f was read with, as far as its names and
// source tell: base, or its source's names over it.
func schemaOf(base *ingest.Schema, f ingest.FileStats) *ingest.Schema {
	if f.Source == "" {
		return base
	}
	schema, _, _ := base.ForNames(f.Seen, nil, f.Source, nil)
	return schema
}

// plainName reports whether a field name can be given to --map as it is
// and shown in a report without escaping: letters, digits, _ . - @.
func plainName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune("_.-@", c)) {
			return false
		}
	}
	return true
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// unitGuess reads a unit from a name's suffix (elapsed_ms, durationUs);
// s when the name does not tell.
func unitGuess(name string) string {
	for _, u := range []struct{ unit, suffixes string }{
		// Akamai's DataStream writes MSec (turnAroundTimeMSec).
		{"ms", "_ms -ms Ms MS _msec MSec Msec millis Millis _millisec _milliseconds"},
		// Apache's %D in an LTSV log (alp's reqtime_microsec).
		{"us", "_us -us Us US _usec USec Usec micros Micros _microsec _microseconds"},
		{"ns", "_ns -ns Ns NS nanos Nanos _nsec NSec Nsec _nanosec _nanoseconds"},
	} {
		for _, suf := range strings.Fields(u.suffixes) {
			if strings.HasSuffix(name, suf) && len(name) > len(suf) {
				return u.unit
			}
		}
	}
	return "s"
}

// unitFor is the unit to --map a field in: its name's (unitGuess), or,
// when the name does not tell, the one its first values' magnitude
// tells (FileStats.Magnitudes: OpenRouter's latency 1250 is ms, a
// duration of 1.234 s).
func unitFor(name string, files []ingest.FileStats) string {
	if u := unitGuess(name); u != "s" {
		return u
	}
	for _, f := range files {
		if m, ok := f.Magnitudes[name]; ok && m.N >= 3 {
			return magnitudeUnit(m)
		}
	}
	for _, f := range files {
		// Cloudflare AI Gateway's API gives its duration no unit; its
		// Logpush dataset's durationMs is ms, the unit the README
		// offers to map it in.
		if f.Source == "cloudflare-aig" && name == "duration" {
			return "ms"
		}
	}
	return "s"
}

// magnitudeUnit is the unit a latency's values of magnitude m are most
// likely in: a request takes from tens of milliseconds to minutes, so
// whole numbers past 20 are ms, past 10⁵ µs, past 10⁸ ns; a fraction
// past 50 ms; the rest s.
func magnitudeUnit(m ingest.Magnitude) string {
	switch {
	case m.Whole && m.Median >= 1e8:
		return "ns"
	case m.Whole && m.Median >= 1e5:
		return "us"
	case m.Whole && m.Median >= 20, !m.Whole && m.Median >= 50:
		return "ms"
	}
	return "s"
}

// unitText names a unit as --map takes it.
var unitText = [...]string{ingest.UnitNone: "s", ingest.UnitSecond: "s", ingest.UnitMilli: "ms", ingest.UnitMicro: "us", ingest.UnitNano: "ns"}

// refusedUnit is the unit a refused name's values are most likely in:
// of the units finer than the one refused in which their 90th percentile
// lasts ten minutes at most (a service's requests, past its health
// checks), the one that makes their median request nearest a second;
// ns when none does.
func refusedUnit(r ingest.Refused) string {
	best, dist := ingest.UnitNano, math.Inf(1)
	for u := r.Unit + 1; u <= ingest.UnitNano; u++ {
		sec := ingest.UnitSeconds(u)
		if r.Tail*sec > 600 {
			continue
		}
		if d := math.Abs(math.Log10(max(r.Median*sec, 1e-9))); d < dist {
			best, dist = u, d
		}
	}
	return unitText[best]
}

// refusedLength is the median request a refused name's values would
// make, in its default unit, as Go writes a duration (65h38m39s).
func refusedLength(r ingest.Refused) string {
	s := r.Median * ingest.UnitSeconds(r.Unit)
	if s >= float64(math.MaxInt64/int64(time.Second)) {
		return strconv.FormatFloat(s, 'g', 3, 64) + "s"
	}
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}

// spanSources are what a hint tells of the span sources whose spans'
// duration is left unread (ingest.Refused.Spans): the program's name,
// its span's ids and its start, as its spans write them (ingest/spans.go).
var spanSources = map[string]struct{ title, ids, start string }{
	"jaeger": {"Jaeger", "traceID, spanID", "startTime"},
	"zipkin": {"Zipkin", "traceId, id", "timestamp"},
}

// spanRefusal returns the name of file f left unread as spans' duration
// (ingest.Refused.Spans), if one was.
func spanRefusal(f ingest.FileStats) (ingest.Refused, bool) {
	for _, r := range f.Refused {
		if r.Spans != "" {
			return r, true
		}
	}
	return ingest.Refused{}, false
}

// spanHint is the hint for spans' duration r left unread in file f: the
// source that reads them, and, for Zipkin's trimmed of their kind as
// well, which no span is a server's without, to export it.
func spanHint(f ingest.FileStats, r ingest.Refused) Hint {
	s := spanSources[r.Spans]
	if r.Spans == "zipkin" && !slices.Contains(f.Seen, "kind") {
		return newHint("--source "+r.Spans, "hint.spanskind", s.ids, r.Name, s.start)
	}
	return newHint("--source "+r.Spans, "hint.spans", s.title, s.ids, r.Name, s.start)
}

// spanNote says in m's language that spans' duration r was left unread,
// and the flag that reads it.
func spanNote(m printer, r ingest.Refused) string {
	return m.f("note.spans", r.Name, spanSources[r.Spans].title, "--source "+r.Spans)
}

// maxReasonFiles and maxReasonSeen bound the no_data reason line; the
// Input section and the JSON list every file.
const (
	maxReasonFiles = 3
	maxReasonSeen  = 12
)

// headline is the short reason in m's language: the missing field,
// what was read, the first flag to try. esc escapes text from the input;
// code marks a field name or a flag.
func (n *NoData) headline(m printer, esc, code func(string) string) string {
	s := m.f("nd.none", code(MissingField))
	if n.Outside > 0 {
		s = m.f("nd.nonewindow", code(MissingField))
	}
	s += m.t("open")
	if len(n.Files) == 1 {
		s += esc(n.Files[0].Path) + m.t("colon")
	} else {
		s += m.n(len(n.Files), "n.file") + m.t("comma")
	}
	s += m.n(int(n.Records), "n.record")
	if len(n.Hints) > 0 {
		s += m.f("nd.try", code(n.Hints[0].Flag))
	}
	return s + m.t("close")
}

// text is the whole reason in one line, in m's language: what the
// window's records carry, each file and why it gave no request_time, the
// field names seen, and the flags that may help.
func (n *NoData) text(m printer, esc, code func(string) string) string {
	var b strings.Builder
	if n.Outside > 0 {
		b.WriteString(m.f("nd.textwindow", code(MissingField)))
	} else {
		b.WriteString(m.f("nd.text", code(MissingField)))
	}
	switch {
	case n.Records > 0:
		var fields []string
		for _, f := range n.Carried {
			fields = append(fields, code(f))
		}
		records := m.n(int(n.Records), "n.record")
		switch {
		case len(fields) == 0:
			// Records of names no canonical field is read from (a
			// table's own columns).
			b.WriteString(m.f("nd.carrynone", records))
		case n.Records == 1:
			b.WriteString(m.f("nd.carries", records, strings.Join(fields, ", ")))
		default:
			b.WriteString(m.f("nd.carry", records, strings.Join(fields, ", ")))
		}
	case n.Outside == 1:
		b.WriteString(m.t("nd.oneoutside"))
	case n.Outside > 0:
		b.WriteString(m.f("nd.alloutside", m.n(int(n.Outside), "n.record")))
	default:
		b.WriteString(m.t("nd.noneread"))
	}
	b.WriteString(m.t("nd.files"))
	if len(n.Files) == 0 {
		b.WriteString(m.t("none"))
	}
	for i, f := range n.Files[:min(maxReasonFiles, len(n.Files))] {
		if i > 0 {
			b.WriteString(m.t("semicolon"))
		}
		b.WriteString(esc(f.Path))
		if f.Records > 0 || f.Source != "" {
			b.WriteString(m.t("open") + esc(f.Format))
			if f.Source != "" {
				b.WriteString(m.t("comma") + esc(f.Source))
			}
			b.WriteString(m.t("close"))
		}
		why := f.Why
		if f.why != nil {
			why = f.why.text(m)
		}
		b.WriteString(m.t("colon") + esc(why))
	}
	if more := len(n.Files) - maxReasonFiles; more > 0 {
		b.WriteString(m.f("nd.andmore", m.n(more, "n.morefile")))
	}
	b.WriteString(m.t("period"))
	if len(n.Seen) > 0 {
		b.WriteString(m.f("nd.seen", esc(strings.Join(n.Seen[:min(maxReasonSeen, len(n.Seen))], ", "))))
		if len(n.Seen) > maxReasonSeen {
			b.WriteString(m.t("nd.seenmore"))
		}
		b.WriteString(m.t("period"))
	}
	for i, h := range n.Hints {
		if i == 0 {
			b.WriteString(m.t("nd.tryfirst"))
		} else {
			b.WriteString(m.t("semicolon"))
		}
		b.WriteString(code(h.Flag) + m.t("open") + esc(h.why(m)) + m.t("close"))
	}
	if len(n.Hints) > 0 {
		b.WriteString(m.t("period"))
	}
	return b.String()
}

// fileNote is the Input table's note on a file: why not one record was
// read from it (an empty file says so), or why it is incomplete, and how
// many of its records its source marks as no requests.
func (r *Report) fileNote(m printer, f ingest.FileStats) string {
	if f.Records == 0 {
		return m.f("note.noread", fileWhy(m, f, r.Input.Problems, false))
	}
	var notes []string
	if f.Incomplete {
		notes = append(notes, m.f("note.incomplete", f.Reason))
	}
	if f.PassedOver > 0 {
		notes = append(notes, m.f("note.passedover", m.n(int(f.PassedOver), "n.record"), f.Source))
	}
	if f.Zone != "" {
		notes = append(notes, m.f("note.zone", f.Zone))
	}
	for _, u := range f.Refused {
		if u.Spans != "" {
			if r.NoData == nil { // else the no_data reason tells
				notes = append(notes, spanNote(m, u))
			}
		} else if u.ReadIn != ingest.UnitNone && u.Fractions {
			notes = append(notes, m.f("note.readfrac", u.Name, unitText[u.ReadIn], unitText[u.Unit], strconv.FormatFloat(u.Median, 'f', -1, 64),
				unitText[u.Unit], unitText[u.Unit], "--map "+MissingField+"="+u.Name+":"+unitText[u.Unit]))
		} else if u.ReadIn != ingest.UnitNone {
			notes = append(notes, m.f("note.readin", u.Name, unitText[u.ReadIn], unitText[u.Unit]))
		} else if r.NoData == nil { // else the no_data reason tells
			notes = append(notes, m.f("note.refused", u.Name, unitText[u.Unit], strconv.FormatFloat(u.Median, 'f', -1, 64), refusedLength(u),
				"--map "+MissingField+"="+u.Name+":"+refusedUnit(u)))
		}
	}
	if f.WithoutRequestTime > 0 && r.NoData == nil { // else the no_data reason tells
		note := m.f("note.without", m.n(int(f.WithoutRequestTime), "n.record"), MissingField)
		// A hint only when the file gave no record one: else its
		// request_time is read, and these records had no value. The
		// Classic Load Balancer's log has none to map: its note says so.
		if f.Source == "aws-elb" {
			note = m.f("why.awselb", m.n(int(f.WithoutRequestTime), "n.record"), MissingField)
		} else if f.Source == "linkerd" && f.Format == ingest.Nginx {
			note = m.f("why.linkerd", m.n(int(f.WithoutRequestTime), "n.record"), MissingField)
		} else if f.Source == "llama-server" {
			note = m.f("why.llamaserver", m.n(int(f.WithoutRequestTime), "n.record"), MissingField)
		} else if f.Source == "django" || f.Source == "werkzeug" {
			note = m.f("why.pydev", m.n(int(f.WithoutRequestTime), "n.record"), MissingField, f.Source)
		} else if f.Source == "databricks-usage" {
			note = m.f("why.dbxusage", m.n(int(f.WithoutRequestTime), "n.record"), MissingField)
		} else if f.Source == "cloudflare" && f.WithoutRequestTime == f.Records {
			note = m.f("why.cloudflare", m.n(int(f.WithoutRequestTime), "n.record"), MissingField)
		} else if names := durationNames([]ingest.FileStats{f}); len(names) > 0 && f.WithoutRequestTime == f.Records {
			note += m.f("nd.try", "--map "+MissingField+"="+names[0]+":"+unitFor(names[0], []ingest.FileStats{f}))
		}
		notes = append(notes, note)
	}
	return strings.Join(notes, m.t("semicolon"))
}

// plainText leaves a string as it is: for renderers that escape later
// (HTML) or need no escaping (JSON).
func plainText(s string) string { return s }

// json is the verdict_reason object of the JSON report.
func (n *NoData) json() obj {
	files := []obj{}
	for _, f := range n.Files {
		files = append(files, obj{
			{Name: "path", Value: f.Path},
			{Name: "format", Value: f.Format},
			{Name: "source", Value: f.Source},
			{Name: "records", Value: f.Records},
			{Name: "bad_lines", Value: f.BadLines},
			{Name: "why", Value: f.Why},
		})
	}
	hints := []obj{}
	for _, h := range n.Hints {
		hints = append(hints, obj{{Name: "flag", Value: h.Flag}, {Name: "why", Value: h.Why}})
	}
	return obj{
		{Name: "text", Value: n.text(english, plainText, plainText)},
		{Name: "missing", Value: MissingField},
		{Name: "records", Value: n.Records},
		{Name: "outside_window", Value: n.Outside},
		{Name: "carried", Value: nonNilStrings(n.Carried)},
		{Name: "seen", Value: nonNilStrings(n.Seen)},
		{Name: "files", Value: files},
		{Name: "hints", Value: hints},
	}
}

// unreadJSON is input.unread: the files that held data of which not one
// record could be read.
func (r *Report) unreadJSON() []obj {
	out := []obj{}
	for _, u := range r.Unread {
		out = append(out, obj{{Name: "path", Value: u.Path}, {Name: "reason", Value: u.Reason}})
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// mostlyUnreadJSON is input.mostly_unread: the files more of whose lines
// were bad than read.
func (r *Report) mostlyUnreadJSON() []obj {
	out := []obj{}
	for _, u := range r.MostlyUnread {
		out = append(out, obj{{Name: "path", Value: u.Path}, {Name: "reason", Value: u.Reason}})
	}
	return out
}

// unreadCount is how many files, the window's and the baseline's, held
// data of which not one record could be read.
func (r *Report) unreadCount() int { return len(r.Unread) + len(r.BaselineUnread) }

// inPart reports whether the verdict is about part of the input only:
// files not read, or mostly not read, or read in part.
func (r *Report) inPart() bool {
	return r.unreadCount() > 0 || len(r.MostlyUnread) > 0 || r.Input.Incomplete
}

// mostlyText names the files more of whose lines were bad than read, for
// the verdict; "" when none is.
func (r *Report) mostlyText(m printer, code func(string) string) string {
	if len(r.MostlyUnread) == 0 {
		return ""
	}
	byPath := map[string]ingest.FileStats{}
	for _, f := range r.Input.Files {
		byPath[f.Path] = f
	}
	var names []string
	for _, u := range r.MostlyUnread {
		f := byPath[u.Path]
		names = append(names, m.f("mostlyfile", code(u.Path), f.BadLines, f.BadLines+f.Records))
	}
	if len(names) > maxNamed {
		names = append(names[:maxNamed], m.f("more", len(names)-maxNamed))
	}
	return m.f("mostlynotread", strings.Join(names, ", "))
}

// unreadText names the files no record could be read from, for the
// verdict: an OK verdict is about what was read, not about them.
func (r *Report) unreadText(m printer, code func(string) string) string {
	var names []string
	for _, f := range append(append([]UnreadFile(nil), r.Unread...), r.BaselineUnread...) {
		names = append(names, code(f.Path))
	}
	if len(names) > maxNamed {
		names = append(names[:maxNamed], m.f("more", len(names)-maxNamed))
	}
	return m.f("notread", m.n(r.unreadCount(), "n.file"), strings.Join(names, ", "))
}

// inputNote says what of the input was bad: the bad lines, the files
// read only in part (a compressed file cut short, a damaged Parquet or
// Arrow file), each with why, and the hours not stored in the state
// directory; "" when nothing was. A file
// no record was read from is not among them: unreadText names it.
func (r *Report) inputNote(m printer, text, code func(string) string) string {
	var parts []string
	if r.Input.BadLines > 0 {
		parts = append(parts, m.n(int(r.Input.BadLines), "n.badline"))
	}
	unread := map[string]bool{} // named as not read at all instead
	for _, f := range r.Unread {
		unread[f.Path] = true
	}
	var files []string
	n := 0
	for _, f := range r.Input.Files {
		if !f.Incomplete || unread[f.Path] {
			continue
		}
		if n++; n <= maxNamed {
			files = append(files, m.f("partialfile", code(f.Path), text(f.Reason)))
		}
	}
	if n > maxNamed {
		files = append(files, m.f("more", n-maxNamed))
	}
	if n > 0 {
		parts = append(parts, m.f("partial", m.n(n, "n.file"), strings.Join(files, m.t("comma"))))
	}
	if !r.StateFrom.IsZero() {
		parts = append(parts, m.f("statefrom", r.StateFrom.In(r.Location).Format("2006-01-02 15:04 -07:00"), aggregate.MaxHours))
	}
	return strings.Join(parts, m.t("comma"))
}

// maxNamed is how many files a verdict names; the rest are counted.
const maxNamed = 3

// requestsText is the window's request count, and how many records were
// read outside it.
func (r *Report) requestsText(m printer) string {
	s := m.n(int(r.Input.InWindow()), "n.request")
	if r.Input.OutsideWindow > 0 {
		s = m.f("inwindow", s, r.Input.OutsideWindow)
	}
	if n := r.timedRequests(); r.NoData == nil && n > 0 && n < r.Input.InWindow() {
		// The verdict judges these alone: said where it is given.
		s = m.f("timedof", s, n)
	}
	return s
}

// timedRequests is how many of the window's requests carry request_time:
// those the latency figures and the verdict on them are of.
func (r *Report) timedRequests() int64 {
	for _, ml := range r.Latency {
		if ml.Metric == "request_time" {
			return ml.All.Count
		}
	}
	return 0
}
