package hugeheap

import (
	"os"
	"runtime/debug"
	"syscall"
	"unsafe"
)

// Advise maps n bytes of heap, asks for huge pages there and frees them,
// collecting and returning the pages to the system (which touched none
// of them). It does nothing when GODEBUG sets disablethp=1. The error
// is madvise's: a kernel without transparent huge pages refuses, and the
// heap is then as it would have been.
func Advise(n int) error {
	if Disabled() || n <= 0 {
		return nil
	}
	err := advise(n)
	debug.FreeOSMemory() // advise's region, garbage now
	return err
}

// advise allocates n bytes, fresh from the system (neither cleared nor
// touched), and asks for huge pages for its whole pages.
func advise(n int) error {
	b := make([]byte, n)
	page := uintptr(os.Getpagesize())
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	off := (page - p%page) % page
	if off >= uintptr(n) {
		return nil
	}
	m := (uintptr(n) - off) &^ (page - 1)
	if m == 0 {
		return nil
	}
	return syscall.Madvise(b[off:off+m], syscall.MADV_HUGEPAGE)
}
