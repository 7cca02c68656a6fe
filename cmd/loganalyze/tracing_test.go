package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTracingColouredURIs: a coloured tracing log (TGI's and TEI's
// default, docker logs included) gives each request the uri of its own
// line, whatever lines are read after it before its batch is counted:
// the uris point into the lines read without their colours.
func TestTracingColouredURIs(t *testing.T) {
	routes := []string{"embed", "rerank", "openai_embed", "embed_sparse", "predict"}
	want := map[string]int{}
	var b strings.Builder
	for i := range 500 {
		route := routes[i*7%len(routes)]
		want[route]++
		fmt.Fprintf(&b, "\x1b[2m2026-12-05T10:%02d:%02d.000000Z\x1b[0m \x1b[32m INFO\x1b[0m \x1b[1m%s\x1b[0m\x1b[1m{\x1b[0m\x1b[3mtotal_time\x1b[0m\x1b[2m=\x1b[0m\"%dms\"\x1b[1m}\x1b[0m\x1b[2m:\x1b[0m \x1b[2mtext_embeddings_router::http::server\x1b[0m\x1b[2m:\x1b[0m \x1b[2mrouter/src/http/server.rs\x1b[0m\x1b[2m:\x1b[0m\x1b[2m714:\x1b[0m Success\n",
			i/60, i%60, route, 10+i%90)
	}
	path := filepath.Join(t.TempDir(), "tei.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	checkURICounts(t, path, want)
}
