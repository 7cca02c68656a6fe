package aggregate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"loganalyze/ingest"
	"loganalyze/sketch"
)

// strayOracle is the definition of strays, on all the times at once:
// the earliest j records (j ≤ MaxStrays and j ≤ n/100, the largest
// such) when the
// record after them is more than a day later than the last of them and
// than the rest span, and each is of a file with a record after them.
// The first own records of the sorted times are a file of their own.
func strayOracle(times []int64, own int) int {
	ts := slices.Sorted(slices.Values(times))
	n := len(ts)
	for j := min(MaxStrays, n-1, n/100); j >= 1; j-- {
		gap := ts[j] - ts[j-1]
		if gap > int64(24*time.Hour) && gap > ts[n-1]-ts[j] && own == 0 {
			return j
		}
	}
	return 0
}

// TestStraysWhateverTheOrderAndSplit: the records dated long before all
// the others are left out of the window, counted in Past and Skipped,
// and the rest all added, whatever the order of the records and their
// split between workers; the count, the span and the strays' times are
// those the definition gives on the sorted times.
func TestStraysWhateverTheOrderAndSplit(t *testing.T) {
	m, err := sketch.NewMapping(0.01)
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC).UnixNano()
	day := int64(24 * time.Hour)
	at := func(y int, d time.Duration) int64 { return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).Add(d).UnixNano() }
	rng := rand.New(rand.NewPCG(3, 5))
	bulk := func(n int, span int64) []int64 {
		ts := make([]int64, n)
		for i := range ts {
			ts[i] = base + rng.Int64N(span)
		}
		return ts
	}
	cases := []struct {
		name  string
		times []int64
		want  int // strays
		own   int // the earliest records, a file of their own
	}{
		{"none", bulk(3000, int64(time.Hour)), 0, 0},
		{"one in 2001", append(bulk(3000, int64(time.Hour)), at(2001, 0)), 1, 0},
		{"three in 2001 and 2010", append(bulk(3000, int64(time.Hour)), at(2001, 0), at(2001, time.Minute), at(2010, 0)), 3, 0},
		{"as many as can be", append(bulk(6400, int64(time.Hour)), slices.Repeat([]int64{at(2001, 0)}, MaxStrays)...), MaxStrays, 0},
		{"one too many: a log of their own", append(bulk(8000, int64(time.Hour)), slices.Repeat([]int64{at(2001, 0)}, MaxStrays+1)...), 0, 0},
		{"more than one in a hundred", append(bulk(1000, int64(time.Hour)), slices.Repeat([]int64{at(2001, 0)}, 11)...), 0, 0},
		{"one in a hundred", append(bulk(1089, int64(time.Hour)), slices.Repeat([]int64{at(2001, 0)}, 11)...), 11, 0},
		{"a sample of lines years apart", []int64{at(2016, 0), at(2016, time.Hour), at(2016, 2*time.Hour), at(2017, 0), at(2017, time.Hour), at(2017, 2*time.Hour), at(2018, 0)}, 0, 0},
		{"five ten days early", append(bulk(3000, int64(time.Hour)), base-10*day, base-10*day+1, base-10*day+2, base-10*day+3, base-10*day+4), 5, 0},
		{"a hundred a month early", append(bulk(3000, int64(time.Hour)), slices.Repeat([]int64{base - 30*day}, 100)...), 0, 0},
		{"a quiet week in a month", append(bulk(3000, 30*day), base-7*day, base-7*day+5), 0, 0},
		{"half a day early", append(bulk(3000, int64(time.Hour)), base-day/2), 0, 0},
		{"tiny log", []int64{at(2001, 0), base, base + int64(time.Minute)}, 0, 0},
		{"one record", []int64{at(2001, 0)}, 0, 0},
		{"each a day and more before the one before", func() []int64 {
			ts := make([]int64, 1000)
			for i := range ts {
				ts[i] = base - int64(i)*(2*day+1)
			}
			return ts
		}(), 0, 0},
		{"an old file of its own", append(bulk(3000, int64(time.Hour)), at(2020, 0), at(2020, time.Minute)), 0, 2},
	}
	for _, c := range cases {
		if got := strayOracle(c.times, c.own); got != c.want {
			t.Fatalf("%s: the oracle finds %d strays; the case means %d", c.name, got, c.want)
		}
		ts := slices.Sorted(slices.Values(c.times))
		fileOf := map[int64]int32{} // the earliest own times: file 1
		for _, tm := range ts[:c.own] {
			fileOf[tm] = 1
		}
		for _, order := range []string{"sorted", "reversed", "shuffled"} {
			times := slices.Clone(ts)
			switch order {
			case "reversed":
				slices.Reverse(times)
			case "shuffled":
				rng.Shuffle(len(times), func(i, j int) { times[i], times[j] = times[j], times[i] })
			}
			for _, workers := range []int{1, 2, 7} {
				name := fmt.Sprintf("%s/%s/%d workers", c.name, order, workers)
				accs := make([]*Accumulator, workers)
				for i := range accs {
					accs[i] = New(Options{Mapping: m, Top: 10, HoldStrays: true})
				}
				// Batches of up to BatchSize go to the workers in turn,
				// as the pipeline's units do.
				batch := make([]ingest.Record, 0, ingest.BatchSize)
				w := 0
				flush := func() {
					accs[w%workers].AddBatch(batch)
					batch, w = batch[:0], w+1
				}
				for i, tm := range times {
					var r ingest.Record
					r.SetTime(tm)
					r.File = fileOf[tm]
					r.SetFloat(ingest.FRequestTime, 0.1+float64(i%7)/10)
					batch = append(batch, r)
					if len(batch) == 37 {
						flush()
					}
				}
				if len(batch) > 0 {
					flush()
				}
				SettleStrays(accs)
				a := MergeAll(accs)
				n := len(ts)
				if a.Past != int64(c.want) || a.Skipped != int64(c.want) || a.Records != int64(n-c.want) {
					t.Errorf("%s: %d strays (%d skipped), %d records added; want %d strays, %d added", name, a.Past, a.Skipped, a.Records, c.want, n-c.want)
					continue
				}
				if a.MinTime != ts[c.want] || a.MaxTime != ts[n-1] {
					t.Errorf("%s: window %d to %d; want %d to %d", name, a.MinTime, a.MaxTime, ts[c.want], ts[n-1])
				}
				if c.want > 0 && (a.FirstPast != ts[0] || a.LastPast != ts[c.want-1]) {
					t.Errorf("%s: strays from %d to %d; want %d to %d", name, a.FirstPast, a.LastPast, ts[0], ts[c.want-1])
				}
				var count int64
				for _, b := range a.Timeline.Buckets() {
					count += b.Requests
				}
				if count != int64(n-c.want) {
					t.Errorf("%s: the time line counts %d requests; want %d", name, count, n-c.want)
				}
			}
		}
	}
}

// TestCloneOwnsItsTexts: a record a sink holds keeps its texts after the
// buffer they were read from is written over.
func TestCloneOwnsItsTexts(t *testing.T) {
	buf := []byte("ap-beijing qwen")
	var r ingest.Record
	r.SetText(ingest.FRegion, buf[:10])
	r.SetText(ingest.FModel, buf[11:])
	r.SetTime(1)
	c := r.Clone()
	copy(buf, "xxxxxxxxxxxxxxx")
	if string(c.Text(ingest.FRegion)) != "ap-beijing" || string(c.Text(ingest.FModel)) != "qwen" || c.TimeNS != 1 {
		t.Errorf("clone's region %q, model %q, time %d; want ap-beijing, qwen, 1", c.Text(ingest.FRegion), c.Text(ingest.FModel), c.TimeNS)
	}
}
