package gen

import (
	"bufio"
	"io"
	"math"
	"strconv"
)

// NginxLogFormat is the nginx log_format WriteNginx writes: the TokenHub
// gateway's, as in the sample logs' README.
const NginxLogFormat = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time urt="$upstream_response_time" uct="$upstream_connect_time" cr=$connection_requests conn=$connection ssl=$ssl_handshake_time rtt=$tcpinfo_rtt region=$region client_region=$client_region model=$model stream=$stream ttft=$first_token_ms ra=$retry_after`

// badNginx are the nginx bad lines, in rotation: garbage, a line cut
// short, a request_time that is not a number and an unreadable
// $time_local.
var badNginx = []string{
	"this is not an access log line",
	`10.0.0.1 - app-001 [29/Nov/2026:10:00:00 +0800] "POST /v1/chat/completions HTTP/1.1" 200 1496 "-" "python-requests/2.31" rt=4.683 urt="4.6`,
	`10.0.0.1 - app-001 [29/Nov/2026:10:30:00 +0800] "POST /v1/chat/completions HTTP/1.1" 200 1496 "-" "python-requests/2.31" rt=abc urt="4.681" uct="0.000" cr=29 conn=27 ssl=0.000 rtt=1481 region=ap-beijing client_region=ap-beijing model=qwen2-7b-instruct stream=false ttft=4680.7 ra=-`,
	`10.0.0.1 - app-001 [31/Foo/2026:99:00:00 +0800] "POST /v1/chat/completions HTTP/1.1" 200 1496 "-" "python-requests/2.31" rt=4.683 urt="4.681" uct="0.000" cr=29 conn=27 ssl=0.000 rtt=1481 region=ap-beijing client_region=ap-beijing model=qwen2-7b-instruct stream=false ttft=4680.7 ra=-`,
}

// BadNginxLines returns the bad lines WriteNginx inserts, in order.
func BadNginxLines() []string { return badNginx }

// WriteNginx writes nginx text in NginxLogFormat. Absent values are "-",
// upstream times a list when several upstreams were tried. It returns how
// many bad lines it inserted.
func WriteNginx(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	var b []byte
	bad := 0
	for i := range reqs {
		b = appendNginx(b[:0], &reqs[i])
		b = append(b, '\n')
		if o.BadEvery > 0 && (i+1)%o.BadEvery == 0 {
			b = append(b, badNginx[bad%len(badNginx)]...)
			b = append(b, '\n')
			bad++
		}
		if _, err := bw.Write(b); err != nil {
			return bad, err
		}
	}
	return bad, bw.Flush()
}

func appendNginx(b []byte, r *Request) []byte {
	dash := func(b []byte, s string) []byte {
		if s == "" {
			return append(b, '-')
		}
		return append(b, s...)
	}
	b = append(b, r.RemoteAddr...)
	b = append(b, " - "...)
	b = dash(b, r.AppID)
	b = append(b, " ["...)
	b = r.Time.AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, "] \""...)
	b = append(b, r.Method...)
	b = append(b, ' ')
	b = append(b, r.URI...)
	b = append(b, " HTTP/1.1\" "...)
	b = strconv.AppendInt(b, int64(r.Status), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(r.BytesSent), 10)
	b = append(b, ` "-" "`...)
	b = dash(b, r.UserAgent)
	b = append(b, `" rt=`...)
	b = strconv.AppendFloat(b, r.RequestTime, 'f', 3, 64)
	b = append(b, ` urt="`...)
	b = append(b, r.UpstreamString()...)
	b = append(b, `" uct="`...)
	b = strconv.AppendFloat(b, r.UpstreamConnect, 'f', 3, 64)
	b = append(b, `" cr=`...)
	b = strconv.AppendInt(b, int64(r.ConnectionRequests), 10)
	b = append(b, " conn="...)
	b = strconv.AppendInt(b, int64(r.Connection), 10)
	b = append(b, " ssl="...)
	b = strconv.AppendFloat(b, r.SSLHandshake, 'f', 3, 64)
	b = append(b, " rtt="...)
	b = strconv.AppendInt(b, int64(r.TCPRTTus), 10)
	b = append(b, " region="...)
	b = dash(b, r.Region)
	b = append(b, " client_region="...)
	b = dash(b, r.ClientRegion)
	b = append(b, " model="...)
	b = dash(b, r.Model)
	b = append(b, " stream="...)
	if r.Model == "" {
		b = append(b, '-')
	} else {
		b = strconv.AppendBool(b, r.Stream)
	}
	b = append(b, " ttft="...)
	if math.IsNaN(r.TTFTms) {
		b = append(b, '-')
	} else {
		b = strconv.AppendFloat(b, r.TTFTms, 'f', 1, 64)
	}
	b = append(b, " ra="...)
	if r.RetryAfter > 0 {
		b = strconv.AppendInt(b, int64(r.RetryAfter), 10)
	} else {
		b = append(b, '-')
	}
	return b
}
