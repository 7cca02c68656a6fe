package rules

import (
	"testing"
	"time"
)

func TestBurstEdges(t *testing.T) {
	for _, tc := range []struct {
		total, bad, status int
		fires              bool
	}{{400, 20, 502, true}, {400, 19, 502, false}, {401, 20, 504, false}, {400, 20, 499, true}, {100, 20, 404, false}} {
		fs := ruleFindings(t, nil, RuleBurst, minute(40, tc.total, tc.bad, tc.status, 0))
		if got := len(fs) == 1; got != tc.fires {
			t.Errorf("%d × %d of %d: fired %v, want %v", tc.bad, tc.status, tc.total, got, tc.fires)
			continue
		}
		if !tc.fires {
			continue
		}
		f := fs[0]
		if keyString(f) != `{"region":"eu","model":"big-72b"}` {
			t.Errorf("key %s", keyString(f))
		}
		if f.Window == nil || f.Window.From != t0.Add(40*time.Minute).UnixNano() || f.Window.To != t0.Add(41*time.Minute).UnixNano() {
			t.Errorf("window %+v, want minute 40", f.Window)
		}
		by := f.Evidence.Get("by_status").(Fields)
		if len(by) != 1 || by[0].Value != int64(tc.bad) {
			t.Errorf("by_status %+v, want %d × %d", by, tc.bad, tc.status)
		}
		// Each failed call lost its request_time, 0.5 s.
		if f.Impact.MsPerRequest != 500 || f.Impact.Requests != int64(tc.bad) {
			t.Errorf("impact %+v, want 500 ms × %d", f.Impact, tc.bad)
		}
	}
}

func TestBurstAdjacentMinutesMerge(t *testing.T) {
	recs := concat(minute(40, 100, 30, 502, 0), minute(41, 100, 30, 504, 0), minute(42, 100, 30, 503, 0))
	fs := ruleFindings(t, nil, RuleBurst, recs)
	if len(fs) != 1 {
		t.Fatalf("%d findings, want 1", len(fs))
	}
	f := fs[0]
	if f.Window.From != t0.Add(40*time.Minute).UnixNano() || f.Window.To != t0.Add(43*time.Minute).UnixNano() {
		t.Errorf("window %+v, want [40, 43)", f.Window)
	}
	if f.Evidence.Get("errors") != int64(90) {
		t.Errorf("errors %v, want 90", f.Evidence.Get("errors"))
	}
}

func TestBurstNotEvaluated(t *testing.T) {
	recs := minute(40, 100, 50, 502, 0)
	for i := range recs {
		recs[i].status = 0
	}
	wantNotEvaluated(t, RuleBurst, recs, "status")
	recs = minute(40, 100, 50, 502, 0)
	for i := range recs {
		recs[i].at = time.Time{}
	}
	wantNotEvaluated(t, RuleBurst, recs, "time")
}
