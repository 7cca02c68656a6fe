package ingest_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

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
	f.Add(manyRowGroups(f.Fatal))
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

// manyRowGroups returns a Parquet file of eight row groups of 16 rows:
// at two workers, the workers decode its row groups (a file of fewer is
// decoded by the reader).
func manyRowGroups(fatal func(...any)) []byte {
	type row struct {
		Time        string  `parquet:"time"`
		Region      string  `parquet:"region,dict"`
		Status      int32   `parquet:"status"`
		RequestTime float64 `parquet:"request_time"`
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(16))
	rows := make([]row, 128)
	for i := range rows {
		rows[i] = row{Time: fmt.Sprintf("2026-11-29T10:%02d:00+08:00", i%60), Region: []string{"ap-beijing", "ap-shanghai"}[i%2],
			Status: 200, RequestTime: float64(i) / 100}
	}
	if _, err := w.Write(rows); err != nil {
		fatal(err)
	}
	if err := w.Close(); err != nil {
		fatal(err)
	}
	return buf.Bytes()
}
