package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes a test input and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// randomBytes are n seeded random bytes.
func randomBytes(n int) []byte {
	rng := rand.New(rand.NewPCG(3, 5))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// pngBytes is the start of a real PNG: signature, IHDR of a 16×16 RGBA
// image with its CRC, and the start of an IDAT chunk.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa\x00\x00\x00\x19IDATx\x9cc`\xa0\x1a\x00\x00")

// goSources is a directory of Go source files.
func goSources(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, src, "main.go", []byte("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n"))
	writeFile(t, src, "util.go", []byte("package main\n\n// twice doubles n.\nfunc twice(n int) int { return 2 * n }\n"))
	return src
}

// jsonVerdict reads the verdict and its reason from a JSON report file.
func jsonVerdict(t *testing.T, path string) (verdict, reason string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no JSON report: %v", err)
	}
	var rep struct {
		Verdict string `json:"verdict"`
		Reason  struct {
			Text string `json:"text"`
		} `json:"verdict_reason"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return rep.Verdict, rep.Reason.Text
}

// TestNeverOKAboutWhatWasNotRead is the exit-code matrix of input that
// could not be read, or that has no latency field.
func TestNeverOKAboutWhatWasNotRead(t *testing.T) {
	dir := t.TempDir()
	random := writeFile(t, dir, "random.bin", randomBytes(4096))
	png := writeFile(t, dir, "x.png", pngBytes)
	src := goSources(t, dir)
	empty := writeFile(t, dir, "empty.log", nil)
	emptyParquet := writeFile(t, dir, "empty.parquet", nil)
	emptyArrow := writeFile(t, dir, "empty.arrow", nil)
	blank := writeFile(t, dir, "blank.log", []byte("\n  \n\t\n"))
	combined := writeFile(t, dir, "access.log", []byte(
		`10.0.0.1 - - [29/Nov/2026:10:00:00 +0800] "POST /v1/chat/completions HTTP/1.1" 200 512 "-" "curl/8"`+"\n"+
			`10.0.0.2 - - [29/Nov/2026:10:00:01 +0800] "POST /v1/chat/completions HTTP/1.1" 502 0 "-" "curl/8"`+"\n"))
	good := samples[0] + "tokenhub-1.jsonl"

	for _, c := range []struct {
		name    string
		args    []string
		code    int
		verdict string
		stderr  []string // each must appear
		reason  string   // in verdict_reason.text
	}{
		{"random bytes", []string{random}, 1, "no_data", []string{`"` + random + `": no record read: `}, "no record was read"},
		{"random bytes, fail-on warn", []string{"--fail-on", "warn", random}, 1, "no_data", []string{`"` + random + `": no record read`}, ""},
		{"png", []string{png}, 1, "no_data", []string{`"` + png + `": no record read: `}, "x.png"},
		{"png, fail-on warn", []string{"--fail-on", "warn", png}, 1, "no_data", []string{`"` + png + `": no record read`}, ""},
		{"go sources", []string{src}, 1, "no_data", []string{`main.go": no record read`, `util.go": no record read`}, "--log-format"},
		{"empty file", []string{empty}, 0, "no_data", nil, "empty.log: empty"},
		{"empty file, fail-on warn", []string{"--fail-on", "warn", empty}, 3, "no_data", nil, ""},
		{"empty file, fail-on crit", []string{"--fail-on", "crit", empty}, 0, "no_data", nil, ""},
		{"blank lines", []string{"--fail-on", "warn", blank}, 3, "no_data", nil, "blank.log: empty"},
		{"empty parquet and arrow files", []string{emptyParquet, emptyArrow}, 0, "no_data", nil, "empty.parquet: empty"},
		{"no latency field", []string{combined}, 0, "no_data", nil, "No record carries request_time; 2 records in the window carry"},
		{"no latency field, fail-on warn", []string{"--fail-on", "warn", combined}, 3, "no_data", nil, "--log-format"},
		// Nothing to fix in what was read, but never OK about what was
		// not: warn, for a script that reads the verdict alone.
		{"one unread file among good ones", []string{good, png}, 1, "warn", []string{`"` + png + `": no record read`}, ""},
		{"unread baseline", []string{"--baseline", random, good}, 1, "ok", []string{`"` + random + `": no record read`}, ""},
		{"good input", []string{"--fail-on", "warn", good}, 0, "ok", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			js, md := filepath.Join(out, "r.json"), filepath.Join(out, "r.md")
			html, prom := filepath.Join(out, "r.html"), filepath.Join(out, "r.prom")
			code, stdout, errs := runCLI(t, append([]string{"--tz", "Asia/Shanghai", "--json", js, "--md", md, "--html", html, "--prom", prom}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, errs)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			for _, want := range c.stderr {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errs)
				}
			}
			for _, line := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
				if errs != "" && !strings.HasPrefix(line, "loganalyze: ") {
					t.Errorf("stderr line %q", line)
				}
			}
			for _, p := range []string{html, prom} {
				if st, err := os.Stat(p); err != nil || st.Size() == 0 {
					t.Errorf("report %s not written: %v", p, err)
				}
			}
			if len(c.stderr) == 0 && errs != "" {
				t.Errorf("stderr %q, want nothing", errs)
			}
			verdict, reason := jsonVerdict(t, js)
			if verdict != c.verdict || !strings.Contains(reason, c.reason) {
				t.Errorf("verdict %q (%q), want %q with %q", verdict, reason, c.verdict, c.reason)
			}
			m, err := os.ReadFile(md)
			if err != nil {
				t.Fatalf("no Markdown report: %v", err)
			}
			first, _, _ := strings.Cut(string(m), "\n")
			if noData := strings.Contains(first, "NO DATA") && strings.Contains(first, "`request_time`"); noData != (c.verdict == "no_data") {
				t.Errorf("Markdown first line %q for verdict %s", first, c.verdict)
			}
		})
	}
}
