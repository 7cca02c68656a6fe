package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

// minute makes total requests of region × model in minute m after t0,
// the first bad of them with status, spread over the minute.
func minute(m, total, bad, status int, retryAfter float64) []rec {
	return times(total, rec{region: "eu", model: "big-72b", status: 200, rt: 0.5}, func(i int, r *rec) {
		r.at = t0.Add(time.Duration(m)*time.Minute + time.Duration(i)*time.Minute/time.Duration(total))
		r.client = "c" + string(rune('a'+i%5))
		if i < bad {
			r.status = status
			r.retryAfter = retryAfter
		}
	})
}

func TestStormEdges(t *testing.T) {
	for _, tc := range []struct {
		total, n429 int
		fires       bool
	}{{100, 20, true}, {50, 19, false}, {101, 20, false}, {20, 20, true}} {
		fs := ruleFindings(t, nil, RuleStorm, minute(5, tc.total, tc.n429, 429, 2))
		if got := len(fs) == 1; got != tc.fires {
			t.Errorf("%d of %d: fired %v, want %v", tc.n429, tc.total, got, tc.fires)
			continue
		}
		if !tc.fires {
			continue
		}
		f := fs[0]
		if keyString(f) != `{"region":"eu","model":"big-72b"}` {
			t.Errorf("key %s", keyString(f))
		}
		if f.Window == nil || f.Window.From != t0.Add(5*time.Minute).UnixNano() || f.Window.To != t0.Add(6*time.Minute).UnixNano() {
			t.Errorf("window %+v, want minute 5", f.Window)
		}
		// Each 429 costs its Retry-After, 2 s.
		if f.Impact.MsPerRequest != 2000 || f.Impact.Requests != int64(tc.n429) {
			t.Errorf("impact %+v, want 2000 ms × %d", f.Impact, tc.n429)
		}
	}
}

func TestStormAdjacentMinutesMerge(t *testing.T) {
	recs := concat(minute(5, 40, 30, 429, 1), minute(6, 40, 30, 429, 1), minute(7, 40, 5, 429, 1), minute(8, 40, 30, 429, 1))
	fs := ruleFindings(t, nil, RuleStorm, recs)
	if len(fs) != 2 {
		t.Fatalf("%d findings, want 2 (minutes 5–6 and 8)", len(fs))
	}
	var spans [][2]int64
	for _, f := range fs {
		spans = append(spans, [2]int64{(f.Window.From - t0.UnixNano()) / int64(time.Minute), (f.Window.To - t0.UnixNano()) / int64(time.Minute)})
	}
	if !(spans[0] == [2]int64{5, 7} && spans[1] == [2]int64{8, 9} || spans[1] == [2]int64{5, 7} && spans[0] == [2]int64{8, 9}) {
		t.Errorf("windows %v, want [5, 7) and [8, 9)", spans)
	}
}

func TestStormNamesEarlyRetriers(t *testing.T) {
	var recs []rec
	at := t0.Add(3 * time.Minute)
	for i := 0; i < 15; i++ {
		base := at.Add(time.Duration(i) * 3 * time.Second)
		// hasty gets a 429 with Retry-After 2 s and retries after 0.5 s;
		// patient waits 2.5 s; the last retry of each crosses into the
		// next minute.
		recs = append(recs,
			rec{at: base, client: "hasty", region: "eu", model: "m", status: 429, rt: 0.01, retryAfter: 2},
			rec{at: base.Add(500 * time.Millisecond), client: "hasty", region: "eu", model: "m", status: 200, rt: 1},
			rec{at: base, client: "patient", region: "eu", model: "m", status: 429, rt: 0.01, retryAfter: 2},
			rec{at: base.Add(2500 * time.Millisecond), client: "patient", region: "eu", model: "m", status: 200, rt: 1})
	}
	fs := ruleFindings(t, nil, RuleStorm, recs)
	if len(fs) != 1 {
		t.Fatalf("%d findings, want 1", len(fs))
	}
	early := fs[0].Evidence.Get("retried_before_retry_after").([]string)
	if len(early) != 1 || !strings.HasPrefix(early[0], "hasty: 15 of 15 ") {
		t.Errorf("early retriers %q, want hasty with 15 of 15", early)
	}
	if !strings.Contains(fs[0].Advice, "hasty") || strings.Contains(fs[0].Advice, "patient") {
		t.Errorf("advice %q should name hasty and not patient", fs[0].Advice)
	}
}

func TestStormNotEvaluated(t *testing.T) {
	recs := minute(5, 100, 50, 429, 2)
	for i := range recs {
		recs[i].at = time.Time{}
	}
	wantNotEvaluated(t, RuleStorm, recs, "time")
}

