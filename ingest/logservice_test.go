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

// TestCSVFilledNames chooses a CSV file's client from the columns its
// first rows fill, as a JSON line's keys: an ingress log's remote_user,
// "-" in every row, names no client (its caller's address does), and a
// one-api export whose first row is a channel test, its token_name empty,
// takes its calls' token_name.
func TestCSVFilledNames(t *testing.T) {
	dir := t.TempDir()
	ingress := "__time__,__source__,client_ip,remote_user,request_time,status\n" +
		"1795917600,192.168.0.11,203.0.113.7,-,0.120,200\n" +
		"1795917601,192.168.0.11,203.0.113.8,-,0.340,502\n"
	oneapi := "id,created_at,type,content,username,token_name,model_name,elapsed_time,is_stream\n" +
		"1,1795917600,5,channel test,bob,,gpt-4o,0,0\n" +
		"2,1795917601,2,call,bob,prod-key-a,gpt-4o,4706,1\n" +
		"3,1795917602,2,call,alice,prod-key-b,gpt-4o,1200,0\n"
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"ingress.csv", ingress, []string{"203.0.113.7", "203.0.113.8"}},
		{"oneapi.csv", oneapi, []string{"prod-key-a", "prod-key-b"}},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(got) != len(c.want) || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %v", c.name, len(got), res.Problems)
		}
		for i, w := range c.want {
			if got[i].client != w {
				t.Errorf("%s: record %d: client %q, want %q", c.name, i, got[i].client, w)
			}
		}
	}
}
