package ingest

import (
	"os"
	"syscall"
	"unsafe"
)

const canMap = true

func mapFile(f *os.File, size int) ([]byte, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	// Read ahead further: the file is read from start to end.
	_ = syscall.Madvise(data, syscall.MADV_SEQUENTIAL)
	return data, nil
}

func unmap(data []byte) { _ = syscall.Munmap(data) }

// dropPages takes the pages of data[off:off+n] out of the resident set;
// off is at a page's start.
func dropPages(data []byte, off, n int) {
	_ = syscall.Madvise(data[off:off+n], syscall.MADV_DONTNEED)
}

func dataAddr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
