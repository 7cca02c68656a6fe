package gen

import (
	"io"
	"math"
	"strconv"
)

// csvColumns is the header row of the CSV and TSV writers, the columns of
// a CLS CSV export.
var csvColumns = []string{"time", "request_id", "app_id", "remote_addr", "client_region",
	"region", "method", "uri", "model", "stream", "status", "request_time",
	"upstream_response_time", "first_token_ms", "upstream_connect_time",
	"ssl_handshake_time", "tcpinfo_rtt", "connection", "connection_requests",
	"retry_after", "prompt_tokens", "completion_tokens", "bytes_sent", "http_user_agent"}

// csvTime is the layout of the CSV time column: no zone, the request's
// own local time.
const csvTime = "2006-01-02 15:04:05.000"

// WriteCSV writes a CSV file with a header row, like a CLS CSV export:
// the time without a zone in the requests' own zone,
// upstream_response_time quoted (it may be a list), absent values empty.
// It returns how many bad lines it inserted.
func WriteCSV(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	return writeTable(w, reqs, o, ',')
}

// WriteTSV writes the same table as WriteCSV, tab-separated, quoting only
// values that hold a tab, a quote or a line break.
func WriteTSV(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	return writeTable(w, reqs, o, '\t')
}

func writeTable(w io.Writer, reqs []Request, o WriteOptions, sep byte) (int, error) {
	var header []byte
	for i, c := range csvColumns {
		if i > 0 {
			header = append(header, sep)
		}
		header = append(header, c...)
	}
	header = append(header, '\n')
	broken := "2026-11-29 10:00:00.000" + string(sep) + "broken" + string(sep) + "row"
	return writeRows(w, reqs, o, string(header), broken, func(b []byte, r *Request, timeText, rtText string) []byte {
		return appendTableRow(b, r, sep, timeText, rtText)
	})
}

// appendTableRow appends one row; a non-empty timeText or rtText replaces
// the time or request_time column (for bad rows).
func appendTableRow(b []byte, r *Request, sep byte, timeText, rtText string) []byte {
	field := func(v string) {
		b = appendTableField(b, v, sep)
		b = append(b, sep)
	}
	if timeText == "" {
		b = r.Time.AppendFormat(b, csvTime)
		b = append(b, sep)
	} else {
		field(timeText)
	}
	field(r.RequestID)
	field(r.AppID)
	field(r.RemoteAddr)
	field(r.ClientRegion)
	field(r.Region)
	field(r.Method)
	field(r.URI)
	field(r.Model)
	if r.Model != "" {
		field(strconv.FormatBool(r.Stream))
	} else {
		field("")
	}
	field(strconv.Itoa(r.Status))
	if rtText == "" {
		rtText = fmtS(r.RequestTime)
	}
	field(rtText)
	switch {
	case len(r.UpstreamTimes) == 0:
		b = append(b, sep)
	case sep == ',':
		b = append(b, '"')
		b = append(b, r.UpstreamString()...)
		b = append(b, '"', sep)
	default:
		field(r.UpstreamString())
	}
	if math.IsNaN(r.TTFTms) {
		field("")
	} else {
		field(fmtMS(r.TTFTms))
	}
	field(fmtS(r.UpstreamConnect))
	field(fmtS(r.SSLHandshake))
	field(strconv.Itoa(r.TCPRTTus))
	field(strconv.Itoa(r.Connection))
	field(strconv.Itoa(r.ConnectionRequests))
	if r.RetryAfter > 0 {
		field(strconv.Itoa(r.RetryAfter))
	} else {
		field("")
	}
	field(strconv.Itoa(r.PromptTokens))
	field(strconv.Itoa(r.CompletionTokens))
	field(strconv.Itoa(r.BytesSent))
	b = appendTableField(b, r.UserAgent, sep)
	return append(b, '\n')
}

// appendTableField appends v, quoted when it holds the separator, a quote
// or a line break.
func appendTableField(b []byte, v string, sep byte) []byte {
	quote := false
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == sep || c == '"' || c == '\n' || c == '\r' {
			quote = true
			break
		}
	}
	if !quote {
		return append(b, v...)
	}
	b = append(b, '"')
	for i := 0; i < len(v); i++ {
		if v[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, v[i])
	}
	return append(b, '"')
}
