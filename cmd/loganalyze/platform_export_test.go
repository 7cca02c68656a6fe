package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlatformExports: an nginx access log exported from a log platform
// reads as the log alone (the same records and bad lines), and the
// reports name the wrapper: "envelope" in the JSON, "nginx (NAME)" in
// the Markdown's format column. Grafana Loki's logcli query
// --output=jsonl; Splunk's services/search/jobs/export?output_mode=json,
// whose last line without a result is neither a record nor a bad line.
func TestPlatformExports(t *testing.T) {
	src := "../../testdata/shared/examples/tokenhub-sample-nginx.log"
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	quote := func(s string) string {
		q, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return string(q)
	}
	for _, c := range []struct {
		envelope string
		wrap     func(i int, line string) string
		end      string // the export's last line
	}{
		{"loki", func(_ int, l string) string {
			return `{"labels":{"job":"nginx"},"line":` + quote(l) + `,"timestamp":"2026-12-04T10:00:00.123456789Z"}`
		}, ""},
		{"splunk", func(i int, l string) string {
			last := ""
			if i == len(lines)-1 {
				last = `"lastrow":true,`
			}
			return fmt.Sprintf(`{"preview":false,"offset":%d,%s"result":{"_raw":%s,"_time":"2026-12-04T10:00:00.000+08:00","host":"gw-1","sourcetype":"nginx:plus:kv"}}`, i, last, quote(l))
		}, `{"preview":false,"lastrow":true}`},
	} {
		var b strings.Builder
		for i, l := range lines {
			b.WriteString(c.wrap(i, l) + "\n")
		}
		if c.end != "" {
			b.WriteString(c.end + "\n")
		}
		path := filepath.Join(t.TempDir(), c.envelope+".json")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		alone, got := readFileStats(t, src), readFileStats(t, path)
		if alone.Format != "nginx" || alone.Envelope != "" || alone.Records == 0 {
			t.Fatalf("alone: %+v", alone)
		}
		if got.Format != "nginx" || got.Envelope != c.envelope || got.Records != alone.Records || got.BadLines != alone.BadLines {
			t.Errorf("in %s: %+v, alone %+v", c.envelope, got, alone)
		}
		code, md, errs := runCLI(t, "--tz", "Asia/Shanghai", "--md", "-", path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if want := "nginx (" + c.envelope + ")"; !strings.Contains(md, want) {
			t.Errorf("the Markdown report does not name the format %s:\n%s", want, md)
		}
	}
}

// exportedFile is what the JSON report says of its one input file.
type exportedFile struct {
	Format   string `json:"format"`
	Envelope string `json:"envelope"`
	Records  int64  `json:"records"`
	BadLines int64  `json:"bad_lines"`
}

// readFileStats runs the command on path and returns its report's file.
func readFileStats(t *testing.T, path string) exportedFile {
	t.Helper()
	code, out, errs := runCLI(t, "--tz", "Asia/Shanghai", "--json", "-", path)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", path, code, errs)
	}
	var rep struct {
		Input struct{ Files []exportedFile }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Input.Files) != 1 {
		t.Fatalf("%s: files %+v", path, rep.Input.Files)
	}
	return rep.Input.Files[0]
}
