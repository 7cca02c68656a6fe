package aggregate

import "testing"

var pathSink []byte

// BenchmarkPath cuts the query off URIs of the lengths gateways log.
func BenchmarkPath(b *testing.B) {
	uris := [][]byte{[]byte("/v1/chat/completions"), []byte("/v1/auth/token"),
		[]byte("/v1/embeddings?model=bge-m3&user=42"), []byte("/api/v1/models/qwen2-72b-instruct/generate")}
	for i := 0; b.Loop(); i++ {
		pathSink = Path(uris[i&3])
	}
}
