package rules

import (
	"sort"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// run is adjacent minutes of one region × model that each met a rule's
// per-minute trigger.
type run struct {
	region, model string
	buckets       []*aggregate.Bucket // in minute order
}

func (r *run) window() *Window {
	return &Window{From: r.buckets[0].Minute * 60e9, To: (r.buckets[len(r.buckets)-1].Minute + 1) * 60e9}
}

// sum adds a count over the run's minutes.
func (r *run) sum(f func(*aggregate.Bucket) int64) (n int64) {
	for _, b := range r.buckets {
		n += f(b)
	}
	return n
}

// peak is the largest per-minute count.
func (r *run) peak(f func(*aggregate.Bucket) int64) (n int64) {
	for _, b := range r.buckets {
		n = max(n, f(b))
	}
	return n
}

// runs groups the minutes that meet hit into runs of adjacent minutes
// per region × model, in region, model, time order.
func runs(acc *aggregate.Accumulator, hit func(*aggregate.Bucket) bool) []run {
	var bs []*aggregate.Bucket
	for _, b := range acc.Rules.Buckets {
		if hit(b) {
			bs = append(bs, b)
		}
	}
	sort.Slice(bs, func(i, j int) bool {
		a, b := bs[i], bs[j]
		if a.Region != b.Region {
			return a.Region < b.Region
		}
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		return a.Minute < b.Minute
	})
	var out []run
	for _, b := range bs {
		if n := len(out); n > 0 {
			last := &out[n-1]
			prev := last.buckets[len(last.buckets)-1]
			if prev.Region == b.Region && prev.Model == b.Model && prev.Minute+1 == b.Minute {
				last.buckets = append(last.buckets, b)
				continue
			}
		}
		out = append(out, run{region: b.Region, model: b.Model, buckets: []*aggregate.Bucket{b}})
	}
	return out
}

func timeBoundNeeds(acc *aggregate.Accumulator) string {
	return absent(acc, ingest.FTime, ingest.FStatus, ingest.FRegion, ingest.FModel)
}
