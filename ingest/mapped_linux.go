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

// madvPopulateRead is Linux's MADV_POPULATE_READ (5.14), which the
// syscall package does not name.
const madvPopulateRead = 22

// populate maps the pages of data[off:off+n] in one call, before they
// are read: a fault per folio of the page cache costs more, under a
// hypervisor most. An older kernel refuses it (EINVAL), and a page the
// file no longer has (EFAULT) is left to fault when read, as before
// (mappedLines); either way nothing is lost.
func populate(data []byte, off, n int) {
	lo := off &^ (pageSize - 1)
	_ = syscall.Madvise(data[lo:off+n], madvPopulateRead)
}
