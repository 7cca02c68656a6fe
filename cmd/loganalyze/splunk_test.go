package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplunkExport: an nginx access log exported from Splunk with
// services/search/jobs/export?output_mode=json reads as the log alone,
// the export's last line without a result neither a record nor a bad
// line, and the reports name the wrapper: "envelope":"splunk" in the
// JSON, "nginx (splunk)" in the Markdown's format column.
func TestSplunkExport(t *testing.T) {
	src := "../../testdata/shared/examples/tokenhub-sample-nginx.log"
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	for i, l := range lines {
		r, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		last := ""
		if i == len(lines)-1 {
			last = `"lastrow":true,`
		}
		fmt.Fprintf(&b, `{"preview":false,"offset":%d,%s"result":{"_raw":%s,"_time":"2026-12-04T10:00:00.000+08:00","host":"gw-1","sourcetype":"nginx:plus:kv"}}`+"\n", i, last, r)
	}
	b.WriteString(`{"preview":false,"lastrow":true}` + "\n")
	path := filepath.Join(t.TempDir(), "splunk.json")
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
				BadLines int64  `json:"bad_lines"`
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
	if f.Format != "nginx" || f.Envelope != "splunk" || f.Records != f0.Records || f.BadLines != f0.BadLines {
		t.Fatalf("in splunk: %+v, alone %+v", f, f0)
	}
	code, md, errs := runCLI(t, "--tz", "Asia/Shanghai", "--md", "-", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(md, "nginx (splunk)") {
		t.Errorf("the Markdown report does not name the format nginx (splunk):\n%s", md)
	}
}
