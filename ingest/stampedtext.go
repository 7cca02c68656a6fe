package ingest

import (
	"bytes"
	"encoding/json"
	"time"
)

// A text log behind a time: what a log platform or a runtime prints
// before each line it kept, for a text format whose own line begins with
// '[' (Envoy's and Istio's default format, Tencent CLB's) or with its
// own time (AWS Classic ELB's). Such a line's first field is not an
// address slot that takes the time in (nginx's $remote_addr, whose last
// word is the address: addrSlot, which is how nginx's text is read behind
// the same time), so the format of the lines is told, and each line read,
// without it. The wrappers:
//
//	2026-12-04T03:01:34Z LINE                        logcli query --no-labels (its default output), kubectl logs --timestamps
//	2026-12-04T02:00:08.630655+00:00 STREAM LINE     aws logs tail
//	2026-12-04T03:01:34Z {app="gw", pod="gw-1"} LINE logcli query (its default output)
//
// logcli's default output prints each entry as its time in RFC 3339,
// its labels, and the line (grafana/loki docs/sources/tools/logcli.md:
// "2018-06-25T12:52:09Z {instance=…} 2018/06/25 12:52:09 [INFO] …"), the
// labels left out with --no-labels; aws logs tail's default format,
// detailed, prints the event's time, the log stream's name and the
// message (aws/aws-cli awscli/customizations/logs/tail.py,
// DetailedLogEventsFormatter). A stream's name is one word (Lambda's
// "2026/12/04/[$LATEST]0123…"): which wrapper a file has is told from
// how its lines read (stampedTextHead).

// stampCut is how the text lines of an EnvStamped file are cut from
// the time before them; stampJSON for JSON lines (stampedLine).
type stampCut uint8

const (
	stampJSON           stampCut = iota // "TIME {…}", "TIME STREAM {…}", …: stampedLine
	stampText                           // "TIME LINE"
	stampStream                         // "TIME STREAM LINE": aws logs tail
	stampLabels                         // "TIME {LABELS} LINE": logcli query's default output
	stampPrinted                        // "[N] TAG: [[TIME, {…}], {…}]": Fluent Bit's stdout output (stdoutRecord)
	stampLTSV                           // "\"time\":TIME\t\"k\":v…": Fluent Bit's file output's ltsv format (ltsvRecord)
	stampKubectl                        // "TIME LINE", the line's own spaces kept: kubectl logs --timestamps (unstamp.go)
	stampStern                          // "POD CONTAINER TIME LINE": stern --timestamps (unstamp.go)
	stampSternNamespace                 // "NAMESPACE POD CONTAINER TIME LINE"
)

// stampedText returns the text line behind a time (and, for stampStream,
// a stream's name), and the time; ok false when line has no time first.
func stampedText(line []byte, cut stampCut) (in, stamp []byte, ok bool) {
	if c, ok := kubectlLineCut(cut); ok {
		n, stamp := kubectlCut(line, c)
		if n == 0 {
			return nil, nil, false
		}
		return line[n:], stamp, true
	}
	n := stampLen(line)
	if n == 0 {
		return nil, nil, false
	}
	in = bytes.TrimLeft(line[n+1:], " ")
	if cut == stampLabels {
		end := labelsEnd(in)
		if end < 0 {
			return nil, nil, false
		}
		in = bytes.TrimLeft(in[end:], " ")
	}
	if cut == stampStream {
		i := bytes.IndexByte(in, ' ')
		if i <= 0 {
			return nil, nil, false
		}
		in = bytes.TrimLeft(in[i+1:], " ")
	}
	return in, line[:n], true
}

// labelsEnd returns the index past the set of Loki labels b begins with,
// {app="gw", pod="gw-7d9f"} (values quoted, with \" and \\ escaped, as
// Prometheus writes a label set), -1 when it begins with none.
func labelsEnd(b []byte) int {
	if len(b) < 2 || b[0] != '{' {
		return -1
	}
	quoted := false
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == '}':
			return i + 1
		}
	}
	return -1
}

// lokiLabels reports whether b begins with a set of Loki labels, whose
// first name follows its '{' ({app="gw"}), not a JSON object's key.
func lokiLabels(b []byte) bool {
	return len(b) > 2 && b[0] == '{' && (b[1] == '_' || b[1] >= 'a' && b[1] <= 'z' || b[1] >= 'A' && b[1] <= 'Z') && labelsEnd(b) > 0
}

