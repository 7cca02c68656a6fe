package ingest

import (
	"bytes"
	"testing"
)

// FuzzSplitServices: a dump split into its services' streams keeps each
// line once, in the stream of the service it is behind (or of the one
// before it), at its own line number; the others hold an empty line
// there.
func FuzzSplitServices(f *testing.F) {
	f.Add([]byte("litellm-1  | INFO: a\nenvoy-1 | [x] b\nlitellm-2  | c\nno name\n\x1b[36mredis-1  |\x1b[0m d"))
	f.Add([]byte("[pod/gw-0/app] a\n[pod/gw-1/istio-proxy] {}\n\n[pod/gw-0/app] b\n"))
	f.Add([]byte("x\ny\nweb-1 | z\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		names, streams, err := splitServices(data)
		if err != nil {
			return
		}
		if len(names) < 2 || len(streams) != len(names) {
			t.Fatalf("%d names, %d streams", len(names), len(streams))
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		split := make([][][]byte, len(streams))
		for k, s := range streams {
			split[k] = bytes.SplitAfter(s, []byte("\n"))
			if len(split[k][len(split[k])-1]) == 0 {
				split[k] = split[k][:len(split[k])-1]
			}
			// A last line without its end is in its own stream alone.
			if len(split[k]) == len(lines)-1 && !bytes.HasSuffix(data, []byte("\n")) {
				split[k] = append(split[k], []byte("\n"))
			}
			if len(split[k]) != len(lines) {
				t.Fatalf("%q: stream %q has %d lines, the dump %d", data, names[k], len(split[k]), len(lines))
			}
		}
		for i, l := range lines {
			held := 0
			for k := range streams {
				switch s := split[k][i]; {
				case bytes.Equal(s, l):
					held++
				case !bytes.Equal(s, []byte("\n")):
					t.Fatalf("%q: line %d, %q, is %q in stream %q", data, i+1, l, s, names[k])
				}
			}
			if held == 0 || held > 1 && !bytes.Equal(l, []byte("\n")) {
				t.Fatalf("%q: line %d, %q, held by %d streams", data, i+1, l, held)
			}
		}
	})
}
