// Package state keeps, in a directory, one file per hour of log time
// (SPEC §7) of everything a report needs — the sketches, the counts, the
// time line and the rules' statistics — mergeable: the previous hour and
// the same hour a day before are what a run compares itself with, and a
// report of stored hours merges them. A lock keeps two runs of one
// writer from sharing the directory.
package state

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// A state file is, in order:
//
//	magic      8 bytes "LGASTATE"
//	version    1 byte, 2 (1: the sketch set alone, read for comparisons)
//	accuracy   float64, little endian: the sketches' relative accuracy
//	hour       int64, little endian: Unix seconds of the hour's start
//	metrics    uvarint count, then each name as uvarint length + bytes
//	dimensions the same
//	collectors the same: the rules' collectors (version 2 and 3)
//	spans      (version 3) uvarint count (at most maxSpans), then each
//	           span of the hour the file holds the records of, its
//	           start and end as varints of Unix nanoseconds, in order
//	           and apart; none when not known (a file of version 2)
//	input      (version 3) what the runs that wrote the hour could not
//	           read: uvarint bad lines; uvarint count (at most
//	           maxProblems) of problems, each its file (uvarint length +
//	           bytes), line (uvarint) and reason; uvarint count (at most
//	           maxProblems) of the files not read to their end or not at
//	           all, each its note (uvarint length + bytes)
//	payload    uvarint length + the hour's accumulator
//	           (aggregate.Accumulator.AppendBinary; version 1: the
//	           sketch set, sketch.Set.AppendEncode)
//	checksum   CRC-32C of everything before it, 4 bytes little endian
//
// Names are at most maxName bytes, at most maxNames of each kind.
const (
	magic   = "LGASTATE"
	version = 3
	// maxProblems bounds the problems and the unread files a file
	// keeps, as a run's report keeps 20 samples; maxText the bytes of
	// each text.
	maxProblems = 20
	maxText     = 4096
	// maxSpans bounds the spans a file lists: a run's window is one, and
	// the runs of a cron whose windows meet add to one.
	maxSpans = 64
	maxName  = 255
	// maxNames bounds the metric and dimension lists.
	maxNames = 64
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// errDamaged is wrapped by every decoding error.
var errDamaged = errors.New("damaged state file")

// ErrLayout is wrapped by the error of a sound state file written for
// other metrics, dimensions or rule collectors than this build's (an
// older or newer loganalyze): it is not damaged, and cannot be read.
var ErrLayout = errors.New("state file written by a build of other metrics, dimensions or rules")

// Hour is one hour read from a state file.
type Hour struct {
	Start int64 // Unix seconds
	// Acc is the hour's accumulator: everything a report needs, its
	// collectors not finished. A file of version 1 holds the sketch set
	// alone: Full is false and Acc has only its Set.
	Acc  *aggregate.Accumulator
	Full bool
	// Spans are the parts of the hour whose records the file holds
	// (Unix nanoseconds, [start, end), in order and apart): the window of
	// the run that wrote it within the hour, the whole hour for a run
	// without one, or more than one span when runs whose windows did not
	// overlap added to it (Dir.WriteSpans). None when not known (an
	// older file).
	Spans [][2]int64
	// Input is what the runs that wrote the hour could not read.
	Input Input
}

// Input is what the runs that wrote an hour could not read, for a
// report of stored hours to be as truthful as theirs: the bad lines of
// a run are kept by the last hour it wrote (a line that cannot be read
// has no time to tell its hour by), its problems' samples with them;
// the files it could not read to their end, or at all, by every hour it
// wrote.
type Input struct {
	BadLines   int64
	Problems   []ingest.Problem
	Incomplete []string // "\"x.jsonl.gz\": truncated: unexpected EOF"
}

// Add adds o to in, its samples up to maxProblems, its notes once.
func (in *Input) Add(o Input) {
	in.BadLines += o.BadLines
	for _, p := range o.Problems {
		if len(in.Problems) < maxProblems {
			in.Problems = append(in.Problems, p)
		}
	}
	for _, n := range o.Incomplete {
		if len(in.Incomplete) < maxProblems && !slices.Contains(in.Incomplete, n) {
			in.Incomplete = append(in.Incomplete, n)
		}
	}
}

func appendText(b []byte, s string) []byte {
	s = s[:min(len(s), maxText)]
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func (in *Input) appendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(max(in.BadLines, 0)))
	ps := in.Problems[:min(len(in.Problems), maxProblems)]
	b = binary.AppendUvarint(b, uint64(len(ps)))
	for _, p := range ps {
		b = appendText(b, p.File)
		b = binary.AppendUvarint(b, uint64(max(p.Line, 0)))
		b = appendText(b, p.Reason)
	}
	ns := in.Incomplete[:min(len(in.Incomplete), maxProblems)]
	b = binary.AppendUvarint(b, uint64(len(ns)))
	for _, n := range ns {
		b = appendText(b, n)
	}
	return b
}

