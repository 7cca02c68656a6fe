package hugeheap

import (
	"math"
	"os"
	"runtime/debug"
	"slices"
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

// pad holds the memory padToHugePage took, for the life of the process:
// never written, it takes address space and no memory.
var pad [][]byte

// padToHugePage takes heap pages up to a huge page's boundary past the
// heap's frontier (the lowest address it has never handed out), so that
// the region advise allocates next begins on one. The runtime hands out
// the lowest free pages first: a region beginning within a 2 MB block
// had that block's part, the first memory a run takes, in 4 KB pages,
// each a fault of its own (a block's half: 250 faults, 6 ms of a run's
// start). The frontier is found by a probe of 4 MB, more than any run of
// free pages below it holds, which lands there; then pages of 8 KB, each
// an allocation of its own, are taken until one ends on a boundary past
// the probe (those below it fill free pages there, which the run would
// have taken first anyway). None is written: the runtime zeroes neither
// pages it never handed out nor fresh ones.
func padToHugePage() {
	const page, probe, most = 8 << 10, 4 << 20, 2*hugePage/(8<<10) + 256
	// Room for the pages first: a pad grown in the loop took pages of
	// the heap's own there.
	pad = slices.Grow(pad, most+1)
	b := make([]byte, probe)
	frontier := uintptr(unsafe.Pointer(unsafe.SliceData(b))) + probe
	pad = append(pad, b)
	if frontier%hugePage == 0 {
		return
	}
	for range most {
		b := make([]byte, page)
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		pad = append(pad, b)
		if p >= frontier && (p+page)%hugePage == 0 {
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
