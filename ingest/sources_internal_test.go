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

// detectSourceByLoop is detectSource as the table defines it: each
// signature's names sought among the record's names and paths, in turn,
// none of the source's unless names among the record's names.
func detectSourceByLoop(names, paths []string) *source {
	carries := func(names []string, want string) bool {
		for _, have := range names {
			if want == have || strings.HasSuffix(want, "*") && strings.HasPrefix(have, want[:len(want)-1]) {
				return true
			}
		}
		return false
	}
	for _, s := range sources {
		for _, sig := range s.signatures {
			n := 0
			for _, want := range sig.names {
				if carries(names, want) || strings.Contains(want, ".") && !strings.HasSuffix(want, "*") && carries(paths, want) {
					n++
				}
			}
			if n >= sig.need && !slices.ContainsFunc(s.unless, func(w string) bool { return carries(names, w) }) {
				return s
			}
		}
	}
	return nil
}

func sourceName(s *source) string {
	if s == nil {
		return "none"
	}
	return s.name
}

// TestDetectSourceIndexed: the index of the signatures' names detects
// the source the signatures do, on the first records of every source
// fixture, and on names made of each signature's: all of them, all but
// one (one short of need, where need is all), each as a nested path
// only, a prefix's name extended, and with other names around.
func TestDetectSourceIndexed(t *testing.T) {
	var cases [][2][]string
	files, _ := filepath.Glob(filepath.Join("testdata", "sources", "*.json*"))
	if len(files) < 30 {
		t.Fatalf("%d source fixtures", len(files))
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range headLines(data, 8) {
			cases = append(cases, [2][]string{jsonKeys(l, maxNames), jsonPaths(l, maxNames)})
		}
	}
	for _, s := range sources {
		for _, sig := range s.signatures {
			all := slices.Clone(sig.names)
			extended := make([]string, len(all))
			for i, w := range all {
				extended[i] = strings.TrimSuffix(w, "*") + "_x"
			}
			cases = append(cases,
				[2][]string{all, nil},
				[2][]string{all[1:], nil},
				[2][]string{all[:len(all)-1], nil},
				[2][]string{nil, all},
				[2][]string{extended, nil},
				[2][]string{append([]string{"time", "status", "id"}, all...), []string{"a.b"}},
				[2][]string{[]string{"x"}, append([]string{"request.y"}, all...)})
		}
	}
	matched := 0
	for _, c := range cases {
		got, want := detectSource(c[0], c[1]), detectSourceByLoop(c[0], c[1])
		if got != want {
			t.Errorf("names %q, paths %q: indexed %s, by each signature's names %s", c[0], c[1], sourceName(got), sourceName(want))
		}
		if want != nil {
			matched++
		}
	}
	if matched < len(cases)/3 || matched == len(cases) {
		t.Errorf("%d of %d cases match a source, want many and not all", matched, len(cases))
	}
}

// FuzzDetectSource reads a first record's names and nested paths as a
// file's reader does and detects its source: as the signatures define
// it (detectSourceByLoop), no panic, and the nested
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
		if got, want := detectSource(names, paths), detectSourceByLoop(names, paths); got != want {
			t.Fatalf("%q: indexed %s, by each signature's names %s", line, sourceName(got), sourceName(want))
		}
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

// TestSourcePriosBelowParts: a source's own names' priorities stay below
// prioPart, which tells a phase's binding (Binding.Part) by itself.
func TestSourcePriosBelowParts(t *testing.T) {
	for _, s := range sources {
		if prioSource+len(s.fields) > prioPart {
			t.Errorf("source %s has %d names: their priorities reach prioPart", s.name, len(s.fields))
		}
	}
}
