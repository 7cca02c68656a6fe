package aggregate

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// sumsUp checks that a class's phases and unknown add up to its mean
// request time, to the microsecond.
func sumsUp(t *testing.T, m ClassMeans) {
	t.Helper()
	total := m.Unknown
	for i, v := range m.Phases {
		if m.Has[i] {
			total += v
		} else if v != 0 {
			t.Errorf("%s: absent %s holds %d µs", m.Class, PhaseNames[i], v)
		}
	}
	if total != m.RequestTime {
		t.Errorf("%s: phases and unknown add up to %d µs, request_time mean %d µs", m.Class, total, m.RequestTime)
	}
}

// Hand-written records, some phases absent: every mean is the sum of
// the records' phases (worked out by hand below) over the class count,
// and the phases absent from every record of a class are not there.
func TestBreakdownHandWritten(t *testing.T) {
	a := newAcc(t, Options{TokenURI: regexp.MustCompile(`(?i)token`)})
	// Streaming, every field: network budget 2000 − 1900 = 100 ms, of which
	// dns 5, tcp 3, tls 7, network 85; generation 2000 − 400 = 1600;
	// connect 10; header wait 300 − 10 = 290; first token the rest, 0.
	a.Add(rec(t, "request_time", "2.000", "upstream_response_time", "1.900", "upstream_connect_time", "0.010",
		"upstream_header_time", "0.300", "first_token_ms", "400", "dns_time", "5", "tcp_connect_time", "3",
		"tls_time", "7", "stream", "true", "uri", "/v1/chat"))
	// Streaming, ttft alone: generation 800, first token 200.
	a.Add(rec(t, "request_time", "1.000", "first_token_ms", "200", "stream", "true"))
	// Streaming, upstream alone: network 50, unknown 450.
	a.Add(rec(t, "request_time", "0.500", "upstream_response_time", "0.450", "stream", "true"))
	// Non-streaming: network 100, connect 5, unknown 2895.
	a.Add(rec(t, "request_time", "3.000", "upstream_response_time", "2.900", "upstream_connect_time", "0.005", "stream", "false"))
	// A token call (by its uri, whatever its stream field): unknown 50.
	a.Add(rec(t, "request_time", "0.050", "uri", "/v1/auth/Token?x=1", "stream", "true"))
	// No stream field: first token the whole request.
	a.Add(rec(t, "request_time", "1.000", "first_token_ms", "1000"))
	// No request_time: not in the breakdown.
	a.Add(rec(t, "first_token_ms", "100", "stream", "true"))

	type want struct {
		count   int64
		rt      float64 // µs, exact mean
		phases  map[int]float64
		unknown float64
	}
	wants := map[string]want{
		"streaming": {3, 3_500_000.0 / 3, map[int]float64{
			PhaseDNS: 5000.0 / 3, PhaseTCPConnect: 3000.0 / 3, PhaseTLS: 7000.0 / 3, PhaseNetwork: (85_000.0 + 50_000) / 3,
			PhaseGeneration: (1_600_000.0 + 800_000) / 3, PhaseUpstreamConnect: 10_000.0 / 3,
			PhaseUpstreamHeaderWait: 290_000.0 / 3, PhaseFirstToken: 200_000.0 / 3}, 450_000.0 / 3},
		"non_streaming":  {1, 3_000_000, map[int]float64{PhaseNetwork: 100_000, PhaseUpstreamConnect: 5000}, 2_895_000},
		"token":          {1, 50_000, map[int]float64{}, 50_000},
		"unknown_stream": {1, 1_000_000, map[int]float64{PhaseGeneration: 0, PhaseFirstToken: 1_000_000}, 0},
	}
	got := a.Breakdown.Means()
	if len(got) != len(wants) {
		t.Fatalf("%d classes, want %d: %+v", len(got), len(wants), got)
	}
	for _, m := range got {
		w, ok := wants[m.Class]
		if !ok || m.Count != w.count || math.Abs(float64(m.RequestTime)-w.rt) > 0.5 {
			t.Errorf("%s: count %d, request_time %d µs; want %d, %v", m.Class, m.Count, m.RequestTime, w.count, w.rt)
			continue
		}
		for i := range m.Phases {
			v, has := w.phases[i]
			if m.Has[i] != has {
				t.Errorf("%s %s: present %v, want %v", m.Class, PhaseNames[i], m.Has[i], has)
				continue
			}
			if has && math.Abs(float64(m.Phases[i])-v) > 1 {
				t.Errorf("%s %s: %d µs, want %v", m.Class, PhaseNames[i], m.Phases[i], v)
			}
		}
		if math.Abs(float64(m.Unknown)-w.unknown) > 1 {
			t.Errorf("%s unknown: %d µs, want %v", m.Class, m.Unknown, w.unknown)
		}
		sumsUp(t, m)
	}
}

