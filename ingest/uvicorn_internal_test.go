package ingest

import (
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
