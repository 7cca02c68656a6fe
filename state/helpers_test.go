package state

import (
	"encoding/binary"
	"hash/crc32"
	"math"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// accOf is an hour's accumulator holding set alone, without collectors.
func accOf(set *sketch.Set) *aggregate.Accumulator {
	a := aggregate.New(aggregate.Options{Mapping: set.Mapping(), Top: 100})
	a.Set, a.Records = set, set.All.Count
	return a
}

func encodeSet(hour int64, set *sketch.Set) []byte { return Encode(hour, accOf(set), nil) }

func decodeSet(b []byte, m *sketch.Mapping, top int) (int64, *sketch.Set, error) {
	h, err := Decode(b, aggregate.Options{Mapping: m, Top: top}, nil)
	if err != nil {
		return 0, nil, err
	}
	return h.Start, h.Acc.Set, nil
}

func (d *Dir) writeSet(hour int64, set *sketch.Set) error { return d.Write(hour, accOf(set), nil) }

func (d *Dir) readSet(hour int64, m *sketch.Mapping, top int) (*sketch.Set, error) {
	h, err := d.Read(hour, aggregate.Options{Mapping: m, Top: top}, nil)
	if err != nil {
		return nil, err
	}
	return h.Acc.Set, nil
}

// encodeV1 writes a state file as version 1 wrote it: the set alone.
func encodeV1(hour int64, set *sketch.Set) []byte {
	b := []byte(magic)
	b = append(b, 1)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(set.Mapping().Accuracy()))
	b = binary.LittleEndian.AppendUint64(b, uint64(hour))
	b = appendNames(b, aggregate.MetricNames[:])
	b = appendNames(b, aggregate.DimNames)
	payload := set.AppendEncode(nil)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}
