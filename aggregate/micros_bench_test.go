package aggregate

import (
	"math/rand/v2"
	"testing"
)

var microsSink uint64

// BenchmarkMicros converts request times in seconds and phase times in
// ms to whole microseconds, as the breakdown does five times a record.
func BenchmarkMicros(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, 4096)
	for i := range vals {
		vals[i] = rnd.ExpFloat64()
	}
	for i := 0; b.Loop(); i++ {
		microsSink += micros(vals[i&4095], 1) + micros(vals[(i+7)&4095], 1000)
	}
}
