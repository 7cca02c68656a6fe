package state

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// errLocked is lockFile's error when another process holds the lock.
var errLocked = windows.ERROR_LOCK_VIOLATION

// lockFile takes an exclusive lock of f without waiting; the lock goes
// with the file's handle when it is closed, or the process ends. The
// byte locked is far past the pid the file holds, which another run
// then can still read to name the holder.
func lockFile(f *os.File) error {
	ol := windows.Overlapped{OffsetHigh: 0x7fffffff}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}
