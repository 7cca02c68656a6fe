//go:build unix

package ingest

import (
	"os"
	"syscall"
)

// fileID returns the device and inode of the file st describes.
func fileID(st os.FileInfo) (dev, ino uint64, ok bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(s.Dev), uint64(s.Ino), true
}

// openFile opens path for reading as os.Open does, but not for the
// runtime's poller: os.Open sets a regular file non-blocking, asks the
// poller to watch it, is refused, and sets it blocking again (four
// calls to the system besides the open, per file), which a directory of
// many small files paid for each. A file opened so reads as os.Open's.
func openFile(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
