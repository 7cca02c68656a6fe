package ingest

import (
	"os"
	"syscall"
	"unsafe"
)

const canMap = true

// mapFile maps the first size bytes of f, to be read from start to end.
func mapFile(f *os.File, size int) ([]byte, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	_ = syscall.Madvise(data, syscall.MADV_SEQUENTIAL) // read ahead further
	return data, nil
}

func unmap(data []byte) { _ = syscall.Munmap(data) }

// dropPages takes the pages of data[off:off+n] out of the resident set
// (they stay in the page cache); off is at a page's start.
func dropPages(data []byte, off, n int) {
	_ = syscall.Madvise(data[off:off+n], syscall.MADV_DONTNEED)
}

func dataAddr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
