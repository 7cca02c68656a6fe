package gen

import (
	"io"
	"math"
	"strconv"
)

// WriteCLB writes the Tencent CLB layer-7 access log (SPEC §3): 29
// bracketed fields. The format has no app ID, region, model or token
// fields; the request's other fields go into their columns (time to the
// second, as $time_local has it), and the load balancer's own columns get
// plausible constants. It returns how many bad lines it inserted.
func WriteCLB(w io.Writer, reqs []Request, o WriteOptions) (int, error) {
	return writeRows(w, reqs, o, "", "[broken clb line", appendCLB)
}

// appendCLB appends one CLB line; a non-empty timeText or rtText replaces
// $time_local or $request_time (for bad lines).
func appendCLB(b []byte, r *Request, timeText, rtText string) []byte {
	f := func(v string) { b = append(append(append(b, '['), v...), "] "...) }
	f(r.RequestID)
	if timeText == "" {
		timeText = TimeLocal(r.Time)
	}
	f(timeText)
	f("HTTPS")
	f("10.0.0.10:443")
	f("tokenhub.example.com")
	f(r.RemoteAddr + ":" + strconv.Itoa(40000+r.Connection))
	f(strconv.Itoa(r.Status))
	upAddr, upStatus := "-", "-"
	for k := range r.UpstreamTimes {
		addr := "10.0.1." + strconv.Itoa(1+(r.Connection+k)%9) + ":8080"
		st := strconv.Itoa(r.Status)
		if k == 0 {
			upAddr, upStatus = addr, st
		} else {
			upAddr, upStatus = upAddr+", "+addr, upStatus+", "+st
		}
	}
	f(upAddr)
	f(upStatus)
	f("tokenhub-backend")
	f(r.Method + " " + r.URI + " HTTP/1.1")
	f(strconv.Itoa(200 + 4*r.PromptTokens + len(r.URI)))
	f(strconv.Itoa(r.BytesSent))
	f("tokenhub.example.com")
	f(r.UserAgent)
	f("-")
	if rtText == "" {
		rtText = fmtS(r.RequestTime)
	}
	f(rtText)
	f(r.UpstreamString())
	if len(r.UpstreamTimes) == 0 {
		f("-")
		f("-")
	} else {
		f(fmtS(r.UpstreamConnect))
		f(fmtS(headerTime(r)))
	}
	f(strconv.Itoa(r.TCPRTTus))
	f(strconv.Itoa(r.Connection))
	f(strconv.Itoa(r.ConnectionRequests))
	// $ssl_handshake_time: session reused (1) or not, then the full
	// handshake time and its phases.
	if r.SSLHandshake > 0 {
		f("0:" + fmtS(r.SSLHandshake) + ":0.001:0.001:0.000:0.000:0.000")
	} else {
		f("1:0.000:0.000:0.000:0.000:0.000:0.000")
	}
	f("ECDHE-RSA-AES128-GCM-SHA256")
	f("TLSv1.2")
	f("-1")
	f(r.URI)
	b = append(append(b, "[HTTP/1.1]"...), '\n')
	return b
}

// headerTime is a plausible $upstream_header_time: the first token of a
// streamed answer, else the whole answer of the last upstream.
func headerTime(r *Request) float64 {
	last := r.UpstreamTimes[len(r.UpstreamTimes)-1]
	if r.Stream && !math.IsNaN(r.TTFTms) && r.TTFTms/1000 < last {
		return r.TTFTms / 1000
	}
	return last
}
