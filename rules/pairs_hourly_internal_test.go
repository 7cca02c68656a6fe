package rules

import (
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// TestPairsHourlyCountOnce: in a run with --state the hours gather
// latency_regression's pairs for their files, and the window's are the
// hours' merged: each record counted once in the window's pairs, as in a
// run without hours, and each hour's pairs holding its own records.
func TestPairsHourlyCountOnce(t *testing.T) {
	cfg := Default()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	recs := append(mixHour(1, t0, 0.3), mixHour(2, t0.Add(time.Hour), 0.3)...)
	run := func(hourly bool) *aggregate.Accumulator {
		opts := aggregate.Options{Mapping: m, Top: 100, Collectors: cfg.Collectors(m, 100, true), TokenURI: cfg.TokenURI}
		if hourly {
			opts.Hourly, opts.HourCollectors = true, cfg.Collectors(m, 100, true)
		}
		accs := []*aggregate.Accumulator{aggregate.New(opts), aggregate.New(opts)}
		var r ingest.Record
		for i, x := range recs {
			r.Reset()
			r.SetTime(x.at.UnixNano())
			r.SetText(ingest.FClient, []byte(x.client))
			r.SetText(ingest.FRegion, []byte(x.region))
			r.SetText(ingest.FModel, []byte(x.model))
			r.SetFloat(ingest.FStatus, float64(x.status))
			r.SetFloat(ingest.FRequestTime, x.rt)
			accs[i%2].Add(&r)
		}
		return aggregate.MergeAll(accs)
	}
	// The region's pairs with the status: every record's once.
	count := func(acc *aggregate.Accumulator) int64 {
		p := cfg.historyPairs(acc.Collectors)
		if p == nil {
			t.Fatal("no pairs")
		}
		ps := p.get(aggregate.DimRegion, "ap-beijing", aggregate.DimStatus, "200")
		if ps == nil {
			return 0
		}
		return ps.count
	}
	if n := count(run(false)); n != int64(len(recs)) {
		t.Fatalf("without hours: the pairs count %d records, the run read %d", n, len(recs))
	}
	acc := run(true)
	if n := count(acc); n != int64(len(recs)) {
		t.Errorf("with hours: the window's pairs count %d records, the run read %d", n, len(recs))
	}
	for _, h := range acc.SortedHours() {
		b := acc.Hours[h].AppendBinary(nil)
		back, err := aggregate.Decode(aggregate.Options{Mapping: m, Top: 100, Collectors: cfg.HistoryCollectors(m, 100), OptionalCollectors: true}, b)
		if err != nil {
			t.Fatal(err)
		}
		if n := count(back); n != 6000 {
			t.Errorf("hour %d's file: its pairs count %d records, the hour has 6000", h, n)
		}
	}
}
