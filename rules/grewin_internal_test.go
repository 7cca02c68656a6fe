package rules

import "testing"

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
