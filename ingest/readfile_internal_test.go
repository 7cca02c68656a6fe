package ingest

import (
	"strings"
	"testing"
)

// TestSpacedHeader tells a header of names cut by single spaces, the
// rows under it cut into as many fields (spaceSep), from a text log's
// first line of words, a CSV header whose names hold spaces, and a
// header whose rows are cut otherwise.
func TestSpacedHeader(t *testing.T) {
	s, err := NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	const rows = "1796277615426 app-005 \"POST /v1/chat/completions HTTP/1.1\" 200 1.054\n" +
		"1796277628945  \"POST /v1/embeddings HTTP/1.1\" 429 0.002\n"
	cases := []struct {
		name, header, rows string
		want               bool
	}{
		{"CLS's keys", "__TIMESTAMP__ app_id request status request_time", rows, true},
		{"given, its first row a record", "__TIMESTAMP__ app_id request status request_time", rows + rows, true},
		{"quoted with '", "__TIMESTAMP__ app_id request status request_time", strings.ReplaceAll(rows, `"`, "'"), true},
		{"rows of another count", "__TIMESTAMP__ app_id request status", rows, false},
		{"no row", "__TIMESTAMP__ app_id request status request_time", "", false},
		{"no name read", "alpha beta gamma delta epsilon", rows, false},
		{"two spaces", "__TIMESTAMP__  app_id request status", rows, false},
		{"one space", "time status", "1 2\n", false},
		{"a sentence", "Starting server for model", "listening on 0.0.0.0:8000\nready\n", false},
		{"names with spaces", "Request Time,Status Code,Upstream Time", "0.5,200,0.4\n", false},
	}
	for _, c := range cases {
		if got := spacedHeader([]byte(c.header), []byte(c.rows), s); got != c.want {
			t.Errorf("%s: spacedHeader(%q) = %v, want %v", c.name, c.header, got, c.want)
		}
	}
}