func readUvarint(b []byte) (uint64, []byte, error) {
	v, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, nil, fmt.Errorf("%w: bad input section", errDamaged)
	}
	return v, b[k:], nil
}

func readText(b []byte) (string, []byte, error) {
	n, b, err := readUvarint(b)
	if err != nil || n > maxText || n > uint64(len(b)) {
		return "", nil, fmt.Errorf("%w: bad input section", errDamaged)
	}
	return string(b[:n]), b[n:], nil
}

func readInput(b []byte) (in Input, rest []byte, err error) {
	bad, b, err := readUvarint(b)
	if err != nil || bad > math.MaxInt64/2 {
		return Input{}, nil, fmt.Errorf("%w: bad input section", errDamaged)
	}
	in.BadLines = int64(bad)
	n, b, err := readUvarint(b)
	if err != nil || n > maxProblems {
		return Input{}, nil, fmt.Errorf("%w: bad input section", errDamaged)
	}
	for range n {
		var p ingest.Problem
		var line uint64
		if p.File, b, err = readText(b); err != nil {
			return Input{}, nil, err
		}
		if line, b, err = readUvarint(b); err != nil || line > math.MaxInt64/2 {
			return Input{}, nil, fmt.Errorf("%w: bad input section", errDamaged)
		}
		p.Line = int64(line)
		if p.Reason, b, err = readText(b); err != nil {
			return Input{}, nil, err
		}
		in.Problems = append(in.Problems, p)
	}
	if n, b, err = readUvarint(b); err != nil || n > maxProblems {
		return Input{}, nil, fmt.Errorf("%w: bad input section", errDamaged)
	}
	for range n {
		var note string
		if note, b, err = readText(b); err != nil {
			return Input{}, nil, err
		}
		in.Incomplete = append(in.Incomplete, note)
	}
	return in, b, nil
}

// Encode returns the state file of one hour's accumulator, whose
// collectors are named collectors (rules.Config.CollectorNames).
func Encode(hour int64, acc *aggregate.Accumulator, collectors []string) []byte {
	return EncodeSpans(hour, acc, collectors, nil, Input{})
}

// EncodeSpans is Encode of a file that says which spans of the hour it
// holds the records of (Hour.Spans).
func EncodeSpans(hour int64, acc *aggregate.Accumulator, collectors []string, spans [][2]int64, in Input) []byte {
	head, payload := encodeParts(hour, acc, collectors, spans, in)
	b := append(head, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

// WriteTo writes the state file Encode returns to w, without joining
// its header and payload in one buffer first: a busy hour's payload is
// megabytes, and a copy of it is as much memory again at the run's end,
// when its heap is largest.
func WriteTo(w io.Writer, hour int64, acc *aggregate.Accumulator, collectors []string, spans [][2]int64, in Input) error {
	head, payload := encodeParts(hour, acc, collectors, spans, in)
	crc := crc32.Update(crc32.Update(0, crcTable, head), crcTable, payload)
	if _, err := w.Write(head); err != nil {
		return err
	}
	if _, err := w.Write(payload); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc))
	return err
}

// encodeParts returns a state file's bytes up to its payload, the
// payload's length last, and the payload.
func encodeParts(hour int64, acc *aggregate.Accumulator, collectors []string, spans [][2]int64, in Input) (head, payload []byte) {
	b := []byte(magic)
	b = append(b, version)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(acc.Set.Mapping().Accuracy()))
	b = binary.LittleEndian.AppendUint64(b, uint64(hour))
	b = appendNames(b, aggregate.MetricNames[:])
	b = appendNames(b, aggregate.DimNames)
	b = appendNames(b, collectors)
	spans = capSpans(spans)
	b = binary.AppendUvarint(b, uint64(len(spans)))
	for _, sp := range spans {
		b = binary.AppendVarint(b, sp[0])
		b = binary.AppendVarint(b, sp[1])
	}
	b = in.appendBinary(b)
	payload = acc.AppendBinary(nil)
	return binary.AppendUvarint(b, uint64(len(payload))), payload
}

func appendNames(b []byte, names []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
	}
	return b
}

// Decode reads a state file for accumulators made with opts (its
// mapping, top and collectors) whose collectors are named collectors.
// A file of another accuracy, other metrics, dimensions or collectors,
// or with any damage is an error; nothing is allocated beyond what the
// file's size allows.
func Decode(b []byte, opts aggregate.Options, collectors []string) (Hour, error) {
	all := b
	m := opts.Mapping
	ver, hour, spans, in, b, err := decodeHead(b, m, collectors)
	if err != nil {
		return Hour{}, err
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) || uint64(len(b)-k)-n != 4 {
		return Hour{}, fmt.Errorf("%w: bad payload length", errDamaged)
	}
	payload := b[k : k+int(n)]
	sum := binary.LittleEndian.Uint32(b[k+int(n):])
	if crc32.Checksum(all[:len(all)-4], crcTable) != sum {
		return Hour{}, fmt.Errorf("%w: checksum mismatch", errDamaged)
	}
	h := Hour{Start: hour, Full: ver >= 2, Spans: spans, Input: in}
	if ver == 1 {
		set, err := sketch.DecodeSet(m, aggregate.NumMetrics, aggregate.DimNames, opts.Top, payload)
		if err != nil {
			return Hour{}, fmt.Errorf("%w: %w", errDamaged, err)
		}
		h.Acc = aggregate.New(aggregate.Options{Mapping: m, Top: opts.Top})
		h.Acc.Set, h.Acc.Records = set, set.All.Count
		return h, nil
	}
	if h.Acc, err = aggregate.Decode(opts, payload); err != nil {
		return Hour{}, fmt.Errorf("%w: %w", errDamaged, err)
	}
	return h, nil
}

