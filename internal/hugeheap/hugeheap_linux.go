package hugeheap

import (
	"math"
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
	if Disabled() || n <= 0 || !roomFor(n, addressLimit()) {
		return nil
	}
	// Not collected when it is allocated, only once it is garbage: the
	// collection its size would start marks while it is still held, and
	// FreeOSMemory's then waits for that one.
	pct := debug.SetGCPercent(-1)
	err := advise(n)
	debug.FreeOSMemory() // advise's region, garbage now
	debug.SetGCPercent(pct)
	return err
}

// addressLimit is the process's limit of address space (ulimit -v), or
// the largest uint64 when it has none.
func addressLimit() uint64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &l); err != nil {
		return math.MaxUint64
	}
	return l.Cur
}

// roomFor reports whether an address-space limit leaves room to map n
// bytes more than a run needs: a region the limit refuses would end the
// process (the runtime cannot fail an allocation softly), so under a
// tight limit the heap keeps its 4 KB pages.
func roomFor(n int, limit uint64) bool {
	return limit == math.MaxUint64 || limit >= uint64(n)+minAddressSpace
}

// minAddressSpace is what a run's own heap, stacks and mappings may take
// of the address space beside the region.
const minAddressSpace = 4 << 30

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
