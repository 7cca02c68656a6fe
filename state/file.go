// Package state keeps, in a directory, one file of serialised latency
// sketches per hour of log time (SPEC §7): the previous hour and the same
// hour a day before are what a run compares itself with. A lock keeps two
// runs from sharing the directory.
package state

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// A state file is, in order:
//
//	magic      8 bytes "LGASTATE"
//	version    1 byte, 1
//	accuracy   float64, little endian: the sketches' relative accuracy
//	hour       int64, little endian: Unix seconds of the hour's start
//	metrics    uvarint count, then each name as uvarint length + bytes
//	dimensions the same
//	set        uvarint length + the sketch set (sketch.Set.AppendEncode)
//	checksum   CRC-32C of everything before it, 4 bytes little endian
//
// Names are at most maxName bytes, at most maxNames of each kind.
const (
	magic   = "LGASTATE"
	version = 1
	maxName = 255
	// maxNames bounds the metric and dimension lists.
	maxNames = 64
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// errDamaged is wrapped by every decoding error.
var errDamaged = errors.New("damaged state file")

// Encode returns the state file of one hour's set.
func Encode(hour int64, set *sketch.Set) []byte {
	b := []byte(magic)
	b = append(b, version)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(set.Mapping().Accuracy()))
	b = binary.LittleEndian.AppendUint64(b, uint64(hour))
	b = appendNames(b, aggregate.MetricNames[:])
	b = appendNames(b, aggregate.DimNames)
	payload := set.AppendEncode(nil)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

func appendNames(b []byte, names []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
	}
	return b
}

// Decode reads a state file written by Encode for sketches of mapping m,
// folding each dimension to top keys. It returns the hour (Unix seconds)
// and the set. A file of another accuracy, other metrics or dimensions,
// or with any damage is an error; nothing is allocated beyond what the
// file's size allows.
func Decode(b []byte, m *sketch.Mapping, top int) (int64, *sketch.Set, error) {
	all := b
	if len(b) < len(magic)+1+16+4 || string(b[:len(magic)]) != magic {
		return 0, nil, fmt.Errorf("%w: not a state file", errDamaged)
	}
	b = b[len(magic):]
	if b[0] != version {
		return 0, nil, fmt.Errorf("%w: unknown version %d", errDamaged, b[0])
	}
	acc := math.Float64frombits(binary.LittleEndian.Uint64(b[1:]))
	hour := int64(binary.LittleEndian.Uint64(b[9:]))
	b = b[17:]
	if acc != m.Accuracy() {
		return 0, nil, fmt.Errorf("state file of accuracy %v, this run uses %v", acc, m.Accuracy())
	}
	if hour%aggregate.HourSeconds != 0 {
		return 0, nil, fmt.Errorf("%w: hour %d is not the start of an hour", errDamaged, hour)
	}
	var err error
	for _, want := range [][]string{aggregate.MetricNames[:], aggregate.DimNames} {
		if b, err = checkNames(b, want); err != nil {
			return 0, nil, err
		}
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) || uint64(len(b)-k)-n != 4 {
		return 0, nil, fmt.Errorf("%w: bad set length", errDamaged)
	}
	payload := b[k : k+int(n)]
	sum := binary.LittleEndian.Uint32(b[k+int(n):])
	set, err := sketch.DecodeSet(m, aggregate.NumMetrics, aggregate.DimNames, top, payload)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %w", errDamaged, err)
	}
	if crc32.Checksum(all[:len(all)-4], crcTable) != sum {
		return 0, nil, fmt.Errorf("%w: checksum mismatch", errDamaged)
	}
	return hour, set, nil
}

// checkNames reads a name list and checks it is want.
func checkNames(b []byte, want []string) ([]byte, error) {
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
	if len(names) != len(want) {
		return nil, fmt.Errorf("state file has %q, this run uses %q", names, want)
	}
	for i := range names {
		if names[i] != want[i] {
			return nil, fmt.Errorf("state file has %q, this run uses %q", names, want)
		}
	}
	return b, nil
}
