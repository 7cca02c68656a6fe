package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
)

// kubectl logs --timestamps prints each line of a pod's log behind the
// time the runtime took it, in RFC 3339 with ns, and a space; --prefix,
// behind the line's source; docker compose logs, behind its service's
// name (and with --timestamps the time after it):
//
//	2026-12-05T10:00:01.123456789Z LINE
//	[pod/gw-7d9f/nginx] 2026-12-05T10:00:01.123456789Z LINE
//	litellm-1  | 2026-12-05T10:00:01.123456789Z LINE
//
// stern, which tails many pods' logs, prints its pod and container (and,
// over several namespaces, the namespace first), coloured on a terminal:
//
//	litellm-7d9f8b6c5-x2k9p litellm LINE
//
// A text format whose lines read behind such a time (stampedTextHead)
// keeps the time, and JSON lines behind it are an envelope's
// (envelopeOfHead). Any other log is read as the lines within are, as
// its own file would be: its format, envelope, source and own first
// lines told from them (a zap console's, agentgateway's, one-hub's, an
// ASP.NET Core console's, Fiber's, lograge's behind Ruby's Logger).
// That is done when the first lines' reading, planned as readStream
// plans a file's, gives more requests from the lines within than from
// the lines as they are: a log whose own lines begin with such a time
// and read so keeps them. Each line is one line still, so a problem's
// line is the file's.

// errDry ends a planned reading (input.dry) whose parser is known;
// errNotLines one of a format not read as lines.
var (
	errDry      = errors.New("planned")
	errNotLines = errors.New("not lines")
)

// kubectlStampLen returns the length of the time and space that begin
// line as kubectl prints them: an RFC 3339 time with its zone, then one
// space (the line's own spaces, and an empty line, follow it); 0 when
// line does not begin so.
func kubectlStampLen(line []byte) int {
	n := stampLen(line)
	if n == 0 || line[n] != ' ' {
		return 0
	}
	if z := line[n-1]; z != 'Z' && !(n > 6 && (line[n-6] == '+' || line[n-6] == '-') && line[n-3] == ':') {
		return 0 // no zone: a time of the log's own
	}
	return n + 1
}

// kubectlPrefixLen returns the length of the source kubectl logs
// --prefix prints before each line, "[pod/NAME/CONTAINER] ", and its
// space; 0 when line does not begin with one.
func kubectlPrefixLen(line []byte) int {
	if !bytes.HasPrefix(line, []byte("[pod/")) {
		return 0
	}
	end := bytes.Index(line, []byte("] "))
	if end < 0 || bytes.IndexByte(line[:end], ' ') >= 0 || bytes.Count(line[:end], []byte("/")) != 2 {
		return 0
	}
	return end + 2
}

