//go:build unix

package state

import (
	"os"
	"syscall"
)

// errLocked is lockFile's error when another process holds the lock.
var errLocked = syscall.EWOULDBLOCK

// lockFile takes an exclusive lock of f without waiting; the lock goes
// with the file's descriptor when it is closed, or the process ends.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
