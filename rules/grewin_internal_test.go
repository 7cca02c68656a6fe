package rules

import (
	"math"
	"testing"
)

// TestGrewIn names the phase a regression's time grew in from the mean
// changes of the phases, each case's answer worked out from the rule
// the comment states.
func TestGrewIn(t *testing.T) {
	for _, c := range []struct {
		w    timeWent
		want string
	}{
		// The upstream grew, the first token not by half of it.
		{timeWent{upstream: 800, network: 10, ttft: 100, hasUpstream: true, hasNetwork: true, hasTTFT: true}, "upstream"},
		// The upstream grew, the first token by more than half of it.
		{timeWent{upstream: 800, network: 10, ttft: 600, hasUpstream: true, hasNetwork: true, hasTTFT: true}, "first_token"},
		// The network grew, nothing else.
		{timeWent{upstream: -5, network: 40, ttft: 3, hasUpstream: true, hasNetwork: true, hasTTFT: true}, "network"},
		// Non-streaming calls joined: the first token 3.3 s later, the
		// upstream's mean lower, the network's +0.018 ms no growth.
		{timeWent{upstream: -759, network: 0.018, ttft: 3352, hasUpstream: true, hasNetwork: true, hasTTFT: true}, "first_token"},
		// Nothing grew by a millisecond.
		{timeWent{upstream: -759, network: 0.018, ttft: -3, hasUpstream: true, hasNetwork: true, hasTTFT: true}, "unknown"},
		// The network grew, but the first token twice as much.
		{timeWent{upstream: -10, network: 50, ttft: 150, hasUpstream: true, hasNetwork: true, hasTTFT: true}, "first_token"},
		// Both grew alike: neither twice the other.
		{timeWent{upstream: 100, network: 80, hasUpstream: true, hasNetwork: true}, "unknown"},
		// No network time: nothing to tell apart.
		{timeWent{upstream: 100, hasUpstream: true}, "unknown"},
	} {
		if got := c.w.grewIn(); got != c.want {
			t.Errorf("%+v: grew in %q, want %q", c.w, got, c.want)
		}
	}
}

// TestExcessShare: a part's share of the growth of a key's slow tail,
// worked out by hand: of 1,186 requests 61 are above the old p99 where
// 11.86 were (1 %); the part's 127 requests hold 33 of them where 1.27
// were: (33 − 1.27) / (61 − 11.86) = 0.6457.
func TestExcessShare(t *testing.T) {
	for _, c := range []struct {
		n, tail, pn, ptail int64
		want               float64
	}{
		{1186, 61, 127, 33, 31.73 / 49.14},
		{1000, 10, 100, 5, 0},   // the tail did not grow
		{1000, 60, 1000, 60, 1}, // the part is the key
		{1000, 60, 100, 0, 0},   // the part's requests hold less than their 1 %
	} {
		if got := excessShare(c.n, c.tail, c.pn, c.ptail); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("excessShare(%d, %d, %d, %d) = %v, want %v", c.n, c.tail, c.pn, c.ptail, got, c.want)
		}
	}
}

// bins is a binned of fixed bins.
type bins [][3]float64 // lower, upper, count

func (b bins) Bins(f func(lower, upper float64, count int64)) {
	for _, x := range b {
		f(x[0], x[1], int64(x[2]))
	}
}

// TestCountAbove counts only the bins wholly above the value: the bin
// that holds it holds the values about it.
func TestCountAbove(t *testing.T) {
	b := bins{{580, 590, 7}, {590, 600, 40}, {600, 610, 3}, {900, 910, 2}}
	if got := countAbove(b, 596); got != 5 {
		t.Errorf("countAbove 596: %d, want 5", got)
	}
	if got := countAbove(b, 590); got != 45 {
		t.Errorf("countAbove 590: %d, want 45", got)
	}
}
