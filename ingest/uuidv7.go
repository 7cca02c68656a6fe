package ingest

import "math"

// uuidV7Time returns the instant a UUIDv7 holds, written as its text
// ("019cd6c2-8c00-71f0-9f3d-d7881c2b94eb"): its first 48 bits are the
// Unix time in ms it was made at (RFC 9562 §5.7: version 7 in the 13th
// digit, variant 10 in the 17th). Any other text, a UUID of another
// version included, is false. A time too large for int64 nanoseconds is
// returned at the int64 bound, where checkTime refuses it.
func uuidV7Time(b []byte) (int64, bool) {
	if len(b) != 36 || b[8] != '-' || b[13] != '-' || b[18] != '-' || b[23] != '-' || b[14] != '7' {
		return 0, false
	}
	var ms int64
	for i, c := range b {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		d, ok := unhex(c)
		if !ok {
			return 0, false
		}
		if i == 19 && d&0xc != 0x8 {
			return 0, false
		}
		if i < 13 {
			ms = ms<<4 | int64(d)
		}
	}
	if ms > math.MaxInt64/1_000_000 {
		return math.MaxInt64, true
	}
	return ms * 1e6, true
}
