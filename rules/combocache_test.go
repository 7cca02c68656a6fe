package rules

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// noCombo hides the record's combination from a collector, so that it
// looks every record up and counts it itself (not Fed: the wrapper is no
// ComboCollector, so the set's expansion does not reach it): what it
// gathers must not change.
type noCombo struct{ aggregate.Collector }

func (n noCombo) Add(r *ingest.Record, v *aggregate.Values) {
	w := *v
	w.Combo, w.Fed = -1, false
	n.Collector.Add(r, &w)
}

func (n noCombo) Merge(o aggregate.Collector) { n.Collector.Merge(o.(noCombo).Collector) }

// TestComboCacheChangesNothing reads generated records with every
// collector once as it runs and once with each record's combination
// hidden, and requires the same bytes from every collector and the same
// findings. The bounds are small, so that the collectors cap, cut
// minutes and prune retry samples while they read, each of which must
// drop what they cached.
func TestComboCacheChangesNothing(t *testing.T) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Default()
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, gen.Generate(gen.Config{Seed: 3, N: 20000, Plants: gen.All}), gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	const top = 3
	var pruned, cut, capped bool
	read := func(hide bool) *aggregate.Accumulator {
		collectors := cfg.Collectors(m, top, true)
		accs, _, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.JSONL, Workers: 1, Stdin: bytes.NewReader(buf.Bytes()), Location: time.FixedZone("+0800", 8*3600)},
			func() *aggregate.Accumulator {
				return aggregate.New(aggregate.Options{Mapping: m, Top: top, TokenURI: cfg.TokenURI, Collectors: func() []aggregate.Collector {
					cs := collectors()
					for i, c := range cs {
						switch c := c.(type) {
						case *minuteStats:
							c.maxCells, c.maxBuckets = 200, 50
							c.setRetryKeys(300)
						case *callers:
							c.clients.n = 1000 // the token finding's caller stays
						case *pathStats:
							c.paths.n = 20
						case *ceilings:
							c.clients.n = 20
						case *modelStreams:
							// Its fold drops the lightest at whatever
							// moment it holds twice top: records one by
							// one and combinations at the expansion fold
							// at different moments. Kept unfolded, the
							// two must agree exactly.
							c.env.top = 1000
						case *regressionPairs:
							c.env.top = 1000 // as modelStreams
						}
						if hide && c != nil {
							cs[i] = noCombo{c}
						}
					}
					return cs
				}})
			})
		if err != nil {
			t.Fatal(err)
		}
		return accs[0]
	}
	cached, hidden := read(false), read(true)
	// The combination collectors of cached are complete once its set
	// has expanded.
	cached.Set.Expand()
	for i, c := range cached.Collectors {
		if c == nil {
			continue
		}
		if ms, ok := c.(*minuteStats); ok {
			pruned, cut = ms.retriesPruned(), ms.cellsCapped
		}
		if ps, ok := c.(*pathStats); ok {
			capped = ps.paths.keyShare() < 1
		}
		if rp, ok := c.(*regressionPairs); ok {
			// It writes nothing to hour files: compare what it holds.
			hp := hidden.Collectors[i].(noCombo).Collector.(*regressionPairs)
			if rp.n == 0 {
				t.Errorf("regression pairs: none kept")
			}
			if !reflect.DeepEqual(pairsText(rp), pairsText(hp)) || rp.n != hp.n || rp.folded != hp.folded {
				t.Errorf("regression pairs differ with the cache: %d kept, %d folded; without %d, %d", rp.n, rp.folded, hp.n, hp.folded)
			}
		}
		if a, b := c.AppendBinary(nil), hidden.Collectors[i].AppendBinary(nil); !bytes.Equal(a, b) {
			t.Errorf("collector %s gathers differently with its combination cache (%d bytes, %d without)", cfg.CollectorNames()[i], len(a), len(b))
		}
	}
	if !pruned || !cut || !capped {
		t.Fatalf("retry samples pruned %v, minutes cut %v, paths capped %v: the bounds were not reached", pruned, cut, capped)
	}
	for i, c := range hidden.Collectors {
		if nc, ok := c.(noCombo); ok {
			hidden.Collectors[i] = nc.Collector
		}
	}
	want, wantNE := Evaluate(aggregate.MergeAll([]*aggregate.Accumulator{hidden}), cfg)
	got, gotNE := Evaluate(aggregate.MergeAll([]*aggregate.Accumulator{cached}), cfg)
	if len(want) == 0 || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotNE, wantNE) {
		t.Errorf("with the cache: %v\nwithout: %v", got, want)
	}
}

