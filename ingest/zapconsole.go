package ingest

import "bytes"

// zap's console encoder (zap.NewDevelopment's, and any config with
// Encoding "console") writes an entry's time, level, logger name and
// caller, then its message, tab-separated, each left out when its key is
// empty, and then the entry's fields as one JSON object after a last tab
// (uber-go/zap zapcore/console_encoder.go: EncodeEntry, writeContext):
//
//	2025-03-10T08:00:12.995+0800	INFO	ginzap@v1.1.4/zap.go:102		{"status": 200, "method": "POST", …, "latency": "2.931892699s"}
//
// A request logger's fields are its record (gin-contrib/zap's, whose
// message is empty), read as a JSON line behind its time (EnvStamped):
// the time is the development config's ISO 8601 (ISO8601TimeEncoder),
// or the layout a program gives its encoder (zapStampLen).
// The object is the line's text after its last "\t{": the JSON encoder
// escapes a tab within a string, so no tab is in the object, whatever
// the message holds. An entry without fields (a server's "listening on
// :8080") ends with its message, and is the program's own line; so is
// the stack trace zap.NewDevelopment writes on the lines after an entry
// of level Warn and above (AddStacktrace(WarnLevel)): each frame's
// function, then a tab, its file, ':' and its line (uber-go/zap
// internal/stacktrace/stack.go, Formatter.FormatFrame). ginzap logs a
// request with errors at level Error, a stack trace after it.

// zapStampLen returns the length of the time a line of zap's console
// encoder begins with, 0 when it begins with none: RFC 3339 (stampLen),
// or Gin's date without a zone, "2006/01/02 - 15:04:05", the layout
// one-hub and done-hub give their encoder (MartialBE/one-hub and
// deanxv/done-hub common/logger/logger.go getEncoder:
// zapcore.TimeEncoderOfLayout), written in the process's local time.
func zapStampLen(line []byte) int {
	if n := stampLen(line); n > 0 {
		return n
	}
	return ginStampLen(line)
}

// ginStampLen returns the length of Gin's date, "2006/01/02 - 15:04:05",
// when line begins with it and a tab, as zap's console encoder writes a
// time before the level; else 0.
func ginStampLen(line []byte) int {
	const form = "dddd/dd/dd - dd:dd:dd"
	if len(line) <= len(form) || line[len(form)] != '\t' {
		return 0
	}
	for i := range len(form) {
		if c := line[i]; form[i] == 'd' && (c < '0' || c > '9') || form[i] != 'd' && c != form[i] {
			return 0
		}
	}
	return len(form)
}

// zapConsoleRecord returns the fields' object of a line of zap's console
// encoder whose time ends at n, false when line is none or has no fields.
func zapConsoleRecord(line []byte, n int) ([]byte, bool) {
	if !zapConsoleHead(line, n) {
		return nil, false
	}
	i := bytes.LastIndex(line, []byte("\t{"))
	if i <= n {
		return nil, false
	}
	rec := bytes.TrimRight(line[i+1:], " \r")
	if rec[len(rec)-1] != '}' {
		return nil, false
	}
	return rec, true
}

// zapConsoleHead reports whether line, whose time ends at n, goes on as
// zap's console encoder writes: a tab, a level, a tab.
func zapConsoleHead(line []byte, n int) bool {
	if n == 0 || n >= len(line) || line[n] != '\t' {
		return false
	}
	rest := line[n+1:]
	j := bytes.IndexByte(rest, '\t')
	return j > 0 && (isLevel(rest[:j]) || bytes.EqualFold(rest[:j], []byte("dpanic")))
}

// zapConsoleLine reports whether line is one of zap's console encoder
// with fields: a record of a request logger's, such as ginzap's.
func zapConsoleLine(line []byte) bool {
	_, ok := zapConsoleRecord(line, zapStampLen(line))
	return ok
}

// zapConsoleHeadOf reports whether head's first lines (up to sniffLines)
// are zap's console encoder's, most of them with fields: the program's
// own entries without fields and the stack traces after its errors may
// come first and between, and are not counted.
func zapConsoleHeadOf(head []byte) bool {
	yes, no := 0, 0
	for _, l := range headLines(head, sniffLines) {
		switch {
		case zapConsoleLine(l):
			yes++
		case !zapConsoleOwn(l):
			no++
		}
	}
	return yes >= 2 && yes > no
}

// zapConsoleOwn reports whether line, which stampedLine does not read,
// is zap's console encoder's: an entry without fields, or a line of an
// entry's stack trace. Such a line is the program's own, beside its
// request log.
func zapConsoleOwn(line []byte) bool {
	return zapConsoleHead(line, zapStampLen(line)) || goStackLine(line)
}

// goStackLine reports whether line is one of a Go stack trace's: a
// frame's function ("github.com/gin-gonic/gin.(*Context).Next",
// "main.main"), or its file and line after a tab ("\t/app/main.go:30").
func goStackLine(line []byte) bool {
	if f, ok := bytes.CutPrefix(line, []byte("\t")); ok {
		i := bytes.LastIndex(f, []byte(".go:"))
		return i > 0 && i+4 < len(f) && isDigit(f[i+4])
	}
	if len(line) == 0 || bytes.IndexByte(line, '.') <= 0 {
		return false
	}
	for _, c := range line {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '.' || c == '/' || c == '_' || c == '-' || c == '(' || c == ')' || c == '*' || c == '@' || c == '~':
		default:
			return false
		}
	}
	return true
}