// composePrefixLen returns the length of the service docker compose logs
// prints before each line, its name padded to the longest and " | "
// ("litellm-1  | LINE"; "\x1b[36mlitellm-1  |\x1b[0m LINE" in colour),
// and its space; 0 when line does not begin with one.
func composePrefixLen(line []byte) int {
	i := ansiLen(line)
	start := i
	for i < len(line) && (isLetter(line[i]) || isDigit(line[i]) || line[i] == '-' || line[i] == '_' || line[i] == '.') {
		i++
	}
	if i == start || i >= len(line) || line[i] != ' ' {
		return 0
	}
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '|' {
		return 0
	}
	i++
	i += ansiLen(line[i:])
	if i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// ansiLen returns the length of the colour escape ("\x1b[36m") that b
// begins with, 0 when none.
func ansiLen(b []byte) int {
	if len(b) < 3 || b[0] != 0x1b || b[1] != '[' {
		return 0
	}
	for i := 2; i < len(b) && i < 16; i++ {
		switch c := b[i]; {
		case c == 'm':
			return i + 1
		case c != ';' && !isDigit(c):
			return 0
		}
	}
	return 0
}

// lineCut is what a file's lines are cut of before them: kubectl's
// source or docker compose's service (either, per line) or stern's
// names, its words (2 or 3; 0: kubectl's or compose's), and a time of
// kubectl's after them unless noTime (readsMoreUnstamped tells which).
type lineCut struct {
	stern  uint8
	noTime bool
}

// stamp is how an EnvStamped file's lines behind kubectl's or stern's
// time are cut (stampedText): c, with the time.
func (c lineCut) stamp() stampCut {
	switch c.stern {
	case 2:
		return stampStern
	case 3:
		return stampSternNamespace
	}
	return stampKubectl
}

// kubectlLineCut returns the lineCut of a stamp (lineCut.stamp); false
// for a stamp not kubectl's or stern's.
func kubectlLineCut(cut stampCut) (lineCut, bool) {
	switch cut {
	case stampKubectl:
		return lineCut{}, true
	case stampStern:
		return lineCut{stern: 2}, true
	case stampSternNamespace:
		return lineCut{stern: 3}, true
	}
	return lineCut{}, false
}

// everyLine reports whether f holds for each of lines; anyLine whether
// for one at least.
func everyLine(lines [][]byte, f func([]byte) bool) bool {
	for _, l := range lines {
		if !f(l) {
			return false
		}
	}
	return true
}

func anyLine(lines [][]byte, f func([]byte) bool) bool {
	return !everyLine(lines, func(l []byte) bool { return !f(l) })
}

// kubectlCut returns the length of what kubectl printed before a line of
// the log, its source (--prefix), its time (--timestamps) or both, and
// the time (nil without one); 0 when line begins with neither. docker
// compose logs' service name (--timestamps: and its time) and stern's
// names are read so too, as c says. With c.noTime the source alone is
// cut (0 without one): the file's lines carry no time of kubectl's, and
// a time after the source is the line's own.
func kubectlCut(line []byte, c lineCut) (int, []byte) {
	var n int
	if c.stern > 0 {
		n = sternPrefixLen(line, int(c.stern))
	} else if n = kubectlPrefixLen(line); n == 0 {
		n = composePrefixLen(line)
	}
	if c.noTime {
		return n, nil
	}
	if m := kubectlStampLen(line[n:]); m > 0 {
		return n + m, line[n : n+m-1]
	}
	return n, nil
}

// sternPrefixLen returns the length of the words stern prints before
// each line, a pod's name and its container's (its namespace's first
// when words is 3), each maybe coloured, and a space after each; 0 when
// line does not begin so. A pod's name is a DNS subdomain with a '-'
// (its controller's name and the suffixes it adds), a container's and a
// namespace's a DNS label.
func sternPrefixLen(line []byte, words int) int {
	i := 0
	for w := range words {
		i += ansiLen(line[i:])
		start := i
		for i < len(line) && (line[i] >= 'a' && line[i] <= 'z' || isDigit(line[i]) || line[i] == '-' || line[i] == '.' && w == words-2) {
			i++
		}
		name := line[start:i]
		if len(name) == 0 || len(name) > 253 || name[0] == '-' || name[len(name)-1] == '-' ||
			w != words-2 && len(name) > 63 || w == words-2 && bytes.IndexByte(name, '-') < 0 {
			return 0
		}
		i += ansiLen(line[i:])
		if i >= len(line) || line[i] != ' ' {
			return 0
		}
		i++
	}
	return i
}

// sternRepeats reports whether the names stern prints (words of them)
// begin every whole line of head and repeat: at most one distinct for
// two lines, or two pods' (a short log of two replicas).
func sternRepeats(head []byte, words int) bool {
	lines := headLines(wholeHead(head), math.MaxInt)
	seen := map[string]bool{}
	every := everyLine(lines, func(l []byte) bool {
		n := sternPrefixLen(l, words)
		seen[string(l[:n])] = true
		return n > 0
	})
	return every && len(lines) >= 2 && len(seen) <= max(2, len(lines)/2)
}

// sternHead reports whether every whole line of head (two at least)
// begins with stern's pod and container, or every one with its
// namespace, pod and container (sternPrefixLen).
func sternHead(head []byte) bool {
	return len(headLines(head, guessLines)) >= 2 && (sternEvery(head, 2) || sternEvery(head, 3))
}

// sternEvery reports whether every whole line of head begins with
// stern's names, words of them.
func sternEvery(head []byte, words int) bool {
	return everyLine(headLines(head, guessLines), func(l []byte) bool { return sternPrefixLen(l, words) > 0 })
}

// kubectlHead reports whether every whole line of head (two at least)
// begins with what kubectl or docker compose prints before it
// (kubectlCut).
func kubectlHead(head []byte) bool {
	lines := headLines(head, guessLines)
	return len(lines) >= 2 && everyLine(lines, func(l []byte) bool {
		n, _ := kubectlCut(bytes.TrimRight(l, "\r"), lineCut{})
		return n > 0
	})
}

// unstampHead returns the whole lines of head without what kubectl,
// docker compose or stern printed before them (kubectlCut).
func unstampHead(head []byte, c lineCut) []byte {
	var out []byte
	for _, l := range headLines(wholeHead(head), math.MaxInt) {
		n, _ := kubectlCut(l, c)
		out = append(append(out, l[n:]...), '\n')
	}
	return out
}

// readsMoreUnstamped reports whether the first lines of a file, head,
// give more requests read as the lines behind kubectl's times than as
// they are (headRecords), and whether the lines within are plain lines,
// of no envelope of their own, behind kubectl's times: those are read
// behind the time as an envelope's (stampKubectl), whose time a record
// without its own takes.
//
// Whether the lines behind a source (kubectl's --prefix, docker
// compose's service) carry kubectl's time is told once, for the file:
// c.noTime when cutting the source alone gives more requests than
// cutting the source and a time after it. Without --timestamps, a line
// that begins with its own RFC 3339 time (tracing's, TensorZero's) has
// that time after the source, which read as kubectl's left the line
// without it (tower-http's: 1 request read of 7). Such lines, and any
// without kubectl's time, are read through an unstamper: there is no
// time of kubectl's for a record to take.
func (p *pipeline) readsMoreUnstamped(fs *fileState, head []byte) (more, plain bool, c lineCut) {
	cuts := []lineCut{{}, {noTime: true}}
	if !kubectlHead(head) {
		// stern's names, or its namespace's too: told from the lines
		// read, as a name's words are any line's.
		cuts = cuts[:0]
		for _, words := range []uint8{2, 3} {
			if sternEvery(head, int(words)) {
				// stern prints no time unless asked (--timestamps): on a
				// tie, a time after its names is the line's own.
				cuts = append(cuts, lineCut{stern: words, noTime: true}, lineCut{stern: words})
			}
		}
	} else if !sourcedHead(head) {
		cuts = cuts[:1]
	}
	n, env, f := -1, NoEnvelope, Format("")
	for _, cut := range cuts {
		if m, menv, mf := p.headRecords(fs, unstampHead(head, cut)); m > n {
			n, env, f, c = m, menv, mf, cut
		}
	}
	raw, _, _ := p.headRecords(fs, wholeHead(head))
	// W3C's lines are read only as a file's: its directives say its
	// fields (a reader within an envelope reads none). Lines that each
	// begin with a source are read without it as many read with it: no
	// program writes kubectl's "[pod/NAME/CONTAINER]" itself, and Rails'
	// tagged lines read with it took it for the request's tag, pairing
	// the lines of two requests; when none is read either way (a
	// server's start-up longer than the head, a log of its own lines
	// alone), the lines within are read as their own file's would be.
	// stern's words may be any line's: they are read as stern's when a
	// few pods' names begin every line (sternRepeats) and the lines
	// behind them read, however many the lines as they are read (a
	// namespace, a pod and a container before Envoy's lines read as
	// lighttpd's host, virtual host and user).
	timed := !c.noTime && kubectlStamped(head, c)
	if c.stern > 0 {
		more = sternRepeats(head, int(c.stern)) && (n > 0 || n == raw)
	} else {
		more = n > 0 && n > raw || n == raw && everySourced(head)
	}
	return more, n > 0 && timed && env == NoEnvelope && f != W3C, c
}

// kubectlStamped reports whether a whole line of head begins with
// kubectl's time, what c cuts before it cut.
func kubectlStamped(head []byte, c lineCut) bool {
	return anyLine(headLines(wholeHead(head), math.MaxInt), func(l []byte) bool {
		_, stamp := kubectlCut(l, c)
		return stamp != nil
	})
}

// sourcedHead reports whether a line of head begins with a source,
// kubectl's or docker compose's, and a time after it: the lines that
// may carry no time of kubectl's (readsMoreUnstamped).
func sourcedHead(head []byte) bool {
	return anyLine(headLines(wholeHead(head), math.MaxInt), func(l []byte) bool {
		n, stamp := kubectlCut(l, lineCut{})
		return stamp != nil && n > len(stamp)+1
	})
}

// everySourced reports whether every whole line of head begins with a
// source, kubectl's (--prefix) or docker compose's service.
func everySourced(head []byte) bool {
	lines := headLines(wholeHead(head), math.MaxInt)
	return len(lines) > 0 && everyLine(lines, func(l []byte) bool { return kubectlPrefixLen(l) > 0 || composePrefixLen(l) > 0 })
}

// wholeHead returns head up to its last line end.
func wholeHead(head []byte) []byte {
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		return head[:i+1]
	}
	return head
}

