package memlimit

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestLimit(t *testing.T) {
	for _, c := range []struct{ budget, live, want int64 }{
		{100, 0, 100},
		{100, 74, 100},
		{100, 75, 150},
		{100, 200, 400},
	} {
		if got := Limit(c.budget, c.live); got != c.want {
			t.Errorf("Limit(%d, %d) = %d, want %d", c.budget, c.live, got, c.want)
		}
	}
}

// TestStartLeavesAUserLimit: with GOMEMLIMIT in the environment, Start
// changes nothing.
func TestStartLeavesAUserLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	stop := Start(1 << 20)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set, Start changed the limit to %d", got)
	}
	stop()
}

// TestStartFollowsTheLiveHeap starts a budget far below a live heap of
// 64 MiB: the limit must rise to at least twice that heap, and stop must
// restore the limit there was.
func TestStartFollowsTheLiveHeap(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Fatal("GOMEMLIMIT is set in the test's environment")
	}
	before := debug.SetMemoryLimit(-1)
	live := make([]byte, 64<<20)
	for i := range live {
		live[i] = byte(i)
	}
	stop := Start(1 << 20)
	deadline := time.Now().Add(5 * time.Second)
	var got int64
	for time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(2 * every)
		if got = debug.SetMemoryLimit(-1); got >= 128<<20 {
			break
		}
	}
	if got < 128<<20 {
		t.Errorf("with 64 MiB live and a 1 MiB budget the limit is %d, want at least 128 MiB", got)
	}
	runtime.KeepAlive(live)
	stop()
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("after stop the limit is %d, want %d as before", after, before)
	}
}

// gcPercent reads the collector's percentage.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestStartHoldsTheFloor: with neither GOGC nor GOMEMLIMIT set, a run is
// not collected until its memory reaches Floor; a live heap over half
// of it ends the floor, and the collector works as without one.
func TestStartHoldsTheFloor(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := os.LookupEnv(env); set {
			t.Fatalf("%s is set in the test's environment", env)
		}
	}
	runtime.GC()
	beforePercent, beforeLimit := gcPercent(), debug.SetMemoryLimit(-1)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gcs := ms.NumGC
	stop := Start(DefaultBudget)
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != -1 || l != Floor {
		t.Errorf("under the floor: GC percent %d and limit %d, want -1 and %d", p, l, Floor)
	}
	// 16 MiB of garbage, a quarter of the floor: no collection.
	var keep []byte
	for range 256 {
		keep = make([]byte, 64<<10)
		keep[0] = 1
	}
	runtime.ReadMemStats(&ms)
	if n := ms.NumGC - gcs; n != 0 {
		t.Errorf("%d collections for 16 MiB of garbage under a %d MiB floor, want none", n, Floor>>20)
	}
	// A live heap over half the floor ends it.
	live := make([][]byte, 0, 48)
	for range 48 {
		b := make([]byte, 1<<20)
		b[0] = 1
		live = append(live, b)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && gcPercent() != beforePercent {
		runtime.GC()
		time.Sleep(2 * floorEvery)
	}
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != beforePercent || l != DefaultBudget {
		t.Errorf("with 48 MiB live: GC percent %d and limit %d, want %d and %d", p, l, beforePercent, DefaultBudget)
	}
	runtime.KeepAlive(live)
	runtime.KeepAlive(keep)
	stop()
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != beforePercent || l != beforeLimit {
		t.Errorf("after stop: GC percent %d and limit %d, want %d and %d as before", p, l, beforePercent, beforeLimit)
	}
}

// TestStartLeavesAUserGOGC: with GOGC in the environment, Start holds
// no floor and leaves the percentage.
func TestStartLeavesAUserGOGC(t *testing.T) {
	t.Setenv("GOGC", "100")
	before := gcPercent()
	stop := Start(DefaultBudget)
	if p, l := gcPercent(), debug.SetMemoryLimit(-1); p != before || l != DefaultBudget {
		t.Errorf("with GOGC set: GC percent %d and limit %d, want %d and %d", p, l, before, DefaultBudget)
	}
	stop()
}

// TestStartStopUnderTheFloor: stopped while the floor holds, Start
// gives the percentage back.
func TestStartStopUnderTheFloor(t *testing.T) {
	before := gcPercent()
	stop := Start(DefaultBudget)
	stop()
	if p := gcPercent(); p != before {
		t.Errorf("after stop under the floor: GC percent %d, want %d", p, before)
	}
}

func lookupEnv() (string, bool) { return osLookupEnv("GOMEMLIMIT") }

var osLookupEnv = os.LookupEnv
