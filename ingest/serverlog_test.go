package ingest_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// nonBlankLines counts the lines of the file at path that hold more
// than spaces: the oracle of what a server log's reader passes over.
func nonBlankLines(t *testing.T, path string) int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(0)
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			n++
		}
	}
	return n
}

// TestServerLogs: a server's own log (nginx's error.log, Apache's
// error_log, Envoy's and Traefik's own logs), written as its program
// writes it, is read as one: every line passed over, no record, no bad
// line, its source named; so it is no file that could not be read. A
// line of another shape after its first lines is a bad line.
func TestServerLogs(t *testing.T) {
	for file, src := range map[string]string{
		"nginx-error.log": "nginx-error", "apache-error.log": "apache-error",
		"envoy-own.log": "envoy-own", "traefik-own.log": "traefik-own",
	} {
		t.Run(src, func(t *testing.T) {
			path := filepath.Join("testdata", "text", file)
			lines := nonBlankLines(t, path)
			got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
			f := res.Files[0]
			if len(got) != 0 || f.Records != 0 || f.BadLines != 0 || f.PassedOver != lines || f.Source != src || f.Incomplete {
				t.Fatalf("%+v, %d records; want %d lines passed over as %s, nothing else", f, len(got), lines, src)
			}
			if ingest.ServerLogTitle(src) == "" {
				t.Errorf("source %s has no title", src)
			}
			// A line of another shape among nine in ten of the log's.
			b, _ := os.ReadFile(path)
			mixed := writeTemp(t, file, string(b)+string(b)+"goroutine 1 [running]:\n")
			_, res = collect(t, []string{mixed}, ingest.Options{Workers: 1, Location: time.UTC})
			if f := res.Files[0]; f.PassedOver != 2*lines || f.BadLines != 1 || len(res.Problems) != 1 || res.Problems[0].Line != 2*lines+1 {
				t.Errorf("with a stack trace's line: %+v, problems %v; want %d passed over, line %d bad", f, res.Problems, 2*lines, 2*lines+1)
			}
		})
	}
}

// TestServerLogBesideAccessLog: a directory of nginx's logs, access.log
// and error.log, reads the requests of the one and passes over the
// other: neither is unread.
func TestServerLogBesideAccessLog(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"nginx-combined-rt.log", "nginx-error.log"} {
		b, err := os.ReadFile(filepath.Join("testdata", "text", f))
		if err != nil {
			t.Fatal(err)
		}
		name := map[string]string{"nginx-combined-rt.log": "access.log", "nginx-error.log": "error.log"}[f]
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	access := nonBlankLines(t, filepath.Join(dir, "access.log"))
	errs := nonBlankLines(t, filepath.Join(dir, "error.log"))
	got, res := collect(t, []string{dir}, ingest.Options{Workers: 2, Location: time.UTC})
	if int64(len(got)) != access || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines; want %d, 0: %+v", len(got), res.BadLines(), access, res.Files)
	}
	for _, f := range res.Files {
		if strings.HasSuffix(f.Path, "error.log") && (f.PassedOver != errs || f.Source != "nginx-error") {
			t.Errorf("error.log: %+v, want %d lines passed over", f, errs)
		}
	}
}

// TestNotServerLog: a text log whose lines begin with a date and a
// level but are no server log's known shape (an app's request lines
// through Python's logging) is not passed over: its format is unknown,
// and the file is unread, as before.
func TestNotServerLog(t *testing.T) {
	path := writeTemp(t, "app.log",
		`2026-12-04 09:00:00,123 INFO 10.0.0.5 - "POST /v1/chat/completions HTTP/1.1" 200 1.234`+"\n"+
			`2026-12-04 09:00:01,456 INFO 10.0.0.6 - "POST /v1/chat/completions HTTP/1.1" 200 2.345`+"\n")
	_, res, err := ingest.Run([]string{path}, ingest.Options{Workers: 1, Location: time.UTC}, func() *collector { return &collector{} })
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Files[0]; f.PassedOver != 0 || f.Source != "" || f.Records != 0 || !f.Incomplete {
		t.Errorf("%+v: want an unread file of unknown format, nothing passed over", f)
	}
}