// pairsText spells out every pair a regressionPairs keeps: its count and
// each metric's bins, whatever the room its counts were grown to.
func pairsText(c *regressionPairs) map[string]string {
	out := map[string]string{}
	for ci := range c.causes {
		for ck, cp := range c.causes[ci] {
			for d, m := range cp.byDim {
				for k, p := range m {
					var b strings.Builder
					fmt.Fprintf(&b, "n=%d", p.count)
					for i, cs := range p.metrics {
						if cs == nil {
							continue
						}
						fmt.Fprintf(&b, " m%d:", i)
						cs.Bins(func(lo, hi float64, n int64) { fmt.Fprintf(&b, " [%g,%g)=%d", lo, hi, n) })
					}
					out[fmt.Sprintf("%d/%s/%d/%s", ci, ck, d, k)] = b.String()
				}
			}
		}
	}
	return out
}

// TestRegressionPairsFromHours reads a log of 30 hours with hours kept
// (--state): latency_regression's pairs then come from the combinations
// of the hours' sets and of the window's own set as they expand, the
// earliest hours' while the log is read (past MaxHours they are dropped
// into the window), the late records of a dropped hour and the records
// without a time through the window's own. They must be the pairs its
// Add finds record by record (the collector hidden from the sets), at 1,
// 2 and 3 workers.
func TestRegressionPairsFromHours(t *testing.T) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Default()
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, gen.Generate(gen.Config{Seed: 5, N: 30000, Duration: 30 * time.Hour, Plants: gen.All}), gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	var in []byte
	for _, l := range lines[500:] {
		in = append(in, l...)
	}
	for _, l := range lines[:500] { // late, of hours dropped by then
		in = append(in, l...)
	}
	noTime := regexp.MustCompile(`"time":"[^"]*",`)
	for _, l := range lines[1000:1200] {
		in = append(in, noTime.ReplaceAll(l, nil)...)
	}
	const top = 1000 // unfolded: a fold's moment differs by record and by combination
	read := func(workers int, hide bool) (map[string]string, *aggregate.Accumulator) {
		collectors := cfg.Collectors(m, top, true)
		accs, _, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.JSONL, Workers: workers, Stdin: bytes.NewReader(in), Location: time.UTC},
			func() *aggregate.Accumulator {
				return aggregate.New(aggregate.Options{Mapping: m, Top: top, TokenURI: cfg.TokenURI, Hourly: true,
					HourCollectors: cfg.Collectors(m, top, false),
					Collectors: func() []aggregate.Collector {
						cs := collectors()
						for i, c := range cs {
							if _, ok := c.(*regressionPairs); ok && hide {
								cs[i] = noCombo{c}
							}
						}
						return cs
					}})
			})
		if err != nil {
			t.Fatal(err)
		}
		a := aggregate.MergeAll(accs)
		for _, c := range a.Collectors {
			if nc, ok := c.(noCombo); ok {
				c = nc.Collector
			}
			if rp, ok := c.(*regressionPairs); ok {
				return pairsText(rp), a
			}
		}
		t.Fatal("no regression pairs")
		return nil, nil
	}
	want, a := read(1, true)
	if a.HoursFrom == 0 || len(a.Hours) != aggregate.MaxHours {
		t.Fatalf("%d hours kept, dropped from %d: want %d kept and the earliest dropped", len(a.Hours), a.HoursFrom, aggregate.MaxHours)
	}
	var requests int64
	for k, v := range want {
		if strings.HasPrefix(k, "0/") && strings.Contains(k, fmt.Sprintf("/%d/", aggregate.DimStatus)) {
			var n int64
			fmt.Sscanf(v, "n=%d", &n)
			requests += n
		}
	}
	// Every record with a region (each has a status) is in one region ×
	// status pair: the pairs hold the whole log.
	if withRegion := int64(len(lines) - 1 + 200 - noRegion(in)); requests != withRegion || a.Set.All.Count != int64(len(lines)-1+200) {
		t.Errorf("region × status pairs hold %d requests, the log %d with a region (%d records)", requests, withRegion, a.Set.All.Count)
	}
	for _, w := range []int{1, 2, 3} {
		got, _ := read(w, false)
		if !reflect.DeepEqual(got, want) {
			n := 0
			for k, v := range want {
				if got[k] != v && n < 3 {
					t.Errorf("%d workers: pair %s is %.80q…, by record %.80q…", w, k, got[k], v)
					n++
				}
			}
			t.Errorf("%d workers: %d pairs from the combinations, %d by record", w, len(got), len(want))
		}
	}
}

// noRegion counts the JSON lines without a region.
func noRegion(in []byte) int {
	n := 0
	for _, l := range bytes.Split(in, []byte("\n")) {
		if len(l) > 0 && !bytes.Contains(l, []byte(`"region":"`)) {
			n++
		}
	}
	return n
}
