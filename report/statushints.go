package report

import (
	"strings"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// maxStatusHints is how many --map status=… suggestions a report makes.
const maxStatusHints = 3

// statusHints are the flags that may give the records their HTTP
// status, when records were read but not one carries a status while the
// files carried a name that looks like one and that loganalyze does not
// already read from the file it was seen in (a gateway's http.status, a
// status_code of a source it does not know). Without a status the 429s
// and 5xx are counted nowhere and the storm and burst rules cannot run:
// a verdict of OK would be OK about what was not read (SPEC §3).
func statusHints(acc *aggregate.Accumulator, files []ingest.FileStats) []Hint {
	if acc.Records == 0 || acc.Present()[ingest.FStatus] > 0 {
		return nil
	}
	var out []Hint
	for _, name := range unreadNames(files, statusLike) {
		if len(out) == maxStatusHints {
			break
		}
		out = append(out, newHint("--map status="+name, "hint.mapstatus", name))
	}
	return out
}

// statusLike reports whether a field's name reads as a response's HTTP
// status: status, status_code or response_code, bare, after a prefix
// (http.status, resp_status, http.response.status_code) or in camel case
// (statusCode, res.statusCode, responseStatus); not the upstream's,
// gRPC's, nor a span's outcome (otel.status_code is OK or ERROR). A
// status after another prefix names an HTTP response's only when the
// prefix says so (http, res, resp, response): a job_status or a
// finish_status is some other thing's state, and a log without an HTTP
// status is no less read for carrying one.
func statusLike(name string) bool {
	l := strings.ToLower(name)
	if containsAny(l, "upstream", "origin", "backend", "grpc", "otel", "span") {
		return false
	}
	for _, end := range []string{"status", "status_code", "statuscode", "response_code", "responsecode"} {
		if l == end {
			return end != "status" // read already, as SPEC §3 names it
		}
		if n := len(l) - len(end); n > 0 && strings.HasSuffix(l, end) {
			if !(strings.IndexByte("._-", l[n-1]) >= 0 || name[n] >= 'A' && name[n] <= 'Z') {
				return false
			}
			if end != "status" || strings.Contains(l[:n], "http") {
				return true
			}
			switch strings.ToLower(lastWord(name[:n])) {
			case "res", "resp", "response":
				return true
			}
			return false
		}
	}
	return false
}

// lastWord returns the last word of a name's prefix: after its last
// '.', '_' or '-' (the one that ends it left out), or its last capital
// (camel case): "res" of "res.", "Response" of "downstreamResponse".
func lastWord(prefix string) string {
	p := strings.TrimRight(prefix, "._-")
	for i := len(p) - 1; i > 0; i-- {
		if c := p[i]; c == '.' || c == '_' || c == '-' {
			return p[i+1:]
		} else if c >= 'A' && c <= 'Z' {
			return p[i:]
		}
	}
	return p
}
