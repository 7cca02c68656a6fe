package ingest_test

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

func TestCLBSample(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "examples")
	clbPath := filepath.Join(dir, "tokenhub-sample-clb.log")
	// No format flag: the CLB log is recognised by its content.
	acc, rows, res := readText(t, []string{clbPath}, ingest.Options{Format: ingest.Auto})
	_, ref, refRes := readText(t, []string{filepath.Join(dir, "tokenhub-sample.jsonl")}, ingest.Options{Format: ingest.Auto})

	if res.Files[0].Format != ingest.CLB {
		t.Errorf("format %q, want clb", res.Files[0].Format)
	}
	if res.Records() != 3000 || res.BadLines() != 3 || acc.Records != 3000 {
		t.Errorf("records %d (accumulated %d), bad lines %d; want 3000 and 3", res.Records(), acc.Records, res.BadLines())
	}
	if refRes.Records() != 3000 {
		t.Fatalf("the JSON-lines reference has %d records, want 3000", refRes.Records())
	}
	for _, p := range res.Problems {
		if !strings.Contains(p.Reason, "fields") {
			t.Errorf("problem %v: want a field-count reason", p)
		}
		if l := textFileLine(t, clbPath, p.Line); strings.Count(l, "] [") == 28 {
			t.Errorf("problem %v points at a whole CLB line %q", p, l)
		}
	}

	all, _ := rtByText(ref, ingest.FRegion)
	checkRTQuantiles(t, "all", acc.Set.All, all)

	// The same requests field by field, where textSinks formats carry the
	// field: the CLB's remote address without its port, status, URI,
	// upstream time (lists summed), handshake time (from the x:y:… form),
	// RTT in µs, and the time to the second.
	fs := []ingest.Field{ingest.FRemoteAddr, ingest.FStatus, ingest.FMethod, ingest.FURI,
		ingest.FRequestTime, ingest.FUpstreamResponseTime, ingest.FUpstreamConnectTime,
		ingest.FSSLHandshakeTime, ingest.FTCPInfoRTT, ingest.FConnection, ingest.FConnectionRequests}
	keys := func(rows []textRow) []string {
		out := make([]string, len(rows))
		for i := range rows {
			x := rows[i]
			x.timeNS -= x.timeNS % 1e9
			out[i] = x.key(append(fs, ingest.FTime))
		}
		slices.Sort(out)
		return out
	}
	got, want := keys(rows), keys(ref)
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			t.Fatalf("CLB record differs from the JSON lines':\n got %s\nwant %s", got[i], want[i])
		}
	}
	for i := range rows {
		if c, a := rows[i].text[ingest.FClient], rows[i].text[ingest.FRemoteAddr]; c != a {
			t.Fatalf("client %q, want the remote address %q", c, a)
		}
	}
}

// TestGivenFormatOverCLBShape: a log of the user's own bracketed
// log_format, which begins as Tencent CLB's does ("[id] [time_local]"),
// is read with the --log-format given when it reads every first line
// whole, as --input-format nginx would have it; without the flag, or
// with a format that does not read it, CLB's reader still tells it.
func TestGivenFormatOverCLBShape(t *testing.T) {
	var b strings.Builder
	var rts []float64
	for i := range 12 {
		rt := float64(100+i*37) / 1000
		rts = append(rts, rt)
		fmt.Fprintf(&b, "[req-%04d] [29/Nov/2026:10:00:%02d +0800] [POST /v1/chat/completions HTTP/1.1] [%d] [%.3f]\n", i, i, 200+i%2*229, rt)
	}
	path := writeTemp(t, "brackets.log", b.String())
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC,
		LogFormats: []string{"[$request_id] [$time_local] [$request] [$status] [$request_time]"}})
	if f := res.Files[0]; f.Format != ingest.Nginx || len(got) != len(rts) || res.BadLines() != 0 {
		t.Fatalf("with its format: %s (%s), %d records, %d bad; want nginx text, %d, 0", f.Format, f.Source, len(got), res.BadLines(), len(rts))
	}
	for i, r := range got {
		if math.Abs(r.rt-rts[i]) > 1e-9 || r.status != int64(200+i%2*229) {
			t.Errorf("record %d: request_time %v, status %v; want %v, %d", i, r.rt, r.status, rts[i], 200+i%2*229)
		}
	}
	for _, formats := range [][]string{nil, {"$remote_addr - $remote_user [$time_local] \"$request\" $status $request_time"}} {
		_, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC, LogFormats: formats})
		if f := res.Files[0]; f.Format != ingest.CLB {
			t.Errorf("formats %q: read as %s, want CLB's reader", formats, f.Format)
		}
	}
}
