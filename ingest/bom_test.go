package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestByteOrderMark reads logs that begin with a UTF-8 byte-order mark,
// as Windows tools save text, with CRLF line ends: the same records as
// without it, the first line's included.
func TestByteOrderMark(t *testing.T) {
	logs := map[string]string{
		"a.jsonl": `{"__TIMESTAMP__":"1764468000759","request_time":"3.095","status":"200"}` + "\n" +
			`{"__TIMESTAMP__":"1764468005154","request_time":"3.828","status":"200"}` + "\n",
		"a.csv":  "__TIMESTAMP__,request_time,status\n1764468000759,3.095,200\n1764468005154,3.828,429\n",
		"a.ltsv": "time:2026-11-30T02:00:00+00:00\treqtime:3.095\tstatus:200\ntime:2026-11-30T02:00:05+00:00\treqtime:3.828\tstatus:200\n",
		"a.log": `10.0.0.1 - - [30/Nov/2026:02:00:00 +0000] "POST /v1/chat/completions HTTP/1.1" 200 12 "-" "curl/8" 3.095 3.001` + "\n" +
			`10.0.0.2 - - [30/Nov/2026:02:00:05 +0000] "POST /v1/chat/completions HTTP/1.1" 200 12 "-" "curl/8" 3.828 3.700` + "\n",
	}
	dir := t.TempDir()
	for name, text := range logs {
		t.Run(name, func(t *testing.T) {
			crlf := strings.ReplaceAll(text, "\n", "\r\n")
			plain, marked := filepath.Join(dir, "plain-"+name), filepath.Join(dir, "bom-"+name)
			if err := os.WriteFile(plain, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(marked, []byte("\ufeff"+crlf), 0o644); err != nil {
				t.Fatal(err)
			}
			opts := ingest.Options{Workers: 1, Location: time.UTC}
			want, wres := collect(t, []string{plain}, opts)
			got, res := collect(t, []string{marked}, opts)
			if len(want) != 2 || wres.BadLines() != 0 {
				t.Fatalf("without the mark: %d records, %v", len(want), wres.Problems)
			}
			if res.BadLines() != 0 || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) { // (NaN for an absent value)
				t.Errorf("with the mark: %+v, %v; want %+v", got, res.Problems, want)
			}
		})
	}
}
