package rules_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// writers are the formats the generated hour is checked in; each must
// give the same findings.
var writers = []struct {
	name  string
	write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
	// resolution is the precision of the format's timestamps.
	resolution time.Duration
}{
	{"jsonl", gen.WriteJSONL, time.Millisecond},
	{"cls", gen.WriteCLS, time.Millisecond},
	{"csv", gen.WriteCSV, time.Millisecond},
	{"tsv", gen.WriteTSV, time.Millisecond},
	{"nginx", gen.WriteNginx, time.Second}, // $time_local
}

// genZone is the zone of the generated requests: CSV and TSV write their
// times without it, as CLS CSV exports do.
var genZone = time.FixedZone("+0800", 8*3600)

// analyze runs the pipeline over data with the given worker count and
// evaluates the default rules.
func analyze(t *testing.T, data []byte, workers int) ([]rules.Finding, []rules.NotEvaluated) {
	t.Helper()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	cfg := rules.Default()
	accs, _, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.Auto, Workers: workers, Stdin: bytes.NewReader(data), Location: genZone},
		func() *aggregate.Accumulator {
			return aggregate.New(aggregate.Options{Mapping: m, Top: 1000, Collectors: cfg.Collectors(m, 1000, true), TokenURI: cfg.TokenURI})
		})
	if err != nil {
		t.Fatal(err)
	}
	return rules.Evaluate(aggregate.MergeAll(accs), cfg)
}

func keyJSON(f rules.Finding) string {
	b, _ := f.Key.MarshalJSON()
	return f.Rule + " " + string(b)
}

// generated is an hour of background traffic with every problem of
// SPEC §1 planted once, and the decoys.
func generated() []gen.Request {
	return gen.Generate(gen.Config{Seed: 7, N: 3000, Plants: gen.All})
}

func TestGeneratedHourFindsExactlyThePlanted(t *testing.T) {
	reqs := generated()
	start := reqs[0].Time.Truncate(time.Hour) // gen's default start is on the hour
	want := []string{
		fmt.Sprintf(`cross_region {"client_region":%q,"region":%q}`, gen.CrossRegionFrom, gen.CrossRegionTo),
		fmt.Sprintf(`error_burst {"region":%q,"model":%q}`, gen.BurstRegion, gen.BurstModel),
		fmt.Sprintf(`missing_keepalive {"client":%q}`, gen.NoKeepaliveApp),
		fmt.Sprintf(`non_streaming_large_model {"model":%q}`, gen.NonStreamModel),
		fmt.Sprintf(`rate_limit_storm {"region":%q,"model":%q}`, gen.StormRegion, gen.StormModel),
		fmt.Sprintf(`token_cache_miss {"client":%q}`, gen.TokenMissApp),
	}
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			var buf bytes.Buffer
			if _, err := w.write(&buf, reqs, gen.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			var first []byte
			for workers := 1; workers <= 3; workers++ {
				fs, ne := analyze(t, buf.Bytes(), workers)
				var got []string
				for _, f := range fs {
					got = append(got, keyJSON(f))
				}
				sort.Strings(got)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("%d workers: findings\n%s\nwant\n%s", workers, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if len(ne) != 1 || ne[0].Rule != rules.RuleRegression || ne[0].Reason != "needs --state" {
					t.Errorf("not evaluated %+v, want latency_regression only", ne)
				}
				for _, f := range fs {
					checkWindow(t, f, start)
					if f.Rule == rules.RuleStorm {
						checkStormEvidence(t, f, reqs, w.resolution)
					}
				}
				// The same findings whatever the worker count.
				b, err := json.Marshal(findingsJSON(fs))
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = b
				} else if !bytes.Equal(first, b) {
					t.Errorf("%d workers: findings differ from 1 worker:\n%s\n%s", workers, b, first)
				}
			}
		})
	}
}

// findingsJSON is every part of the findings, for comparison.
func findingsJSON(fs []rules.Finding) []any {
	var out []any
	for _, f := range fs {
		out = append(out, []any{f.Rule, f.Severity, f.Key, f.Title, f.Evidence, f.Impact, f.Advice, f.Window})
	}
	return out
}

// checkWindow compares a time-bound finding's window with where gen put
// the problem: each end within a minute.
func checkWindow(t *testing.T, f rules.Finding, start time.Time) {
	t.Helper()
	var from, to int
	switch f.Rule {
	case rules.RuleStorm:
		from, to = gen.StormFromMinute, gen.StormToMinute
	case rules.RuleBurst:
		from, to = gen.BurstFromMinute, gen.BurstToMinute
	default:
		if f.Window != nil {
			t.Errorf("%s has a window", f.Rule)
		}
		return
	}
	if f.Window == nil {
		t.Fatalf("%s has no window", f.Rule)
	}
	wantFrom, wantTo := start.Add(time.Duration(from)*time.Minute), start.Add(time.Duration(to)*time.Minute)
	gotFrom, gotTo := time.Unix(0, f.Window.From), time.Unix(0, f.Window.To)
	if d := gotFrom.Sub(wantFrom).Abs(); d > time.Minute {
		t.Errorf("%s window starts %v, want within a minute of %v", f.Rule, gotFrom, wantFrom)
	}
	if d := gotTo.Sub(wantTo).Abs(); d > time.Minute {
		t.Errorf("%s window ends %v, want within a minute of %v", f.Rule, gotTo, wantTo)
	}
}

// checkStormEvidence recounts the storm from the generated requests: the
// 429s in the window, and per caller how many 429s were followed by the
// caller's next request to the same region × model sooner than their
// Retry-After.
func checkStormEvidence(t *testing.T, f rules.Finding, reqs []gen.Request, resolution time.Duration) {
	t.Helper()
	var n429 int64
	next := map[string][]gen.Request{}
	for _, r := range reqs {
		// The log shows times only to its format's precision.
		r.Time = r.Time.Truncate(resolution)
		if r.Region == gen.StormRegion && r.Model == gen.StormModel {
			next[r.AppID] = append(next[r.AppID], r)
		}
	}
	type tally struct{ early, n int }
	early := map[string]*tally{}
	for client, rs := range next {
		for i, r := range rs {
			ns := r.Time.UnixNano()
			if r.Status != 429 || ns < f.Window.From || ns >= f.Window.To {
				continue
			}
			n429++
			j := i + 1
			for j < len(rs) && !rs[j].Time.After(r.Time) {
				j++
			}
			// The rule looks for the next request up to a minute past
			// the window; a retry later than that is not early anyway.
			if j == len(rs) || r.RetryAfter == 0 || rs[j].Time.UnixNano() >= f.Window.To+int64(time.Minute) {
				continue
			}
			if early[client] == nil {
				early[client] = &tally{}
			}
			early[client].n++
			if rs[j].Time.Sub(r.Time) < time.Duration(r.RetryAfter)*time.Second {
				early[client].early++
			}
		}
	}
	if got := f.Evidence.Get("responses_429"); got != n429 {
		t.Errorf("responses_429 = %v, want %d", got, n429)
	}
	var want []string
	for client, e := range early {
		if e.early > 0 {
			want = append(want, fmt.Sprintf("%s: %d of %d ", client, e.early, e.n))
		}
	}
	sort.Strings(want)
	var got []string
	re := regexp.MustCompile(`^[^:]+: \d+ of \d+ `)
	for _, s := range f.Evidence.Get("retried_before_retry_after").([]string) {
		got = append(got, re.FindString(s))
	}
	sort.Strings(got)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("early retriers %q, want %q", got, want)
	}
}
