package sketch_test

import (
	"fmt"
	"log"

	"loganalyze/sketch"
)

// Latencies of two gateways are kept in two sketches sharing one mapping,
// merged into one, and stored: every quantile stays within 1 % of the
// exact value, whichever of the three it is read from.
func Example() {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		log.Fatal(err)
	}
	// Gateway a answered in 1, 2, …, 100 ms; gateway b in 101, …, 1000 ms.
	a, b := sketch.New(m), sketch.New(m)
	for v := 1; v <= 100; v++ {
		a.Add(float64(v))
	}
	for v := 101; v <= 1000; v++ {
		b.Add(float64(v))
	}
	// The exact value at rank ⌊q·(n−1)⌋ of a's sorted values is
	// ⌊q·99⌋+1: 50 for the median, 99 for p99.
	fmt.Printf("a: %d values, p50 %.2f, p99 %.2f, max %.0f\n", a.Count(), a.Quantile(0.5), a.Quantile(0.99), a.Max())

	all := sketch.New(m)
	all.Merge(a)
	all.Merge(b)
	// 1…1000 ms: exact p50 500, p99 990, mean 500.5.
	fmt.Printf("a+b: %d values, p50 %.2f, p99 %.2f, mean %.1f\n", all.Count(), all.Quantile(0.5), all.Quantile(0.99), all.Mean())

	buf := all.AppendEncode(nil)
	back, rest, err := sketch.Decode(m, buf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("decoded from %d bytes (%d left): %d values, p50 %.2f, p99 %.2f, min %.0f, max %.0f\n",
		len(buf), len(rest), back.Count(), back.Quantile(0.5), back.Quantile(0.99), back.Min(), back.Max())
	// Output:
	// a: 100 values, p50 49.90, p99 98.50, max 100
	// a+b: 1000 values, p50 497.78, p99 982.58, mean 500.5
	// decoded from 436 bytes (0 left): 1000 values, p50 497.78, p99 982.58, min 1, max 1000
}

// A sketch stores its values in bins whose bounds are 2 % apart (a
// relative accuracy of 1 %); zero and negative values share a bin of
// their own.
func ExampleSketch_Bins() {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		log.Fatal(err)
	}
	s := sketch.New(m)
	for _, v := range []float64{0, -3, 100, 101, 250} {
		s.Add(v)
	}
	s.Bins(func(lower, upper float64, count int64) {
		if upper == 0 {
			fmt.Printf("zero or less: %d\n", count)
			return
		}
		fmt.Printf("[%.2f, %.2f): %d\n", lower, upper, count)
	})
	// Output:
	// zero or less: 2
	// [99.50, 101.51): 2
	// [249.68, 254.73): 1
}
