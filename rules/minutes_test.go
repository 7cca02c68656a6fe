package rules

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
)

func TestBucketKey(t *testing.T) {
	for _, c := range []struct {
		kv   []string
		kind keyKind
		key  string
	}{
		{[]string{"region", "eu", "model", "m", "upstream_addr", "10.0.0.1:80"}, keyRegionModel, "eu/m"},
		{[]string{"region", "eu", "upstream_addr", "10.0.0.2:80 , 10.0.0.1:80", "http_host", "h"}, keyUpstream, "10.0.0.1:80/"},
		{[]string{"model", "m", "server_name", "h", "uri", "/x?y"}, keyHost, "h/"},
		{[]string{"request", "GET /v1/x?y=1 HTTP/1.1"}, keyURI, "/v1/x/"},
		{[]string{"status", "200"}, keyAll, "/"},
	} {
		kind, k0, k1 := bucketKey(namedRecord(t, c.kv...))
		if kind != c.kind || string(k0)+"/"+string(k1) != c.key {
			t.Errorf("%v: %v %q/%q, want %v %q", c.kv, kind.Fields(), k0, k1, c.kind.Fields(), c.key)
		}
	}
}

type minuteRec struct {
	t      int64
	key    string // uri
	client string
	status int64
}

// minuteRecs spreads n records of keys uris over minutes minutes, a
// third of them 429 or 5xx.
func minuteRecs(seed uint64, n, minutes, uris int) []minuteRec {
	rng := rand.New(rand.NewPCG(seed, 1))
	base := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC).UnixNano()
	statuses := []int64{200, 200, 200, 200, 429, 502}
	out := make([]minuteRec, n)
	for i := range out {
		out[i] = minuteRec{
			t:      base + rng.Int64N(int64(minutes)*60e9),
			key:    "/u" + strconv.Itoa(rng.IntN(uris)),
			client: "c" + strconv.Itoa(rng.IntN(50)),
			status: statuses[rng.IntN(len(statuses))],
		}
	}
	return out
}

// namedRecord is a record of canonical or source field names and values.
func namedRecord(t *testing.T, kv ...string) *ingest.Record {
	t.Helper()
	s, err := ingest.NewSchema(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &ingest.Record{}
	for i := 0; i < len(kv); i += 2 {
		if err := r.Set(s.LookupString(kv[i]), []byte(kv[i+1]), time.UTC); err != nil {
			t.Fatal(err)
		}
	}
	r.Finish()
	return r
}

func addMinuteRecs(a *minuteStats, recs []minuteRec) {
	var r ingest.Record
	v := aggregate.Values{RequestTime: 0.1, HasRequestTime: true}
	for _, x := range recs {
		r.Reset()
		r.SetTime(x.t)
		r.SetText(ingest.FURI, []byte(x.key))
		r.SetText(ingest.FClient, []byte(x.client))
		r.SetFloat(ingest.FStatus, float64(x.status))
		r.SetFloat(ingest.FRequestTime, 0.1)
		a.Add(&r, &v)
	}
}

func dumpMinutes(s *minuteStats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "judged from %d, records %v\n", s.JudgedFrom, s.Records)
	for _, x := range s.Buckets {
		fmt.Fprintf(&b, "%v %q %d: %d %d %d %v\n", x.Kind.Fields(), x.Key, x.Minute, x.Total, x.N429, x.N5xx, x.Status)
	}
	var keys []string
	s.joinRetries() // as an hour file holds them
	for k, rs := range s.samples.m {
		rs.settle() // as the storm rule reads them
		keys = append(keys, fmt.Sprintf("%q %s %x %d %v %v", k, rs.Client, rs.KeyHash, rs.Minute, rs.Limited, rs.Requests))
	}
	sort.Strings(keys)
	b.WriteString(strings.Join(keys, "\n"))
	return b.String()
}

