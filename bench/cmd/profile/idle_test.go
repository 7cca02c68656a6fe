package main

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	rtrace "runtime/trace"
	"testing"
	"time"

	"golang.org/x/exp/trace"
)

// TestProcTime follows goroutines on two processors through known
// states and checks each share of the P-time against the sums worked by
// hand.
func TestProcTime(t *testing.T) {
	ms := func(n int) trace.Time { return trace.Time(time.Duration(n) * time.Millisecond) }
	const gc, run = true, false
	p := &procTime{procs: 2}
	// 1–11 ms: one running, one waiting for the free processor.
	p.advance(ms(1))
	p.move(trace.GoUndetermined, trace.GoRunning, run)
	p.move(trace.GoUndetermined, trace.GoRunnable, run)
	p.advance(ms(11))
	// 11–31 ms: both running.
	p.move(trace.GoRunnable, trace.GoRunning, run)
	p.advance(ms(31))
	// 31–41 ms: one in a system call, the other blocked.
	p.move(trace.GoRunning, trace.GoSyscall, run)
	p.move(trace.GoRunning, trace.GoWaiting, run)
	p.advance(ms(41))
	// 41–46 ms: three ready to run on two processors.
	p.move(trace.GoWaiting, trace.GoRunning, run)
	p.move(trace.GoUndetermined, trace.GoRunning, run)
	p.advance(ms(46))
	// 46–50 ms: one running, a collector's worker on the other
	// processor; 50–53 ms: the worker also beside two running.
	p.move(trace.GoRunning, trace.GoWaiting, run)
	p.move(trace.GoSyscall, trace.GoWaiting, run)
	p.move(trace.GoUndetermined, trace.GoRunning, gc)
	p.advance(ms(50))
	p.move(trace.GoWaiting, trace.GoRunning, run)
	p.advance(ms(53))
	want := procTime{busy: 10 + 2*20 + 10 + 2*5 + 4 + 2*3, gc: 4, waiting: 10, alone: 10}
	for _, c := range []struct {
		name      string
		got, want time.Duration
	}{
		{"busy", p.busy, want.busy * time.Millisecond},
		{"gc", p.gc, want.gc * time.Millisecond},
		{"waiting", p.waiting, want.waiting * time.Millisecond},
		{"alone", p.alone, want.alone * time.Millisecond},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if total, wall := p.busy+p.gc+p.waiting+p.alone, 2*52*time.Millisecond; total != wall {
		t.Errorf("P-time %v, want %v: two processors for 52 ms", total, wall)
	}
}

// TestIdleOfLeavesOutTheProfiler traces a process that sleeps with a CPU
// profile on: its processors are idle, though the profile's writer,
// started within the trace, then waits for samples without a transition
// the trace records.
func TestIdleOfLeavesOutTheProfiler(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.out")
	tf, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	if err := rtrace.Start(tf); err != nil {
		t.Fatal(err)
	}
	cpu, err := os.Create(filepath.Join(dir, "cpu.out"))
	if err != nil {
		rtrace.Stop()
		t.Fatal(err)
	}
	defer cpu.Close()
	if err := pprof.StartCPUProfile(cpu); err != nil {
		rtrace.Stop()
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	pprof.StopCPUProfile()
	rtrace.Stop()
	p, err := idleOf(path, runtime.GOMAXPROCS(0))
	if err != nil {
		t.Fatal(err)
	}
	if p.alone < 4*p.busy {
		t.Errorf("%v: a sleeping process's processors should be idle", p)
	}
}
