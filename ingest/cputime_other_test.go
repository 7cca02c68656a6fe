//go:build !unix

package ingest_test

import "time"

// cpuTime is unknown here; the benchmarks report it as 0.
func cpuTime() time.Duration { return 0 }
