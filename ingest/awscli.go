package ingest

import (
	"bytes"
	"errors"
)

// CloudWatch Logs events as the AWS CLI's text output writes them (aws
// logs filter-log-events --output text, get-log-events --output text):
// its formatter (aws/aws-cli awscli/text.py) writes each dict of a list
// as a row, its name upper-cased, then its scalar values joined by tabs
// in the order of their keys sorted (the union of the list's dicts'
// keys), each value as Python's str() writes it, unescaped. An event of
// filter-log-events (FilteredLogEvent: eventId, ingestionTime,
// logStreamName, message, timestamp) is thus
//
//	EVENTS	<eventId>	<ingestionTime>	<logStreamName>	<message>	<timestamp>
//
// and one of get-log-events (OutputLogEvent: ingestionTime, message,
// timestamp) EVENTS	<ingestionTime>	<message>	<timestamp>, the times
// epoch ms. The other rows are no events: filter-log-events' searched
// streams, "SEARCHEDLOGSTREAMS	<logStreamName>	True"; the token of the
// next page when --max-items cut the output (awscli/formatter.py
// TextFormatter: {'NextToken': {'NextToken': token}}, "NEXTTOKEN
// <token>"), or, with --no-paginate, the answer's own nextToken, a line
// of the token alone first; get-log-events' tokens, "b/…	f/…", first.

// Rows of the AWS CLI's text output.
var (
	cliEvents   = []byte("EVENTS\t")
	cliSearched = []byte("SEARCHEDLOGSTREAMS\t")
	cliNext     = []byte("NEXTTOKEN\t")
)

var errNotCLIRow = errors.New("not a row of the AWS CLI's text output of log events (EVENTS, SEARCHEDLOGSTREAMS, NEXTTOKEN)")

// cloudWatchTextRow reads a line of the AWS CLI's text output of
// CloudWatch Logs events: an event's message and its timestamp (epoch
// ms), event true; or, event false, a row that is no event. ok false for
// any other line. The message is all between the columns before it and
// the timestamp, tabs in it kept.
func cloudWatchTextRow(line []byte) (msg, stamp []byte, event, ok bool) {
	if !bytes.HasPrefix(line, cliEvents) {
		return nil, nil, false, cliTokenRow(line)
	}
	rest := line[len(cliEvents):]
	last := bytes.LastIndexByte(rest, '\t')
	if last < 0 || !allDigits(rest[last+1:]) {
		return nil, nil, false, false
	}
	stamp, rest = rest[last+1:], rest[:last]
	first, after, found := bytes.Cut(rest, []byte{'\t'})
	if !found || !allDigits(first) {
		return nil, nil, false, false
	}
	if len(first) <= epochMsDigits {
		// get-log-events: ingestionTime, then the message.
		return after, stamp, true, true
	}
	// filter-log-events: eventId (56 digits, longer than any time),
	// ingestionTime, and the log stream's name, then the message. The
	// name's pattern, [^:*]*, allows a tab, which would cut the message,
	// but what writes streams names them after hosts, pods, instances.
	ingested, more, found := bytes.Cut(after, []byte{'\t'})
	if !found || !allDigits(ingested) {
		return nil, nil, false, false
	}
	if _, msg, found = bytes.Cut(more, []byte{'\t'}); !found {
		return nil, nil, false, false
	}
	return msg, stamp, true, true
}

// epochMsDigits is how many digits an epoch in milliseconds has at most
// in the years read (4102444800000 is 2100-01-01).
const epochMsDigits = 13

// cliTokenRow reports whether line is a row of the AWS CLI's text output
// of log events that holds no event: searched streams, or a token.
func cliTokenRow(line []byte) bool {
	switch {
	case bytes.HasPrefix(line, cliSearched), bytes.HasPrefix(line, cliNext):
		return true
	case bytes.HasPrefix(line, []byte("b/")):
		// get-log-events' nextBackwardToken and nextForwardToken.
		b, f, ok := bytes.Cut(line, []byte{'\t'})
		return ok && bytes.HasPrefix(f, []byte("f/")) && bareToken(b) && bareToken(f)
	}
	return false
}

// bareToken reports whether line could be the token the AWS CLI's text
// output of filter-log-events --no-paginate begins with: one word.
func bareToken(line []byte) bool {
	return len(line) > 0 && bytes.IndexAny(line, " \t") < 0
}

// cloudWatchTextHead reports whether a file whose first line is first,
// and whose first bytes are head, is the AWS CLI's text output of log
// events: its first line one of its rows, or the token it begins with
// before one.
func cloudWatchTextHead(first, head []byte) bool {
	if _, _, _, ok := cloudWatchTextRow(first); ok {
		return true
	}
	if !bareToken(first) {
		return false
	}
	_, rest, _ := bytes.Cut(bytes.TrimLeft(head, "\r\n"), []byte{'\n'})
	second := firstLine(rest)
	_, _, event, ok := cloudWatchTextRow(second)
	return ok && (event || bytes.HasPrefix(second, cliSearched))
}

// cloudWatchText unwraps a line of EnvCloudWatchText: an event's message
// and time; errEmpty (no record, no bad line) for a row that is no
// event, and for a line of one word (the token --no-paginate writes
// first: a message cut by a line break within it has its first part,
// which no timestamp ends, a bad line already).
func cloudWatchText(line []byte) (wrappedLine, error) {
	msg, stamp, event, ok := cloudWatchTextRow(line)
	switch {
	case event:
		return wrappedLine{inner: msg, stamp: stamp}, nil
	case ok || bareToken(line):
		return wrappedLine{}, errEmpty
	}
	return wrappedLine{}, errNotCLIRow
}

// envelopeOfHead is envelopeOf the first line of a file whose first
// bytes are head; and the AWS CLI's text output of log events when it
// begins with the token of --no-paginate, which no other line tells;
// and zap's console lines with fields behind the program's own first
// lines, which have none (zapconsole.go); and WSO2 API Manager's
// analytics events behind its reporter's line at start-up
// (apimmetrics.go).
func envelopeOfHead(first, head []byte) Envelope {
	if e := envelopeOf(first); e != NoEnvelope {
		return e
	}
	if cloudWatchTextHead(first, head) {
		return EnvCloudWatchText
	}
	if zapConsoleHeadOf(head) {
		return EnvStamped
	}
	if apimMetricsHeadOf(head) {
		return EnvAPIMMetrics
	}
	return NoEnvelope
}
