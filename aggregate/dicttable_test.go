package aggregate

import (
	"math/rand/v2"
	"testing"
)

// TestDictTable holds the table against a Go map over keys of the shape
// DictKeys take (codes of small ids in fields of bits) and random ones,
// with updates and clears, up to maxDictKeys keys.
func TestDictTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tab dictTable
	want := map[uint64]int32{}
	for round := range 6 {
		for range 3 * maxDictKeys {
			var k uint64
			if round%2 == 0 {
				k = uint64(rng.IntN(6)+1) | uint64(rng.IntN(8)+1)<<8 | uint64(rng.IntN(300)+1)<<18 | uint64(rng.IntN(12)+1)<<52
			} else {
				k = rng.Uint64() | 1
			}
			if id, ok := tab.get(k); ok != (want[k] != 0) || ok && id != want[k]-1 {
				t.Fatalf("round %d: get(%#x) = %d, %v; want %d, %v", round, k, id, ok, want[k]-1, want[k] != 0)
			}
			if _, ok := want[k]; !ok && len(want) >= maxDictKeys {
				continue
			}
			id := int32(rng.IntN(1 << 20))
			tab.put(k, id)
			want[k] = id + 1
			if tab.n != len(want) {
				t.Fatalf("round %d: %d keys, want %d", round, tab.n, len(want))
			}
		}
		for k, id := range want {
			if got, ok := tab.get(k); !ok || got != id-1 {
				t.Fatalf("round %d: get(%#x) = %d, %v; want %d", round, k, got, ok, id-1)
			}
		}
		tab.clear()
		clear(want)
		if _, ok := tab.get(1); ok || tab.n != 0 {
			t.Fatalf("round %d: not empty after clear", round)
		}
	}
}
