package ingest

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sourceIndex is src's place in the table; len(sources) for none.
func sourceIndex(src *source) int {
	if i := slices.Index(sources, src); i >= 0 {
		return i
	}
	return len(sources)
}

// FuzzDetectSource reads a first record's names and nested paths as a
// file's reader does and detects its source: no panic, and the nested
// paths only add to what the top-level names match (a source the names
// alone match is matched with the paths too, or one before it is), and
// without a dotted name in any signature they change nothing.
func FuzzDetectSource(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "sources", "*.json"))
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		if sc.Scan() {
			f.Add(append([]byte(nil), sc.Bytes()...))
		}
		fh.Close()
	}
	f.Add([]byte(`{"time":"t","properties":{"apiRevision":"1","clientTime":2,"clientTlsVersion":"1.2"}}`))
	f.Add([]byte(`{"properties":"{\"backendTime\":1,\"backendUrl\":\"u\",\"apiRevision\":\"1\"}"}`))
	f.Add([]byte(`{"__TAG__":{"region":"r"},"request_time":1}`))
	f.Add([]byte(`{"run_type":"llm","start_time":"2026-12-04T09:00:00","parent_run_id":null,"extra":{"invocation_params":{"stream":true}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		names, paths := jsonKeys(line, maxNames), jsonPaths(line, maxNames)
		withPaths, alone := sourceIndex(detectSource(names, paths)), sourceIndex(detectSource(names, nil))
		if withPaths > alone {
			t.Fatalf("%q: source %d with its paths, %d without", line, withPaths, alone)
		}
		if withPaths < alone && !slices.ContainsFunc(sources[withPaths].signatures, dotted) {
			t.Fatalf("%q: paths made %q match, which names no path", line, sources[withPaths].name)
		}
	})
}

// dotted reports whether sig names a nested value's path.
func dotted(sig signature) bool {
	return slices.ContainsFunc(sig.names, func(n string) bool {
		return strings.Contains(n, ".") && !strings.HasSuffix(n, "*")
	})
}
