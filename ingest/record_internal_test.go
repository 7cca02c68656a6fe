package ingest

import "testing"

// splitRequest cuts a request line into its method and uri, the
// protocol's version dropped as HTTP writes it and as Hypercorn does, an
// ASGI http_version without "HTTP/".
func TestSplitRequest(t *testing.T) {
	for _, tc := range []struct{ line, method, uri string }{
		{"POST /v1/chat/completions HTTP/1.1", "POST", "/v1/chat/completions"},
		{"GET /v1/models?limit=5 HTTP/2.0", "GET", "/v1/models?limit=5"},
		{"POST /v1/chat/completions 1.1", "POST", "/v1/chat/completions"},
		{"GET /v1/models 1.0", "GET", "/v1/models"},
		{"POST /v1/embeddings 2", "POST", "/v1/embeddings"},
		{"POST /v1/embeddings 3", "POST", "/v1/embeddings"},
		{"POST http://llm-api:8000/v1/chat/completions", "POST", "http://llm-api:8000/v1/chat/completions"},
		{"GET /a%20b 1.2", "GET", "/a%20b 1.2"}, // no version of HTTP's or ASGI's
		{"- - -", "", ""},
	} {
		m, u := splitRequest([]byte(tc.line))
		if string(m) != tc.method || string(u) != tc.uri {
			t.Errorf("splitRequest(%q) = %q, %q; want %q, %q", tc.line, m, u, tc.method, tc.uri)
		}
	}
}
