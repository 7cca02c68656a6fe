package aggregate

import (
	"testing"
	"time"

	"loganalyze/ingest"
	"loganalyze/sketch"
)

func newAcc(t *testing.T, o Options) *Accumulator {
	t.Helper()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	o.Mapping, o.Top = m, 100
	return New(o)
}

// rec builds a record from source names and values, as a parser would.
func rec(t *testing.T, kv ...string) *ingest.Record {
	t.Helper()
	s, err := ingest.NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &ingest.Record{}
	for i := 0; i < len(kv); i += 2 {
		if err := r.Set(s.LookupString(kv[i]), []byte(kv[i+1]), time.UTC); err != nil {
			t.Fatal(err)
		}
	}
	r.Finish()
	return r
}

func TestAddDimensionsAndMetrics(t *testing.T) {
	a := newAcc(t, Options{})
	a.Add(rec(t, "time", "2026-11-29T10:00:30Z", "region", "ap-beijing", "client_region", "ap-shanghai",
		"model", "m1", "stream", "true", "status", "200", "request", "POST /v1/chat?x=1 HTTP/1.1",
		"remote_addr", "10.0.0.1", "request_time", "1.500", "upstream_response_time", "1.400", "first_token_ms", "300"))
	a.Add(rec(t, "time", "2026-11-29T10:01:10Z", "region", "ap-beijing", "status", "429", "app_id", "app-1", "request_time", "0.002"))
	a.Add(rec(t, "time", "2026-11-29T10:01:20Z", "status", "502", "request_time", "0.300", "upstream_response_time", "0.350"))

	if a.Records != 3 || a.Status()[200] != 1 || a.Status()[429] != 1 || a.Status()[502] != 1 {
		t.Fatalf("records %d, status %v", a.Records, a.Status())
	}
	dims := a.Set.Dims
	for _, c := range []struct {
		dim  int
		key  string
		want int64
	}{
		{DimRegion, "ap-beijing", 2}, {DimModel, "m1", 1}, {DimStatus, "429", 1}, {DimClient, "10.0.0.1", 1},
		{DimClient, "app-1", 1}, {DimClientRegion, "ap-shanghai", 1}, {DimRoute, "ap-shanghai→ap-beijing", 1},
		{DimStream, "true", 1}, {DimURI, "/v1/chat", 1},
	} {
		e := dims[c.dim].Get(c.key)
		if e == nil || e.Count != c.want {
			t.Errorf("%s=%s: %+v, want count %d", DimNames[c.dim], c.key, e, c.want)
		}
	}
	all := a.Set.All
	if got := all.Metric(RequestTime).Count(); got != 3 {
		t.Errorf("request_time count %d", got)
	}
	if got := all.Metric(NetworkTime).Count(); got != 2 {
		t.Errorf("network_time count %d", got)
	}
	// 1.5 s − 1.4 s = 100 ms; 0.300 − 0.350 is clock noise, counted as 0.
	if got := all.Metric(NetworkTime).Max(); got < 99.9 || got > 100.1 {
		t.Errorf("network_time max %v", got)
	}
	if got := all.Metric(NetworkTime).Min(); got != 0 {
		t.Errorf("network_time min %v", got)
	}
	if got := all.Metric(TTFT).Quantile(0.5); got < 297 || got > 303 {
		t.Errorf("ttft %v", got)
	}
	minutes := a.Timeline.Buckets()
	if a.Timeline.Width != 60 || len(minutes) != 2 || minutes[1].Requests != 2 || minutes[1].N429 != 1 || minutes[1].N5xx != 1 {
		t.Errorf("time line: %d s, %+v", a.Timeline.Width, minutes)
	}
	if a.Present()[ingest.FRequestTime] != 3 || a.Present()[ingest.FModel] != 1 {
		t.Errorf("present: rt %d model %d", a.Present()[ingest.FRequestTime], a.Present()[ingest.FModel])
	}
}

func TestWindowFilterAndMerge(t *testing.T) {
	since := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC).UnixNano()
	until := since + int64(time.Hour)
	a := newAcc(t, Options{Since: since, Until: until, HasSince: true, HasUntil: true})
	b := newAcc(t, Options{Since: since, Until: until, HasSince: true, HasUntil: true})
	a.Add(rec(t, "time", "2026-11-29T09:59:59Z", "request_time", "1"))
	a.Add(rec(t, "time", "2026-11-29T10:00:00Z", "request_time", "1"))
	b.Add(rec(t, "time", "2026-11-29T10:59:59Z", "request_time", "2", "status", "200"))
	b.Add(rec(t, "time", "2026-11-29T11:00:00Z", "request_time", "1"))
	b.Add(rec(t, "request_time", "1"))
	m := MergeAll([]*Accumulator{a, b})
	if m.Records != 2 || m.Skipped != 3 {
		t.Errorf("records %d skipped %d; want 2 and 3", m.Records, m.Skipped)
	}
	if m.MinTime != since || m.MaxTime != until-int64(time.Second) {
		t.Errorf("window %v – %v", time.Unix(0, m.MinTime).UTC(), time.Unix(0, m.MaxTime).UTC())
	}
	if m.Set.All.Metric(RequestTime).Count() != 2 || m.Status()[200] != 1 || len(m.Timeline.Buckets()) != 2 {
		t.Errorf("merged: %d values, status %v, %d minutes", m.Set.All.Metric(RequestTime).Count(), m.Status(), len(m.Timeline.Buckets()))
	}
}