// oraclePhases decomposes a generated request the way the breakdown's
// comment says, in float milliseconds, from the generator's own values.
func oraclePhases(r *gen.Request) (class int, rt float64, phases map[int]float64, unknown float64) {
	rt = r.RequestTime * 1000
	phases = map[int]float64{}
	switch {
	case strings.Contains(strings.ToLower(r.URI), "token"):
		class = ClassToken
	case r.Model == "":
		class = ClassUnknownStream
	case r.Stream:
		class = ClassStreaming
	default:
		class = ClassNonStreaming
	}
	left := rt
	if up, ok := r.UpstreamTime(); ok {
		phases[PhaseNetwork] = min(rt, max(0, rt-up*1000))
		left -= phases[PhaseNetwork]
	}
	hasTTFT := !math.IsNaN(r.TTFTms)
	if hasTTFT {
		phases[PhaseGeneration] = min(left, max(0, rt-r.TTFTms))
		left -= phases[PhaseGeneration]
	}
	phases[PhaseUpstreamConnect] = min(left, r.UpstreamConnect*1000)
	left -= phases[PhaseUpstreamConnect]
	// A 504 without ttft (the generator writes no header time): the
	// upstream's time was the wait for its headers.
	if up, ok := r.UpstreamTime(); ok && !hasTTFT && r.Status == 504 {
		phases[PhaseUpstreamHeaderWait] = min(left, max(0, up*1000-r.UpstreamConnect*1000))
		left -= phases[PhaseUpstreamHeaderWait]
	}
	if hasTTFT {
		phases[PhaseFirstToken] = left
		left = 0
	}
	return class, rt, phases, left
}

// On generated data, read by three workers: each class's mean request
// time and phases within 1 % (or 1 µs) of the means of the generator's
// own values, the phases adding up to the mean exactly, and the same
// breakdown whatever the worker split and through an hour file.
func TestBreakdownGenerated(t *testing.T) {
	reqs := gen.Generate(gen.Config{Seed: 8, N: 20000, Plants: gen.All})
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	read := func(workers int) *Accumulator {
		accs, _, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.JSONL, Location: time.UTC, Workers: workers, Stdin: bytes.NewReader(buf.Bytes())},
			func() *Accumulator {
				return New(Options{Mapping: m, Top: 1000, TokenURI: regexp.MustCompile(`(?i)token`)})
			})
		if err != nil {
			t.Fatal(err)
		}
		return MergeAll(accs)
	}
	a := read(3)
	var n [NumClasses]float64
	var rt, unknown [NumClasses]float64
	var phases [NumClasses][NumPhases]float64
	var carried [NumClasses][NumPhases]bool
	for i := range reqs {
		c, r, ps, u := oraclePhases(&reqs[i])
		n[c]++
		rt[c] += r
		unknown[c] += u
		for p, v := range ps {
			phases[c][p] += v
			carried[c][p] = true
		}
	}
	near := func(got int64, want float64) bool {
		return math.Abs(float64(got)/1000-want) <= max(0.01*math.Abs(want), 0.001)
	}
	means := a.Breakdown.Means()
	if len(means) < 3 {
		t.Fatalf("%d classes: %+v", len(means), means)
	}
	for _, cm := range means {
		c := 0
		for c < NumClasses && ClassNames[c] != cm.Class {
			c++
		}
		if c == NumClasses || float64(cm.Count) != n[c] {
			t.Fatalf("%s: %d requests, want %v", cm.Class, cm.Count, n)
		}
		if !near(cm.RequestTime, rt[c]/n[c]) {
			t.Errorf("%s: request_time mean %d µs, want %.3f ms", cm.Class, cm.RequestTime, rt[c]/n[c])
		}
		for p := range cm.Phases {
			if cm.Has[p] != carried[c][p] {
				t.Errorf("%s %s: present %v, want %v", cm.Class, PhaseNames[p], cm.Has[p], carried[c][p])
			} else if cm.Has[p] && !near(cm.Phases[p], phases[c][p]/n[c]) {
				t.Errorf("%s %s: %d µs, want %.3f ms", cm.Class, PhaseNames[p], cm.Phases[p], phases[c][p]/n[c])
			}
		}
		if !near(cm.Unknown, unknown[c]/n[c]) {
			t.Errorf("%s unknown: %d µs, want %.3f ms", cm.Class, cm.Unknown, unknown[c]/n[c])
		}
		sumsUp(t, cm)
	}
	if one := read(1); one.Breakdown != a.Breakdown {
		t.Error("the breakdown differs between one worker and three")
	}
	back, err := Decode(Options{Mapping: m, Top: 1000}, a.AppendBinary(nil))
	if err != nil {
		t.Fatal(err)
	}
	if back.Breakdown != a.Breakdown {
		t.Error("the breakdown differs after an hour file's encoding")
	}
}

