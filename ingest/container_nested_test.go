package ingest_test

import (
	"bytes"
	"cmp"
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

// TestContainerNestedLogs: a program's log read from a container
// runtime's files (containerd's CRI lines, Docker's json-file) gives the
// records its own file gives. The program's first lines are its own
// (agentgateway's, one-hub's, FastChat's start-up), no format is told
// from them; zap's console lines (one-hub's, ginzap's development
// logger) are a time, a level and a caller before their JSON; Ray
// Serve's and python-json-logger's records hold the access line in
// their message. Before, each such file read nothing inside the
// container's lines.
func TestContainerNestedLogs(t *testing.T) {
	for _, name := range []string{"agentgateway.log", "one-hub.log", "ginzap-development.log", "ray-serve-json.log",
		"ray-serve-json-29.log", "uvicorn-fastchat.log", "uvicorn-vllm-router-json.log"} {
		path := filepath.Join("testdata", "text", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(want) == 0 {
			t.Fatalf("%s: no record in the file itself", name)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		var cri, docker bytes.Buffer
		for i, l := range lines {
			at := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)
			fmt.Fprintf(&cri, "%s stdout F %s\n", at, l)
			j, err := json.Marshal(map[string]string{"log": l + "\n", "stream": "stdout", "time": at})
			if err != nil {
				t.Fatal(err)
			}
			docker.Write(append(j, '\n'))
		}
		for env, text := range map[string]string{"cri": cri.String(), "docker": docker.String()} {
			checkAsFile(t, name, env, text, want)
		}
	}
}

// checkAsFile checks that text, the lines of fixture name wrapped as env
// writes them, gives the records want that the fixture's own file gives:
// their statuses, request times, and times where the file has them.
func checkAsFile(t *testing.T, name, env, text string, want []row) {
	t.Helper()
	got, res := collect(t, []string{writeTemp(t, name, text)}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != len(want) {
		t.Errorf("%s in %s: %d records, %d bad lines; want %d as in its file", name, env, len(got), res.BadLines(), len(want))
		return
	}
	// Records without a time of their own are dated by the wrapper's,
	// which may order them otherwise: compared in the order of their
	// status and request time.
	if !want[0].hasTime {
		byValues := func(a, b row) int {
			return cmp.Or(cmp.Compare(a.status, b.status), cmp.Compare(a.rt, b.rt))
		}
		got, want = slices.Clone(got), slices.Clone(want)
		slices.SortStableFunc(got, byValues)
		slices.SortStableFunc(want, byValues)
	}
	for i, g := range got {
		w := want[i]
		if g.status != w.status || math.IsNaN(g.rt) != math.IsNaN(w.rt) || !math.IsNaN(w.rt) && g.rt != w.rt || w.hasTime && g.timeNS != w.timeNS {
			t.Errorf("%s in %s: record %d status %d, request_time %v, time %d; want %d, %v, %d", name, env, i, g.status, g.rt, g.timeNS, w.status, w.rt, w.timeNS)
			return
		}
	}
}

// TestKubectlTimestamps: a program's text log as kubectl logs
// --timestamps prints it, each line behind an RFC 3339 time and a space,
// gives the records its own file gives, whatever its lines begin with
// (uvicorn's "INFO:", Rails' "I, [", tracing's own time). Before, only
// lines beginning with '[' or a digit were looked for behind the time.
func TestKubectlTimestamps(t *testing.T) {
	for _, name := range []string{"uvicorn.log", "uvicorn-vllm-router.log", "tower-http.log", "tensorzero-debug.log", "smg.log",
		"rails-tagged.log", "phoenix-console.log", "llama-server.log", "morgan-dev.log", "morgan-tiny.log", "ray-serve.log", "fiber-classic.log"} {
		path := filepath.Join("testdata", "text", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(want) == 0 {
			t.Fatalf("%s: no record in the file itself", name)
		}
		var b strings.Builder
		for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			at := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
			fmt.Fprintf(&b, "%s %s\n", at.Format("2006-01-02T15:04:05.000000000Z"), l)
		}
		checkAsFile(t, name, "kubectl --timestamps", b.String(), want)
	}
}

// TestKubectlTimestampsJSON: an Envoy sidecar's pod log, pilot-agent's
// own lines ("time<TAB>level<TAB>message") before Envoy's JSON access
// lines, as kubectl logs --timestamps prints it, gives the records of
// the pod's log as it is. Before, the lines behind the times were read
// as a TSV of no known field.
func TestKubectlTimestampsJSON(t *testing.T) {
	var plain, stamped strings.Builder
	own := []string{"info\tFLAG: --concurrency=\"2\"", "info\tVersion 1.24.3", "info\tEnvoy proxy is ready"}
	for i, o := range own {
		fmt.Fprintf(&plain, "2025-03-10T15:59:5%d.339682Z\t%s\n", i, o)
	}
	for i := range 6 {
		fmt.Fprintf(&plain, `{"start_time":"2025-03-10T16:00:%02d.000Z","method":"POST","path":"/v1/chat/completions","response_code":%d,"duration":%d,"upstream_service_time":"%d"}`+"\n",
			i, []int{200, 200, 429, 200, 503, 200}[i], 200+i*37, 190+i*37)
	}
	lines := strings.Split(strings.TrimSuffix(plain.String(), "\n"), "\n")
	for i, l := range lines {
		fmt.Fprintf(&stamped, "2026-12-05T10:00:%02d.%09dZ %s\n", i, i, l)
	}
	want, _ := collect(t, []string{writeTemp(t, "istio-proxy.log", plain.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(want) != 6 {
		t.Fatalf("the pod's log itself: %d records, want 6", len(want))
	}
	checkAsFile(t, "istio-proxy.log", "kubectl --timestamps", stamped.String(), want)
}