// The storm and burst buckets are bounded, and the same whatever the
// order of the records and their split between workers: past the bound,
// the latest key × minutes are kept, exactly.
func TestMinutesBoundedAndSameWhateverTheSplit(t *testing.T) {
	const top = 2 // 1024 cells, 128 buckets
	recs := minuteRecs(1, 6000, 600, 4)
	sort.Slice(recs, func(i, j int) bool { return recs[i].t < recs[j].t })
	oracle := map[[2]string]int64{}
	for _, x := range recs {
		oracle[[2]string{x.key, strconv.FormatInt(x.t/60e9, 10)}]++
	}
	var want string
	shuffled := append([]minuteRec(nil), recs...)
	rand.New(rand.NewPCG(2, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, in := range [][]minuteRec{recs, shuffled} {
		for _, workers := range []int{1, 2, 7} {
			accs := make([]*minuteStats, workers)
			for w := range accs {
				accs[w] = newMinuteStats(top, nil)
				addMinuteRecs(accs[w], in[w*len(in)/workers:(w+1)*len(in)/workers])
			}
			s := accs[0]
			for _, o := range accs[1:] {
				s.Merge(o)
			}
			s.Finish()
			got := dumpMinutes(s)
			if want == "" {
				want = got
				if len(s.Buckets) > bucketsPerTop*top || s.JudgedFrom == 0 {
					t.Fatalf("%d buckets, judged from %d: want at most %d, and a cut", len(s.Buckets), s.JudgedFrom, bucketsPerTop*top)
				}
				for _, b := range s.Buckets {
					if b.Minute < s.JudgedFrom-1 || b.Total != oracle[[2]string{b.Key[0], strconv.FormatInt(b.Minute, 10)}] {
						t.Fatalf("bucket %q %d: total %d, want %d (judged from %d)", b.Key, b.Minute, b.Total,
							oracle[[2]string{b.Key[0], strconv.FormatInt(b.Minute, 10)}], s.JudgedFrom)
					}
				}
			} else if got != want {
				gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Logf("line %d:\n got %s\nwant %s", i, gl[i], wl[i])
						break
					}
				}
				t.Fatalf("%d workers: the minute buckets differ from one sorted pass", workers)
			}
		}
	}
}

// TestRetrySamplesEncodedInParts fills the storm rule's state with more
// retry samples than one part of AppendBinary's takes, some merged from
// others (times kept apart until read) and some with 429s, and requires
// the samples' bytes of encodeMap written one by one in key order, on 1
// to 4 cores, and the same bytes again from the state read back.
func TestRetrySamplesEncodedInParts(t *testing.T) {
	fill := func() *minuteStats {
		s := newMinuteStats(1000, nil)
		rng := rand.New(rand.NewPCG(3, 3))
		for i := range 3*samplesPerPart + 17 {
			rs := &retrySample{Client: fmt.Sprintf("app-%d", i%97), KeyHash: rng.Uint64(), Minute: int64(29_000_000 + i%60)}
			for range rng.IntN(90) {
				rs.Requests = append(rs.Requests, uint32(rng.IntN(60e6)))
			}
			if i%3 == 0 {
				other := make([]uint32, rng.IntN(80))
				for j := range other {
					other[j] = uint32(rng.IntN(60e6))
				}
				rs.more = append(rs.more, other)
			}
			if i%11 == 0 {
				rs.Limited = append(rs.Limited, Limited{T: rs.Minute*60e9 + int64(rng.IntN(60e9)), RetryAfter: float64(rng.IntN(5))})
			}
			s.samples.m[fmt.Sprintf("k%06d", rng.IntN(1e6))+rs.Client] = rs
		}
		return s
	}
	var want []byte
	for _, procs := range []int{1, 2, 3, 4} {
		prev := runtime.GOMAXPROCS(procs)
		got := fill().AppendBinary(nil)
		runtime.GOMAXPROCS(prev)
		if want == nil {
			ref := fill()
			e := &encoder{}
			encodeMap(e, ref.samples.m, func(_ string, rs *retrySample) { rs.encode(e) })
			if !bytes.HasSuffix(got, e.B) || len(e.B) < 100_000 {
				t.Fatalf("%d cores: the samples' %d bytes are not those written one by one (%d)", procs, len(got), len(e.B))
			}
			want = got
		} else if !bytes.Equal(got, want) {
			t.Fatalf("%d cores: %d bytes, on one core %d", procs, len(got), len(want))
		}
	}
	back := newMinuteStats(1000, nil)
	if err := back.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	if again := back.AppendBinary(nil); !bytes.Equal(again, want) {
		t.Errorf("read back, the state encodes to %d bytes, not its %d", len(again), len(want))
	}
}

