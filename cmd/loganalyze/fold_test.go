package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// foldLog is a generated log whose callers outnumber --top, with each
// caller's request times, computed while the lines are written.
type foldLog struct {
	lines []byte
	times map[string][]float64 // request_time in ms, per client
	total int
}

// genFoldLog writes n JSON lines; caller(i) names the client of line i.
// The lines are padded to about 200 bytes so that the input spans
// several read blocks and every worker gets some.
func genFoldLog(n int, seed uint64, caller func(r *rand.Rand, i int) string) *foldLog {
	r := rand.New(rand.NewPCG(seed, 1))
	l := &foldLog{times: map[string][]float64{}, total: n}
	var b bytes.Buffer
	pad := strings.Repeat("x", 80)
	for i := range n {
		c := caller(r, i)
		ms := math.Round(math.Exp(r.NormFloat64()*0.8+6)*1000) / 1000
		fmt.Fprintf(&b, `{"time":"2026-11-29T09:%02d:%02d.000Z","app_id":%q,"region":"ap-guangzhou","model":"m-%d","status":200,"request_time":%.6f,"note":%q}`+"\n",
			i/1000%60, i%60, c, i%3, ms/1000, pad)
		l.times[c] = append(l.times[c], ms)
	}
	l.lines = b.Bytes()
	return l
}

// foldReport is the part of the JSON report the test reads.
type foldReport struct {
	Latency map[string]struct {
		By     map[string][]foldRow `json:"by"`
		Folded map[string]struct {
			Keys     int64    `json:"keys"`
			KeyShare *float64 `json:"key_share"`
			Count    int64    `json:"count"`
		} `json:"folded"`
	} `json:"latency"`
}

type foldRow struct {
	Key   string  `json:"key"`
	Count int64   `json:"count"`
	P50   float64 `json:"p50_ms"`
	P99   float64 `json:"p99_ms"`
}

// TestFoldingIndependentOfWorkers runs logs with more callers than
// --top through 1, 2 and 7 workers: the JSON reports must be
// byte-identical, and every reported client must carry its own count
// and quantiles, checked against the generated lines. With Zipf callers
// (fewer than the keys a dimension tracks) the kept clients are the
// heaviest; with one caller per line (more than it tracks) they are
// chosen from a hash sample, and the report says so (key_share).
func TestFoldingIndependentOfWorkers(t *testing.T) {
	const top = 100 // a dimension tracks 256 × top = 25,600 keys
	cases := []struct {
		name    string
		log     *foldLog
		sampled bool
	}{
		{"zipf callers", genFoldLog(40000, 1, func() func(r *rand.Rand, i int) string {
			var z *rand.Zipf
			return func(r *rand.Rand, i int) string {
				if z == nil {
					z = rand.NewZipf(r, 1.2, 2, 15999)
				}
				return fmt.Sprintf("c%05d", z.Uint64())
			}
		}()), false},
		{"one caller per line", genFoldLog(40000, 2, func(_ *rand.Rand, i int) string {
			return fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255)
		}), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			share := 1.0
			for _, w := range []string{"1", "2", "7"} {
				var out, errb bytes.Buffer
				code := run([]string{"--workers", w, "--top", fmt.Sprint(top), "--tz", "UTC", "--json", "-", "-"},
					bytes.NewReader(tc.log.lines), &out, &errb, fixedNow)
				if code != 0 {
					t.Fatalf("workers %s: exit %d: %s", w, code, errb.String())
				}
				if first == "" {
					first = out.String()
					share = checkFolded(t, tc.log, top, tc.sampled, out.Bytes())
				} else if out.String() != first {
					t.Errorf("--workers %s: JSON report differs from --workers 1", w)
				}
			}
			if tc.sampled {
				checkSampledNote(t, tc.log, top, share)
			}
		})
	}
}

// checkSampledNote checks that the Markdown report, in both languages,
// says that the clients shown come from a hash sample of the given share.
func checkSampledNote(t *testing.T, l *foldLog, top int, share float64) {
	t.Helper()
	for lang, want := range map[string]string{
		"en":    fmt.Sprintf("the busiest of a 1/%d hash sample", int(1/share)),
		"zh-CN": fmt.Sprintf("按哈希抽样 1/%d 的键中请求最多的", int(1/share)),
	} {
		var out, errb bytes.Buffer
		if code := run([]string{"--lang", lang, "--top", fmt.Sprint(top), "--tz", "UTC", "--md", "-", "-"},
			bytes.NewReader(l.lines), &out, &errb, fixedNow); code != 0 {
			t.Fatalf("--lang %s: exit %d: %s", lang, code, errb.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("--lang %s: the Markdown report does not say %q", lang, want)
		}
	}
}

// checkFolded checks the client dimension of a JSON report against the
// generated log, and returns the share of keys the kept ones were chosen
// from (1 when every key was tracked).
func checkFolded(t *testing.T, l *foldLog, top int, sampled bool, js []byte) float64 {
	t.Helper()
	var rep foldReport
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	rt := rep.Latency["request_time"]
	rows := rt.By["client"]
	if len(rows) != top {
		t.Fatalf("%d clients reported, want --top %d (of %d)", len(rows), top, len(l.times))
	}
	var kept int64
	for _, row := range rows {
		ts := l.times[row.Key]
		if int64(len(ts)) != row.Count {
			t.Errorf("client %q: count %d, want %d", row.Key, row.Count, len(ts))
			continue
		}
		kept += row.Count
		sort.Float64s(ts)
		for _, q := range []struct {
			p, got float64
		}{{0.5, row.P50}, {0.99, row.P99}} {
			want := ts[int(q.p*float64(len(ts)-1))]
			if math.Abs(q.got-want) > 0.01*want+0.001 {
				t.Errorf("client %q: p%g %g ms, want %g ms within 1 %%", row.Key, q.p*100, q.got, want)
			}
		}
	}
	folded := rt.Folded["client"]
	if want := int64(l.total) - kept; folded.Count != want {
		t.Errorf("folded clients carry %d records, want %d", folded.Count, want)
	}
	if sampled {
		if folded.KeyShare == nil || *folded.KeyShare >= 1 || *folded.KeyShare <= 0 {
			t.Fatalf("key_share %v, want below 1 for %d callers", folded.KeyShare, len(l.times))
		}
		return *folded.KeyShare
	}
	if folded.KeyShare != nil {
		t.Errorf("key_share %g, want none: every caller is tracked", *folded.KeyShare)
	}
	if want := int64(len(l.times) - top); folded.Keys != want {
		t.Errorf("%d clients folded, want %d", folded.Keys, want)
	}
	keys := make([]string, 0, len(l.times))
	for k := range l.times {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ni, nj := len(l.times[keys[i]]), len(l.times[keys[j]])
		if ni != nj {
			return ni > nj
		}
		return keys[i] < keys[j]
	})
	for i, row := range rows {
		if row.Key != keys[i] {
			t.Fatalf("client #%d is %q, want %q (the heaviest by count, then key)", i+1, row.Key, keys[i])
		}
	}
	return 1
}
