package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"loganalyze/rules"
)

// ownThenRequests writes a program's own start-up line, then n requests
// whose HTTP status is named statusName, beside a gRPC status and an
// upstream's, which are no response's status.
func ownThenRequests(n int, statusName string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"level":"info","time":"2026-03-10T08:00:00.000001Z","scope":"app","message":"serving UI at http://0.0.0.0:15000/ui"}` + "\n")
	for i := range n {
		line, _ := json.Marshal(map[string]any{
			"time": 1795000000 + i*2, "duration": "1200ms", statusName: []int{200, 429, 503}[i%3],
			"grpc.status": 0, "upstream.status": 200, "route": "default/openai",
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestStatusHints: records read with no status, whose file carried a
// name that reads as one, are no OK: the verdict is warn, and every
// renderer offers the --map that would read it, from the requests' names
// though the file's first line is the program's own. Records whose
// status is read get none, and their JSON report keeps its shape.
func TestStatusHints(t *testing.T) {
	r := buildFrom(t, ownThenRequests(60, "http.status"), nil, 2, 10, nil)
	if len(r.StatusHints) != 1 || r.StatusHints[0].Flag != "--map status=http.status" {
		t.Fatalf("hints %+v, want --map status=http.status alone", r.StatusHints)
	}
	if r.Verdict != rules.Warn || r.VerdictName() != "warn" {
		t.Errorf("verdict %s, want warn", r.VerdictName())
	}
	md := string(render(t, r, "md"))
	if !strings.Contains(md, "**Verdict: WARN** — the responses' status went unread") ||
		!strings.Contains(md, "No record carries a status") || !strings.Contains(md, "try `--map status=http.status`") {
		t.Errorf("Markdown lacks the verdict or the hint:\n%s", md)
	}
	if page := string(render(t, r, "html")); !strings.Contains(page, "try --map status=http.status; http.status looks like") {
		t.Error("HTML lacks the hint")
	}
	doc := jsonDoc(t, r)
	input, _ := doc["input"].(map[string]any)
	hints, _ := input["status_hints"].([]any)
	if doc["verdict"] != "warn" || len(hints) != 1 || hints[0].(map[string]any)["flag"] != "--map status=http.status" {
		t.Errorf("JSON verdict %v, input.status_hints %v", doc["verdict"], input["status_hints"])
	}

	// A state of some other thing, no HTTP status: nothing went unread.
	other := buildFrom(t, ownThenRequests(60, "job_status"), nil, 2, 10, nil)
	if other.StatusHints != nil || other.VerdictName() != "ok" {
		t.Errorf("job_status: hints %+v, verdict %s; want none and ok", other.StatusHints, other.VerdictName())
	}

	read := buildFrom(t, ownThenRequests(60, "status"), nil, 2, 10, nil)
	if read.StatusHints != nil || read.VerdictName() != "ok" {
		t.Fatalf("status read: hints %+v, verdict %s; want none and ok", read.StatusHints, read.VerdictName())
	}
	if input, _ := jsonDoc(t, read)["input"].(map[string]any); input["status_hints"] != nil {
		t.Error("JSON input.status_hints present for records with a status")
	}
}

// TestStatusLike holds the names offered as a status to what they name.
func TestStatusLike(t *testing.T) {
	for name, want := range map[string]bool{
		"http.status": true, "status_code": true, "statusCode": true, "res.statusCode": true, "resp_status": true,
		"http.response.status_code": true, "responseStatus": true, "response_code": true,
		"grpc.status": false, "upstream_status": false, "otel.status_code": false, "span.status": false,
		"backendStatus": false, "statuses": false, "unstatus": false, "http.status_text": false,
		"job_status": false, "finishStatus": false, "cache.status": false, "http_status": true, "res.status": true,
		"response.status": true, "event.status_code": true, "progress_status": false, "downstreamResponseStatus": true,
	} {
		if got := statusLike(name); got != want {
			t.Errorf("statusLike(%q) = %v, want %v", name, got, want)
		}
	}
}
