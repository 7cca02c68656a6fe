package rules

import (
	"fmt"
	"sort"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

func keepaliveNeeds(acc *aggregate.Accumulator, c *Config) string {
	if why := absent(acc, ingest.FClient); why != "" {
		return why
	}
	if acc.Present[ingest.FConnectionRequests] == 0 && acc.Present[ingest.FSSLHandshakeTime] == 0 {
		return missing("connection_requests", "ssl_handshake_time")
	}
	return ""
}

// keepalive flags callers that open a new connection for most requests:
// connection_requests = 1, or, where that is absent, a full TLS handshake.
func keepalive(acc *aggregate.Accumulator, c *Config) []Finding {
	cfg := c.Keepalive
	var out []Finding
	for _, cl := range sortedClients(acc) {
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
		out = append(out, Finding{
			Rule:     RuleKeepalive,
			Severity: Warn,
			Key:      Fields{{"client", cl.Client}},
			Title:    fmt.Sprintf("%s opens a new connection for most requests", cl.Client),
			Evidence: ev,
			Impact:   impact(cost, fresh),
			Advice: fmt.Sprintf("Enable HTTP keep-alive / a connection pool in %s (idle timeout ~60 s): %.0f %% of its %d requests paid a new connection, ~%.0f ms each.",
				cl.Client, 100*share, cl.Requests, cost),
		})
	}
	return out
}

// sortedClients returns the clients by name.
func sortedClients(acc *aggregate.Accumulator) []*aggregate.ClientStats {
	out := make([]*aggregate.ClientStats, 0, len(acc.Rules.Clients))
	for _, c := range acc.Rules.Clients {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Client < out[j].Client })
	return out
}
