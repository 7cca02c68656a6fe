package ingest

import (
	"bytes"
	"fmt"
	"iter"
	"regexp"

	"loganalyze/internal/lazyre"
)

// A directory of a server's logs holds its own log beside its access
// log: nginx's error.log beside access.log, Apache httpd's error_log,
// Envoy's and Traefik's own logs. Such a file holds no request. Read as
// a text log of unknown format, it was a file not one record could be
// read from, which fails the run (exit 1) every hour a cron job reads
// the directory. A text file no log format reads whose first lines are
// all one of these logs' lines is read as such: each of its lines that
// is one is passed over (counted, not a bad line), any other is a bad
// line.

// serverLog is one server's own log, told by its lines' shape.
type serverLog struct {
	name  string // FileStats.Source
	title string // what the report calls it
	re    func() *regexp.Regexp
}

// match reports whether line has the log's shape. Every shape begins
// as mayBeServerLine asks: an access log's line is told none without
// the expressions, compiled only when a line may be one (compiled at
// start-up, these and ownShapes took 1.8 ms of every run).
func (s *serverLog) match(line []byte) bool {
	return mayBeServerLine(line) && s.re().Match(line)
}

// mayBeServerLine reports whether line begins as one of serverLogs'
// shapes can: with "[", `time="`, or a date's four digits and the "/"
// or "-" after them.
func mayBeServerLine(line []byte) bool {
	if len(line) > 0 && line[0] == '[' || bytes.HasPrefix(line, []byte(`time="`)) {
		return true
	}
	return len(line) > 4 && isDigit(line[0]) && isDigit(line[1]) && isDigit(line[2]) && isDigit(line[3]) &&
		(line[4] == '/' || line[4] == '-')
}

// serverLogs are the shapes their programs' documentation and sources
// give: nginx's error log (ngx_log_error: "2026/12/04 09:00:00 [error]
// 29#29: *1054 upstream timed out …"); Apache httpd 2.4's ErrorLogFormat
// default and 2.2's ("[Thu Dec 04 09:00:00.123456 2026] [proxy:error]
// [pid 35708:tid 4328] …", "[Thu Dec 04 09:00:00 2026] [error] …");
// Envoy's default log format ("[2026-12-04 09:00:00.123][1][info][main]
// [source/server/server.cc:430] …"); Traefik's own log, v3's console
// format ("2026-12-04T09:00:00Z INF Traefik version 3.1.2") and v2's
// logfmt ("time=\"2026-12-04T09:00:00Z\" level=info msg=\"…\"").
var serverLogs = []serverLog{
	{"nginx-error", "nginx's error log", lazyre.New(
		`^\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} \[(debug|info|notice|warn|error|crit|alert|emerg)\] \d+#\d+: `)},
	{"apache-error", "Apache httpd's error log", lazyre.New(
		`^\[(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2}(\.\d+)? \d{4}\] \[([\w-]+:)?(emerg|alert|crit|error|warn|notice|info|debug|trace[1-8])\] `)},
	{"envoy-own", "Envoy's own log", lazyre.New(
		`^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\]\[\d+\]\[(trace|debug|info|warning|error|critical)\]\[[\w.]+\] `)},
	{"traefik-own", "Traefik's own log", lazyre.New(
		`^(\d{4}-\d{2}-\d{2}T\S+ (TRC|DBG|INF|WRN|ERR|FTL|PNC) |time="[^"]+" level=(trace|debug|info|warning|error|fatal|panic) msg=)`)},
}

// ServerLogNames are the FileStats.Source names of the servers' own
// logs, jsonOwnLog's last.
func ServerLogNames() []string {
	var names []string
	for _, s := range serverLogs {
		names = append(names, s.name)
	}
	return append(names, jsonOwnLogName)
}

// ServerLogTitle returns what a report calls the server's own log of
// FileStats.Source name ("nginx's error log"), or "" when name is none.
func ServerLogTitle(name string) string {
	for _, s := range serverLogs {
		if s.name == name {
			return s.title
		}
	}
	if name == jsonOwnLogName {
		return jsonOwnLogTitle
	}
	return ""
}

// A program's own log in JSON lines, as Go's and Python's structured
// loggers write it (Traefik's {"level":"info","msg":…,"time":…}), beside
// its access log, is no request log either: a JSON-lines file of no
// known source whose first record has a level and a message and no
// field loganalyze reads but its time is one (jsonOwnLog), and each of
// its records with no field but the time is passed over. A file that
// has names of durations loganalyze does not read is read as before,
// its records without request_time, so that the report offers --map.
const (
	jsonOwnLogName  = "own-log"
	jsonOwnLogTitle = "a program's own log"
)

// jsonOwnLog reports whether a JSON-lines file's first record, of names,
// is a program's own log line: a level, a message (msg or message) and
// no name s reads but a time's or a kind's. mags are the file's
// durations' magnitudes (FileStats.Magnitudes): with any, it is not.
func jsonOwnLog(s *Schema, names []string, mags map[string]Magnitude) bool {
	if src := s.source; src != nil && !src.canonical || len(mags) > 0 {
		return false
	}
	level, msg := false, false
	for _, n := range names {
		level = level || n == "level"
		msg = msg || n == "msg" || n == "message"
		for _, b := range s.LookupString(n) {
			if b.Field != FTime && b.Field != FKind && b.Field != ignored {
				return false
			}
		}
	}
	return level && msg
}

// requestSeen returns the names of the first of a JSON-lines file's
// later records that is no program's own log line (jsonOwnLog), at most
// MaxSeen, or nil: the names a report shows as the file's, and offers
// --map for, are its requests', not its start-up line's (a gateway whose
// first line is {"level","time","scope","message"} and whose requests
// carry http.status).
func requestSeen(s *Schema, later iter.Seq2[[]string, []string]) []string {
	for names := range later {
		if !jsonOwnLog(s, names, nil) {
			return names[:min(len(names), MaxSeen):min(len(names), MaxSeen)]
		}
	}
	return nil
}

// serverLogOf returns the server log whose shape the first of the whole
// lines of b that are not blank has, and nine in ten of them (at most
// serverLogLines), or nil: a file's first lines as peeked, before any
// is skipped as a server's own. An error log with a stack trace's lines
// in it is one; a container's log whose server wrote its start-up lines
// before its access log's is not.
func serverLogOf(b []byte) *serverLog {
	lines := headLines(b, serverLogLines)
	if len(lines) == 0 || !mayBeServerLine(lines[0]) {
		return nil // an access log's, most likely: one look, not one per shape
	}
	var s *serverLog
	for k := range serverLogs {
		if serverLogs[k].match(lines[0]) {
			s = &serverLogs[k]
			break
		}
	}
	if s == nil {
		return nil
	}
	miss := 0
	for _, l := range lines[1:] {
		if !s.match(l) {
			if miss++; 10*miss > len(lines) {
				return nil
			}
		}
	}
	return s
}

// serverLogLines bounds the lines serverLogOf looks at.
const serverLogLines = 1000

// serverLogParser reads a server's own log: no line of it is a request.
type serverLogParser struct {
	passed, other error
	s             *serverLog
}

func newServerLogParser(s *serverLog) *serverLogParser {
	return &serverLogParser{s: s,
		passed: fmt.Errorf("%w: a line of %s", errPassOver, s.title),
		other:  fmt.Errorf("not a line of %s, the file's first lines are", s.title)}
}

// Parse passes over a line of the server's log; any other is bad.
func (p *serverLogParser) Parse(line []byte, _ *Record) error {
	if p.s.match(line) {
		return p.passed
	}
	return p.other
}
