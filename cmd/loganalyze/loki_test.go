package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLokiExport: an nginx access log exported from Grafana Loki with
// logcli query --output=jsonl reads as the log alone, and the reports
// name the wrapper: "envelope":"loki" in the JSON, "nginx (loki)" in
// the Markdown's format column.
func TestLokiExport(t *testing.T) {
	src := "../../testdata/shared/examples/tokenhub-sample-nginx.log"
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	for _, l := range lines {
		j, err := json.Marshal(map[string]any{"labels": map[string]string{"job": "nginx"}, "line": l, "timestamp": "2026-12-04T10:00:00.123456789Z"})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	path := filepath.Join(t.TempDir(), "loki.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	type files struct {
		Input struct {
			Records int64 `json:"records"`
			Files   []struct {
				Format   string `json:"format"`
				Envelope string `json:"envelope"`
				Records  int64  `json:"records"`
			}
		}
	}
	read := func(path string) files {
		t.Helper()
		code, out, errs := runCLI(t, "--tz", "Asia/Shanghai", "--json", "-", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", path, code, errs)
		}
		var rep files
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Input.Files) != 1 {
			t.Fatalf("%s: files %+v", path, rep.Input.Files)
		}
		return rep
	}
	alone, got := read(src), read(path)
	f0, f := alone.Input.Files[0], got.Input.Files[0]
	if f0.Format != "nginx" || f0.Envelope != "" || f0.Records == 0 {
		t.Fatalf("alone: %+v", f0)
	}
	if f.Format != "nginx" || f.Envelope != "loki" || f.Records != f0.Records {
		t.Fatalf("in loki: %+v, alone %+v", f, f0)
	}
	code, md, errs := runCLI(t, "--tz", "Asia/Shanghai", "--md", "-", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(md, "nginx (loki)") {
		t.Errorf("the Markdown report does not name the format nginx (loki):\n%s", md)
	}
}