// The storm rule's retry evidence is the same whatever the split of the
// records between workers and their order, whether the workers' retry
// samples were joined when merged or kept apart and joined by the rule
// (mergeRetries): 40 callers in a storm of four minutes, retrying 0.2 to
// 3 s after 429s with Retry-After 1 or 2 s, some across a minute's end.
func TestStormRetriesSameWhateverTheSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	base := int64(1700000040) * 1e9 // a minute's start
	type req struct {
		t          int64
		client     string
		status     int
		retryAfter float64
	}
	var reqs []req
	for c := range 40 {
		client := "caller-" + strconv.Itoa(c)
		for at := base + rng.Int64N(5e9); at < base+4*60e9; {
			ra := float64(1 + rng.IntN(2))
			status := 200
			if rng.IntN(3) != 0 {
				status = 429
			}
			reqs = append(reqs, req{at, client, status, ra})
			at += 2e8 + rng.Int64N(28e8)
		}
	}
	add := func(s *minuteStats, rs []req) {
		var r ingest.Record
		v := aggregate.Values{RequestTime: 0.01, HasRequestTime: true, Combo: -1} // no combination: nothing cached
		for _, x := range rs {
			r.Reset()
			r.SetTime(x.t)
			r.SetText(ingest.FRegion, []byte("eu"))
			r.SetText(ingest.FModel, []byte("big-72b"))
			r.SetText(ingest.FClient, []byte(x.client))
			r.SetFloat(ingest.FStatus, float64(x.status))
			r.SetFloat(ingest.FRequestTime, 0.01)
			if x.status == 429 {
				r.SetFloat(ingest.FRetryAfter, x.retryAfter)
			}
			s.Add(&r, &v)
		}
	}
	evidence := func(s *minuteStats) string {
		fs := storm(s, newStorm().(*stormRule))
		if len(fs) != 1 {
			t.Fatalf("%d storm findings, want 1", len(fs))
		}
		return fmt.Sprint(fs[0].Evidence.Get("callers_429"), fs[0].Evidence.Get("retried_before_retry_after"))
	}
	one := newMinuteStats(1000, nil)
	add(one, reqs)
	one.Finish()
	want := evidence(one)
	if !strings.Contains(want, "caller-") || !strings.Contains(want, "sooner than Retry-After") {
		t.Fatalf("evidence %s names no caller or no early retry", want)
	}
	shuffled := slices.Clone(reqs)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, in := range [][]req{reqs, shuffled} {
		for _, workers := range []int{2, 7} {
			for _, join := range []bool{false, true} {
				accs := make([]*minuteStats, workers)
				for w := range accs {
					accs[w] = newMinuteStats(1000, nil)
				}
				// Blocks of 64 records dealt in turn, as units of a file.
				for i := 0; i < len(in); i += 64 {
					add(accs[i/64%workers], in[i:min(i+64, len(in))])
				}
				s := accs[0]
				for _, o := range accs[1:] {
					s.Merge(o)
				}
				s.Finish()
				if len(s.logs) != workers-1 {
					t.Fatalf("%d workers: %d logs of samples kept apart, want %d", workers, len(s.logs), workers-1)
				}
				if join {
					s.joinRetries()
				}
				if got := evidence(s); got != want {
					t.Errorf("%d workers, joined %v: evidence\n%s\nwant\n%s", workers, join, got, want)
				}
				// Read again, and joined after being read (an hour file
				// written after the rules): the samples read are copies.
				s.joinRetries()
				if got := evidence(s); got != want {
					t.Errorf("%d workers, joined %v, read again: evidence\n%s\nwant\n%s", workers, join, got, want)
				}
			}
		}
	}
}

// TestStormCallerCounts: a caller whose 429s in a minute pass what the
// minute's sample keeps is named with a floor of its count, never a
// count that reads as exact; a caller within it with its exact count.
func TestStormCallerCounts(t *testing.T) {
	var recs []rec
	for m := range 5 {
		for i := range 100 {
			r := rec{region: "eu", model: "big-72b", status: 200, rt: 0.5, client: "other"}
			r.at = t0.Add(time.Duration(m)*time.Minute + time.Duration(i)*time.Minute/100)
			switch {
			case i < 60:
				r.client, r.status, r.retryAfter = "app-007", 429, 2
			case i < 70:
				r.client, r.status, r.retryAfter = "app-small", 429, 2
			}
			recs = append(recs, r)
		}
	}
	fs := ruleFindings(t, nil, RuleStorm, recs)
	if len(fs) != 1 {
		t.Fatalf("%d storm findings, want 1", len(fs))
	}
	if n := fs[0].Evidence.Get("responses_429"); n != int64(350) {
		t.Errorf("responses_429 %v, want 350", n)
	}
	names, _ := fs[0].Evidence.Get("callers_429").([]string)
	if len(names) != 2 || names[1] != "app-small (50)" {
		t.Fatalf("callers_429 %q, want app-007 then app-small (50)", names)
	}
	floor, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(names[0], "app-007 (≥"), ")"))
	if err != nil || floor < 60 || floor > 300 {
		t.Errorf("callers_429[0] %q, want app-007 (≥n), n between a minute's 60 and the 300 it had", names[0])
	}
}
