package ingest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// timeSink keeps the request_time of every record it sees.
type timeSink struct{ times []float64 }

func (s *timeSink) Add(r *Record) {
	if v, ok := r.Float(FRequestTime); ok {
		s.times = append(s.times, v)
	}
}

// linesCase is a generated input and what reading it must give, worked out
// while it was written, line by line.
type linesCase struct {
	data     []byte
	times    []float64 // request_time of each good line, in order
	problems []Problem // every bad line
}

// genLines writes n lines of JSON (or CSV with a header) mixing good lines,
// blank ones, CRLF ends, damaged lines and lines around MaxLine bytes,
// the last one without a line end when cut is set.
func genLines(rng *rand.Rand, n int, csv, long, cut bool) linesCase {
	var c linesCase
	var b bytes.Buffer
	line := int64(1)
	if csv {
		b.WriteString("request_time,pad\n")
		line++
	}
	good := func(v int, pad int) {
		if csv {
			fmt.Fprintf(&b, "%d,%s", v, strings.Repeat("x", pad))
		} else {
			fmt.Fprintf(&b, `{"request_time":%d,"pad":"%s"}`, v, strings.Repeat("x", pad))
		}
		c.times = append(c.times, float64(v))
	}
	for i := range n {
		k := rng.IntN(20)
		if i == 0 {
			k = 0 // the first line decides the format
		}
		end := "\n"
		switch {
		case k < 12:
			good(i, rng.IntN(300))
		case k < 14:
			good(i, rng.IntN(30))
			end = "\r\n"
		case k == 14:
			b.WriteString(strings.Repeat(" ", rng.IntN(3)))
		case k == 15 && !csv:
			b.WriteString(`{"request_time":`)
			c.problems = append(c.problems, Problem{File: "-", Line: line})
		case k == 16 && long:
			// Exactly MaxLine bytes before the line end is still a line.
			frame := len(fmt.Sprintf(`{"request_time":%d,"pad":""}`, i))
			if csv {
				frame = len(fmt.Sprintf("%d,", i))
			}
			good(i, MaxLine-frame)
		case k == 17 && long:
			b.WriteString(strings.Repeat("y", MaxLine+1+rng.IntN(3*blockSize)))
			c.problems = append(c.problems, Problem{File: "-", Line: line, Reason: errLongLine})
		default:
			good(i, 0)
		}
		if i < n-1 || !cut {
			b.WriteString(end)
		}
		line++
	}
	c.data = b.Bytes()
	return c
}

// TestReadLinesEveryCut reads generated inputs with reads of many sizes, so
// that blocks end at every kind of place (inside a line, on its '\r', right
// after its '\n', inside a line longer than MaxLine), and checks the
// records and the line of every bad line against what was written.
func TestReadLinesEveryCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, csv := range []bool{false, true} {
		for _, long := range []bool{false, true} {
			for _, cut := range []bool{false, true} {
				n := 3000
				if long {
					n = 60
				}
				c := genLines(rng, n, csv, long, cut)
				var gz bytes.Buffer
				zw := gzip.NewWriter(&gz)
				zw.Write(c.data)
				zw.Close()
				sizes := []int{1, 2, 7, 100, 4096, 0}
				if long {
					sizes = []int{1000, 4096, 1<<20 - 1, 0}
				}
				// A file, stdin and gzip: each read through its own
				// reader.
				file := filepath.Join(t.TempDir(), "in.log")
				if err := os.WriteFile(file, c.data, 0o644); err != nil {
					t.Fatal(err)
				}
				for _, size := range sizes {
					for _, workers := range []int{1, 3} {
						for name, in := range map[string][]byte{"plain": c.data, "gzip": gz.Bytes(), "file": nil} {
							label := fmt.Sprintf("csv=%v long=%v cut=%v size=%d workers=%d %s", csv, long, cut, size, workers, name)
							path := "-"
							if in == nil {
								path = file
							}
							checkLines(t, label, c, path, in, size, workers)
						}
					}
				}
			}
		}
	}
}

func checkLines(t *testing.T, label string, c linesCase, path string, in []byte, size, workers int) {
	t.Helper()
	f := JSONL
	if bytes.HasPrefix(c.data, []byte("request_time,")) {
		f = CSV
	}
	sinks, res, err := Run([]string{path}, Options{Stdin: bytes.NewReader(in), Workers: workers, Format: f,
		MaxProblems: 1 << 20, blockSize: size}, func() *timeSink { return &timeSink{} })
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	var got []float64
	for _, s := range sinks {
		got = append(got, s.times...)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(c.times))
	if !slices.Equal(got, want) {
		t.Errorf("%s: %d records read, want %d", label, len(got), len(want))
	}
	if res.Incomplete() || res.Records() != int64(len(want)) || res.BadLines() != int64(len(c.problems)) {
		t.Errorf("%s: %d records, %d bad lines, incomplete %v; want %d and %d", label,
			res.Records(), res.BadLines(), res.Incomplete(), len(want), len(c.problems))
	}
	if len(res.Problems) != len(c.problems) {
		t.Fatalf("%s: %d problems, want %d", label, len(res.Problems), len(c.problems))
	}
	for i, p := range res.Problems {
		w := c.problems[i]
		if path != "-" {
			w.File = path
		}
		if p.File != w.File || p.Line != w.Line || w.Reason != "" && p.Reason != w.Reason {
			t.Errorf("%s: problem %d is %v, want %v", label, i, p, w)
		}
	}
}

// cutSink truncates a file to half its size at its first record, then
// counts the records, as logrotate's copytruncate empties a log being
// read.
type cutSink struct {
	path string
	size int64
	once *sync.Once
	n    int
}

func (s *cutSink) Add(*Record) {
	s.once.Do(func() {
		if err := os.Truncate(s.path, s.size/2); err != nil {
			panic(err)
		}
	})
	s.n++
}

// TestFileCutShorterWhileRead: a text file that gives fewer bytes than
// it had when opened is reported read in part, with what was read
// counted; one read whole is not. Either way it is read: into blocks,
// or mapped (where the system maps files), when the pages past its new
// end fault.
func TestFileCutShorterWhileRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.jsonl")
	var b bytes.Buffer
	const lines = 20000
	for i := range lines {
		fmt.Fprintf(&b, `{"request_time":%d.5,"status":200}`+"\n", i%100)
	}
	for k := range 4 {
		cut, mode := k%2 == 1, []mapMode{mapNever, mapAlways}[k/2]
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		once := &sync.Once{}
		if !cut {
			once.Do(func() {})
		}
		sinks, res, err := Run([]string{path}, Options{Workers: 1, blockSize: 4096, mapping: mode},
			func() *cutSink { return &cutSink{path: path, size: int64(b.Len()), once: once} })
		if err != nil {
			t.Fatal(err)
		}
		fs := res.Files[0]
		if !cut {
			if fs.Incomplete || fs.Records != lines || sinks[0].n != lines {
				t.Errorf("read whole: %+v, %d records added", fs, sinks[0].n)
			}
			continue
		}
		if !fs.Incomplete || fs.Reason != errChanged.Error() {
			t.Errorf("cut shorter: %+v, want it read in part: %q", fs, errChanged)
		}
		if fs.Records != int64(sinks[0].n) || fs.Records == 0 || fs.Records > lines/2+1 {
			t.Errorf("cut shorter: %d records counted, %d added, want them equal and at most %d", fs.Records, sinks[0].n, lines/2+1)
		}
	}
}