// headRecords returns how many of the lines of head are requests, each
// of their values read (a method "[pod/gw-0/nginx]" leaves the status
// "POST" unread: another format's line cut wrongly), when
// the file's reading is planned from them as readStream plans it (its
// format, envelope, source, schema), each line then parsed as a worker
// parses it, and the envelope and the format planned.
func (p *pipeline) headRecords(fs *fileState, head []byte) (int, Envelope, Format) {
	dry := &fileState{index: fs.index, path: fs.path, cfg: fs.cfg}
	if err := p.readStream(dry, input{r: bytes.NewReader(head), size: -1, within: true, unstamped: true, dry: true}); err != errDry {
		return 0, NoEnvelope, ""
	}
	lp, err := newLineParser(dry.format, &dry.cfg)
	if err != nil {
		return 0, NoEnvelope, ""
	}
	sch := dry.cfg.schema
	var rec Record
	n := 0
	for _, l := range headLines(head, dryLines) {
		rec.reset(sch)
		if lp.Parse(bytes.TrimRight(l, "\r"), &rec) != nil || rec.Fields() == 0 || !sch.request(&rec) ||
			dry.cfg.ownJSON && rec.set&^(1<<FTime|1<<FKind) == 0 || rec.unread != 0 {
			continue
		}
		n++
	}
	return n, dry.cfg.envelope, dry.format
}

// dryLines is how many of the first lines headRecords parses: past a
// program's own start-up lines, which may be many.
const dryLines = 256

// unstamper reads lines from r without what kubectl, docker compose or
// stern printed before them (kubectlCut); a line without it is read as
// it is.
type unstamper struct {
	r       *bufio.Reader
	pending []byte
	midLine bool // the last piece read ended within a line
	cut     lineCut
}

func newUnstamper(r *bufio.Reader, c lineCut) *unstamper { return &unstamper{r: r, cut: c} }

func (u *unstamper) Read(b []byte) (int, error) {
	for len(u.pending) == 0 {
		piece, err := u.r.ReadSlice('\n')
		if len(piece) > 0 {
			mid := piece[len(piece)-1] != '\n'
			if !u.midLine {
				n, _ := kubectlCut(piece, u.cut)
				piece = piece[n:]
			}
			u.midLine, u.pending = mid, piece
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(u.pending) == 0 {
			return 0, err
		}
		if err != nil {
			break // the last piece; the error comes back on the next Read
		}
	}
	n := copy(b, u.pending)
	u.pending = u.pending[n:]
	return n, nil
}

var _ io.Reader = (*unstamper)(nil)