// TestMicrosRoundsAsMathRound holds micros against math.Round of the
// same quotient, clamped as it was: random bit patterns, halves, the
// largest below a half and the cap's neighbours, in both units.
func TestMicrosRoundsAsMathRound(t *testing.T) {
	want := func(v, per float64) uint64 {
		us := math.Round(v * 1e6 / per)
		if !(us > 0) {
			return 0
		}
		return uint64(min(us, 1<<62))
	}
	rnd := rand.New(rand.NewPCG(13, 14))
	vals := []float64{0, -1, math.NaN(), math.Inf(1), 0.5e-6, 1.5e-6, 0.49999999999999994e-6,
		(1 << 62) / 1e6, math.Nextafter((1<<62)/1e6, 0), math.Nextafter((1<<62)/1e6, 2), math.MaxFloat64}
	for range 100000 {
		vals = append(vals, math.Float64frombits(rnd.Uint64()), float64(rnd.IntN(1<<24))/2e6, rnd.ExpFloat64())
	}
	for _, v := range vals {
		for _, per := range []float64{1, 1000} {
			if got := micros(v, per); got != want(v, per) {
				t.Fatalf("micros(%v, %v) = %d, want %d", v, per, got, want(v, per))
			}
		}
	}
}

// TestTokenMatcherMemo checks the memoised match against the regexp on
// uris that repeat, alternate, carry queries, are absolute URLs (with a
// path and without: the root path), pass the memo's bound and are
// longer than the last uri and path kept; with no regexp, the paths
// alone. A uri is given in a buffer of its own each time, or in the
// same buffer as the one before it, as a columnar file's dictionary
// gives it.
func TestTokenMatcherMemo(t *testing.T) {
	re := regexp.MustCompile(`/(auth|oauth)/token$`)
	for _, tm := range []*tokenMatcher{{re: re}, {}} {
		rng := rand.New(rand.NewPCG(3, 4))
		paths := []string{"/v1/auth/token", "/v1/chat/completions", "/oauth/token?x=/v1/chat", "/v1/auth/token#f",
			"https://api.example.com/v1/auth/token?k=1", "https://api.example.com", "http://h?x=/auth/token",
			strings.Repeat("/a", 200) + "/auth/token", strings.Repeat("/b", 200)}
		for i := range maxTokenMemo + 200 {
			paths = append(paths, fmt.Sprintf("/p%d/auth/token", i), fmt.Sprintf("/p%d", i))
		}
		var prev []byte
		for range 50_000 {
			u := paths[rng.IntN(9)]
			if rng.IntN(3) == 0 {
				u = paths[rng.IntN(len(paths))]
			}
			b := []byte(u)
			if string(prev) == u && rng.IntN(2) == 0 {
				b = prev // the same bytes again
			}
			prev = b
			path := Path([]byte(u))
			want := tm.re != nil && re.MatchString(string(path))
			if p, got := tm.match(b); got != want || string(p) != string(path) {
				t.Fatalf("match(%q) = %q, %v, want %q, %v", u, p, got, path, want)
			}
		}
	}
}

// BenchmarkTokenMatch matches the paths of a gateway's log: mostly the
// chat endpoint, runs of token calls among them.
func BenchmarkTokenMatch(b *testing.B) {
	tm := tokenMatcher{re: regexp.MustCompile(`/(auth|oauth)/token$`)}
	rng := rand.New(rand.NewPCG(5, 6))
	uris := make([][]byte, 4096)
	for i := range uris {
		switch rng.IntN(20) {
		case 0:
			uris[i] = []byte("/v1/auth/token")
		case 1:
			uris[i] = []byte("/v1/embeddings")
		default:
			uris[i] = []byte("/v1/chat/completions")
		}
	}
	n := 0
	for b.Loop() {
		for _, u := range uris {
			if _, ok := tm.match(u); ok {
				n++
			}
		}
	}
	if n == 0 {
		b.Fatal("no token call matched")
	}
}