// TestJSONOwnLog: a JSON-lines file that is a program's own log (a
// level, a message, a time and nothing loganalyze reads) has its lines
// passed over, not read as records without request_time; its records
// that are requests are read. A file whose first record has a duration
// loganalyze does not read is read as before, so that the report can
// offer --map.
func TestJSONOwnLog(t *testing.T) {
	own := writeTemp(t, "traefik.log",
		`{"level":"info","msg":"Traefik version 3.1.2 built on 2024-08-06T13:39:26Z","time":"2026-12-04T09:00:00Z"}`+"\n"+
			`{"level":"error","error":"service \"llm\" error: no IP","container":"llm-8f2","providerName":"docker","time":"2026-12-04T09:00:01Z","message":"Skip container llm"}`+"\n"+
			`{"level":"info","msg":"request","time":"2026-12-04T09:00:02Z","status":200,"request_time":0.5}`+"\n"+
			`{"level":"warn","msg":"no time"}`+"\n")
	got, res := collect(t, []string{own}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; len(got) != 1 || f.Records != 1 || f.PassedOver != 3 || f.BadLines != 0 || f.Source != "own-log" || got[0].status != 200 {
		t.Errorf("own log: %+v, records %+v; want 3 passed over, the one request read", f, got)
	}
	timed := writeTemp(t, "app.log",
		`{"level":"info","msg":"handled","time":"2026-12-04T09:00:00Z","latency_ms":123}`+"\n"+
			`{"level":"info","msg":"handled","time":"2026-12-04T09:00:01Z","latency_ms":456}`+"\n")
	got, res = collect(t, []string{timed}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; len(got) != 2 || f.PassedOver != 0 || f.WithoutRequestTime != 2 || f.Source != "" {
		t.Errorf("app log with a duration: %+v; want 2 records without request_time", f)
	}
}

// TestJSONAccessLogBesideOwnLines: a pod's log of Envoy's JSON access log
// (Envoy Gateway's, Contour's, an Istio sidecar's with JSON encoding)
// whose first line is Envoy's own ("[2025-03-10 17:59:52.968][1][warning]
// …", which begins with '[' as a JSON document does) is read as JSON
// lines, each access line a record and each own line, Envoy's or Istio
// pilot-agent's, passed over: none a bad line.
func TestJSONAccessLogBesideOwnLines(t *testing.T) {
	own := []string{
		"[2025-03-10 17:59:52.968][1][warning][main] [source/server/server.cc:936] Usage of the deprecated runtime key overload.global_downstream_max_connections",
		"2025-03-10T17:59:53.112345Z\tinfo\txdsproxy\tconnected to upstream XDS server: istiod.istio-system.svc:15012",
	}
	var b strings.Builder
	b.WriteString(own[0] + "\n")
	var rts []float64
	for i := range 30 {
		if i == 12 {
			b.WriteString(own[1] + "\n")
		}
		d := 100 + (i*37)%900
		rts = append(rts, float64(d)/1000)
		fmt.Fprintf(&b, `{"start_time":"2025-03-10T18:00:%02d.000Z","method":"POST","x-envoy-origin-path":"/v1/chat/completions","protocol":"HTTP/1.1","response_code":200,"response_flags":"-","duration":%d,"upstream_host":"10.42.0.9:8000"}`+"\n", i, d)
	}
	got, res := collect(t, []string{writeTemp(t, "envoy-gateway-pod.log", b.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	f := res.Files[0]
	if f.Format != ingest.JSONL || f.Source != "envoy" || f.Records != 30 || f.BadLines != 0 || f.PassedOver != 2 {
		t.Fatalf("file %+v, want 30 Envoy records of JSON lines, 2 lines passed over, none bad", f)
	}
	for i, r := range got {
		if math.Abs(r.rt-rts[i]) > 1e-9 {
			t.Errorf("record %d: request_time %v, want %v", i, r.rt, rts[i])
		}
	}
}

// TestLinkerdAccessLogBesideOwnLines: the log of a pod's linkerd-proxy
// container, whose json access lines follow the proxy's own ("[
// 0.001952s]  INFO ThreadId(01) linkerd2_proxy: release …", its uptime
// first, which begins with '[' as a JSON document does), is read as
// Linkerd's JSON lines: total_ns the request's time in ns, the own lines
// passed over, none a bad line.
func TestLinkerdAccessLogBesideOwnLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("[     0.001952s]  INFO ThreadId(01) linkerd2_proxy: release 2.270.0 (abc1234) by linkerd on 2026-11-20T00:00:00Z\n")
	b.WriteString("[     0.004210s]  INFO ThreadId(01) linkerd2_proxy: Admin interface on 0.0.0.0:4191\n")
	var rts []float64
	for i := range 20 {
		if i == 9 {
			b.WriteString("[   812.553017s]  WARN ThreadId(02) inbound: linkerd_app_core::serve: Server failed to accept connection\n")
		}
		ns := 1_000_000 + i*987_654_321
		rts = append(rts, float64(ns)/1e9)
		fmt.Fprintf(&b, `{"client.addr":"10.42.0.70:32996","client.id":"web.apps.serviceaccount.identity.linkerd.cluster.local","timestamp":"2026-12-05T10:00:%02d.505000123Z","method":"POST","uri":"http://llm-gw:8000/v1/chat/completions","version":"HTTP/2.0","trace_id":"","request_bytes":"1285","user_agent":"openai-python/1.54.3","host":"llm-gw:8000","response_bytes":"1344","status":200,"total_ns":"%d","processing_ns":"171999"}`+"\n", i, ns)
	}
	got, res := collect(t, []string{writeTemp(t, "linkerd-proxy.log", b.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	f := res.Files[0]
	if f.Format != ingest.JSONL || f.Source != "linkerd" || f.Records != 20 || f.BadLines != 0 || f.PassedOver != 3 {
		t.Fatalf("file %+v, want 20 Linkerd records of JSON lines, 3 lines passed over, none bad", f)
	}
	for i, r := range got {
		if math.Abs(r.rt-rts[i]) > 1e-9 || r.uri != "http://llm-gw:8000/v1/chat/completions" || r.status != 200 {
			t.Errorf("record %d: request_time %v s, uri %q, status %v; want %v s, the URL, 200", i, r.rt, r.uri, r.status, rts[i])
		}
	}
}
