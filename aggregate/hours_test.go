package aggregate

import (
	"bytes"
	"testing"
	"time"

	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// TestHoursAddUpToTheWindow reads three generated hours with several
// workers: each hour's set counts that hour's requests (the generator's
// own), and the hour sets merged give exactly the window's sketches, key
// for key.
func TestHoursAddUpToTheWindow(t *testing.T) {
	start := time.Date(2026, 11, 29, 9, 30, 0, 0, time.UTC)
	reqs := gen.Generate(gen.Config{Seed: 5, N: 3000, Start: start, Duration: 150 * time.Minute, Plants: gen.All})
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	accs, _, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.JSONL, Location: time.UTC, Workers: 3, Stdin: &buf},
		func() *Accumulator { return New(Options{Mapping: m, Top: 1000, Hourly: true}) })
	if err != nil {
		t.Fatal(err)
	}
	a := MergeAll(accs)

	want := map[int64]int64{}
	for _, r := range reqs {
		want[r.Time.Unix()/3600*3600]++
	}
	if len(a.Hours) != len(want) || len(want) != 3 {
		t.Fatalf("%d hour sets, want %d (3)", len(a.Hours), len(want))
	}
	merged := sketch.NewSet(m, NumMetrics, DimNames, 1000)
	for _, h := range a.SortedHours() {
		if got := a.Hours[h].Set.All.Count; got != want[h] {
			t.Errorf("hour %s: %d records, want %d", time.Unix(h, 0).UTC(), got, want[h])
		}
		merged.Merge(a.Hours[h].Set)
	}
	if first, ok := a.FirstHour(); !ok || first != start.Add(-30*time.Minute).Unix() {
		t.Errorf("first hour %d, %v", first, ok)
	}
	same := func(name string, x, y *sketch.Entry) {
		t.Helper()
		if x.Count != y.Count {
			t.Fatalf("%s: %d vs %d records", name, x.Count, y.Count)
		}
		for i := range x.Metrics {
			if x.Metric(i) == nil || y.Metric(i) == nil {
				if (x.Metric(i) == nil) != (y.Metric(i) == nil) {
					t.Fatalf("%s %s: present in one only", name, MetricNames[i])
				}
				continue
			}
			if x.Metric(i).Quantile(0.99) != y.Metric(i).Quantile(0.99) || x.Metric(i).Sum() != y.Metric(i).Sum() {
				t.Fatalf("%s %s differs", name, MetricNames[i])
			}
		}
	}
	same("all", a.Set.All, merged.All)
	keys := 0
	for d, dim := range a.Set.Dims {
		if dim.Len() != merged.Dims[d].Len() {
			t.Errorf("%s: %d keys in the window, %d in the hours", dim.Name, dim.Len(), merged.Dims[d].Len())
		}
		for _, ke := range dim.Sorted() {
			o := merged.Dims[d].Get(ke.Key)
			if o == nil {
				t.Fatalf("%s %q missing from the hours", dim.Name, ke.Key)
			}
			same(dim.Name+"/"+ke.Key, ke.Entry, o)
			keys++
		}
	}
	if keys < 50 {
		t.Errorf("only %d keys compared", keys)
	}
	// Without Hourly nothing is kept per hour.
	if New(Options{Mapping: m, Top: 10}).Hours != nil {
		t.Error("hour sets without Hourly")
	}
}

// BenchmarkHourly reads 20,000 generated requests over three hours with
// one worker, without and with the per-hour sets (--state).
func BenchmarkHourly(b *testing.B) {
	reqs := gen.Generate(gen.Config{Seed: 5, N: 20000, Duration: 3 * time.Hour, Plants: gen.All})
	var buf bytes.Buffer
	if _, err := gen.WriteJSONL(&buf, reqs, gen.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		b.Fatal(err)
	}
	for _, hourly := range []bool{false, true} {
		b.Run("hourly="+map[bool]string{false: "off", true: "on"}[hourly], func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				accs, _, err := ingest.Run([]string{"-"}, ingest.Options{Format: ingest.JSONL, Location: time.UTC, Workers: 1, Stdin: bytes.NewReader(data)},
					func() *Accumulator { return New(Options{Mapping: m, Top: 1000, Hourly: hourly}) })
				if err != nil {
					b.Fatal(err)
				}
				MergeAll(accs)
			}
		})
	}
}

// Past MaxHours the latest hours are kept, the same whatever the split.
func TestHoursBounded(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	const hours = MaxHours + 40
	var times []int64
	for h := range hours {
		for i := range 3 {
			times = append(times, start+int64(h)*3600e9+int64(i)*1000e9)
		}
	}
	for k, workers := range []int{1, 2, 7, 1, 3} {
		if k == 3 { // then backwards in time
			for i, j := 0, len(times)-1; i < j; i, j = i+1, j-1 {
				times[i], times[j] = times[j], times[i]
			}
		}
		accs := make([]*Accumulator, workers)
		for w := range accs {
			accs[w] = newAcc(t, Options{Hourly: true})
		}
		for i, ts := range times {
			// Round robin: every worker sees every hour.
			accs[i%workers].Add(rec(t, "time", time.Unix(0, ts).UTC().Format(time.RFC3339), "request_time", "1"))
		}
		a := MergeAll(accs)
		first := start/1e9 + 40*3600
		if len(a.Hours) != MaxHours || a.HoursFrom != first || a.SortedHours()[0] != first {
			t.Fatalf("%d workers: %d hours from %d (HoursFrom %d), want %d from %d", workers, len(a.Hours), a.SortedHours()[0], a.HoursFrom, MaxHours, first)
		}
		for _, h := range a.SortedHours() {
			if a.Hours[h].Set.All.Count != 3 {
				t.Fatalf("%d workers: hour %d has %d records, want 3", workers, h, a.Hours[h].Set.All.Count)
			}
		}
	}
}
