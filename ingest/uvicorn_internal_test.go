package ingest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestUvicornFixture reads testdata/text/uvicorn.log, written as
// uvicorn's access formatter writes to a file (LOGGING_CONFIG's
// '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s',
// the status with its phrase; the server's start messages first),
// without a flag: the requests' clients and statuses, no time and no
// request time; the start messages, uvicorn's own, are passed over.
func TestUvicornFixture(t *testing.T) {
	sinks, res, err := Run([]string{"testdata/text/uvicorn.log"}, Options{Workers: 1, Location: time.UTC}, func() *rows { return &rows{} })
	if err != nil {
		t.Fatal(err)
	}
	fs := res.Files[0]
	if fs.Source != "uvicorn" || fs.Records != 4 || fs.BadLines != 0 || fs.PassedOver != 4 {
		t.Fatalf("source %q, %d records, %d bad lines, %d passed over; want uvicorn, 4, 0, 4", fs.Source, fs.Records, fs.BadLines, fs.PassedOver)
	}
	want := []row{{-1, 0, 200, "10.0.0.5"}, {-1, 0, 200, "10.0.0.6"}, {-1, 0, 429, "10.0.0.5"}, {-1, 0, 500, "2001:db8::7"}}
	for i, g := range sinks[0].recs {
		if g != want[i] {
			t.Errorf("record %d: %+v, want %+v", i+1, g, want[i])
		}
	}
}

// uvicornMessage is uvicorn's access message, after its level prefix or
// a program's own, with its status phrase or without: the client's
// host:port, the request and the status.
var uvicornMessage = regexp.MustCompile(`(?:^INFO: +|\] )(\S+):\d+ - "[A-Z]+ \S+ HTTP/[\d.]+" (\d{3})(?: [A-Za-z ]+)?$`)

// TestUvicornUntimed reads uvicorn's access lines where no time is
// written beside them, among the programs' own lines, which are passed
// over: NIM 1.x's (its date a month and a day), LMDeploy's api_server
// (its hint, its logger's coloured lines), the vLLM production-stack
// router's (its coloured text lines, and its JSON ones with
// --log-format json, which leave uvicorn's text). Each access line is
// a record of its status and client, no time; each other line is
// passed over.
func TestUvicornUntimed(t *testing.T) {
	for _, name := range []string{"uvicorn-nim-1x.log", "uvicorn-lmdeploy.log", "uvicorn-vllm-router.log", "uvicorn-vllm-router-json.log"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "text", name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want []row
			passed := 0
			for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				m := uvicornMessage.FindStringSubmatch(l)
				if m == nil {
					passed++
					continue
				}
				st, err := strconv.Atoi(m[2])
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, row{-1, 0, float64(st), m[1]})
			}
			sinks, res, err := Run([]string{path}, Options{Workers: 1, Location: time.UTC}, func() *rows { return &rows{} })
			if err != nil {
				t.Fatal(err)
			}
			fs := res.Files[0]
			if fs.Source != "uvicorn" || fs.Records != int64(len(want)) || fs.BadLines != 0 || fs.PassedOver != int64(passed) {
				t.Fatalf("source %q, %d records, %d bad lines, %d passed over; want uvicorn, %d, 0, %d (problems %v)",
					fs.Source, fs.Records, fs.BadLines, fs.PassedOver, len(want), passed, res.Problems)
			}
			for i, g := range sinks[0].recs {
				if g != want[i] {
					t.Errorf("record %d: %+v, want %+v", i+1, g, want[i])
				}
			}
		})
	}
}
