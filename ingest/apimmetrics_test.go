package ingest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestAPIMMetricsLog reads WSO2 API Manager's analytics log as its
// APIM_METRICS_APPENDER writes it (apim_metrics.log: log4j2's layout,
// then "apimMetrics: NAME, properties :" and the event's JSON), the
// reporter's line at start-up first and again among the events. Each
// event is worked out from the fixture with encoding/json: the JSON after
// the message's "properties :", responseLatency and backendLatency ms,
// proxyResponseCode the status, requestTimestamp the time, the
// application the client; the same events as JSON lines alone
// (sources/wso2-apim.jsonl, as Logstash and Fluent Bit cut them out) read
// the same.
func TestAPIMMetricsLog(t *testing.T) {
	path := filepath.Join("testdata", "text", "wso2-apim-metrics.log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type event struct {
		ProxyResponseCode   int
		ResponseLatency     *float64
		BackendLatency      *float64
		RequestTimestamp    string
		ApplicationName     string
		APIMethod           string
		APIResourceTemplate string
		UserIP              string
		Properties          struct{ AIMetadata struct{ Model string } }
	}
	var wants []event
	own := int64(0)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		_, js, ok := bytes.Cut(sc.Bytes(), []byte(" apimMetrics: "))
		if ok {
			_, js, ok = bytes.Cut(js, []byte(", properties :"))
		}
		if !ok {
			own++ // the reporter's own line
			continue
		}
		var e event
		if err := json.Unmarshal(js, &e); err != nil {
			t.Fatalf("fixture: %v", err)
		}
		wants = append(wants, e)
	}
	if len(wants) != 6 || own != 2 {
		t.Fatalf("fixture: %d events and %d other lines, want 6 and 2", len(wants), own)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(res.Files) != 1 || res.Files[0].Source != "wso2-apim" || res.Files[0].Envelope != ingest.EnvAPIMMetrics {
		t.Fatalf("files %+v, want source wso2-apim in the apim-metrics envelope", res.Files)
	}
	if res.BadLines() != 0 || len(got) != len(wants) || res.Files[0].PassedOver != own {
		t.Fatalf("%d records, %d bad lines, %d passed over; want %d, 0, %d: %v",
			len(got), res.BadLines(), res.Files[0].PassedOver, len(wants), own, res.Problems)
	}
	// The fixture's events are in the order of their times, as collect
	// gives the records.
	for i, e := range wants {
		g := got[i]
		tm, err := time.Parse(time.RFC3339Nano, e.RequestTimestamp)
		if err != nil {
			// java.time.OffsetDateTime's text leaves out seconds of 0.
			if tm, err = time.Parse("2006-01-02T15:04Z07:00", e.RequestTimestamp); err != nil {
				t.Fatalf("fixture: %v", err)
			}
		}
		rt, ups := math.NaN(), math.NaN()
		if e.ResponseLatency != nil {
			rt, ups = *e.ResponseLatency, *e.BackendLatency
		}
		checkSourceRecord(t, i, g, sourceWant{rt: rt, ups: ups, ttft: math.NaN(), status: e.ProxyResponseCode,
			model: e.Properties.AIMetadata.Model, client: e.ApplicationName, stream: -1, timeNS: tm.UnixNano()})
		if g.uri != e.APIResourceTemplate || g.remoteAddr != e.UserIP {
			t.Errorf("record %d: uri %q, remote_addr %q; want %q, %q", i, g.uri, g.remoteAddr, e.APIResourceTemplate, e.UserIP)
		}
	}
	alone, _ := collect(t, []string{filepath.Join("testdata", "sources", "wso2-apim.jsonl")}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(alone) != len(got) {
		t.Fatalf("the JSON alone: %d records, the log's lines %d", len(alone), len(got))
	}
	for i := range alone {
		a, g := alone[i], got[i]
		if !nearSrc(a.rt, g.rt) || !nearSrc(a.urt, g.urt) || a.status != g.status || a.timeNS != g.timeNS || a.client != g.client ||
			a.model != g.model || a.prompt != g.prompt || a.completion != g.completion || a.uri != g.uri {
			t.Errorf("record %d: the log's line %+v, the JSON alone %+v", i, g, a)
		}
	}
}

// TestAPIMMetricsShipped reads WSO2 API Manager's analytics log as a
// shipper took its lines without parsing them: Filebeat's record of each
// line in message (WSO2's ELK guide ships the file with Filebeat), and
// Fluent Bit's in log (its OpenSearch guide, before its parser). The
// records are built from the fixture's lines with encoding/json, and read
// as the lines themselves are, the reporter's own lines passed over.
func TestAPIMMetricsShipped(t *testing.T) {
	path := filepath.Join("testdata", "text", "wso2-apim-metrics.log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	direct, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	own := res.Files[0].PassedOver
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	for name, record := range map[string]func(line string) any{
		"filebeat.jsonl": func(line string) any {
			return map[string]any{"@timestamp": "2022-12-15T02:56:00.000Z", "message": line,
				"log":   map[string]any{"offset": 0, "file": map[string]string{"path": "/opt/wso2am/repository/logs/apim_metrics.log"}},
				"agent": map[string]string{"type": "filebeat"}}
		},
		"fluentbit.jsonl": func(line string) any { return map[string]any{"date": 1671072960.5, "log": line} },
	} {
		var out bytes.Buffer
		for _, l := range lines {
			rec, err := json.Marshal(record(string(l)))
			if err != nil {
				t.Fatal(err)
			}
			out.Write(append(rec, '\n'))
		}
		shipped := writeTemp(t, name, out.String())
		got, res := collect(t, []string{shipped}, ingest.Options{Workers: 1, Location: time.UTC})
		if len(res.Files) != 1 || res.Files[0].Source != "wso2-apim" || res.BadLines() != 0 || res.Files[0].PassedOver != own || len(got) != len(direct) {
			t.Fatalf("%s: files %+v, %d records; want source wso2-apim, %d records, %d passed over: %v", name, res.Files, len(got), len(direct), own, res.Problems)
		}
		for i := range got {
			if g, d := noNaN(got[i]), noNaN(direct[i]); g != d {
				t.Errorf("%s: record %d: %+v, the line itself %+v", name, i, g, d)
			}
		}
	}
}

// noNaN returns r with its absent durations -1, so that two rows compare
// equal with ==.
func noNaN(r row) row {
	for _, v := range []*float64{&r.rt, &r.urt, &r.ttft} {
		if math.IsNaN(*v) {
			*v = -1
		}
	}
	return r
}
