package ingest_test

import (
	"math"
	"path/filepath"
	"sort"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// row is what the tests keep of a record: a copy, valid after the run.
type row struct {
	timeNS                     int64
	hasTime                    bool
	rt, urt, ttft              float64 // NaN when absent
	status                     int64
	hasStatus                  bool
	stream, hasStream          bool
	client, region, model, uri string
	clientRegion               string
	remoteAddr                 string
	hasModel                   bool
	prompt, completion         int64 // -1 when absent
}

// collector is a Sink that copies every record.
type collector struct{ rows []row }

func (c *collector) Add(r *ingest.Record) {
	var w row
	w.timeNS, w.hasTime = r.TimeNS, r.Has(ingest.FTime)
	w.rt, _ = r.Float(ingest.FRequestTime)
	w.urt, _ = r.Float(ingest.FUpstreamResponseTime)
	w.ttft, _ = r.Float(ingest.FTTFT)
	w.status, w.hasStatus = r.Int(ingest.FStatus)
	w.stream, w.hasStream = r.Bool(ingest.FStream)
	w.client = string(r.Text(ingest.FClient))
	w.remoteAddr = string(r.Text(ingest.FRemoteAddr))
	w.region = string(r.Text(ingest.FRegion))
	w.clientRegion = string(r.Text(ingest.FClientRegion))
	w.model, w.hasModel = string(r.Text(ingest.FModel)), r.Has(ingest.FModel)
	w.uri = string(r.Text(ingest.FURI))
	w.prompt, w.completion = -1, -1
	if v, ok := r.Int(ingest.FPromptTokens); ok {
		w.prompt = v
	}
	if v, ok := r.Int(ingest.FCompletionTokens); ok {
		w.completion = v
	}
	c.rows = append(c.rows, w)
}

// collect reads paths and returns every record's copy, sorted by time
// then request_time.
func collect(t testing.TB, paths []string, opts ingest.Options) ([]row, *ingest.Result) {
	t.Helper()
	sinks, res, err := ingest.Run(paths, opts, func() *collector { return &collector{} })
	if err != nil {
		t.Fatalf("run %v: %v", paths, err)
	}
	var rows []row
	for _, s := range sinks {
		rows = append(rows, s.rows...)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].timeNS != rows[j].timeNS {
			return rows[i].timeNS < rows[j].timeNS
		}
		return rows[i].rt < rows[j].rt
	})
	return rows, res
}

// accumulate reads paths into one merged Accumulator.
func accumulate(t testing.TB, paths []string, opts ingest.Options) (*aggregate.Accumulator, *ingest.Result) {
	t.Helper()
	m, err := sketch.NewMapping(0.01)
	if err != nil {
		t.Fatal(err)
	}
	sinks, res, err := ingest.Run(paths, opts, func() *aggregate.Accumulator {
		return aggregate.New(aggregate.Options{Mapping: m, Top: 1000})
	})
	if err != nil {
		t.Fatalf("run %v: %v", paths, err)
	}
	return aggregate.MergeAll(sinks), res
}

var columnarQuantiles = []float64{0, 0.25, 0.5, 0.9, 0.95, 0.99, 1}

// oracle returns the value at rank ⌊q·(n−1)⌋ of the sorted values.
func rankValue(sorted []float64, q float64) float64 {
	return sorted[int(q*float64(len(sorted)-1))]
}

func withinRel(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) < 1e-9
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// checkQuantiles compares a sketch with a sorted-slice oracle (values in
// the sketch's unit).
func checkQuantiles(t *testing.T, what string, s *sketch.Sketch, values []float64) {
	t.Helper()
	if s == nil {
		if len(values) > 0 {
			t.Errorf("%s: no sketch for %d values", what, len(values))
		}
		return
	}
	if s.Count() != int64(len(values)) {
		t.Errorf("%s: sketch holds %d values, want %d", what, s.Count(), len(values))
		return
	}
	sorted := append([]float64(nil), values...)
	sort.Float64s(sorted)
	for _, q := range columnarQuantiles {
		if got, want := s.Quantile(q), rankValue(sorted, q); !withinRel(got, want, 0.01) {
			t.Errorf("%s q%.2f = %.3f, want %.3f ±1%%", what, q, got, want)
		}
	}
}

