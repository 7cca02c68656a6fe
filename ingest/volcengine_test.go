package ingest_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestVolcengineCLB: Volcengine CLB's access log (BytePlus's edition of
// its documentation: docs.byteplus.com/en/docs/clb/Access-log-overview)
// names its fields after nginx's variables, so its log in TLS, exported
// as JSON, is read by SPEC §3's names with no source of its own: the
// time time_iso8601 (with its zone), the client remote_addr, the method
// and uri from request. The log CLB writes to TOS brackets each value,
// as Tencent's CLB does, but in an order of its own: it must not be
// read as Tencent's.
func TestVolcengineCLB(t *testing.T) {
	path := filepath.Join("testdata", "sources", "volcengine-clb.jsonl")
	docs := readRawDocs(t, path)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if res.BadLines() != 0 || len(got) != len(docs) {
		t.Fatalf("%d records and %d bad lines, want %d and 0: %v", len(got), res.BadLines(), len(docs), res.Problems)
	}
	for i, d := range docs {
		at, err := time.Parse(time.RFC3339, d.str("time_iso8601"))
		if err != nil {
			t.Fatal(err)
		}
		request := strings.Fields(d.str("request"))
		if g := got[i]; g.timeNS != at.UnixNano() || g.client != d.str("remote_addr") || g.uri != request[1] {
			t.Errorf("record %d: time %v, client %q, uri %q; want %v, %q, %q", i,
				time.Unix(0, g.timeNS).UTC(), g.client, g.uri, at.UTC(), d.str("remote_addr"), request[1])
		}
	}

	// The documentation's sample values, in its order and brackets.
	text := writeTemp(t, "clb.log", "[https] [2021-08-10T17:39:29+08:00] [180.0.0.180] [49540] [172.16.0.61] [GET /v1/models HTTP/1.1]\n")
	got, res = collect(t, []string{text}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 0 || len(res.Files) != 1 || res.Files[0].Source == "clb" {
		t.Fatalf("%d records, files %+v: want none read, and none as Tencent's CLB", len(got), res.Files)
	}
}
