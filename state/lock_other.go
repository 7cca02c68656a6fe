//go:build !unix && !windows

package state

import (
	"errors"
	"os"
	"runtime"
)

// errLocked is lockFile's error when another process holds the lock.
var errLocked = errors.New("locked")

// lockFile fails: this system has no file lock the state directory's
// runs could rely on to keep out of each other's way.
func lockFile(f *os.File) error {
	return errors.New("no file locks on " + runtime.GOOS)
}
