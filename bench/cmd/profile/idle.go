package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/exp/trace"
)

// procTime splits the processors' time of a run, P-time, by what the
// goroutines were doing: busy (a goroutine running on it, or in a
// system call, which reading a file from the page cache keeps on a
// core), the collector's own workers (which take a processor the run
// leaves idle), idle while a goroutine waited to run (the scheduler's
// loss: a worker woken onto a busy processor's queue), and idle with
// nothing to run (a phase on one goroutine: a file's footer, a merge,
// the report).
type procTime struct {
	procs         int
	active, ready int // goroutines running or in a call; runnable
	marking       int // the collector's workers running
	last          trace.Time
	busy, gc      time.Duration
	waiting       time.Duration
	alone         time.Duration
}

// advance accounts the time from the last event to t.
func (p *procTime) advance(t trace.Time) {
	if p.last != 0 && t > p.last {
		d := time.Duration(t - p.last)
		active := min(p.active, p.procs)
		marking := min(p.marking, p.procs-active)
		free := p.procs - active - marking
		w := min(p.ready, free)
		p.busy += time.Duration(active) * d
		p.gc += time.Duration(marking) * d
		p.waiting += time.Duration(w) * d
		p.alone += time.Duration(free-w) * d
	}
	p.last = t
}

// move accounts a goroutine going from one state to another; gc says it
// is one of the collector's workers.
func (p *procTime) move(from, to trace.GoState, gc bool) {
	if gc {
		p.marking += activeState(to) - activeState(from)
		return
	}
	p.active -= activeState(from)
	p.ready -= readyState(from)
	p.active += activeState(to)
	p.ready += readyState(to)
}

func activeState(s trace.GoState) int {
	if s == trace.GoRunning || s == trace.GoSyscall {
		return 1
	}
	return 0
}

func readyState(s trace.GoState) int {
	if s == trace.GoRunnable {
		return 1
	}
	return 0
}

// idleOf reads the execution trace at path, of a run on procs
// processors, and returns its P-time. It reads the trace twice: first
// for the goroutines that are not the run's, known by their stacks, then
// for the time. The CPU profile's writer is left out: it waits for
// samples in the runtime without a transition the trace records, so it
// would seem to run throughout, on a processor the run left idle.
func idleOf(path string, procs int) (*procTime, error) {
	const gcWorker, profiler = 1, 2
	not := map[trace.GoID]int{}
	if err := eachEvent(path, func(ev *trace.Event) {
		if ev.Kind() != trace.EventStateTransition {
			return
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			return
		}
		for f := range st.Stack.Frames() {
			switch f.Func {
			case "runtime.gcBgMarkWorker":
				not[st.Resource.Goroutine()] = gcWorker
			case "runtime/pprof.profileWriter":
				not[st.Resource.Goroutine()] = profiler
			}
		}
	}); err != nil {
		return nil, err
	}
	p := &procTime{procs: procs}
	err := eachEvent(path, func(ev *trace.Event) {
		p.advance(ev.Time())
		if ev.Kind() != trace.EventStateTransition {
			return
		}
		st := ev.StateTransition()
		if st.Resource.Kind != trace.ResourceGoroutine {
			return
		}
		if kind := not[st.Resource.Goroutine()]; kind != profiler {
			from, to := st.Goroutine()
			p.move(from, to, kind == gcWorker)
		}
	})
	return p, err
}

// eachEvent calls f with each event of the trace at path.
func eachEvent(path string, f func(*trace.Event)) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	r, err := trace.NewReader(file)
	if err != nil {
		return fmt.Errorf("cannot read trace %q: %w", path, err)
	}
	for {
		ev, err := r.ReadEvent()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("cannot read trace %q: %w", path, err)
		}
		f(&ev)
	}
}

// String is the split, in milliseconds of P-time.
func (p *procTime) String() string {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
	return fmt.Sprintf("P-time %s busy, %s the collector's workers, %s idle while a goroutine waited to run, %s idle with nothing to run",
		ms(p.busy), ms(p.gc), ms(p.waiting), ms(p.alone))
}
