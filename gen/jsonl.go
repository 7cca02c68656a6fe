package gen

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go/compress"
)

// WriteOptions configure a writer.
type WriteOptions struct {
	// BadEvery inserts a bad line after every BadEvery requests (0: none).
	// The kinds of bad line rotate through the format's own list.
	BadEvery int
	// Codec compresses a Parquet file's pages (nil: zstd).
	Codec compress.Codec
}

// badJSON are the JSON-lines bad lines, in rotation: truncated JSON,
// binary garbage, and valid objects whose time or request_time cannot be
// read.
var badJSON = []string{
	`{"time":"2026-11-29T10:00:00.000+08:00","app_id":"app-001","request_time":1.2`,
	"\x00\x01\x02binary\xff\xfe garbage",
	`{"time":"not-a-time","app_id":"app-001","status":200,"request_time":1.5}`,
	`{"time":"2026-11-29T10:30:00.000+08:00","app_id":"app-001","status":200,"request_time":"abc"}`,
}

// BadJSONLines returns the bad lines the JSON writers insert, in order.
func BadJSONLines() []string { return badJSON }

// WriteJSONL writes typed JSON lines (numbers as numbers, null for absent
// values, upstream_response_time as an nginx-style string). It returns how
// many bad lines it inserted.
func WriteJSONL(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	return writeJSON(w, reqs, o, false)
}

// WriteCLS writes a Tencent CLS JSON export: every value a string,
// __TIMESTAMP__ in epoch ms, __SOURCE__, __FILENAME__ and __TAG__ keys.
func WriteCLS(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	return writeJSON(w, reqs, o, true)
}

func writeJSON(w io.Writer, reqs []Request, o WriteOptions, cls bool) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	var b []byte
	bad := 0
	for i := range reqs {
		b = b[:0]
		if cls {
			b = appendCLS(b, &reqs[i])
		} else {
			b = appendJSONL(b, &reqs[i])
		}
		b = append(b, '\n')
		if o.BadEvery > 0 && (i+1)%o.BadEvery == 0 {
			b = append(b, badJSON[bad%len(badJSON)]...)
			b = append(b, '\n')
			bad++
		}
		if _, err := bw.Write(b); err != nil {
			return bad, err
		}
	}
	return bad, bw.Flush()
}

type jw struct {
	b     []byte
	first bool
}

func (j *jw) key(k string) {
	if !j.first {
		j.b = append(j.b, ',')
	}
	j.first = false
	j.b = strconv.AppendQuote(j.b, k)
	j.b = append(j.b, ':')
}

func (j *jw) str(k, v string) {
	j.key(k)
	j.b = strconv.AppendQuote(j.b, v)
}

func (j *jw) raw(k, v string) {
	j.key(k)
	j.b = append(j.b, v...)
}

