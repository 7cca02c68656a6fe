package rules

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkPruneRequests cuts a full sample's request times to the
// bound, as a busy caller's sample is every few dozen requests.
func BenchmarkPruneRequests(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	times := make([]uint32, 2*maxRequestTimes)
	for i := range times {
		times[i] = uint32(rnd.Int64N(60e6))
	}
	rs := &retrySample{Minute: testMinute, Requests: make([]uint32, 0, 2*maxRequestTimes)}
	for b.Loop() {
		rs.Requests = append(rs.Requests[:0], times...)
		rs.pruneRequests(maxRequestTimes)
	}
}
