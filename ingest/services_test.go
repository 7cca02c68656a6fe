package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loganalyze/ingest"
)

// TestServicesDump: a docker compose logs dump of a stack (a proxy's,
// a gateway's and a model server's lines interleaved, the gateway in two
// replicas) and kubectl logs --prefix --all-containers of a pod (an
// Envoy sidecar's JSON beside the application's text) are read as a
// file of each service's lines, each as its own file is: the same
// records, format, source, bad lines and lines passed over, a bad line
// numbered as the dump's. Before, the most common format's lines were
// read and the others were bad lines: 4 records and 56 bad lines of the
// compose dump's 15 records.
func TestServicesDump(t *testing.T) {
	type part struct {
		name, file string
		prefix     func(i int) string
	}
	compose := []part{
		{"litellm", "uvicorn.log", func(i int) string { return fmt.Sprintf("litellm-%d  | ", 1+i%2) }},
		{"envoy", "envoy-default.log", func(int) string { return "envoy-1    | " }},
		{"ollama", "gin-ollama-serve.log", func(int) string { return "\x1b[33mollama-1   |\x1b[0m " }},
	}
	pod := []part{
		{"app", "uvicorn-vllm-router.log", func(int) string { return "[pod/gw-7d9f/app] " }},
		{"istio-proxy", "../sources/envoy.json", func(int) string { return "[pod/gw-7d9f/istio-proxy] " }},
	}
	for _, dump := range [][]part{compose, pod} {
		var b strings.Builder
		var lines [][]string
		for _, p := range dump {
			raw, err := os.ReadFile(filepath.Join("testdata/text", p.file))
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n"))
		}
		// Interleaved a line of each at a time, each line's number in
		// the dump kept: where each file's i-th line went.
		at := make([][]int, len(dump))
		n := 0
		for i := 0; ; i++ {
			more := false
			for k, p := range dump {
				if i < len(lines[k]) {
					b.WriteString(p.prefix(i) + lines[k][i] + "\n")
					n++
					at[k] = append(at[k], n)
					more = true
				}
			}
			if !more {
				break
			}
		}
		path := filepath.Join(t.TempDir(), "stack.log")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, stdin := range []bool{false, true} {
			opts := ingest.Options{Workers: 2, MaxProblems: 100}
			paths := []string{path}
			if stdin {
				opts.Stdin, paths = strings.NewReader(b.String()), []string{"-"}
			}
			got, res := collect(t, paths, opts)
			var want []row
			if len(res.Files) != len(dump) {
				t.Fatalf("stdin %v: %d files listed, want one of each of %d services: %+v", stdin, len(res.Files), len(dump), res.Files)
			}
			for k, p := range dump {
				own := filepath.Join("testdata/text", p.file)
				rows, wres := collect(t, []string{own}, ingest.Options{Workers: 1, MaxProblems: 100})
				want = append(want, rows...)
				f, wf := res.Files[k], wres.Files[0]
				if f.Path != paths[0]+"!/"+p.name || f.Format != wf.Format || f.Source != wf.Source || f.Records != wf.Records ||
					f.BadLines != wf.BadLines || f.PassedOver != wf.PassedOver || wf.Records == 0 {
					t.Errorf("stdin %v: %s: %+v\nwant as its own file: %+v", stdin, p.name, f, wf)
				}
				// Each bad line is numbered as the dump's line it is.
				var gotLines, wantLines []int64
				for _, pr := range res.Problems {
					if pr.File == f.Path {
						gotLines = append(gotLines, pr.Line)
					}
				}
				for _, pr := range wres.Problems {
					wantLines = append(wantLines, int64(at[k][pr.Line-1]))
				}
				if !slices.Equal(gotLines, wantLines) {
					t.Errorf("stdin %v: %s: bad lines at %v, want %v", stdin, p.name, gotLines, wantLines)
				}
			}
			str := func(rs []row) []string {
				var out []string
				for _, r := range rs {
					out = append(out, fmt.Sprintf("%+v", r))
				}
				slices.Sort(out)
				return out
			}
			if g, w := str(got), str(want); !slices.Equal(g, w) {
				t.Errorf("stdin %v: records\n%v\nwant each service's own file's\n%v", stdin, g, w)
			}
		}
	}
}

// TestServicesDumpLarge: a dump larger than the bound split in memory is
// read as one file, as before, its most common format's lines read.
func TestServicesDumpLarge(t *testing.T) {
	defer ingest.SetMaxServicesDump(ingest.SetMaxServicesDump(64))
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "litellm-1  | INFO:     10.0.0.5:5123%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n", i%10)
		b.WriteString("redis-1    | 1:M 05 Dec 2026 10:00:00.000 * Ready to accept connections tcp\n")
	}
	path := filepath.Join(t.TempDir(), "stack.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1})
	if len(res.Files) != 1 || res.Files[0].Path != path || len(got) != 20 || res.Files[0].BadLines+res.Files[0].PassedOver != 20 {
		t.Errorf("%d records, files %+v; want the dump as one file, 20 records and redis's 20 lines bad or passed over", len(got), res.Files)
	}
}
