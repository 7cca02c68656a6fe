package rules

import (
	"bytes"
	"reflect"
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
							c.maxCells, c.maxBuckets, c.samples.n = 200, 50, 300
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
			pruned, cut = ms.samples.keyShare() < 1, ms.cellsCapped
		}
		if ps, ok := c.(*pathStats); ok {
			capped = ps.paths.keyShare() < 1
		}
		if rp, ok := c.(*regressionPairs); ok {
			// It writes nothing to hour files: compare what it holds.
			hp := hidden.Collectors[i].(noCombo).Collector.(*regressionPairs)
			rp.flushAll() // what Finish and a merge do first
			if rp.n == 0 || rp.folded == 0 {
				t.Errorf("regression pairs: %d kept, %d folded: the bound was not reached", rp.n, rp.folded)
			}
			if !reflect.DeepEqual(rp.causes, hp.causes) || rp.n != hp.n || rp.folded != hp.folded {
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
