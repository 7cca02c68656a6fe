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
	"time"
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
	defer keepProbes()()
	measureSmall = func() (time.Duration, bool) { return 7 * time.Millisecond, true } // 14 µs a page
	measureHuge = func() (time.Duration, bool) { return time.Millisecond, true }
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

// keepProbes returns a function that puts back the probes a test
// replaces.
func keepProbes() func() {
	small, huge := measureSmall, measureHuge
	return func() { measureSmall, measureHuge = small, huge }
}

// probeCase is what a test's probes measure: the small pages of 2 MB,
// then a huge page; !ok, not measured.
type probeCase struct {
	small, huge     time.Duration
	smallOK, hugeOK bool
}

// use makes c the probes, which count their calls in asked.
func (c probeCase) use(asked *[2]int) {
	measureSmall = func() (time.Duration, bool) { asked[0]++; return c.small, c.smallOK }
	measureHuge = func() (time.Duration, bool) { asked[1]++; return c.huge, c.hugeOK }
}

// TestAdviseWhereHugePagesDoNotPay: where the small pages' faults are
// cheap, where a huge page costs more than its small pages, or where
// either cannot be measured, Advise does not pad the heap, the step
// before it maps the region.
func TestAdviseWhereHugePagesDoNotPay(t *testing.T) {
	t.Setenv("GODEBUG", "")
	defer keepProbes()()
	ms := time.Millisecond
	for _, c := range []probeCase{
		{ms, ms / 5, true, true},     // 2 µs a small page: this host's
		{7 * ms, 8 * ms, true, true}, // a huge page dearer still
		{7 * ms, 7 * ms, true, true}, // as dear
		{7 * ms, 0, true, false},     // no huge pages
		{0, 0, false, true},          // no small probe
	} {
		var asked [2]int
		c.use(&asked)
		before := len(pad)
		if err := Advise(64 << 20); err != nil {
			t.Fatalf("%+v: Advise: %v", c, err)
		}
		if len(pad) != before {
			t.Errorf("%+v: %d paddings taken, want none", c, len(pad)-before)
		}
		if asked[0] != 1 || asked[1] > 1 {
			t.Errorf("%+v: probes asked %v times, want once and at most once", c, asked)
		}
	}
}

// TestCheaper: huge pages only where a small page's fault costs at
// least dearSmallFault and huge pages cost less; the huge pages are not
// probed where the small pages decide.
func TestCheaper(t *testing.T) {
	ms, limit := time.Millisecond, dearSmallFault*(hugePage/smallPage)
	for _, c := range []struct {
		probeCase
		want      bool
		hugeAsked int
	}{
		{probeCase{7 * ms, ms / 5, true, true}, true, 1},
		{probeCase{limit, limit - 1, true, true}, true, 1},
		{probeCase{limit - 1, ms / 5, true, true}, false, 0},
		{probeCase{ms, ms / 5, true, true}, false, 0},
		{probeCase{7 * ms, 7 * ms, true, true}, false, 1},
		{probeCase{7 * ms, 9 * ms, true, true}, false, 1},
		{probeCase{7 * ms, ms / 5, true, false}, false, 1},
		{probeCase{7 * ms, ms / 5, false, true}, false, 0},
	} {
		var asked [2]int
		c.use(&asked)
		if got := cheaper(measureSmall, measureHuge); got != c.want || asked[1] != c.hugeAsked {
			t.Errorf("%+v: cheaper = %v, huge pages probed %d times; want %v, %d", c.probeCase, got, asked[1], c.want, c.hugeAsked)
		}
	}
}

// TestProbes: the probes map and time, and unmap each mapping they
// made, whole. The huge pages' probe is measured where the kernel has
// transparent huge pages (the sysfs switch exists).
func TestProbes(t *testing.T) {
	mapped := map[uintptr]int{} // the probes' mappings not yet unmapped, by address: their length
	defer func(m func(int) ([]byte, error), u func([]byte)) { probeMap, probeUnmap = m, u }(probeMap, probeUnmap)
	doMap, doUnmap := probeMap, probeUnmap
	probeMap = func(n int) ([]byte, error) {
		b, err := doMap(n)
		if err == nil {
			mapped[uintptr(unsafe.Pointer(unsafe.SliceData(b)))] = len(b)
		}
		return b, err
	}
	probeUnmap = func(b []byte) {
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		if n, ok := mapped[p]; !ok || n != len(b) {
			t.Errorf("unmapped %d bytes at %#x: not a mapping of the probes' whole", len(b), p)
		}
		delete(mapped, p)
		doUnmap(b)
	}
	small, ok := probeSmall()
	if !ok || small <= 0 {
		t.Fatalf("probeSmall = %v, %v: want a time and ok", small, ok)
	}
	huge, ok := probeHuge()
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil && (!ok || huge <= 0) {
		t.Fatalf("probeHuge = %v, %v: want a time and ok", huge, ok)
	}
	t.Logf("first touch of 2 MB: %v in small pages, %v in a huge page (%v)", small, huge, ok)
	if len(mapped) != 0 {
		t.Errorf("%d mappings of the probes left mapped: %v", len(mapped), mapped)
	}
}
