package rules

import (
	"testing"
	"time"
)

// route makes n requests from one client region to another with a fixed
// network time (ms) on top of a 1 s upstream time.
func route(n int, client, from, to string, netMs float64) []rec {
	return times(n, rec{client: client, from: from, region: to, status: 200, rt: 1 + netMs/1000, urt: 1, hasURT: true}, nil)
}

func TestCrossRegionRequestFloor(t *testing.T) {
	local := route(100, "app-a", "eu", "eu", 2)
	for _, tc := range []struct {
		n     int
		fires bool
	}{{49, false}, {50, true}} {
		fs := ruleFindings(t, nil, RuleCrossRegion, concat(local, route(tc.n, "app-b", "us", "eu", 150)))
		if got := len(fs) == 1; got != tc.fires {
			t.Fatalf("%d requests: fired %v, want %v (%d findings)", tc.n, got, tc.fires, len(fs))
		}
		if !tc.fires {
			continue
		}
		f := fs[0]
		if keyString(f) != `{"client_region":"us","region":"eu"}` {
			t.Errorf("key %s", keyString(f))
		}
		if f.Severity != Crit {
			t.Errorf("p95 150 ms: severity %v, want crit", f.Severity)
		}
		// 150 ms network against 2 ms in the region, within the sketch accuracy.
		if got := f.Impact.MsPerRequest; got < 150*0.99-2*1.01 || got > 150*1.01-2*0.99 {
			t.Errorf("impact %v ms per request, want ~148", got)
		}
		if f.Impact.Requests != int64(tc.n) {
			t.Errorf("impact requests %d, want %d", f.Impact.Requests, tc.n)
		}
	}
}

func TestCrossRegionCritEdge(t *testing.T) {
	for _, tc := range []struct {
		netMs float64
		want  Severity
	}{{98, Warn}, {102, Crit}} {
		fs := ruleFindings(t, nil, RuleCrossRegion, route(60, "app-b", "us", "eu", tc.netMs))
		if len(fs) != 1 || fs[0].Severity != tc.want {
			t.Errorf("network %v ms: %+v, want one %v finding", tc.netMs, fs, tc.want)
		}
	}
}

func TestCrossRegionSameRegionNeverFires(t *testing.T) {
	if fs := ruleFindings(t, nil, RuleCrossRegion, route(500, "app-a", "eu", "eu", 300)); len(fs) != 0 {
		t.Errorf("same-region route fired: %+v", fs)
	}
}

// inferred makes n requests of a client to region without client_region.
func inferred(n int, client, region string, netMs float64) []rec {
	return times(n, rec{client: client, region: region, status: 200, rt: 1 + netMs/1000, urt: 1, hasURT: true}, nil)
}

func TestCrossRegionInferred(t *testing.T) {
	base := concat(inferred(60, "a", "eu", 2), inferred(60, "b", "eu", 2), inferred(60, "c", "eu", 3), inferred(60, "d", "eu", 2))
	for _, tc := range []struct {
		netMs float64
		fires bool
	}{{2 + 18, false}, {2 + 23, true}} {
		fs := ruleFindings(t, nil, RuleCrossRegion, concat(base, inferred(60, "far", "eu", tc.netMs)))
		if got := len(fs) == 1; got != tc.fires {
			t.Fatalf("network %v ms: fired %v, want %v (%+v)", tc.netMs, got, tc.fires, fs)
		}
		if tc.fires && keyString(fs[0]) != `{"client":"far","region":"eu","inferred":true}` {
			t.Errorf("key %s", keyString(fs[0]))
		}
	}
	// Under the request floor it does not fire however far.
	if fs := ruleFindings(t, nil, RuleCrossRegion, concat(base, inferred(49, "far", "eu", 200))); len(fs) != 0 {
		t.Errorf("49 requests fired: %+v", fs)
	}
}

func TestCrossRegionInferredFromRTT(t *testing.T) {
	var recs []rec
	for _, c := range []struct {
		client string
		rttUS  float64
	}{{"a", 1000}, {"b", 1200}, {"c", 900}, {"far", 40000}} {
		recs = append(recs, times(60, rec{client: c.client, region: "eu", status: 200, rt: 1, rttUS: c.rttUS}, nil)...)
	}
	fs := ruleFindings(t, nil, RuleCrossRegion, recs)
	if len(fs) != 1 || fs[0].Key.Get("client") != "far" || fs[0].Evidence.Get("metric") != "tcpinfo_rtt" {
		t.Errorf("got %+v, want one inferred finding for far from tcpinfo_rtt", fs)
	}
}

func TestCrossRegionNotEvaluated(t *testing.T) {
	wantNotEvaluated(t, RuleCrossRegion, times(100, rec{client: "a", from: "us", status: 200, rt: 1}, nil), "region")
	// No client_region, and nothing to infer from.
	wantNotEvaluated(t, RuleCrossRegion, times(100, rec{client: "a", region: "eu", status: 200, rt: 1, at: t0.Add(time.Second)}, nil),
		"client_region", "upstream_response_time", "tcpinfo_rtt")
}