// compareAccumulators checks that two reads of the same requests agree:
// request_time and ttft quantiles overall and per region and model within
// 1 %, and the same records per key.
func compareAccumulators(t *testing.T, name string, got, want *aggregate.Accumulator, metrics []int, dims []int) {
	t.Helper()
	cmp := func(what string, g, w *sketch.Entry) {
		if g == nil {
			t.Errorf("%s %s: missing", name, what)
			return
		}
		if g.Count != w.Count {
			t.Errorf("%s %s: %d records, want %d", name, what, g.Count, w.Count)
		}
		for _, m := range metrics {
			ws, gs := w.Metric(m), g.Metric(m)
			if ws == nil {
				continue
			}
			if gs == nil || gs.Count() != ws.Count() {
				t.Errorf("%s %s %s: values missing", name, what, aggregate.MetricNames[m])
				continue
			}
			for _, q := range columnarQuantiles {
				if gv, wv := gs.Quantile(q), ws.Quantile(q); !withinRel(gv, wv, 0.01) {
					t.Errorf("%s %s %s q%.2f = %.3f, want %.3f", name, what, aggregate.MetricNames[m], q, gv, wv)
				}
			}
		}
	}
	cmp("all", got.Set.All, want.Set.All)
	for _, d := range dims {
		wd, gd := want.Set.Dims[d], got.Set.Dims[d]
		if wd.Len() == 0 {
			t.Errorf("%s: the reference has no %s keys", name, wd.Name)
		}
		if gd.Len() != wd.Len() {
			t.Errorf("%s: %d %s keys, want %d", name, gd.Len(), wd.Name, wd.Len())
		}
		for _, ke := range wd.Sorted() {
			cmp(wd.Name+"="+ke.Key, gd.Get(ke.Key), ke.Entry)
		}
	}
}

func TestSampleParquetAndArrow(t *testing.T) {
	ex := filepath.Join(sharedDir(t), "examples")
	ref, refRes := accumulate(t, []string{filepath.Join(ex, "tokenhub-sample.jsonl")}, ingest.Options{})
	if ref.Records != 3000 || refRes.BadLines() != 3 {
		t.Fatalf("jsonl reference: %d records, %d bad lines; want 3000 and 3 (%+v)", ref.Records, refRes.BadLines(), refRes.Files)
	}
	all := []int{aggregate.RequestTime, aggregate.UpstreamResponseTime, aggregate.NetworkTime, aggregate.TTFT}
	for _, tc := range []struct {
		file    string
		format  ingest.Format
		metrics []int
		dims    []int
		// fields the file holds, each present as often as in the reference
		fields []ingest.Field
	}{
		{"tokenhub-sample.parquet", ingest.Parquet, all,
			[]int{aggregate.DimRegion, aggregate.DimModel, aggregate.DimStatus, aggregate.DimClient, aggregate.DimRoute, aggregate.DimStream, aggregate.DimURI},
			[]ingest.Field{ingest.FTime, ingest.FClient, ingest.FRemoteAddr, ingest.FClientRegion, ingest.FRegion, ingest.FModel,
				ingest.FStream, ingest.FStatus, ingest.FMethod, ingest.FURI, ingest.FRequestTime, ingest.FUpstreamResponseTime,
				ingest.FTTFT, ingest.FUpstreamConnectTime, ingest.FSSLHandshakeTime, ingest.FTCPInfoRTT, ingest.FConnection,
				ingest.FConnectionRequests, ingest.FRetryAfter, ingest.FPromptTokens, ingest.FCompletionTokens}},
		{"tokenhub-sample.arrow", ingest.Arrow, all,
			[]int{aggregate.DimRegion, aggregate.DimModel, aggregate.DimStatus, aggregate.DimClient, aggregate.DimRoute, aggregate.DimStream, aggregate.DimURI},
			[]ingest.Field{ingest.FTime, ingest.FClient, ingest.FRemoteAddr, ingest.FClientRegion, ingest.FRegion, ingest.FModel,
				ingest.FStream, ingest.FStatus, ingest.FURI, ingest.FRequestTime, ingest.FUpstreamResponseTime,
				ingest.FTTFT, ingest.FSSLHandshakeTime, ingest.FTCPInfoRTT, ingest.FConnectionRequests, ingest.FRetryAfter}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, res := accumulate(t, []string{filepath.Join(ex, tc.file)}, ingest.Options{})
			if got.Records != 3000 || res.BadLines() != 0 || res.Incomplete() {
				t.Fatalf("%d records, %d bad, incomplete %v (%+v); want 3000, 0, false", got.Records, res.BadLines(), res.Incomplete(), res.Files)
			}
			if f := res.Files[0].Format; f != tc.format {
				t.Errorf("format %s, want %s", f, tc.format)
			}
			for _, f := range tc.fields {
				if got.Present()[f] != ref.Present()[f] || got.Present()[f] == 0 {
					t.Errorf("%s present in %d records, want %d", f, got.Present()[f], ref.Present()[f])
				}
			}
			if got.MinTime != ref.MinTime || got.MaxTime != ref.MaxTime {
				t.Errorf("time span [%d, %d], want [%d, %d]", got.MinTime, got.MaxTime, ref.MinTime, ref.MaxTime)
			}
			compareAccumulators(t, tc.file, got, ref, tc.metrics, tc.dims)
		})
	}
}
