package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loganalyze/ingest"
)

// TestLongOwnHead: a model server's log whose start-up lines (its
// weights' loading) fill more than the head a format is told from,
// before its first access line (NIM's uvicorn lines behind its Python
// logger's), is read as its access lines: each request a record, the
// start-up lines passed over, a bad line among the requests numbered as
// the file's line. Before, the format was told from start-up lines
// alone: none of the known formats, and no record read.
func TestLongOwnHead(t *testing.T) {
	var b strings.Builder
	const own = 20000 // about 2.6 MB: blocks of their own, and a file mapped where that is faster
	for i := range own {
		fmt.Fprintf(&b, "INFO 2025-09-05 09:%02d:%02d.%03d model_loader.py:%d] Loading safetensors checkpoint shard %d of %d: weights ready\n",
			i/60%60, i%60, i%1000, 100+i%50, i, own)
	}
	statuses := []int{200, 200, 429, 500, 200, 200}
	badAt := 0
	for i, st := range statuses {
		fmt.Fprintf(&b, "INFO 2025-09-05 10:00:%02d.951 httptools_impl.py:481] 10.0.3.%d:5980%d - \"POST /v1/chat/completions HTTP/1.1\" %d\n", i, 17+i, i, st)
		if i == 2 {
			b.WriteString("\x00\x01 not a line of any format's\n")
			badAt = own + i + 2
		}
	}
	path := filepath.Join(t.TempDir(), "nim.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, stdin := range []bool{false, true} {
		opts, paths := ingest.Options{Workers: 2, MaxProblems: 10}, []string{path}
		if stdin {
			opts.Stdin, paths = strings.NewReader(b.String()), []string{"-"}
		}
		got, res := collect(t, paths, opts)
		f := res.Files[0]
		if f.Source != "uvicorn" || len(got) != len(statuses) || f.PassedOver != own || f.BadLines != 1 ||
			len(res.Problems) != 1 || res.Problems[0].Line != int64(badAt) {
			t.Fatalf("stdin %v: %d records, %+v, problems %v; want %d records, %d passed over, a bad line at %d",
				stdin, len(got), f, res.Problems, len(statuses), own, badAt)
		}
		for i, r := range got {
			if r.status != int64(statuses[i]) || r.client != fmt.Sprintf("10.0.3.%d", 17+i) {
				t.Errorf("stdin %v: record %d: status %d, client %q; want %d, 10.0.3.%d", stdin, i, r.status, r.client, statuses[i], 17+i)
			}
		}
	}
}

// TestLongOwnHeadBehindKubectl: the same log behind kubectl's times, its
// start-up lines of 128 bytes each, so that the first 64 KB end at a line's
// end: the reading planned on the first lines (to tell whether the lines
// within read better) counts no line, and each start-up line is passed
// over once.
func TestLongOwnHeadBehindKubectl(t *testing.T) {
	var b strings.Builder
	const own = 3000
	for i := range own {
		l := fmt.Sprintf("2026-12-05T10:00:00Z INFO 2025-09-05 09:%02d:%02d.000 loader.py:1] shard %d", i/60%60, i%60, i)
		b.WriteString(l + strings.Repeat(" ", 127-len(l)) + "\n")
		if b.Len() != 128*(i+1) {
			t.Fatalf("line %d is not 64 bytes", i)
		}
	}
	statuses := []int{200, 429, 500}
	for i, st := range statuses {
		fmt.Fprintf(&b, "2026-12-05T10:00:0%dZ INFO 2025-09-05 10:00:%02d.951 httptools_impl.py:481] 10.0.3.%d:5980 - \"POST /v1/chat/completions HTTP/1.1\" %d\n", i, i, 17+i, st)
	}
	path := filepath.Join(t.TempDir(), "nim.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, MaxProblems: 10})
	f := res.Files[0]
	if len(got) != len(statuses) || f.PassedOver != own || f.BadLines != 0 {
		t.Fatalf("%d records, %+v, problems %v; want %d records, %d passed over", len(got), f, res.Problems, len(statuses), own)
	}
}

// TestOwnLinesOnly: a text log whose first lines are all the program's
// own (a model server's start-up, as NIM writes it; python-json-logger's
// records of uvicorn's own logger) is said to hold no
// request line, not to be "a format of its own" whose log_format must
// be given: no format would read a request from it.
func TestOwnLinesOnly(t *testing.T) {
	files := map[string]string{
		"nim.log": "INFO 2025-09-05 09:59:53.951 server.py:82] Started server process [32]\n" +
			"INFO 2025-09-05 09:59:54.951 on.py:48] Waiting for application startup.\n" +
			"INFO 2025-09-05 09:59:54.951 on.py:62] Application startup complete.\n" +
			"INFO 2025-09-05 09:59:54.951 server.py:214] Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n",
		// python-json-logger's records of uvicorn's own logger alone.
		"uvicorn.jsonl": `{"asctime": "2026-12-05 10:00:00,101", "levelname": "INFO", "name": "uvicorn.error", "message": "Started server process [1]"}` + "\n" +
			`{"asctime": "2026-12-05 10:00:00,102", "levelname": "INFO", "name": "uvicorn.error", "message": "Waiting for application startup."}` + "\n" +
			`{"asctime": "2026-12-05 10:00:00,250", "levelname": "INFO", "name": "uvicorn.error", "message": "Application startup complete."}` + "\n",
	}
	for name, lines := range files {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
		got, res := collect(t, []string{path}, ingest.Options{Workers: 1})
		f := res.Files[0]
		if len(got) != 0 || !strings.Contains(f.Reason, "no request among its first lines") || strings.Contains(f.Reason, "log_format") {
			t.Errorf("%s: %d records, reason %q", name, len(got), f.Reason)
		}
	}
}
