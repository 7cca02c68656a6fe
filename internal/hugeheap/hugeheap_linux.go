package hugeheap

import (
	"math"
	"os"
	"runtime/debug"
	"slices"
	"syscall"
	"time"
	"unsafe"
)

// Advise maps n bytes of heap, beginning on a huge page's boundary
// (padToHugePage), asks for huge pages there and frees them,
// collecting and returning the pages to the system (which touched none
// of them). It does nothing when GODEBUG sets disablethp=1, or where
// huge pages do not pay (cheaper). The error is madvise's: a kernel without
// transparent huge pages refuses, and the heap is then as it would have
// been.
func Advise(n int) error {
	if Disabled() || n <= 0 || !roomFor(n, addressLimit()) || !cheaper(measureSmall, measureHuge) {
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

// cheaper reports whether huge pages are worth asking for here, by
// measure: where a small page's first touch costs at least
// dearSmallFault, and huge pages' first touch costs less than the small
// pages of the same memory (false when either could not be measured:
// the heap then keeps the runtime's pages).
//
// Which is cheaper depends on the host. Under a hypervisor that shadows
// the guest's page tables (PVM), a small page's fault cost about 14 µs
// (estimated from the 34.6 % an nginx run took longer without huge
// pages, about 12,800 faults more), and huge pages made runs 14–29 %
// faster. Under one whose guest hands
// the memory it frees back to the host (free page reporting), a small
// page's fault costs 2 µs, but a huge page is mostly memory the host
// must fault in anew: 4–6 ms for its 2 MB against 1 ms for its small
// pages, though 0.2 ms where the guest had just freed it; there a run
// started seconds after the one before took 5–12 % longer with huge
// pages, and as long back to back. The first huge pages a process takes
// are mostly ones just freed, so a probe of a few of them says little of
// the dozens a run takes: the small pages' cost decides first, and the
// huge pages are measured only where it is high.
func cheaper(small, huge func() (time.Duration, bool)) bool {
	s, ok := small()
	if !ok || s < dearSmallFault*(hugePage/smallPage) {
		return false
	}
	h, ok := huge()
	return ok && h < s
}

// dearSmallFault is the cost of a small page's first touch from which
// huge pages are tried: twice what it is on the host that gave huge
// pages no gain, a seventh of what it was on the one they helped.
const dearSmallFault = 4 * time.Microsecond

// smallPage is the size of a small page the probes assume: the cost of
// each is scaled by it to a huge page's 2 MB.
const smallPage = 4 << 10

// measureSmall and measureHuge are probeSmall and probeHuge, but in
// tests.
var measureSmall, measureHuge = probeSmall, probeHuge

// probeMap maps n bytes of anonymous memory for a probe, and probeUnmap
// unmaps them; variables, so that a test can hold the probes to
// unmapping what they map.
var (
	probeMap = func(n int) ([]byte, error) {
		return syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	}
	probeUnmap = func(b []byte) { _ = syscall.Munmap(b) }
)

// smallProbe is what probeSmall touches: 64 small pages.
const smallProbe = 64 * smallPage

// probeSmall times the first touch of smallProbe bytes of small pages,
// in a mapping of its own outside the heap, unmapped after, and scales
// it to a huge page's 2 MB. ok is false when the mapping is refused.
func probeSmall() (time.Duration, bool) {
	b, err := probeMap(smallProbe)
	if err != nil {
		return 0, false
	}
	defer probeUnmap(b)
	// Where the kernel gives huge pages to all memory (enabled =
	// always), this mapping asks for small ones; refused, it is small
	// anyway (smaller than a huge page, and not aligned to one).
	_ = syscall.Madvise(b, syscall.MADV_NOHUGEPAGE)
	return firstTouch(b, smallPage) * (hugePage / smallProbe), true
}

// firstTouch writes a byte of each page of b, pages of size bytes, and
// returns how long that took: their faults.
func firstTouch(b []byte, size int) time.Duration {
	start := time.Now()
	for i := 0; i < len(b); i += size {
		b[i] = 1
	}
	return time.Since(start)
}

// hugeProbe is how many huge pages probeHuge touches.
const hugeProbe = 2

// probeHuge times the first touch of hugeProbe huge pages, in a mapping
// of its own outside the heap, unmapped after, per huge page. ok is
// false when the mapping or the advice is refused (a kernel without
// transparent huge pages). The touch of a huge page is one fault, which
// zeroes 2 MB; where the kernel has no huge page to give, it takes a
// small page, and the time is then a small page's: the heap would then
// take small pages anyway.
func probeHuge() (time.Duration, bool) {
	const n = hugeProbe * hugePage
	b, err := probeMap(n + hugePage)
	if err != nil {
		return 0, false
	}
	defer probeUnmap(b)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	off := int((hugePage - p%hugePage) % hugePage)
	h := b[off : off+n]
	if syscall.Madvise(h, syscall.MADV_HUGEPAGE) != nil {
		return 0, false
	}
	return firstTouch(h, hugePage) / hugeProbe, true
}
