package ingest_test

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestAliyunLayer7: Alibaba Cloud's load balancers (CLB, ALB) keep
// their layer-7 access log in Simple Log Service under nginx's names,
// every value a string: request_time and upstream_response_time in
// seconds, the method request_method, tcpinfo_rtt µs. Each record holds
// what encoding/json reads of its line by those names.
func TestAliyunLayer7(t *testing.T) {
	path := filepath.Join("testdata", "jsondoc", "aliyun-slb-l7.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type want struct {
		timeNS      int64
		rt, urt     float64
		status      int64
		method, uri string
	}
	var wants []want
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]string
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		tm, err := time.Parse(time.RFC3339, m["time"])
		if err != nil {
			t.Fatal(err)
		}
		rt, _ := strconv.ParseFloat(m["request_time"], 64)
		urt, _ := strconv.ParseFloat(m["upstream_response_time"], 64)
		st, _ := strconv.ParseInt(m["status"], 10, 64)
		wants = append(wants, want{tm.UnixNano(), rt, urt, st, m["request_method"], m["request_uri"]})
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != len(wants) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines; want %d, 0", len(got), res.BadLines(), len(wants))
	}
	for i, w := range wants {
		g := got[i]
		if g.timeNS != w.timeNS || math.Abs(g.rt-w.rt) > 1e-12 || math.Abs(g.urt-w.urt) > 1e-12 || g.status != w.status || g.uri != w.uri {
			t.Errorf("record %d: %+v, want %+v", i, g, w)
		}
	}
	acc, _ := accumulate(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if n := acc.Present()[ingest.FMethod]; n != int64(len(wants)) {
		t.Errorf("%d records with a method (request_method), want %d", n, len(wants))
	}
}