// A gateway's record without ttft that carries the upstream's response
// and header times: the upstream's time after its headers is the
// upstream body, not unknown. Worked out by hand from the fields.
func TestBreakdownUpstreamBody(t *testing.T) {
	a := newAcc(t, Options{})
	// network 6000 − 5900 = 100; connect 10; header wait 410 − 10 = 400;
	// body 5900 − 410 = 5490; unknown 0.
	a.Add(rec(t, "request_time", "6.000", "upstream_response_time", "5.900", "upstream_connect_time", "0.010",
		"upstream_header_time", "0.410", "stream", "false"))
	// Headers logged after the response's end (a clock's step): network
	// 100; header wait 1200, clamped to the 900 left; body 0; unknown 0.
	a.Add(rec(t, "request_time", "1.000", "upstream_response_time", "0.900", "upstream_header_time", "1.200", "stream", "false"))
	// No header time: network 100, unknown 900, no body.
	a.Add(rec(t, "request_time", "1.000", "upstream_response_time", "0.900", "stream", "false"))
	// No upstream_response_time: header wait 300, unknown 700, no body.
	a.Add(rec(t, "request_time", "1.000", "upstream_header_time", "0.300", "stream", "false"))
	// With ttft the time after the headers is first token and
	// generation, never body: network 100, generation 2000 − 500 = 1500,
	// header wait 300, first token 100.
	a.Add(rec(t, "request_time", "2.000", "upstream_response_time", "1.900", "upstream_header_time", "0.300",
		"first_token_ms", "500", "stream", "true"))

	got := classesOf(t, a)
	ns := got["non_streaming"]
	if ns.Count != 4 {
		t.Fatalf("non-streaming: %d requests, want 4", ns.Count)
	}
	checkPhases(t, ns, map[int]float64{
		PhaseNetwork:            (100_000.0 * 3) / 4,
		PhaseUpstreamConnect:    10_000.0 / 4,
		PhaseUpstreamHeaderWait: (400_000.0 + 900_000 + 300_000) / 4,
		PhaseUpstreamBody:       5_490_000.0 / 4,
	}, (900_000.0+700_000)/4)
	st := got["streaming"]
	if st.Has[PhaseUpstreamBody] {
		t.Errorf("streaming with ttft carries an upstream body: %+v", st)
	}
	if st.Phases[PhaseGeneration] != 1_500_000 || st.Phases[PhaseFirstToken] != 100_000 || st.Phases[PhaseUpstreamHeaderWait] != 300_000 {
		t.Errorf("streaming: generation %d, first token %d, header wait %d µs; want 1500000, 100000, 300000",
			st.Phases[PhaseGeneration], st.Phases[PhaseFirstToken], st.Phases[PhaseUpstreamHeaderWait])
	}
}

