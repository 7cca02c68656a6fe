package hugeheap

import (
	"math"
	"os"
	"runtime/debug"
	"syscall"
	"unsafe"
)

// Advise maps n bytes of heap, beginning on a huge page's boundary
// (padToHugePage), asks for huge pages there and frees them,
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
	padToHugePage()
	err := advise(n)
	debug.FreeOSMemory() // advise's region, garbage now
	debug.SetGCPercent(pct)
	return err
}

// hugePage is the size of a transparent huge page on amd64 and arm64
// with 4 KB pages: a region gets them only for its whole 2 MB blocks.
const hugePage = 2 << 20

// pad holds the pages padToHugePage took, for the life of the process:
// never written, they take address space and no memory.
var pad [][]byte

// padToHugePage takes the heap's free pages below its frontier (the
// lowest address it has never handed out) and those from the frontier
// up to a huge page's boundary, so that the region advise allocates
// next begins on one. The runtime hands out the lowest free pages
// first: a region beginning within a 2 MB block had that block's part,
// the first memory a run takes, in 4 KB pages, each a fault of its own
// (a block's half: 250 faults, 6 ms of a run's start). A page is taken
// by an allocation of 8 KB, a page of its own, and never written: the
// runtime zeroes neither pages it has never handed out nor fresh ones.
// The frontier is where the pages come one after another; free pages
// below it that do so too, up to a boundary, end the padding early,
// and the region then begins where it would have.
func padToHugePage() {
	const page = 8 << 10
	next := uintptr(0) // the page after the last one taken
	for range 1024 {
		b := make([]byte, page)
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		pad = append(pad, b)
		run := p == next
		next = p + page
		if run && next%hugePage == 0 {
			return
		}
	}
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
