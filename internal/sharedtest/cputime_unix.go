//go:build unix

package sharedtest

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time the process has used, user and system, so
// that a benchmark can report it beside the wall time, which other work on
// a shared machine distorts more.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
