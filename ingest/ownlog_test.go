package ingest_test

import (
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
// (the same source, the same records), the server's lines counted bad.
func TestServerLinesBeforeAccessLog(t *testing.T) {
	traefikStart := strings.Repeat("2025-03-10T08:00:00Z INF Traefik version 3.0.0-rc3 built on 2024-03-13T15:49:38Z version=3.0.0-rc3\n", 1) +
		strings.Repeat("2025-03-10T08:00:00Z INF Stats collection is enabled.\n", 4) +
		strings.Repeat("2025-03-10T08:00:00Z INF Starting provider *crd.Provider\n", 8)
	pilot := strings.Repeat("2025-03-10T07:59:58.123456Z\tinfo\tFLAG: --concurrency=\"2\"\n", 40) +
		"2025-03-10T07:59:58.200000Z\tinfo\tProxy role\tips=[10.244.0.11] type=sidecar\n"
	notices := "2025/03/10 08:00:00 [notice] 1#0: using the \"epoll\" event method\n" +
		"2025/03/10 08:00:00 [notice] 1#0: openresty/1.25.3.1\n" +
		"2025/03/10 08:00:00 [notice] 1#0: OS: Linux 6.5.0-35-generic\n"
	ownJSON := `{"level":"info","msg":"Configuration loaded from file: /etc/traefik/traefik.yml","time":"2025-03-10T08:00:00Z"}` + "\n"
	for _, c := range []struct {
		name, fixture, before, among string
		own                          int // the server's lines added
	}{
		{"traefik text", "text/traefik-clf.log", traefikStart, "", 13},
		{"istio text", "text/istio-text.log", pilot, "", 41},
		{"kong json", "sources/kong.json", notices, "", 3},
		{"traefik json", "sources/traefik.json", ownJSON, ownJSON, 2},
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
			if f.BadLines != wf.BadLines+int64(c.own) {
				t.Errorf("%d bad lines, want %d: %v", f.BadLines, wf.BadLines+int64(c.own), res.Problems)
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
