package rules

import (
	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// run is adjacent minutes of one key that each met a rule's per-minute
// trigger.
type run struct {
	kind    keyKind
	key     [2]string
	buckets []*minuteBucket // in minute order
}

// keyFields is the run's key as a finding's key: the fields it is keyed
// by (keyKind), {"all": ""} for the whole input.
func (r *run) keyFields() Fields {
	var fs Fields
	for i, name := range r.kind.Fields() {
		fs = append(fs, Field{name, r.key[i]})
	}
	return fs
}

// where names the run's key in titles and advice: "ap-guangzhou ×
// deepseek-v3", "upstream_addr 10.0.0.1:80", "all requests".
func (r *run) where() string {
	switch r.kind {
	case keyRegionModel:
		return r.key[0] + " × " + r.key[1]
	case keyAll:
		return "all requests"
	}
	return r.kind.Fields()[0] + " " + r.key[0]
}

func (r *run) window() *Window {
	return &Window{From: r.buckets[0].Minute * 60e9, To: (r.buckets[len(r.buckets)-1].Minute + 1) * 60e9}
}

// sum adds a count over the run's minutes.
func (r *run) sum(f func(*minuteBucket) int64) (n int64) {
	for _, b := range r.buckets {
		n += f(b)
	}
	return n
}

// peak is the largest per-minute count.
func (r *run) peak(f func(*minuteBucket) int64) (n int64) {
	for _, b := range r.buckets {
		n = max(n, f(b))
	}
	return n
}

// runs groups the minutes that meet hit into runs of adjacent minutes
// per key, in kind, key, time order.
func (ms *minuteStats) runs(hit func(*minuteBucket) bool) []run {
	var out []run
	for _, b := range ms.Buckets { // sorted by kind, key, minute
		if !hit(b) {
			continue
		}
		if n := len(out); n > 0 {
			last := &out[n-1]
			prev := last.buckets[len(last.buckets)-1]
			if prev.Kind == b.Kind && prev.Key == b.Key && prev.Minute+1 == b.Minute {
				last.buckets = append(last.buckets, b)
				continue
			}
		}
		out = append(out, run{kind: b.Kind, key: b.Key, buckets: []*minuteBucket{b}})
	}
	return out
}

// timeBoundNeeds says what the storm and burst rules miss: a time and a
// status; the key falls back to what the records have (keyKind).
func timeBoundNeeds(acc *aggregate.Accumulator) string {
	return absent(acc, ingest.FTime, ingest.FStatus)
}
