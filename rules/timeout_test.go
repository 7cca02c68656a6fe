package rules

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// longTail is n requests of clients app-0…app-9 with lognormal request
// times (median 500 ms, a long right tail), status 200.
func longTail(seed uint64, n int, sigma float64) []rec {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]rec, n)
	for i := range out {
		out[i] = rec{at: t0, client: "app-" + string(rune('0'+i%10)), status: 200,
			rt: 0.5 * math.Exp(sigma*rng.NormFloat64())}
	}
	return out
}

// cut is n requests of client cut off between at and at × 1.006 s.
func cut(n int, client string, at float64, status int) []rec {
	return times(n, rec{at: t0, client: client, status: status}, func(i int, r *rec) {
		r.rt = at * (1 + 0.006*float64(i)/float64(n))
	})
}

// ceilingOracle counts the requests within 1 % of the largest
// request_time, and those in the 1 % below that.
func ceilingOracle(recs []rec) (maxRT float64, within, below int) {
	for _, r := range recs {
		maxRT = max(maxRT, r.rt)
	}
	for _, r := range recs {
		switch {
		case r.rt >= maxRT/1.01:
			within++
		case r.rt >= maxRT/1.01/1.01:
			below++
		}
	}
	return maxRT, within, below
}

func TestTimeoutCeilingFiresOnAPlantedCeiling(t *testing.T) {
	recs := concat(longTail(1, 3000, 0.6), cut(40, "app-cut", 5, 504), cut(20, "app-cut", 5.001, 499), cut(15, "app-3", 5.002, 504))
	maxRT, within, below := ceilingOracle(recs)
	if within != 75 || below != 0 {
		t.Fatalf("the oracle counts %d within 1 %% of %v s and %d below: the input is not what the test means", within, maxRT, below)
	}
	fs := ruleFindings(t, nil, RuleTimeout, recs)
	if len(fs) != 1 {
		t.Fatalf("%d findings, want the one ceiling of all requests: %+v", len(fs), fs)
	}
	f := fs[0]
	if got := keyJSONOf(t, f); got != `{"all":""}` {
		t.Errorf("key %s, want all", got)
	}
	ceil := f.Evidence.Get("ceiling_ms").(float64)
	if math.Abs(ceil-maxRT*1000)/(maxRT*1000) > 0.01 {
		t.Errorf("ceiling %v ms, the largest request_time is %v ms", ceil, maxRT*1000)
	}
	if n := f.Evidence.Get("requests_at_ceiling").(int64); n != int64(within) {
		t.Errorf("%d requests at the ceiling, the oracle counts %d", n, within)
	}
	if n := f.Evidence.Get("requests").(int64); n != int64(len(recs)) {
		t.Errorf("%d requests, want %d", n, len(recs))
	}
	if got, want := f.Evidence.Get("callers"), []string{"app-cut (60)", "app-3 (15)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("callers %v, want %v", got, want)
	}
	if got, want := f.Evidence.Get("statuses"), (Fields{{"499", int64(20)}, {"504", int64(55)}}); !reflect.DeepEqual(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if f.Severity != Warn { // 75 of 3075: 2.4 % < 5 %
		t.Errorf("severity %v, want warn", f.Severity)
	}
	if math.Abs(f.Impact.MsPerRequest-ceil) > 0.05 || f.Impact.Requests != int64(within) {
		t.Errorf("impact %+v, want %v ms for %d requests", f.Impact, ceil, within)
	}
}

// A long tail, however long, piles nothing at its maximum.
func TestTimeoutCeilingQuietOnALongTail(t *testing.T) {
	for _, sigma := range []float64{0.5, 1, 1.5} {
		recs := longTail(uint64(10*sigma), 20000, sigma)
		if _, within, _ := ceilingOracle(recs); within >= 20 {
			t.Fatalf("σ %v: the oracle counts %d requests within 1 %% of the maximum: not a plain long tail", sigma, within)
		}
		if fs := ruleFindings(t, nil, RuleTimeout, recs); len(fs) != 0 {
			t.Errorf("σ %v: %d findings on a long tail: %+v", sigma, len(fs), fs[0])
		}
	}
	// Many requests near a maximum that are a slope, not a pile: as
	// many just below the ceiling as at it.
	slope := times(400, rec{at: t0, client: "app-s", status: 200}, func(i int, r *rec) { r.rt = 3 * (1 - 0.02*float64(i)/400) })
	if _, within, below := ceilingOracle(slope); within < 20 || float64(within) >= 2*float64(below) {
		t.Fatalf("the slope has %d at its top and %d below", within, below)
	}
	if fs := ruleFindings(t, nil, RuleTimeout, slope); len(fs) != 0 {
		t.Errorf("%d findings on a slope: %+v", len(fs), fs[0])
	}
	// A pile below a second is no time-out.
	if fs := ruleFindings(t, nil, RuleTimeout, cut(50, "app-fast", 0.8, 200)); len(fs) != 0 {
		t.Errorf("%d findings on a pile at 800 ms", len(fs))
	}
}

// A caller cut at its own limit, below what other callers take, is its
// own finding; the whole input has no ceiling.
func TestTimeoutCeilingPerCaller(t *testing.T) {
	long := times(30, rec{at: t0, client: "app-slow", status: 200}, func(i int, r *rec) { r.rt = 8 + float64(i) })
	recs := concat(longTail(3, 2000, 0.5), cut(30, "app-cut", 5, 504), long)
	fs := ruleFindings(t, nil, RuleTimeout, recs)
	if len(fs) != 1 || keyJSONOf(t, fs[0]) != `{"client":"app-cut"}` {
		t.Fatalf("findings %+v, want one for client app-cut", fs)
	}
	if n := fs[0].Evidence.Get("requests_at_ceiling").(int64); n != 30 {
		t.Errorf("%d requests at the ceiling, want 30", n)
	}
}

// The collector keeps the same ceilings whatever the split between
// workers and the order of the records.
func TestTimeoutCeilingSameWhateverTheSplit(t *testing.T) {
	recs := concat(longTail(4, 3000, 0.8), cut(40, "app-cut", 4, 504), cut(25, "app-2", 2, 499))
	want := ruleFindings(t, nil, RuleTimeout, recs)
	if len(want) == 0 {
		t.Fatal("no finding to compare")
	}
	for seed := range uint64(4) {
		shuffled := slices.Clone(recs)
		rand.New(rand.NewPCG(seed, 9)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := ruleFindings(t, nil, RuleTimeout, shuffled); !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: %+v\nwant %+v", seed, got, want)
		}
	}
}

func TestTimeoutCeilingNeedsRequestTime(t *testing.T) {
	wantNotEvaluated(t, RuleTimeout, times(30, rec{at: t0, client: "a", status: 200}, nil), "request_time")
}

func keyJSONOf(t *testing.T, f Finding) string {
	t.Helper()
	b, err := f.Key.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCeilGroupAddMs feeds one group each request's bucket and another
// its time, which addMs skips the logarithm of when it is below the top:
// both must end the same, for times spread wide, piled at one ceiling
// and right at the edges of buckets.
func TestCeilGroupAddMs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for trial := range 300 {
		var byIndex, byMs ceilGroup
		for range 2000 {
			var ms float64
			switch rnd.IntN(3) {
			case 0:
				ms = math.Exp(rnd.Float64() * 12)
			case 1:
				ms = 30000 * (1 - rnd.Float64()*0.03)
			default:
				edge := math.Exp(float64(rnd.IntN(12000)) * ceilLogWidth)
				ms = math.Nextafter(edge, float64(rnd.IntN(2))*math.Inf(1))
			}
			status := int64(200 + 304*rnd.IntN(2))
			byIndex.add(ceilIndex(ms), status, 1)
			i := int32(noCeilIndex)
			byMs.addMs(ms, status, &i)
		}
		byMs.below, byMs.belowTop, byMs.belowSet = 0, 0, false
		if !reflect.DeepEqual(byIndex, byMs) {
			t.Fatalf("trial %d: by time %+v, by bucket %+v", trial, byMs, byIndex)
		}
	}
}
