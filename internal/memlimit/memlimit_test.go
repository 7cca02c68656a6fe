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

func lookupEnv() (string, bool) { return osLookupEnv("GOMEMLIMIT") }

var osLookupEnv = os.LookupEnv
