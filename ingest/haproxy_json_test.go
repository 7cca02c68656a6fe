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

// TestHAProxyJSONMaps: an HAProxy log-format that encodes its line as
// JSON (%{+json}o, HAProxy 3.0) gives the --map overrides of its named
// items, timers in ms; its JSON lines read with them give each record
// the request time %Ta wrote, the status %ST, the time %tr.
func TestHAProxyJSONMaps(t *testing.T) {
	const format = `%{+json}o %(client_ip)ci %(client_port)cp %(request_date)tr %(fe_name_transport)ft %(be_name)b %(server_name)s ` +
		`%(time_request)TR %(time_wait)Tw %(time_connect)Tc %(time_response)Tr/%(time_active)Ta %(status_code)ST %(bytes_read)B %(http_request){+Q}r`
	maps, ok := ingest.HAProxyJSONMaps(format)
	want := []string{"remote_addr=client_ip", "time=request_date", "upstream_addr=server_name", "upstream_connect_time=time_connect:ms",
		"upstream_header_time=time_response:ms", "request_time=time_active:ms", "status=status_code", "request=http_request"}
	if !ok || !slices.Equal(maps, want) {
		t.Fatalf("HAProxyJSONMaps = %q, %v; want %q", maps, ok, want)
	}
	if _, ok := ingest.HAProxyJSONMaps(`%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST`); ok {
		t.Errorf("a text log-format read as JSON's")
	}
	// %Tt is the request time only where %Ta is not logged.
	if m, _ := ingest.HAProxyJSONMaps(`%{+json}o %(total)Tt %(status)ST`); !slices.Contains(m, "request_time=total:ms") {
		t.Errorf("%%Tt alone: %q", m)
	}
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, `{"client_ip":"192.0.2.%d","client_port":5000,"request_date":"20/Nov/2026:10:00:%02d.464","fe_name_transport":"fe~","be_name":"be","server_name":"gpu-1","time_request":1,"time_wait":0,"time_connect":1,"time_response":%d,"time_active":%d,"status_code":%d,"bytes_read":100,"http_request":"POST /v1/chat/completions HTTP/1.1"}`+"\n",
			i, i, 100+i, 1000+37*i, 200+229*(i%2))
	}
	schema, err := ingest.NewSchema(maps)
	if err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{writeTemp(t, "haproxy.jsonl", b.String())}, ingest.Options{Workers: 1, Location: time.UTC, Schema: schema})
	if len(got) != 20 || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines: %v", len(got), res.BadLines(), res.Problems)
	}
	for i, r := range got {
		at := time.Date(2026, 11, 20, 10, 0, i, 464e6, time.UTC).UnixNano()
		if math.Abs(r.rt-float64(1000+37*i)/1000) > 1e-9 || r.status != int64(200+229*(i%2)) || r.timeNS != at {
			t.Errorf("record %d: %+v", i, r)
		}
	}
}

// TestHAProxyJSONSourceTimers: HAProxy's JSON lines by the names of its
// example, read with no flag, give each record the server's time to its
// headers (time_response, %Tr) and its connect (time_connect, %Tc) in
// ms, none where HAProxy wrote -1 (no server answered, none connected).
func TestHAProxyJSONSourceTimers(t *testing.T) {
	path := filepath.Join("testdata", "sources", "haproxy-json.jsonl")
	docs := readRawDocs(t, path)
	var header, connect int64
	var headerSum float64
	for _, d := range docs {
		if tr := d.num("time_response"); tr != -1 {
			header++
			headerSum += tr
		}
		if d.num("time_connect") != -1 {
			connect++
		}
	}
	acc, res := accumulate(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if res.Files[0].Source != "haproxy-json" {
		t.Fatalf("source %q, want haproxy-json", res.Files[0].Source)
	}
	present := acc.Present()
	if present[ingest.FUpstreamHeaderTime] != header || present[ingest.FUpstreamConnectTime] != connect {
		t.Errorf("records with upstream_header_time %d, upstream_connect_time %d; want %d, %d",
			present[ingest.FUpstreamHeaderTime], present[ingest.FUpstreamConnectTime], header, connect)
	}
	sinks, _, err := ingest.Run([]string{path}, ingest.Options{Workers: 1, Location: time.UTC}, func() *headerSink { return &headerSink{} })
	if err != nil {
		t.Fatal(err)
	}
	if sum := sinks[0].sum; math.Abs(sum*1000-headerSum) > 1e-6 {
		t.Errorf("upstream_header_time sums to %v ms, want %v", sum*1000, headerSum)
	}
}

// headerSink sums the records' upstream_header_time (s).
type headerSink struct{ sum float64 }

func (h *headerSink) Add(r *ingest.Record) {
	if x, ok := r.Float(ingest.FUpstreamHeaderTime); ok {
		h.sum += x
	}
}
