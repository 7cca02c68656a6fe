//go:build !unix

package ingest

import "os"

// fileID reports no identity: files are known by their resolved paths.
func fileID(os.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }

// openFile opens path for reading.
func openFile(path string) (*os.File, error) { return os.Open(path) }
