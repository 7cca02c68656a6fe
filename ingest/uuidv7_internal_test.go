package ingest

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"
	"time"
)

// uuidV7Want decodes s as RFC 9562 lays a UUIDv7 out, with encoding/hex:
// the instant of its first 48 bits, and whether it is one.
func uuidV7Want(s string) (int64, bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return 0, false
	}
	raw, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
	if err != nil || len(raw) != 16 || raw[6]>>4 != 7 || raw[8]>>6 != 2 {
		return 0, false
	}
	var ms uint64
	for _, c := range raw[:6] {
		ms = ms<<8 | uint64(c)
	}
	if ms > math.MaxInt64/1_000_000 {
		return math.MaxInt64, true
	}
	return int64(ms) * 1e6, true
}

func TestUUIDv7Time(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64 // Unix ms; -1: not a UUIDv7
	}{
		// RFC 9562's example UUIDv7 (appendix A.6): 2022-02-22T19:22:22Z.
		{"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", 1645557742000},
		{"017F22E2-79B0-7CC3-98C4-DC0C0C07398F", 1645557742000},
		{"019cd6c2-8c00-71f0-bf3d-d7881c2b94eb", 0x019cd6c28c00},
		{"019cd6c2-8c00-41f0-9f3d-d7881c2b94eb", -1}, // version 4
		{"019cd6c2-8c00-71f0-cf3d-d7881c2b94eb", -1}, // variant 110
		{"019cd6c28c0071f09f3dd7881c2b94eb", -1},     // no hyphens
		{"019cd6c2-8c00-71f0-9f3d-d7881c2b94eg", -1},
		{"", -1},
	} {
		ns, ok := uuidV7Time([]byte(c.in))
		if ok != (c.want >= 0) || ok && ns != c.want*1e6 {
			t.Errorf("uuidV7Time(%q) = %d, %v; want %d ms", c.in, ns, ok, c.want)
		}
	}
}

func FuzzUUIDv7Time(f *testing.F) {
	f.Add("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	f.Add("ffffffff-ffff-7fff-bfff-ffffffffffff")
	f.Add("019cd6c2-8c00-41f0-9f3d-d7881c2b94eb")
	f.Fuzz(func(t *testing.T, s string) {
		ns, ok := uuidV7Time([]byte(s))
		want, wok := uuidV7Want(s)
		if ok != wok || ns != want {
			t.Fatalf("uuidV7Time(%q) = %d, %v; encoding/hex says %d, %v", s, ns, ok, want, wok)
		}
	})
}

// TestUUIDv7Binding: a source's id read as a UUIDv7 beats a time of a
// worse name; an id of another kind gives no time, leaves the line good
// and lets that name's time stand, noted as unread.
func TestUUIDv7Binding(t *testing.T) {
	id := Bindings{{Field: FTime, Prio: prioSource, UUIDv7: true}}
	stamp := Bindings{{Field: FTime, Prio: prioSource + 1}}
	var r Record
	if err := r.Set(stamp, []byte("2022-02-22 19:22:22"), time.UTC); err != nil {
		t.Fatal(err)
	}
	if err := r.Set(id, []byte("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"), time.UTC); err != nil || r.TimeNS != 1645557742000*1e6 {
		t.Errorf("time %d (%v), want 1645557742000 ms from the id", r.TimeNS, err)
	}
	r = Record{}
	if err := r.Set(id, []byte("9b2f4c1e-0d6a-4f1e-8a3b-5c7d9e0f1a2b"), time.UTC); err != nil || r.Has(FTime) || r.unread&(1<<FTime) == 0 {
		t.Errorf("a UUIDv4: time %v (%v), unread %b; want none, no error, noted", r.Has(FTime), err, r.unread)
	}
	if err := r.Set(stamp, []byte("2022-02-22 19:22:22"), time.UTC); err != nil || r.TimeNS != 1645557742000*1e6 {
		t.Errorf("time %d (%v), want the timestamp's", r.TimeNS, err)
	}
}