// An hour file of a build whose breakdown had no upstream body (eight
// phases) reads into this one's: its phases where they were, the body
// not carried. One with more phases than this build knows is refused.
func TestBreakdownDecodesFewerPhases(t *testing.T) {
	var b Breakdown
	c := &b.Classes[ClassNonStreaming]
	c.Count = 3
	c.RequestTime.Add(9_000_000)
	for p := range PhaseUpstreamBody {
		c.Phases[p].Add(uint64(1000 * (p + 1)))
		c.Carried[p] = int64(p % 4)
	}
	c.Unknown.Add(42)

	// Written as the older build wrote it: the same layout, eight phases.
	old := func(np int) []byte {
		out := binary.AppendUvarint(nil, NumClasses)
		out = binary.AppendUvarint(out, uint64(np))
		for i := range b.Classes {
			c := &b.Classes[i]
			out = binary.AppendUvarint(out, uint64(c.Count))
			out = binary.AppendUvarint(binary.AppendUvarint(out, c.RequestTime.Hi), c.RequestTime.Lo)
			for j := range np {
				var s sum128
				var n int64
				if j < NumPhases {
					s, n = c.Phases[j], c.Carried[j]
				}
				out = binary.AppendUvarint(binary.AppendUvarint(out, s.Hi), s.Lo)
				out = binary.AppendUvarint(out, uint64(n))
			}
			out = binary.AppendUvarint(binary.AppendUvarint(out, c.Unknown.Hi), c.Unknown.Lo)
		}
		return out
	}
	var m *sketch.Mapping // a breakdown holds no sketch
	d := NewDecoder(m, old(int(PhaseUpstreamBody)), errDamaged)
	var got Breakdown
	got.decode(d)
	if err := d.Done(); err != nil {
		t.Fatal(err)
	}
	if got != b {
		t.Errorf("decoded %+v\nwant    %+v", got.Classes[ClassNonStreaming], b.Classes[ClassNonStreaming])
	}
	if got.Classes[ClassNonStreaming].Carried[PhaseUpstreamBody] != 0 {
		t.Error("an older hour's records carry an upstream body")
	}
	// This build's own encoding round-trips.
	d = NewDecoder(m, b.appendBinary(nil), errDamaged)
	var same Breakdown
	same.decode(d)
	if err := d.Done(); err != nil || same != b {
		t.Errorf("round trip: %v, %+v", err, same.Classes[ClassNonStreaming])
	}
	d = NewDecoder(m, old(NumPhases+1), errDamaged)
	got.decode(d)
	if d.Err() == nil {
		t.Error("a breakdown of more phases than this build's was read")
	}
}

// A gateway's time-out (504) without a header time waited for the
// upstream's headers all of the upstream's time; a 504 whose headers
// came, another status, or a record with ttft is split as before.
// Worked out by hand from the fields.
func TestBreakdownTimedOut(t *testing.T) {
	a := newAcc(t, Options{})
	// network 60001 − 60000 = 1; connect 1; header wait 60000 − 1.
	a.Add(rec(t, "request_time", "60.001", "upstream_response_time", "60.000", "upstream_connect_time", "0.001",
		"status", "504", "stream", "false"))
	// The upstream's own 504, with its headers: network 10, header wait
	// 20, body 70.
	a.Add(rec(t, "request_time", "0.100", "upstream_response_time", "0.090", "upstream_header_time", "0.020",
		"status", "504", "stream", "false"))
	// A 200 without header time: network 10, unknown 90.
	a.Add(rec(t, "request_time", "0.100", "upstream_response_time", "0.090", "status", "200", "stream", "false"))
	// A 504 with ttft: network 1, generation 60001 − 60000 = 1, first
	// token 59999.
	a.Add(rec(t, "request_time", "60.001", "upstream_response_time", "60.000", "first_token_ms", "60000",
		"status", "504", "stream", "true"))

	got := classesOf(t, a)
	checkPhases(t, got["non_streaming"], map[int]float64{
		PhaseNetwork:            (1_000.0 + 10_000 + 10_000) / 3,
		PhaseUpstreamConnect:    1_000.0 / 3,
		PhaseUpstreamHeaderWait: (59_999_000.0 + 20_000) / 3,
		PhaseUpstreamBody:       70_000.0 / 3,
	}, 90_000.0/3)
	st := got["streaming"]
	if st.Has[PhaseUpstreamHeaderWait] || st.Phases[PhaseFirstToken] != 59_999_000 || st.Phases[PhaseGeneration] != 1_000 {
		t.Errorf("streaming 504 with ttft: %+v", st)
	}
}

// classesOf returns a's breakdown by class, each checked to add up.
func classesOf(t *testing.T, a *Accumulator) map[string]ClassMeans {
	t.Helper()
	got := map[string]ClassMeans{}
	for _, m := range a.Breakdown.Means() {
		got[m.Class] = m
		sumsUp(t, m)
	}
	return got
}

// checkPhases checks a class's phases against want (µs, exact means; a
// phase absent from want is not carried) and its unknown.
func checkPhases(t *testing.T, m ClassMeans, want map[int]float64, unknown float64) {
	t.Helper()
	for p := range NumPhases {
		w, has := want[p]
		if m.Has[p] != has || has && math.Abs(float64(m.Phases[p])-w) > 1 {
			t.Errorf("%s %s: %d µs (carried %v), want %v (carried %v)", m.Class, PhaseNames[p], m.Phases[p], m.Has[p], w, has)
		}
	}
	if math.Abs(float64(m.Unknown)-unknown) > 1 {
		t.Errorf("%s unknown: %d µs, want %v", m.Class, m.Unknown, unknown)
	}
}
