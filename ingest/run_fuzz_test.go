package ingest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"loganalyze/ingest"
)

// FuzzRun feeds arbitrary bytes through the whole pipeline as stdin, with
// format detection, decompression and every parser behind it: no input may
// panic or hang, and every record counted is one a sink saw.
func FuzzRun(f *testing.F) {
	for _, name := range []string{"tokenhub-1.jsonl", "tokenhub-2-cls.json.gz", "tokenhub-3.csv", "tokenhub-4-nginx.log", "tokenhub-5.parquet", "tokenhub-6.arrow"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "logs", name))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 4096 && name != "tokenhub-5.parquet" && name != "tokenhub-6.arrow" && name != "tokenhub-2-cls.json.gz" {
			b = b[:4096]
		}
		f.Add(b)
	}
	clb, err := os.ReadFile(filepath.Join("..", "testdata", "shared", "examples", "tokenhub-sample-clb.log"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(clb[:4096])
	// JSON documents: a pretty-printed array and a pretty-printed
	// envelope (an Elasticsearch export).
	// and the text formats of other gateways.
	for _, name := range []string{"jsondoc/litellm-spend-logs.json", "jsondoc/es-export.json",
		"text/access.ltsv", "text/envoy-default.log", "text/istio-text.log", "text/apisix.log"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("{\n  \"request_time\": 1\n}\n{\n  \"request_time\": 2\n}\n"))
	f.Add([]byte("\x1f\x8b"))
	f.Add([]byte("\x28\xb5\x2f\xfd"))
	f.Add([]byte("PAR1"))
	f.Add([]byte("ARROW1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sinks, res, err := ingest.Run([]string{"-"}, ingest.Options{Stdin: bytes.NewReader(data), Workers: 2},
			func() *countSink { return &countSink{} })
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, s := range sinks {
			n += s.n
		}
		if n != res.Records() {
			t.Fatalf("sinks saw %d records, the result counts %d", n, res.Records())
		}
	})
}
