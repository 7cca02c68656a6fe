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

// TestValueRowsSep finds the tab or space that cuts rows of values
// written without a header into as many fields each, and no separator
// for a header of names, rows cut unevenly, or a comma CSV's rows.
func TestValueRowsSep(t *testing.T) {
	cases := []struct {
		name, text string
		want       byte
	}{
		{"spaces", "1796277615426 app-005 10.10.89.80 \"POST /v1/chat/completions HTTP/1.1\" true 200 1.054 \"Mozilla/5.0 (X11; Linux x86_64; rv:120.0)\"\n" +
			"1796277628945 app-017 10.13.19.116 \"POST /v1/chat/completions HTTP/1.1\" false 429 0.002 -\n", ' '},
		{"spaces, quoted with '", "1796277615426 app-005 'POST /v1/chat/completions HTTP/1.1' 200 1.054\n" +
			"1796277628945  'POST /v1/chat/completions HTTP/1.1' 429 0.002\n", ' '},
		{"tabs, '; ' twice", "1796277615426\tapp-005\t200\t1.054\tMozilla/5.0 (Windows NT 10.0; Win64; x64)\n" +
			"1796277628945\tapp-017\t429\t0.002\t-\n", '\t'},
		{"names", "__TIMESTAMP__ app_id status request_time\n1796277615426 app-005 200 1.054\n", 0},
		{"uneven", "1796277615426 200 1.054 POST /v1/chat/completions\n1796277628945 429 0.002 POST /v1/embeddings HTTP/1.1\n", 0},
		{"commas", "1796277615426,app-005,200,\"Mozilla/5.0 (X11; Linux x86_64)\"\n1796277628945,app-017,429,\"Mozilla/5.0 (X11; Linux x86_64)\"\n", 0},
		{"one row", "1796277615426 app-005 200 1.054\n", 0},
		{"mostly words", "1796277615426 app-005 ap-beijing deepseek-v3 POST\n1796277628945 app-017 ap-shanghai qwen GET\n", 0},
	}
	for _, c := range cases {
		if got := valueRowsSep([]byte(c.text)); got != c.want {
			t.Errorf("%s: valueRowsSep = %q, want %q", c.name, got, c.want)
		}
	}
}
