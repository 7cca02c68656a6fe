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
// gRPC's, nor a span's outcome (otel.status_code is OK or ERROR).
func statusLike(name string) bool {
	l := strings.ToLower(name)
	if containsAny(l, "upstream", "origin", "backend", "grpc", "otel", "span") {
		return false
	}
	for _, end := range []string{"status", "status_code", "statuscode", "response_code", "responsecode"} {
		if l == end {
			return true
		}
		if n := len(l) - len(end); n > 0 && strings.HasSuffix(l, end) {
			return strings.IndexByte("._-", l[n-1]) >= 0 || name[n] >= 'A' && name[n] <= 'Z'
		}
	}
	return false
}
