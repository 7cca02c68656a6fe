package rules

import (
	"strings"
	"testing"
)

// conns makes n requests of client, the first fresh of them on a new
// connection with a full TLS handshake of 30 ms.
func conns(n, fresh int, client string) []rec {
	return times(n, rec{client: client, region: "eu", status: 200, rt: 1, connReq: 7, hasSSL: true, rttUS: 2000}, func(i int, r *rec) {
		if i < fresh {
			r.connReq = 1
			r.ssl = 0.030
		}
	})
}

func TestKeepaliveEdges(t *testing.T) {
	for _, tc := range []struct {
		n, fresh int
		fires    bool
	}{{50, 40, true}, {50, 39, false}, {49, 49, false}, {200, 200, true}} {
		fs := ruleFindings(t, nil, RuleKeepalive, conns(tc.n, tc.fresh, "app-x"))
		if got := len(fs) == 1; got != tc.fires {
			t.Errorf("%d of %d new: fired %v, want %v", tc.fresh, tc.n, got, tc.fires)
			continue
		}
		if !tc.fires {
			continue
		}
		if keyString(fs[0]) != `{"client":"app-x"}` {
			t.Errorf("key %s", keyString(fs[0]))
		}
		// A new connection: one RTT (2 ms) for TCP plus the 30 ms handshake.
		if got := fs[0].Impact.MsPerRequest; got < 31.99 || got > 32.01 {
			t.Errorf("impact %v ms per new connection, want 32", got)
		}
		if fs[0].Impact.Requests != int64(tc.fresh) {
			t.Errorf("impact requests %d, want %d", fs[0].Impact.Requests, tc.fresh)
		}
	}
}

func TestKeepaliveFromTLSWhenConnectionRequestsAbsent(t *testing.T) {
	recs := conns(50, 40, "app-x")
	for i := range recs {
		recs[i].connReq = 0
	}
	fs := ruleFindings(t, nil, RuleKeepalive, recs)
	if len(fs) != 1 || !strings.Contains(fs[0].Evidence.Get("measured_by").(string), "TLS") {
		t.Fatalf("got %+v, want one finding measured by TLS handshakes", fs)
	}
	recs = conns(50, 39, "app-x")
	for i := range recs {
		recs[i].connReq = 0
	}
	if fs := ruleFindings(t, nil, RuleKeepalive, recs); len(fs) != 0 {
		t.Errorf("39 of 50 handshakes fired: %+v", fs)
	}
}

func TestKeepaliveNotEvaluated(t *testing.T) {
	recs := conns(60, 60, "app-x")
	for i := range recs {
		recs[i].connReq, recs[i].hasSSL = 0, false
	}
	wantNotEvaluated(t, RuleKeepalive, recs, "connection_requests", "ssl_handshake_time")
	recs = conns(60, 60, "")
	wantNotEvaluated(t, RuleKeepalive, recs, "client")
}

// TestKeepaliveCostUnmeasured: a caller's new connections with neither
// an RTT nor a handshake's time logged cost what the log cannot show;
// the advice says so instead of "~0 ms each".
func TestKeepaliveCostUnmeasured(t *testing.T) {
	recs := conns(50, 45, "app-900")
	for i := range recs {
		recs[i].hasSSL, recs[i].ssl, recs[i].rttUS = false, 0, 0
	}
	fs := ruleFindings(t, nil, RuleKeepalive, recs)
	if len(fs) != 1 {
		t.Fatalf("%d findings, want 1", len(fs))
	}
	if a := fs[0].Advice; strings.Contains(a, "~0 ms") || !strings.Contains(a, "a cost the log does not show") || !strings.Contains(a, "90 % of its 50 requests") {
		t.Errorf("advice %q, want 90 %% of 50 at a cost the log does not show", a)
	}
}
