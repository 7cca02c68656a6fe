package hugeheap

import (
	"bufio"
	"errors"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that
// holds address p.
func vmFlags(t *testing.T, p uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok && !strings.HasSuffix(lo, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(p) >= a && uint64(p) < b
			continue
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.Fields(v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping of /proc/self/smaps holds %#x", p)
	return nil
}

// TestAdviseHeapGrowsIntoHugePages: the heap allocated after Advise is
// in memory advised for huge pages ("hg"), unless the kernel refused
// the advice, when it is not. The allocation may begin a few pages
// before the region, where the runtime had free pages beside it (one
// run in fifteen here began 64 KB before it): its middle and its end
// are checked, which are the region's.
func TestAdviseHeapGrowsIntoHugePages(t *testing.T) {
	t.Setenv("GODEBUG", "")
	err := Advise(64 << 20)
	if err != nil && !errors.Is(err, syscall.EINVAL) {
		t.Fatalf("Advise: %v", err)
	}
	b := make([]byte, 16<<20) // larger than any free run below the region
	b[0], b[len(b)-1] = 1, 1
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for _, at := range []uintptr{p + uintptr(len(b))/2, p + uintptr(len(b)) - 1} {
		flags := vmFlags(t, at)
		hg := false
		for _, f := range flags {
			hg = hg || f == "hg"
		}
		if hg != (err == nil) {
			t.Errorf("heap at %#x: VmFlags %v; Advise's error %v", at, flags, err)
		}
	}
}

// TestRoomFor: no limit, or one with room for the region beside a run's
// own 4 GB, advises; a tighter limit does not.
func TestRoomFor(t *testing.T) {
	for _, c := range []struct {
		limit uint64
		want  bool
	}{
		{math.MaxUint64, true},
		{Size + minAddressSpace, true},
		{Size + minAddressSpace - 1, false},
		{1 << 30, false},
	} {
		if got := roomFor(Size, c.limit); got != c.want {
			t.Errorf("roomFor(%d, %d) = %v, want %v", Size, c.limit, got, c.want)
		}
	}
}

// TestPadToHugePage: after the padding, the next large allocation, as
// the region is, begins on a huge page's boundary; the padding holds the
// probe of 4 MB, then pages of 8 KB, each its own allocation, none
// overlapping another.
func TestPadToHugePage(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // as Advise pads: no collection starts meanwhile
	before := len(pad)
	padToHugePage()
	b := make([]byte, 4<<20)
	if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); p%hugePage != 0 {
		t.Fatalf("the allocation after the padding begins at %#x, %d bytes past a huge page's boundary", p, p%hugePage)
	}
	if len(pad) == before {
		t.Fatal("padToHugePage took nothing")
	}
	seen := map[uintptr]bool{}
	for i, pg := range pad[before:] {
		p := uintptr(unsafe.Pointer(unsafe.SliceData(pg)))
		want := 8 << 10
		if i == 0 {
			want = 4 << 20
		}
		if len(pg) != want || p%(8<<10) != 0 || seen[p] {
			t.Fatalf("padding %d: %d bytes at %#x, want %d (seen before: %v)", i, len(pg), p, want, seen[p])
		}
		seen[p] = true
	}
}
