// Package memlimit keeps a run's heap near a budget while that is cheap:
// while what is live is under three quarters of the budget, the garbage
// collector's soft limit holds the heap to the budget instead of letting
// it grow to twice what is live (the default, GOGC=100), which costs a
// few collections more; past that the limit is twice the live heap, the
// collector's own goal, so that a run that needs more memory is collected
// as it would be without the budget, never held near a limit it fills.
//
// Below a floor, a run is not collected at all until its heap reaches
// the floor: most runs keep a live heap of a few dozen megabytes, and
// grown by doubling from 4 MB it was collected eight or nine times,
// each collection slowing the workers with its write barriers and
// assists while it marked. Once the live heap is over half the floor,
// the collector works as above.
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

// Floor is the memory a run may take before it is first collected, when
// its budget is at least twice that and the environment sets neither
// GOGC nor GOMEMLIMIT. A run whose live heap stays under half of it is
// collected only when its memory reaches it again.
const Floor = 64 << 20

// every is how often the live heap is read; floorEvery while the floor
// holds, so that a heap that outgrows it is soon collected as any.
const (
	every      = 50 * time.Millisecond
	floorEvery = 10 * time.Millisecond
)

// Start holds the heap to budget until the returned function is called,
// which restores the limit and the collector's percentage there were. It
// does nothing when the environment sets GOMEMLIMIT: the user's limit
// stands. With GOGC set, the user's percentage stands and no floor is
// held.
func Start(budget int64) (stop func()) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set || budget <= 0 {
		return func() {}
	}
	_, userGC := os.LookupEnv("GOGC")
	floor := !userGC && budget >= 2*Floor
	var prev int64
	prevPercent := 0
	if floor {
		prevPercent = debug.SetGCPercent(-1)
		prev = debug.SetMemoryLimit(Floor)
	} else {
		prev = debug.SetMemoryLimit(budget)
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := every
		if floor {
			tick = floorEvery
		}
		t := time.NewTicker(tick)
		defer t.Stop()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-t.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() != metrics.KindUint64 {
					continue
				}
				live := int64(sample[0].Value.Uint64())
				if floor {
					if !Outgrown(live) {
						continue
					}
					floor = false
					debug.SetGCPercent(prevPercent)
					t.Reset(every)
				}
				debug.SetMemoryLimit(Limit(budget, live))
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		if floor {
			debug.SetGCPercent(prevPercent)
		}
		debug.SetMemoryLimit(prev)
	}
}

// Outgrown reports whether a live heap of live bytes ends the floor:
// over half of it, the run would be collected at ever shorter intervals
// as its heap neared the floor.
func Outgrown(live int64) bool { return 2*live > Floor }

// Limit is the soft limit for a live heap of live bytes: the budget
// while the live heap is under three quarters of it, else twice the
// live heap (and at least the budget).
func Limit(budget, live int64) int64 {
	if 4*live < 3*budget {
		return budget
	}
	return max(budget, 2*live)
}
