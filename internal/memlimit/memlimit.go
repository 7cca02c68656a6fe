// Package memlimit keeps a run's heap near a budget while that is cheap:
// while what is live is under three quarters of the budget, the garbage
// collector's soft limit holds the heap to the budget instead of letting
// it grow to twice what is live (the default, GOGC=100), which costs a
// few collections more; past that the limit is twice the live heap, the
// collector's own goal, so that a run that needs more memory is collected
// as it would be without the budget, never held near a limit it fills.
package memlimit

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// DefaultBudget is the heap a run is held to when its live heap allows:
// with the rest of the process, a peak resident set under 400 MB.
const DefaultBudget = 320 << 20

// every is how often the live heap is read.
const every = 50 * time.Millisecond

// Start holds the heap to budget until the returned function is called,
// which restores the limit there was. It does nothing when the
// environment sets GOMEMLIMIT: the user's limit stands.
func Start(budget int64) (stop func()) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set || budget <= 0 {
		return func() {}
	}
	prev := debug.SetMemoryLimit(budget)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-t.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() == metrics.KindUint64 {
					debug.SetMemoryLimit(Limit(budget, int64(sample[0].Value.Uint64())))
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		debug.SetMemoryLimit(prev)
	}
}

// Limit is the soft limit for a live heap of live bytes: the budget
// while the live heap is under three quarters of it, else twice the
// live heap (and at least the budget).
func Limit(budget, live int64) int64 {
	if 4*live < 3*budget {
		return budget
	}
	return max(budget, 2*live)
}
