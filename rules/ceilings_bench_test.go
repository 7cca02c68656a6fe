package rules

import (
	"math"
	"math/rand/v2"
	"testing"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// BenchmarkCeilingsAdd adds requests of 40 callers, their times
// spread as a gateway's are, to timeout_ceiling's collector.
func BenchmarkCeilingsAdd(b *testing.B) {
	m, _ := sketch.NewMapping(sketch.DefaultAccuracy)
	c := newTimeout().(*timeoutRule)
	_, mk := c.collector()
	col := mk(collectEnv{m: m, top: 1000, cfg: Default()})
	rnd := rand.New(rand.NewPCG(1, 2))
	recs := make([]ingest.Record, 1024)
	vals := make([]aggregate.Values, len(recs))
	for i := range recs {
		recs[i].SetText(ingest.FClient, []byte{'a', byte('0' + i%40)})
		recs[i].SetFloat(ingest.FStatus, 200)
		vals[i].RequestTime, vals[i].HasRequestTime = math.Exp(rnd.NormFloat64())*0.5, true
		vals[i].Combo = i % 40 // a combination holds its caller
	}
	for i := 0; b.Loop(); i++ {
		col.Add(&recs[i&1023], &vals[i&1023])
	}
}