// decodeHead reads a state file's bytes up to its payload's length: its
// version, hour and spans, and the rest.
func decodeHead(b []byte, m *sketch.Mapping, collectors []string) (ver byte, hour int64, spans [][2]int64, in Input, rest []byte, err error) {
	if len(b) < len(magic)+1+16+4 || string(b[:len(magic)]) != magic {
		return 0, 0, nil, Input{}, nil, fmt.Errorf("%w: not a state file", errDamaged)
	}
	b = b[len(magic):]
	ver = b[0]
	if ver < 1 || ver > version {
		return 0, 0, nil, Input{}, nil, fmt.Errorf("state file of version %d, this build reads 1 to %d", ver, version)
	}
	acc := math.Float64frombits(binary.LittleEndian.Uint64(b[1:]))
	hour = int64(binary.LittleEndian.Uint64(b[9:]))
	b = b[17:]
	if acc != m.Accuracy() {
		// %.6g: the mapping's accuracy is computed from --accuracy, and
		// prints as 0.020000000000000018 in full.
		return 0, 0, nil, Input{}, nil, fmt.Errorf("state file of accuracy %.6g, this run uses %.6g (--accuracy)", acc, m.Accuracy())
	}
	if hour%aggregate.HourSeconds != 0 {
		return 0, 0, nil, Input{}, nil, fmt.Errorf("%w: hour %d is not the start of an hour", errDamaged, hour)
	}
	kinds := []string{"metrics", "dimensions", "collectors"}
	lists := [][]string{aggregate.MetricNames[:], aggregate.DimNames}
	if ver >= 2 {
		lists = append(lists, collectors)
	}
	for i, want := range lists {
		if b, err = checkNames(b, kinds[i], want); err != nil {
			return 0, 0, nil, Input{}, nil, err
		}
	}
	if ver >= 3 {
		if spans, b, err = readSpans(b, hour); err != nil {
			return 0, 0, nil, Input{}, nil, err
		}
		if in, b, err = readInput(b); err != nil {
			return 0, 0, nil, Input{}, nil, err
		}
	}
	return ver, hour, spans, in, b, nil
}

// capSpans returns spans, in order and apart, joined where they are
// nearest until at most maxSpans are left: a file lists no more (runs of
// windows a few seconds apart, every minute, could leave more gaps), and
// a gap it claims is one few records fall in.
func capSpans(spans [][2]int64) [][2]int64 {
	if len(spans) <= maxSpans {
		return spans
	}
	out := slices.Clone(spans)
	for len(out) > maxSpans {
		best := 1
		for i := 2; i < len(out); i++ {
			if out[i][0]-out[i-1][1] < out[best][0]-out[best-1][1] {
				best = i
			}
		}
		out[best-1][1] = out[best][1]
		out = slices.Delete(out, best, best+1)
	}
	return out
}

// readSpans reads a file's spans of hour: within it, in order, apart.
func readSpans(b []byte, hour int64) (spans [][2]int64, rest []byte, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > maxSpans {
		return nil, nil, fmt.Errorf("%w: bad span count", errDamaged)
	}
	b = b[k:]
	from, to := hour*1e9, (hour+aggregate.HourSeconds)*1e9
	for range n {
		s, k1 := binary.Varint(b)
		if k1 <= 0 {
			return nil, nil, fmt.Errorf("%w: bad span", errDamaged)
		}
		e, k2 := binary.Varint(b[k1:])
		if k2 <= 0 || s < from || e <= s || e > to {
			return nil, nil, fmt.Errorf("%w: bad span", errDamaged)
		}
		from = e
		spans = append(spans, [2]int64{s, e})
		b = b[k1+k2:]
	}
	return spans, b, nil
}

// checkNames reads a name list of a kind and checks it is want.
func checkNames(b []byte, kind string, want []string) ([]byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > maxNames {
		return nil, fmt.Errorf("%w: bad name count", errDamaged)
	}
	b = b[k:]
	names := make([]string, 0, n)
	for range n {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > maxName || l > uint64(len(b)-k) {
			return nil, fmt.Errorf("%w: bad name", errDamaged)
		}
		names = append(names, string(b[k:k+int(l)]))
		b = b[k+int(l):]
	}
	if !slices.Equal(names, want) {
		return nil, fmt.Errorf("%w: its %s are %q, this build's %q", ErrLayout, kind, names, want)
	}
	return b, nil
}
