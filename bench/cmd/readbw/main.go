// Command readbw times the two ways a text file can reach the workers,
// on one core: mapped into memory (its pages faulted in as the lines
// are cut, or populated a block at a time first), or read into a
// reused buffer. It cuts the file's lines in each, as the workers do,
// and prints the time, the user and system time and the page faults.
// Run each way in a fresh process, alternating, several times:
//
//	cd bench && go build -o /tmp/readbw ./cmd/readbw
//	for i in 1 2 3; do for m in fault populate read; do /tmp/readbw -mode $m FILE; done; done
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"
)

func main() {
	mode := flag.String("mode", "read", "fault, populate or read")
	flag.Parse()
	if err := run(*mode, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "readbw:", err)
		os.Exit(1)
	}
}

const block = 1 << 20

// lines counts the lines of b as the workers cut them.
func lines(b []byte) int {
	n := 0
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		b = b[i+1:]
		n++
	}
	return n
}

func run(mode, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	start := time.Now()
	n := 0
	switch mode {
	case "fault", "populate":
		data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			return err
		}
		_ = syscall.Madvise(data, syscall.MADV_SEQUENTIAL)
		for off := 0; off < len(data); off += block {
			b := data[off:min(off+block, len(data))]
			if mode == "populate" {
				_ = syscall.Madvise(b, 22) // MADV_POPULATE_READ
			}
			n += lines(b) // a line across two blocks is counted in the second
		}
	case "read":
		buf := make([]byte, block)
		for off := int64(0); ; off += block {
			k, err := f.ReadAt(buf, off)
			n += lines(buf[:k])
			if err != nil {
				break
			}
		}
	default:
		return fmt.Errorf("mode %q is none of fault, populate and read", mode)
	}
	d := time.Since(start)
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	fmt.Printf("%-8s %d lines in %v (%.2f GB/s), user %v, system %v, %d page faults\n", mode, n, d.Round(time.Millisecond),
		float64(st.Size())/d.Seconds()/1e9, time.Duration(ru.Utime.Nano()).Round(time.Millisecond),
		time.Duration(ru.Stime.Nano()).Round(time.Millisecond), ru.Minflt)
	return nil
}
