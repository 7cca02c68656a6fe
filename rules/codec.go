package rules

import (
	"errors"
	"sort"

	"loganalyze/aggregate"
	"loganalyze/sketch"
)

// The collectors' state is kept in hour files (aggregate.Collector's
// AppendBinary and UnmarshalBinary) so that a report from stored hours
// judges what one run over the logs would. The encoding is the state
// before Finish, mergeable; maps are written in key order, so the same
// state gives the same bytes.

// errCollector is wrapped by every decoding error of a collector.
var errCollector = errors.New("damaged rule statistics")

type (
	encoder = aggregate.Encoder
	decoder = aggregate.Decoder
)

func newDecoder(m *sketch.Mapping, b []byte) *decoder {
	return aggregate.NewDecoder(m, b, errCollector)
}

// encodeMap writes m's entries in key order, each by put.
func encodeMap[V any](e *encoder, m map[string]V, put func(k string, v V)) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.Uint(uint64(len(keys)))
	for _, k := range keys {
		e.Str(k)
		put(k, m[k])
	}
}

// decodeMap reads what encodeMap wrote; get reads one value. A key given
// twice is damage.
func decodeMap[V any](d *decoder, minBytes int, get func(k string) V) map[string]V {
	n := d.Items(minBytes)
	m := make(map[string]V, n)
	for range n {
		k := d.Str()
		if d.Err() != nil {
			return m
		}
		if _, dup := m[k]; dup {
			d.Fail("key %q twice", k)
			return m
		}
		m[k] = get(k)
	}
	return m
}
