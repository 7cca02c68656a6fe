//go:build !unix

package sharedtest

import "time"

// CPUTime is unknown here; the benchmarks report it as 0.
func CPUTime() time.Duration { return 0 }