// textBehindStamp reports whether a line a text format writes may begin
// in: with '[' (Envoy's, Istio's, CLB's) or a digit (a time of its own:
// AWS Classic ELB's), the lines the address slot of nginx's formats does
// not take a time before.
func textBehindStamp(in []byte) bool {
	return len(in) > 0 && (in[0] == '[' || isDigit(in[0]))
}

// stampedTextHead tells whether the lines of head, a text log's first
// bytes, are a text format's behind a time, and how they are cut from
// it: when the lines behind the time are read whole by a log format
// given or known on more of the first lines than the lines as they are
// (behind a time and one word, or labels, only lines that begin as
// textBehindStamp says; behind a time alone, as kubectl logs
// --timestamps prints them, any: uvicorn's "INFO:"), or are Tencent
// CLB's, or a server's own log (Envoy's own lines: serverLogOf), or are
// of a text format of their own (tracing's, Gin's, Fiber's, Rails',
// Phoenix's, HAProxy's) or JSON lines past the program's own first lines
// (an Envoy sidecar's pod: pilot-agent's lines, then Envoy's JSON) where
// the lines as they are are no format's. A format
// whose own first field is a time ($time_iso8601) reads its lines as
// they are at least as well, and keeps them. It returns the lines
// within, one a line.
func (p *pipeline) stampedTextHead(head []byte) (stampCut, []byte, bool) {
	first := firstLine(head)
	if f := sniff(head, p.given); stampLen(first) == 0 || f != Nginx && f != TSV {
		// (TSV: a program's own first lines, "level<TAB>message",
		// behind the time.)
		return stampJSON, nil, false
	}
	raw := -1 // lines of head read whole as they are; counted once
	for _, cut := range [...]stampCut{stampKubectl, stampText, stampStream, stampLabels} {
		in, _, ok := stampedText(first, cut)
		if !ok {
			continue
		}
		inner := unwrapHeadBy(EnvStamped, head, topReader{stamp: cut})
		switch sniff(pastOwnLog(inner), p.given) {
		case CLB:
			return cut, inner, true
		case Nginx:
			if !textBehindStamp(in) && cut != stampText && cut != stampKubectl {
				continue
			}
		case JSONL:
			// JSON lines behind the time, past the program's own first
			// lines (an Envoy sidecar's pilot-agent lines): each a JSON
			// object, not Loki's labels ({app="gw"}), which the labels'
			// cut takes off.
			if l := firstLine(pastOwnLog(inner)); !json.Valid(bytes.TrimSpace(l)) {
				continue
			}
			if raw < 0 {
				raw = p.wholeLines(head)
			}
			if raw == 0 {
				return cut, inner, true
			}
			continue
		case Tracing, Gin, Fiber, Rails, Phoenix, HAProxy:
			// A format of its own behind the time (kubectl logs
			// --timestamps): kept when the lines as they are are no
			// known format's.
			if raw < 0 {
				raw = p.wholeLines(head)
			}
			if raw == 0 {
				return cut, inner, true
			}
			continue
		default:
			continue
		}
		if serverLogOf(inner) != nil && serverLogOf(head) == nil {
			return cut, inner, true // Envoy's own lines, passed over as the log's alone are
		}
		n := p.wholeLines(inner)
		if n == 0 {
			// A format whose lines go on past its fields (AWS ALB's, to
			// which AWS appends fields): read with text after its end,
			// on more of the lines within than of the lines as they are.
			if t := p.linesRead(inner, true); t > 0 && t > p.linesRead(head, true) {
				return cut, inner, true
			}
			continue
		}
		if raw < 0 {
			raw = p.wholeLines(head)
		}
		if n > raw {
			return cut, inner, true
		}
	}
	return stampJSON, nil, false
}

// wholeLines returns how many of the first lines of head, past a
// server's own (start-up lines, and any among them), the format given or
// known that reads the most of them reads to their end, each value read.
func (p *pipeline) wholeLines(head []byte) int { return p.linesRead(head, false) }

// linesRead is wholeLines, counting too, when tail, the lines read to
// the format's end with text after it, each value read.
func (p *pipeline) linesRead(head []byte, tail bool) int {
	var lines [][]byte
	for _, l := range headLines(pastOwnLog(head), guessLines) {
		if !ownLogLine(l) {
			lines = append(lines, l)
		}
	}
	best := 0
	var rec Record
	for _, f := range p.formats() {
		n := 0
		q := &nginxParser{f: f, loc: time.UTC}
		for _, l := range lines {
			rec.Reset()
			if trailing, err := q.parse(l, &rec); err == nil && (tail || !trailing) && rec.unreadFields() == 0 {
				n++
			}
		}
		best = max(best, n)
	}
	return best
}
