package ingest_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestLogServiceNames reads records as Alibaba Cloud SLS keeps them: the
// caller in client_ip, the host the agent read the log on in __source__,
// the log's time in __time__ (epoch s). The caller is the client, and
// __time__ the time of a record that has no other.
func TestLogServiceNames(t *testing.T) {
	text := `{"__time__":"1795917600","__source__":"192.168.0.11","__topic__":"","client_ip":"203.0.113.7","request_time":"0.120","status":"200"}` + "\n" +
		`{"__time__":"1795917601","__source__":"192.168.0.12","__topic__":"","client_ip":"203.0.113.8","request_time":"0.340","status":"502"}` + "\n"
	path := filepath.Join(t.TempDir(), "sls.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 2 || res.BadLines() != 0 {
		t.Fatalf("%d records, %v", len(got), res.Problems)
	}
	for i, want := range []struct {
		client string
		ns     int64
	}{{"203.0.113.7", 1795917600e9}, {"203.0.113.8", 1795917601e9}} {
		if g := got[i]; g.client != want.client || g.remoteAddr != want.client || !g.hasTime || g.timeNS != want.ns {
			t.Errorf("record %d: client %q, remote_addr %q, time %v %d; want %q, %d", i, g.client, g.remoteAddr, g.hasTime, g.timeNS, want.client, want.ns)
		}
	}
}
