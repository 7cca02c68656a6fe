// Package hugeheap has the heap a run grows into backed by transparent
// huge pages where the kernel gives them only to memory that asks
// (transparent_hugepage/enabled = madvise, the default of most
// distributions).
//
// Each page of memory a process touches first costs a fault, and a run
// over two million lines touches about 100 MB of heap: 21,000 faults of
// 4 KB. Under a hypervisor a fault, and a miss of the TLB, costs several
// times what it does on bare metal. The Go runtime does not ask for huge
// pages for its heap, so Advise has it map a region up front, asks the
// kernel for huge pages there, and hands the region back to the runtime
// free. The runtime's page allocator takes the lowest free addresses
// first, so the heap grows into the region before it maps more. Not
// every host gains: where faults are cheap and a huge page is memory the
// host must fault in anew, huge pages cost more than they save, and a
// probe at start decides (cheaper, on Linux).
package hugeheap

import (
	"os"
	"strings"
)

// Size is the heap Advise prepares: more than a run over a few million
// lines holds at its peak. It is address space only: a page of it takes
// memory when the heap first touches it, as any page of the heap does.
const Size = 256 << 20

// Disabled reports whether GODEBUG sets disablethp=1, Go's setting to
// keep huge pages off the heap, which Advise then respects.
func Disabled() bool {
	on := false
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(kv), "disablethp="); ok {
			on = v == "1" // the last setting wins, as for the runtime
		}
	}
	return on
}
