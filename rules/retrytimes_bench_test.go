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

// BenchmarkPruneLimited cuts a caller's 429s of a storm minute, a few
// thousand, to the bound, as the storm rule's samples are settled.
func BenchmarkPruneLimited(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	ls := make([]Limited, 2000)
	for i := range ls {
		ls[i] = Limited{T: testMinute*60e9 + rnd.Int64N(60e9), RetryAfter: float64(rnd.IntN(3))}
	}
	buf := make([]Limited, len(ls))
	for b.Loop() {
		copy(buf, ls)
		pruneLimited(buf, maxLimitedTimes)
	}
}
