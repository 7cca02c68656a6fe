package rules

import (
	"fmt"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// keepaliveRule is missing_keepalive (SPEC §5): callers that open a new
// connection for most requests.
type keepaliveRule struct {
	enabled
	MinRequests        int64
	NewConnectionShare float64
}

func newKeepalive() rule {
	return &keepaliveRule{enabled: enabled{true}, MinRequests: 50, NewConnectionShare: 0.8}
}

func (*keepaliveRule) id() string { return RuleKeepalive }

func (r *keepaliveRule) params() []param {
	return []param{enabledP(&r.Enabled), intP("min_requests", &r.MinRequests), shareP("new_connection_share", &r.NewConnectionShare)}
}

func (*keepaliveRule) collector() (string, func(collectEnv) aggregate.Collector) {
	return callersCollector()
}

func (*keepaliveRule) needs(acc *aggregate.Accumulator) string { return keepaliveNeeds(acc) }

func (r *keepaliveRule) evaluate(_ *aggregate.Accumulator, col aggregate.Collector, _ *Config) ([]Finding, string) {
	cs := col.(*callers)
	return keepalive(cs, r), cs.clients.partly("callers")
}

func keepaliveNeeds(acc *aggregate.Accumulator) string {
	if why := absent(acc, ingest.FClient); why != "" {
		return why
	}
	if acc.Present()[ingest.FConnectionRequests] == 0 && acc.Present()[ingest.FSSLHandshakeTime] == 0 {
		return missing("connection_requests", "ssl_handshake_time")
	}
	return ""
}

// keepalive flags callers that open a new connection for most requests:
// connection_requests = 1, or, where that is absent, a full TLS handshake.
func keepalive(cs *callers, cfg *keepaliveRule) []Finding {
	var out []Finding
	for _, cl := range cs.sorted() {
		basis, fresh, measure := cl.ConnKnown, cl.NewConn, "connection_requests=1"
		if basis == 0 {
			basis, fresh, measure = cl.SSLKnown, cl.FullTLS, "a full TLS handshake"
		}
		if cl.Requests < cfg.MinRequests || basis < cfg.MinRequests {
			continue
		}
		share := float64(fresh) / float64(basis)
		if share < cfg.NewConnectionShare {
			continue
		}
		ev := Fields{{"requests", cl.Requests}, {"new_connection_requests", fresh}, {"new_connection_share", round(share, 3)}, {"measured_by", measure}}
		// Impact: a new connection costs a TCP handshake (one RTT) and a
		// TLS handshake (measured by ssl_handshake_time when present, else
		// one more RTT); a pooled connection costs neither.
		rtt := 0.0
		if cl.RTTKnown > 0 {
			rtt = cl.RTTMs.Float() / float64(cl.RTTKnown)
			ev = append(ev, Field{"tcpinfo_rtt_mean_ms", round(rtt, 2)})
		}
		tls := rtt
		if cl.FullTLS > 0 {
			tls = cl.HandshakeMs.Float() / float64(cl.FullTLS)
			ev = append(ev, Field{"full_tls_handshakes", cl.FullTLS}, Field{"tls_handshake_mean_ms", round(tls, 1)})
		}
		cost := rtt + tls
		advice := fmt.Sprintf("Enable HTTP keep-alive / a connection pool in %s (idle timeout ~60 s): %.0f %% of its %d requests paid a new connection, ~%.0f ms each.",
			cl.Client, 100*share, cl.Requests, cost)
		if cl.RTTKnown == 0 && cl.FullTLS == 0 {
			// Neither an RTT nor a handshake's time: the cost is unknown,
			// not nothing.
			advice = fmt.Sprintf("Enable HTTP keep-alive / a connection pool in %s (idle timeout ~60 s): %.0f %% of its %d requests paid a new connection, at a cost the log does not show (log $tcpinfo_rtt and $ssl_handshake_time to measure it; a new connection costs one to two round trips).",
				cl.Client, 100*share, cl.Requests)
		}
		out = append(out, Finding{
			Rule:     RuleKeepalive,
			Severity: Warn,
			Key:      Fields{{"client", cl.Client}},
			Title:    fmt.Sprintf("%s opens a new connection for most requests", cl.Client),
			Evidence: ev,
			Impact:   impact(cost, fresh),
			Advice:   advice,
		})
	}
	return out
}