// TestRetryLogSameAsOneByOne: the retry samples made from the logs are
// the ones the records make one by one, computed here from the whole
// list (every caller × key × minute's times and 429s, the smallest
// hashes of each kept, the smallest hashes of the keys kept past the
// bound), through drops past the bound (a small --top), merges, records
// after a merge and any order.
func TestRetryLogSameAsOneByOne(t *testing.T) {
	recs := minuteRecs(3, 120000, 2000, 6) // past minRetryKeys samples
	rand.New(rand.NewPCG(4, 4)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	type sample struct {
		client    string
		h         uint64
		minute    int64
		times     []uint32
		limited   []Limited
		keyHashed uint64
	}
	byKey := map[string]*sample{}
	for _, x := range append(slices.Clone(recs), recs[:500]...) {
		h := keyHash(appendKey(nil, keyURI, []byte(x.key), nil))
		minute := floorDiv(x.t, 60e9)
		k := string(cellBytes(append([]byte(x.client), 0), cell{h: h, minute: minute}))
		sm := byKey[k]
		if sm == nil {
			sm = &sample{client: x.client, h: h, minute: minute, keyHashed: keyHash([]byte(k))}
			byKey[k] = sm
		}
		sm.times = append(sm.times, uint32((x.t-minute*60e9)/1000))
		if x.status == 429 {
			sm.limited = append(sm.limited, Limited{T: x.t})
		}
	}
	hashes := make([]uint64, 0, len(byKey))
	for _, sm := range byKey {
		hashes = append(hashes, sm.keyHashed)
	}
	slices.Sort(hashes)
	n := retryKeysFor(1)
	if len(hashes) <= n {
		t.Fatalf("%d samples: the test wants more than the bound, %d", len(hashes), n)
	}
	var want []string
	for k, sm := range byKey {
		if sm.keyHashed > hashes[n-1] {
			continue
		}
		rs := &retrySample{Client: sm.client, KeyHash: sm.h, Minute: sm.minute, Requests: sm.times, Limited: sm.limited}
		rs.settle()
		want = append(want, fmt.Sprintf("%q %s %x %d %v %v", k, rs.Client, rs.KeyHash, rs.Minute, rs.Limited, rs.Requests))
	}
	sort.Strings(want)
	defer func(n int) { logBuffer = n }(logBuffer)
	for _, workers := range []int{1, 3} {
		// Logs of the default buffer, and of small ones sorted and
		// consolidated many times.
		logBuffer = []int{1 << 16, 256}[workers/3]
		accs := make([]*minuteStats, workers)
		for w := range accs {
			accs[w] = newMinuteStats(1, nil)
			addMinuteRecs(accs[w], recs[w*len(recs)/workers:(w+1)*len(recs)/workers])
		}
		for _, o := range accs[1:] {
			accs[0].Merge(o)
		}
		addMinuteRecs(accs[0], recs[:500]) // records after a merge
		s := accs[0]
		s.Finish()
		if !s.retriesPruned() {
			t.Fatalf("%d workers: not pruned past the bound", workers)
		}
		got := strings.Split(dumpMinutes(s), "\n")
		got = slices.DeleteFunc(got, func(line string) bool { return !strings.HasPrefix(line, `"`) })
		if !slices.Equal(got, want) {
			t.Fatalf("%d workers: %d samples, want %d; first differing of %v\nwant %v", workers, len(got), len(want), firstDiff(got, want), firstDiff(want, got))
		}
	}
}

// firstDiff is the first line of a not in b.
func firstDiff(a, b []string) string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	for _, x := range a {
		if !in[x] {
			return x
		}
	}
	return ""
}
