package gen

// Slow slows the upstream of the inference calls to a region, or of a
// model, by a factor: upstream_response_time is Factor times longer and
// request_time longer by the same amount, so the time grows in the
// upstream, not the network; a slowed model's first token comes Factor
// times later too. It draws no random number, so the same seed gives the
// same traffic with and without it. The zero value slows nothing.
type Slow struct {
	Region, Model string
	Factor        float64
}

func (s Slow) on() bool { return s.Factor > 0 && s.Factor != 1 }

// upstream returns the upstream time (s, 3 decimals) of a call of model
// m to region.
func (s Slow) upstream(up float64, region, m string) float64 {
	if s.on() && (s.Region != "" && s.Region == region || s.Model != "" && s.Model == m) {
		return round(up*s.Factor, 3)
	}
	return up
}

// firstToken returns the first-token time (ms, network apart) of a
// streaming call of model m.
func (s Slow) firstToken(ms float64, m string) float64 {
	if s.on() && s.Model != "" && s.Model == m {
		return ms * s.Factor
	}
	return ms
}