// Fixed formats the writers use for each number, so tests can compare
// parsed values exactly.
func fmtS(v float64) string  { return strconv.FormatFloat(v, 'f', 3, 64) }
func fmtMS(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// UpstreamString is $upstream_response_time as nginx writes it: "-" when
// no upstream answered, a comma-separated list when several did.
func (r *Request) UpstreamString() string {
	if len(r.UpstreamTimes) == 0 {
		return "-"
	}
	s := ""
	for i, v := range r.UpstreamTimes {
		if i > 0 {
			s += ", "
		}
		s += fmtS(v)
	}
	return s
}

func appendJSONL(b []byte, r *Request) []byte {
	j := jw{b: append(b, '{'), first: true}
	j.str("time", r.Time.Format("2006-01-02T15:04:05.000Z07:00"))
	j.str("request_id", r.RequestID)
	j.str("app_id", r.AppID)
	j.str("remote_addr", r.RemoteAddr)
	j.str("client_region", r.ClientRegion)
	j.str("region", r.Region)
	j.str("method", r.Method)
	j.str("uri", r.URI)
	if r.Model != "" {
		j.str("model", r.Model)
		j.raw("stream", strconv.FormatBool(r.Stream))
	} else {
		j.raw("model", "null")
		j.raw("stream", "null")
	}
	j.raw("status", strconv.Itoa(r.Status))
	j.raw("request_time", fmtS(r.RequestTime))
	if len(r.UpstreamTimes) == 0 {
		j.raw("upstream_response_time", "null")
	} else {
		j.str("upstream_response_time", r.UpstreamString())
	}
	if math.IsNaN(r.TTFTms) {
		j.raw("first_token_ms", "null")
	} else {
		j.raw("first_token_ms", fmtMS(r.TTFTms))
	}
	j.raw("upstream_connect_time", fmtS(r.UpstreamConnect))
	j.raw("ssl_handshake_time", fmtS(r.SSLHandshake))
	j.raw("tcpinfo_rtt", strconv.Itoa(r.TCPRTTus))
	j.raw("connection", strconv.Itoa(r.Connection))
	j.raw("connection_requests", strconv.Itoa(r.ConnectionRequests))
	if r.RetryAfter > 0 {
		j.raw("retry_after", strconv.Itoa(r.RetryAfter))
	} else {
		j.raw("retry_after", "null")
	}
	j.raw("prompt_tokens", strconv.Itoa(r.PromptTokens))
	j.raw("completion_tokens", strconv.Itoa(r.CompletionTokens))
	j.raw("bytes_sent", strconv.Itoa(r.BytesSent))
	j.str("http_user_agent", r.UserAgent)
	return append(j.b, '}')
}

func appendCLS(b []byte, r *Request) []byte {
	j := jw{b: append(b, '{'), first: true}
	j.str("__TIMESTAMP__", strconv.FormatInt(r.Time.UnixMilli(), 10))
	j.str("__SOURCE__", r.RemoteAddr)
	j.str("__FILENAME__", "/var/log/tokenhub/access.log")
	j.str("__TAG__.pod_name", "gw-"+strconv.Itoa(int(r.Time.Unix()%7)))
	j.str("request_id", r.RequestID)
	j.str("app_id", r.AppID)
	j.str("__TAG__.client_region", r.ClientRegion)
	j.str("__TAG__.region", r.Region)
	j.str("request", r.Method+" "+r.URI+" HTTP/1.1")
	j.str("model", r.Model)
	if r.Model != "" {
		j.str("stream", strconv.FormatBool(r.Stream))
	} else {
		j.str("stream", "")
	}
	j.str("status", strconv.Itoa(r.Status))
	j.str("request_time", fmtS(r.RequestTime))
	j.str("upstream_response_time", r.UpstreamString())
	if math.IsNaN(r.TTFTms) {
		j.str("first_token_ms", "")
	} else {
		j.str("first_token_ms", fmtMS(r.TTFTms))
	}
	j.str("upstream_connect_time", fmtS(r.UpstreamConnect))
	j.str("ssl_handshake_time", fmtS(r.SSLHandshake))
	j.str("tcpinfo_rtt", strconv.Itoa(r.TCPRTTus))
	j.str("connection", strconv.Itoa(r.Connection))
	j.str("connection_requests", strconv.Itoa(r.ConnectionRequests))
	if r.RetryAfter > 0 {
		j.str("retry_after", strconv.Itoa(r.RetryAfter))
	} else {
		j.str("retry_after", "")
	}
	j.str("prompt_tokens", strconv.Itoa(r.PromptTokens))
	j.str("completion_tokens", strconv.Itoa(r.CompletionTokens))
	j.str("bytes_sent", strconv.Itoa(r.BytesSent))
	j.str("http_user_agent", r.UserAgent)
	return append(j.b, '}')
}

// TimeLocal formats a time as nginx's $time_local.
func TimeLocal(t time.Time) string { return t.Format("02/Jan/2006:15:04:05 -0700") }
