package rules_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/rules"
	"loganalyze/sketch"
)

// halves reads the generated hour as two shards (the records of the
// first and the second half hour), each into one accumulator with the
// rules' collectors of a run with --state (latency_regression's pairs
// too), not yet finished.
func halves(t *testing.T, m *sketch.Mapping, cfg *rules.Config) []*aggregate.Accumulator {
	t.Helper()
	reqs := generated()
	mid := reqs[0].Time.Truncate(time.Hour).Add(30 * time.Minute)
	var parts [2][]gen.Request
	for _, r := range reqs {
		i := 0
		if !r.Time.Before(mid) {
			i = 1
		}
		parts[i] = append(parts[i], r)
	}
	var out []*aggregate.Accumulator
	for _, p := range parts {
		var buf bytes.Buffer
		if _, err := gen.WriteJSONL(&buf, p, gen.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		accs, _, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.JSONL, Workers: 1, Stdin: &buf, Location: genZone},
			func() *aggregate.Accumulator {
				return aggregate.New(aggregate.Options{Mapping: m, Top: 1000, Collectors: cfg.Collectors(m, 1000, true), TokenURI: cfg.TokenURI})
			})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, accs[0])
	}
	return out
}

// Every collector, written and read back, is the same state: the same
// bytes again, and merged from shards read back the same findings as the
// shards merged in memory.
func TestCollectorsRoundTrip(t *testing.T) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	cfg := rules.Default()
	direct := halves(t, m, cfg)
	stored := halves(t, m, cfg)
	for _, acc := range stored {
		// A combination collector has the set's combinations once the
		// set is expanded, as Accumulator.AppendBinary does first.
		acc.Set.Expand()
		fresh := cfg.Collectors(m, 1000, true)()
		for i, c := range acc.Collectors {
			if c == nil {
				if fresh[i] != nil {
					t.Fatalf("collector %d: nil here, made by the constructor", i)
				}
				continue
			}
			b := c.AppendBinary(nil)
			if err := fresh[i].UnmarshalBinary(b); err != nil {
				t.Fatalf("collector %s: %v", cfg.CollectorNames()[i], err)
			}
			if again := fresh[i].AppendBinary(nil); !bytes.Equal(again, b) {
				t.Fatalf("collector %s: %d bytes written, %d after reading them back", cfg.CollectorNames()[i], len(b), len(again))
			}
		}
		acc.Collectors = fresh
	}
	want, wantNE := rules.Evaluate(aggregate.MergeAll(direct), cfg)
	got, gotNE := rules.Evaluate(aggregate.MergeAll(stored), cfg)
	if len(want) < 5 {
		t.Fatalf("only %d findings to compare", len(want))
	}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotNE, wantNE) {
		t.Fatalf("read back: %d findings %v\nin memory: %d findings %v", len(got), got, len(want), want)
	}
}

// Damaged bytes are an error, never a panic: every prefix of a real
// encoding, and every single-byte change of it.
func TestCollectorsRefuseDamage(t *testing.T) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	cfg := rules.Default()
	acc := halves(t, m, cfg)[0]
	acc.Set.Expand() // the combinations to the combination collectors
	for i, c := range acc.Collectors {
		if c == nil {
			continue
		}
		b := c.AppendBinary(nil)
		name := cfg.CollectorNames()[i]
		if name == rules.RuleRegression && len(b) < 1000 {
			t.Fatalf("%s: %d bytes, want the pairs of an hour", name, len(b))
		}
		step := max(1, len(b)/400)
		for n := 0; n < len(b); n += step {
			if n == 0 && name == rules.RuleRegression {
				continue // no pairs: an hour file of a build that kept none
			}
			if err := cfg.Collectors(m, 1000, true)()[i].UnmarshalBinary(b[:n]); err == nil && n < len(b) && len(b) > 0 {
				t.Errorf("%s: a prefix of %d of %d bytes read without error", name, n, len(b))
			}
		}
		for n := 0; n < len(b); n += step {
			d := bytes.Clone(b)
			d[n] ^= 0xa5
			_ = cfg.Collectors(m, 1000, true)()[i].UnmarshalBinary(d) // must not panic
		}
	}
}

func FuzzCollectorDecode(f *testing.F) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		f.Fatal(err)
	}
	cfg := rules.Default()
	n := len(cfg.CollectorNames())
	for i := range n {
		f.Add(uint8(i), []byte{})
		f.Add(uint8(i), []byte{0, 0, 0, 0, 0, 0, 0})
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		c := cfg.Collectors(m, 10, true)()[int(which)%n]
		if c == nil {
			return
		}
		if c.UnmarshalBinary(b) == nil {
			// What was read is a state: it merges, finishes and writes.
			o := cfg.Collectors(m, 10, true)()[int(which)%n]
			o.Merge(c)
			_ = o.AppendBinary(nil)
			o.Finish()
		}
	})
}

// An hour file written while latency_regression was disabled keeps no
// pairs: read for a later run's history (HistoryCollectors, its
// collectors optional), its pairs are nil and its sketches read; read as
// a report's whole state, it is an error naming the slot.
func TestHistoryReadsFileWithoutPairs(t *testing.T) {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	off, err := rules.Parse("rules.yaml", []byte("rules:\n  latency_regression: {enabled: false}\n"))
	if err != nil {
		t.Fatal(err)
	}
	acc := aggregate.New(aggregate.Options{Mapping: m, Top: 100, Collectors: off.Collectors(m, 100, true)})
	b := acc.AppendBinary(nil)
	cfg := rules.Default()
	back, err := aggregate.Decode(aggregate.Options{Mapping: m, Top: 100, Collectors: cfg.HistoryCollectors(m, 100), OptionalCollectors: true}, b)
	if err != nil {
		t.Fatalf("history read: %v", err)
	}
	for i, c := range back.Collectors {
		if c != nil {
			t.Errorf("collector %s read from a file that kept none", cfg.CollectorNames()[i])
		}
	}
	if _, err := aggregate.Decode(aggregate.Options{Mapping: m, Top: 100, Collectors: cfg.HistoryCollectors(m, 100)}, b); err == nil {
		t.Error("read without optional collectors: no error for the slot the file did not keep")
	}
}
