package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeaderlessSpacesTabsHint: rows CLS shipped to COS without their
// keys, cut by spaces or tabs (a user agent holding "; " twice), in a
// file named .csv, or cut by tabs whatever its name, read nothing, and
// the report's first hint is --csv-header, naming the file; given the
// names as the rows cut them, every row is read, a file named by its
// time alone cut by spaces too.
func TestHeaderlessSpacesTabsHint(t *testing.T) {
	names := []string{"__TIMESTAMP__", "app_id", "remote_addr", "request", "stream", "status", "request_time", "first_token_ms", "bytes_sent", "http_user_agent"}
	rows := [][]string{
		{"1796277615426", "app-005", "10.10.89.80", "POST /v1/chat/completions HTTP/1.1", "true", "200", "1.054", "911.0", "2352", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36"},
		{"1796277628945", "app-017", "10.13.19.116", "POST /v1/chat/completions HTTP/1.1", "false", "429", "0.002", "-", "3217", "tencentcloud-sdk-go/1.0.1012"},
		{"1796277635283", "app-006", "10.12.144.198", "POST /v1/embeddings HTTP/1.1", "false", "502", "0.199", "-", "6591", "-"},
	}
	dir := t.TempDir()
	for _, c := range []struct{ name, sep string }{
		{"cos.csv", " "}, {"202612031500_000_1", " "}, {"cos-tab.csv", "\t"}, {"202612031500_000_2", "\t"},
	} {
		var b strings.Builder
		for _, r := range rows {
			for i, v := range r {
				if i > 0 {
					b.WriteString(c.sep)
				}
				if strings.Contains(v, c.sep) {
					v = `"` + v + `"`
				}
				b.WriteString(v)
			}
			b.WriteString("\n")
		}
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Input struct {
				Records int64 `json:"records"`
			} `json:"input"`
			Status        map[string]int64 `json:"status"`
			VerdictReason struct {
				Hints []struct{ Flag, Why string } `json:"hints"`
			} `json:"verdict_reason"`
		}
		_, out, _ := runCLI(t, "--json", "-", path)
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if h := rep.VerdictReason.Hints; (c.sep == "\t" || strings.HasSuffix(c.name, ".csv")) &&
			(len(h) == 0 || h[0].Flag != "--csv-header" || !strings.Contains(h[0].Why, c.name+" has no header row")) {
			t.Errorf("%s cut by %q: hints %+v; want --csv-header first, naming the file", c.name, c.sep, h)
		}
		rep.Status = nil
		_, out, _ = runCLI(t, "--json", "-", "--csv-header", strings.Join(names, c.sep), path)
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Input.Records != int64(len(rows)) || rep.Status["200"] != 1 || rep.Status["429"] != 1 || rep.Status["502"] != 1 {
			t.Errorf("%s cut by %q, --csv-header: %d records, statuses %v; want 3, one each of 200, 429, 502", c.name, c.sep, rep.Input.Records, rep.Status)
		}
	}
}
