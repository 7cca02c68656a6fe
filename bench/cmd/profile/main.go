// Command profile runs the whole loganalyze analysis of the files given
// in this process, as the command does (two workers by default), under a
// CPU profile, an execution trace and an allocation profile, and prints
// the records read, the wall time, the CPU time and their ratio: how many
// cores the run kept busy. Build it with the command's profile, so that
// it inlines as the command does:
//
//	cd bench && go build -pgo=../cmd/loganalyze/default.pgo -o /tmp/profile ./cmd/profile
//	/tmp/profile -cpu cpu.out -trace trace.out FILE
//	go tool pprof -top -cum /tmp/profile cpu.out
//	go tool trace -pprof=sync trace.out > sync.out   # where goroutines waited
//	/tmp/profile -mem mem.out FILE   # what the run allocated: each byte a page to fault in
//	go tool pprof -sample_index=alloc_space -top /tmp/profile mem.out
//
// With -trace it also splits the processors' time (P-time): busy, the
// collector's workers, idle while a goroutine waited to run (a worker
// woken onto the queue of a processor busy with another), and idle with
// nothing to run (what one goroutine does alone: a footer read, a merge,
// the report). The CPU profile's own writer is left out (idleOf).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"time"

	"loganalyze/analysis"
	"loganalyze/ingest"
	"loganalyze/internal/hugeheap"
	"loganalyze/internal/memlimit"
	"loganalyze/internal/sharedtest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		os.Exit(1)
	}
}

func run() error {
	cpu := flag.String("cpu", "cpu.out", "CPU profile to write")
	tr := flag.String("trace", "", "execution trace to write (none when empty)")
	workers := flag.Int("workers", 2, "loganalyze --workers")
	mem := flag.String("mem", "", "allocation profile to write (none when empty): go tool pprof -sample_index=alloc_space")
	flag.Parse()
	if flag.NArg() == 0 {
		return errors.New("usage: profile [-cpu FILE] [-trace FILE] [-mem FILE] [-workers N] PATH...")
	}
	// The heap as the command has it: huge pages, and no collection
	// until the floor (without the budget, the collector ran from a 4 MB
	// heap, its workers filling the processors the run left idle).
	_ = hugeheap.Advise(hugeheap.Size)
	defer memlimit.Start(memlimit.DefaultBudget)()
	f, err := os.Create(*cpu)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	if *tr != "" {
		tf, err := os.Create(*tr)
		if err != nil {
			pprof.StopCPUProfile()
			return err
		}
		defer tf.Close()
		if err := trace.Start(tf); err != nil {
			pprof.StopCPUProfile()
			return err
		}
	}
	cpu0, start := sharedtest.CPUTime(), time.Now()
	res, err := analysis.Run(context.Background(), analysis.Config{Paths: flag.Args(),
		Ingest: ingest.Options{Workers: *workers, Location: time.UTC}})
	wall, used := time.Since(start), sharedtest.CPUTime()-cpu0
	if *tr != "" {
		trace.Stop()
	}
	pprof.StopCPUProfile()
	if err != nil {
		return err
	}
	if *mem != "" {
		mf, err := os.Create(*mem)
		if err != nil {
			return err
		}
		defer mf.Close()
		runtime.GC() // the profile holds what was allocated by the last collection
		if err := pprof.Lookup("allocs").WriteTo(mf, 0); err != nil {
			return err
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("%d records in %v, %v of CPU: %.2f cores busy; %.1f MB allocated\n", res.Report.Input.Records,
		wall.Round(time.Millisecond), used.Round(time.Millisecond), used.Seconds()/wall.Seconds(), float64(ms.TotalAlloc)/1e6)
	if *tr != "" {
		p, err := idleOf(*tr, runtime.GOMAXPROCS(0))
		if err != nil {
			return err
		}
		fmt.Println(p)
	}
	return nil
}
