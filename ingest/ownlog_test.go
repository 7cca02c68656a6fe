package ingest_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestServerLinesBeforeAccessLog reads access logs as a container's log
// holds them: the server's own start-up lines first (Traefik's, Istio's
// pilot-agent's, the nginx notices under Kong), and its own JSON log
// lines among a JSON access log. Each is read as the log without them is
// (the same source, the same records), the server's text lines passed
// over, in a text log and a JSON one alike, and its JSON lines, which
// are no request of its JSON access log, counted bad.
func TestServerLinesBeforeAccessLog(t *testing.T) {
	traefikStart := strings.Repeat("2025-03-10T08:00:00Z INF Traefik version 3.0.0-rc3 built on 2024-03-13T15:49:38Z version=3.0.0-rc3\n", 1) +
		strings.Repeat("2025-03-10T08:00:00Z INF Stats collection is enabled.\n", 4) +
		strings.Repeat("2025-03-10T08:00:00Z INF Starting provider *crd.Provider\n", 8)
	// Traefik v2's own log is logrus' text.
	traefikV2 := `time="2025-03-10T08:00:00Z" level=info msg="Configuration loaded from flags."` + "\n" +
		`time="2025-03-10T08:00:01Z" level=error msg="Error while building configuration" providerName=docker` + "\n"
	pilot := strings.Repeat("2025-03-10T07:59:58.123456Z\tinfo\tFLAG: --concurrency=\"2\"\n", 40) +
		"2025-03-10T07:59:58.200000Z\tinfo\tProxy role\tips=[10.244.0.11] type=sidecar\n"
	notices := "2025/03/10 08:00:00 [notice] 1#0: using the \"epoll\" event method\n" +
		"2025/03/10 08:00:00 [notice] 1#0: openresty/1.25.3.1\n" +
		"2025/03/10 08:00:00 [notice] 1#0: OS: Linux 6.5.0-35-generic\n"
	kongProxy := `10.2.0.2 - - [05/Dec/2025:10:00:05 +0800] "POST /v1/chat/completions HTTP/1.1" 504 1483 "-" "OpenAI/Python 1.54.3" kong_request_id: "6b0d549b6f03675a1600a35a"` + "\n" +
		`10.2.0.1 - - [05/Dec/2025:10:00:06 +0800] "POST /v1/chat/completions HTTP/1.1" 200 7068 "-" "OpenAI/Python 1.54.3" kong_request_id: "4a23d5962217beaddbc496cb"` + "\n"
	ownJSON := `{"level":"info","msg":"Configuration loaded from file: /etc/traefik/traefik.yml","time":"2025-03-10T08:00:00Z"}` + "\n"
	// kubectl logs of ingress-nginx's controller: its banner, klog lines,
	// an event's (commas and quotes, as a CSV row has them).
	ingress := "-------------------------------------------------------------------------------\n" +
		"NGINX Ingress controller\n  Release:       v1.9.4\n  Build:         846d251814a09d8a5d8d28e2e6c7b3f4d8a2e6c4\n" +
		"  Repository:    https://github.com/kubernetes/ingress-nginx\n  nginx version: nginx/1.21.6\n\n" +
		"-------------------------------------------------------------------------------\n\n" +
		"W1204 09:00:00.101234       7 client_config.go:618] Neither --kubeconfig nor --master was specified.\n" +
		strings.Repeat("I1204 09:00:00.201234       7 main.go:205] \"Creating API client\" host=\"https://10.96.0.1:443\"\n", 20) +
		`I1204 09:00:01.301234       7 event.go:377] Event(v1.ObjectReference{Kind:"Pod", Namespace:"ingress-nginx", Name:"ingress-nginx-controller-7d9f", UID:"1b2c", APIVersion:"v1", ResourceVersion:"123", FieldPath:""}): type: 'Normal' reason: 'RELOAD' NGINX reload triggered due to a change in configuration` + "\n"
	// Envoy's own log before its access log (kubectl logs of an Envoy).
	envoyOwn := strings.Repeat("[2025-03-10 08:00:00.123][1][info][main] [source/server/server.cc:430] initializing epoch 0 (base id=0, hot restart version=11.104)\n", 25) +
		"[2025-03-10 08:00:00.512][1][info][upstream] [source/common/upstream/cluster_manager_impl.cc:240] cm init: all clusters initialized\n" +
		"[2025-03-10 08:00:01.002][18][warning][config] [source/common/config/grpc_stream.h:191] StreamAggregatedResources gRPC config stream closed\n"
	// docker logs of the official nginx image: its entrypoint's lines,
	// then nginx's notices.
	docker := "/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration\n" +
		"/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh\n" +
		"10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf\n" +
		"/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh\n" +
		"/docker-entrypoint.sh: Configuration complete; ready for start up\n" +
		strings.Repeat("2025/03/10 08:00:00 [notice] 1#1: start worker process 29\n", 24)
	for _, c := range []struct {
		name, fixture, before, among string
		own                          int  // the server's lines added
		passed                       bool // passed over (text lines), else bad lines (JSON ones)
	}{
		{"traefik text", "text/traefik-clf.log", traefikStart, "", 13, true},
		{"traefik v2 text", "text/traefik-clf.log", traefikV2, traefikV2, 4, true},
		{"istio text", "text/istio-text.log", pilot, "", 41, true},
		{"kong json", "sources/kong.json", notices, "", 3, true},
		// Kong's proxy access log beside its file-log records, both on
		// the pod's stdout.
		{"kong kubectl", "sources/kong.json", notices, kongProxy, 5, true},
		{"traefik json", "sources/traefik.json", ownJSON, ownJSON, 2, false},
		{"ingress kubectl", "../../testdata/shared/real/ingress-nginx-upstreaminfo.log", ingress, "", 29, true},
		{"envoy kubectl", "text/envoy-default.log", envoyOwn, "", 27, true},
		{"nginx docker", "text/nginx-combined-rt.log", docker, "", 29, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			plain := filepath.Join("testdata", c.fixture)
			want, wantRes := collect(t, []string{plain}, ingest.Options{Workers: 1, Location: time.UTC})
			if len(want) == 0 || wantRes.Files[0].Source == "" {
				t.Fatalf("the fixture alone: %d records, source %q", len(want), wantRes.Files[0].Source)
			}
			data, err := os.ReadFile(plain)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(data), "\n")
			mid := len(lines) / 2
			body := strings.Join(lines[:mid], "") + c.among + strings.Join(lines[mid:], "")
			path := filepath.Join(t.TempDir(), filepath.Base(c.fixture))
			if err := os.WriteFile(path, []byte(c.before+body), 0o644); err != nil {
				t.Fatal(err)
			}
			got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
			f, wf := res.Files[0], wantRes.Files[0]
			if f.Source != wf.Source || f.Format != wf.Format {
				t.Errorf("source %q, format %s; want %q, %s", f.Source, f.Format, wf.Source, wf.Format)
			}
			bad, passed := int64(c.own), int64(0)
			if c.passed {
				bad, passed = 0, bad
			}
			if f.BadLines != wf.BadLines+bad || f.PassedOver != wf.PassedOver+passed {
				t.Errorf("%d bad lines, %d passed over; want %d, %d: %v", f.BadLines, f.PassedOver, wf.BadLines+bad, wf.PassedOver+passed, res.Problems)
			}
			if !slices.EqualFunc(got, want, sameRow) {
				t.Errorf("records differ from the log's without the server's lines:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// sameRow reports whether two rows hold the same values, NaN (absent)
// alike.
func sameRow(a, b row) bool {
	same := func(x, y float64) bool { return x == y || x != x && y != y }
	return same(a.rt, b.rt) && same(a.urt, b.urt) && same(a.ttft, b.ttft) &&
		a.timeNS == b.timeNS && a.hasTime == b.hasTime && a.status == b.status && a.hasStatus == b.hasStatus &&
		a.stream == b.stream && a.hasStream == b.hasStream && a.client == b.client && a.region == b.region &&
		a.model == b.model && a.uri == b.uri && a.remoteAddr == b.remoteAddr && a.hasModel == b.hasModel &&
		a.prompt == b.prompt && a.completion == b.completion
}

// TestHAProxyStartLines: an HAProxy syslog file starts with a line per
// proxy and server as HAProxy starts, dozens of them and kilobytes before
// the first request: it is read as HAProxy's HTTP log all the same, its
// requests those of the log without them, the start lines passed over.
func TestHAProxyStartLines(t *testing.T) {
	// haproxy's configuration manual, 8.2.3 (HTTP log format): the example.
	var access strings.Builder
	for i := range 5 {
		fmt.Fprintf(&access, "Feb  6 12:14:%02d localhost haproxy[14389]: 10.0.1.%d:33317 [06/Feb/2009:12:14:%02d.655] http-in static/srv1 10/0/30/69/%d 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} \"GET /index.html HTTP/1.1\"\n",
			14+i, 2+i, 14+i, 109+i)
	}
	var start strings.Builder
	for i := range 8 {
		fmt.Fprintf(&start, "Feb  6 12:14:10 localhost haproxy[14388]: Proxy be_%d started.\n", i)
		for j := range 4 {
			fmt.Fprintf(&start, "Feb  6 12:14:12 localhost haproxy[14388]: Server be_%d/srv%d is UP, reason: Layer7 check passed, code: 200, check duration: 2ms. 3 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.\n", i, j)
		}
	}
	dir := t.TempDir()
	plain, started := filepath.Join(dir, "plain.log"), filepath.Join(dir, "started.log")
	if err := os.WriteFile(plain, []byte(access.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(started, []byte(start.String()+access.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, wantRes := collect(t, []string{plain}, ingest.Options{Workers: 1, Location: time.UTC})
	got, res := collect(t, []string{started}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(want) != 5 || wantRes.Files[0].Format != ingest.HAProxy {
		t.Fatalf("the access lines alone: %d records as %s", len(want), wantRes.Files[0].Format)
	}
	if f := res.Files[0]; f.Format != ingest.HAProxy || f.BadLines != 0 || f.PassedOver != 40 || !slices.EqualFunc(got, want, sameRow) {
		t.Errorf("after 40 start lines (%d bytes): %s, %d records, %d bad lines, %d passed over; want haproxy, 5, 0 and 40", start.Len(), f.Format, len(got), f.BadLines, f.PassedOver)
	}
}

// TestColouredLines: uvicorn writing to a terminal colours its access
// lines ("\x1b[32mINFO\x1b[0m: … \x1b[32m200 OK\x1b[0m"): they are read as
// the same lines without the escapes are, not refused as binary content.
func TestColouredLines(t *testing.T) {
	var plain, coloured strings.Builder
	for i := range 6 {
		status, colour := "200 OK", "32"
		if i%3 == 2 {
			status, colour = "500 Internal Server Error", "31"
		}
		fmt.Fprintf(&plain, "INFO:     10.0.23.%d:37800 - \"POST /v1/chat/completions HTTP/1.1\" %s\n", i, status)
		fmt.Fprintf(&coloured, "\x1b[32mINFO\x1b[0m:     10.0.23.%d:37800 - \"\x1b[1mPOST /v1/chat/completions HTTP/1.1\x1b[0m\" \x1b[%sm%s\x1b[0m\n", i, colour, status)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "plain.log"), filepath.Join(dir, "coloured.log")
	if err := os.WriteFile(a, []byte(plain.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(coloured.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, wantRes := collect(t, []string{a}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(want) != 6 || wantRes.Files[0].Source != "uvicorn" {
		t.Fatalf("the plain lines: %d records, source %q", len(want), wantRes.Files[0].Source)
	}
	got, res := collect(t, []string{b}, ingest.Options{Workers: 2, Location: time.UTC})
	// uvicorn writes no time: the records in the order of their clients.
	byClient := func(a, b row) int { return strings.Compare(a.client, b.client) }
	slices.SortFunc(want, byClient)
	slices.SortFunc(got, byClient)
	if f := res.Files[0]; f.Source != "uvicorn" || f.BadLines != 0 || !slices.EqualFunc(got, want, sameRow) {
		t.Errorf("coloured: source %q, %d records, %d bad lines %v; want the plain lines' %+v, got %+v", f.Source, len(got), f.BadLines, res.Problems, want, got)
	}
}

// TestJournaldByteMessage: journalctl -o json writes a MESSAGE that holds
// control bytes (a terminal's colours) or is not UTF-8 as the array of its
// bytes (systemd's JSON export format); such lines are read as the
// MESSAGE strings are.
func TestJournaldByteMessage(t *testing.T) {
	lines, want, wantRes := nginxFixture(t)
	var b strings.Builder
	for i, l := range lines {
		msg := []byte(l)
		fmt.Fprintf(&b, `{"__CURSOR":"s=1;i=%x","__REALTIME_TIMESTAMP":"1764468000%06d","_SYSTEMD_UNIT":"nginx.service","MESSAGE":`, i, i)
		if i%2 == 0 { // every other line as its bytes
			nums := make([]string, len(msg))
			for k, c := range msg {
				nums[k] = fmt.Sprint(c)
			}
			fmt.Fprintf(&b, "[%s]}\n", strings.Join(nums, ","))
		} else {
			q, _ := json.Marshal(l)
			fmt.Fprintf(&b, "%s}\n", q)
		}
	}
	jpath := filepath.Join(t.TempDir(), "journal.json")
	if err := os.WriteFile(jpath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{jpath}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Envelope != ingest.EnvJournald || f.BadLines != wantRes.Files[0].BadLines || len(got) != len(want) {
		t.Fatalf("envelope %q, %d records, %d bad lines %v; want journald, %d and %d", f.Envelope, len(got), f.BadLines, res.Problems, len(want), wantRes.Files[0].BadLines)
	}
	for i := range want {
		got[i].timeNS, want[i].timeNS = 0, 0 // the line's own time, or the journal's
		if !sameRow(got[i], want[i]) {
			t.Errorf("record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestDockerWithinLoki: Promtail without its docker stage ships a
// container's json-file records as they are: a Loki export's lines hold
// Docker records, which hold the access lines. They are read as the
// access lines alone, a stderr line bad.
func TestDockerWithinLoki(t *testing.T) {
	lines, want, wantRes := nginxFixture(t)
	var b strings.Builder
	wrap := func(i int, line, stream string) {
		docker, _ := json.Marshal(map[string]string{"log": line + "\n", "stream": stream, "time": fmt.Sprintf("2026-11-29T10:00:%02d.000000001Z", i)})
		loki, _ := json.Marshal(map[string]any{"labels": map[string]string{"job": "llm/nginx", "stream": stream},
			"line": string(docker), "timestamp": fmt.Sprintf("2026-11-29T10:00:%02d.000000001Z", i)})
		b.Write(append(loki, '\n'))
	}
	for i, l := range lines {
		wrap(i, l, "stdout")
	}
	wrap(59, `2026/11/29 10:00:59 [error] 29#29: *1 upstream timed out (110: Connection timed out)`, "stderr")
	lpath := filepath.Join(t.TempDir(), "loki.jsonl")
	if err := os.WriteFile(lpath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{lpath}, ingest.Options{Workers: 2, Location: time.UTC})
	f := res.Files[0]
	// nginx's error line on stderr is its own: passed over.
	if f.Envelope != ingest.EnvLoki || f.Source != wantRes.Files[0].Source || f.BadLines != wantRes.Files[0].BadLines ||
		f.PassedOver != wantRes.Files[0].PassedOver+1 || !slices.EqualFunc(got, want, sameRow) {
		t.Errorf("envelope %q, source %q, %d records, %d bad lines, %d passed over %v; want loki, %q, %d, %d and %d",
			f.Envelope, f.Source, len(got), f.BadLines, f.PassedOver, res.Problems, wantRes.Files[0].Source, len(want), wantRes.Files[0].BadLines, wantRes.Files[0].PassedOver+1)
	}
}

// TestApacheLTSV: Apache's access log in LTSV as alp documents it
// (LogFormat "time:%t\thost:%h\t…\treqtime_microsec:%D\tapptime:%D") has
// its times in microseconds: request_time and the upstream's are read so.
func TestApacheLTSV(t *testing.T) {
	micros := []int{1795693, 4210, 60001337}
	var b strings.Builder
	for i, us := range micros {
		fmt.Fprintf(&b, "time:[10/Mar/2025:08:00:%02d +0000]\thost:10.0.0.%d\tmethod:POST\tpath:/v1/chat/completions\tprotocol:HTTP/1.1\tstatus:200\tsize:12\treqtime_microsec:%d\tapptime:%d\n", i, i, us, us-100)
	}
	path := filepath.Join(t.TempDir(), "access.ltsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if f := res.Files[0]; f.Source != "apache-ltsv" || len(got) != len(micros) || f.BadLines != 0 {
		t.Fatalf("source %q, %d records, %d bad lines %v; want apache-ltsv, %d, 0", f.Source, len(got), f.BadLines, res.Problems, len(micros))
	}
	for i, us := range micros {
		if rt, urt := float64(us)/1e6, float64(us-100)/1e6; math.Abs(got[i].rt-rt) > 1e-9 || math.Abs(got[i].urt-urt) > 1e-9 {
			t.Errorf("record %d: request_time %v s, upstream %v s; want %v and %v", i, got[i].rt, got[i].urt, rt, urt)
		}
	}
}

// nginxFixture returns the lines of an nginx fixture and its records and
// result read alone: what the same lines in an envelope must give.
func nginxFixture(t *testing.T) ([]string, []row, *ingest.Result) {
	t.Helper()
	path := filepath.Join("testdata", "text", "nginx-main-times.log")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n"), want, res
}

// TestCopytruncateHole: a log that logrotate's copytruncate left with a
// hole of NUL bytes where its writer went on at its old offset (at its
// start, or after lines written since) is read as the log without the
// hole: the same records, no bad line, not "binary content".
func TestCopytruncateHole(t *testing.T) {
	plain := filepath.Join("testdata", "text", "nginx-combined-rt.log")
	want, wantRes := collect(t, []string{plain}, ingest.Options{Workers: 1, Location: time.UTC})
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	hole := strings.Repeat("\x00", 8192)
	for name, content := range map[string]string{
		"at its start":        hole + string(data),
		"one NUL":             "\x00" + string(data),
		"after two lines":     strings.Join(lines[:2], "") + hole + strings.Join(lines[2:], ""),
		"past the first peek": strings.Repeat("\x00", 200<<10) + string(data),
	} {
		path := writeTemp(t, "access.log", content)
		got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
		f, wf := res.Files[0], wantRes.Files[0]
		if f.Records != wf.Records || f.BadLines != wf.BadLines || f.Source != wf.Source || f.Incomplete || !slices.EqualFunc(got, want, sameRow) {
			t.Errorf("%s: %+v; want the log's own %d records, %d bad lines, source %s", name, f, wf.Records, wf.BadLines, wf.Source)
		}
	}
}

// TestNULsAlone: zeros where lines were are no empty log: a file of NUL
// bytes alone (what a crash leaves of a log allocated but not written)
// is not read and says so, and a line of them between others is a bad
// line with its number, the lines around it read.
func TestNULsAlone(t *testing.T) {
	_, res := collect(t, []string{writeTemp(t, "access.log", strings.Repeat("\x00", 5000))}, ingest.Options{Workers: 2, Location: time.UTC})
	if f := res.Files[0]; !f.Incomplete || !strings.Contains(f.Reason, "NUL bytes only (5000)") || f.Records != 0 {
		t.Errorf("a file of 5000 NUL bytes: %+v; want it not read, its reason the NULs", f)
	}
	// A tar archive of no file is its end alone, 10240 zeros: empty.
	_, res = collect(t, []string{writeTemp(t, "logs.tar", strings.Repeat("\x00", 10240))}, ingest.Options{Workers: 2, Location: time.UTC})
	if f := res.Files[0]; f.Incomplete || f.Records != 0 || f.BadLines != 0 {
		t.Errorf("a tar archive of no file: %+v; want it empty", f)
	}
	plain := filepath.Join("testdata", "text", "nginx-combined-rt.log")
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	holed := strings.Join(lines[:2], "") + strings.Repeat("\x00", 300) + "\n" + strings.Join(lines[2:], "") + "\n"
	got, res := collect(t, []string{writeTemp(t, "access.log", holed)}, ingest.Options{Workers: 2, Location: time.UTC})
	f := res.Files[0]
	if len(got) != len(lines) || f.BadLines != 1 || len(res.Problems) != 1 || res.Problems[0].Line != 3 || !strings.Contains(res.Problems[0].Reason, "NUL bytes only") {
		t.Errorf("%d lines and a line of NULs third: %d records, %d bad lines %+v; want %d records and line 3 bad", len(lines), len(got), f.BadLines, res.Problems, len(lines))
	}
}

// TestTrailingSpaces: spaces and tabs after a text log's lines are none
// of their values: a log read with its format given, which must read a
// line to its end, reads the same records with them as without.
func TestTrailingSpaces(t *testing.T) {
	const format = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for" $request_time $upstream_response_time`
	plain := filepath.Join("testdata", "text", "nginx-main-times.log")
	opts := ingest.Options{Workers: 1, Location: time.UTC, LogFormats: []string{format}}
	want, wantRes := collect(t, []string{plain}, opts)
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	padded := strings.ReplaceAll(string(data), "\n", " \t \n")
	got, res := collect(t, []string{writeTemp(t, "padded.log", padded)}, opts)
	if len(want) == 0 || res.BadLines() != wantRes.BadLines() || !slices.EqualFunc(got, want, sameRow) {
		t.Errorf("padded: %d records, %d bad lines %v; want %d, %d", len(got), res.BadLines(), res.Problems, len(want), wantRes.BadLines())
	}
}
