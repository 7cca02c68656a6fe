package sketch

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestComboTable adds keys to a comboTable, past several growths, and
// finds each where a map of them says it is, and no key it lacks: with
// the keys' own hashes, and with every key given one hash, so that each
// lookup walks the probe chain and tells keys apart by their bytes (in
// a table that does not grow).
func TestComboTable(t *testing.T) {
	for _, same := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(7, 1))
		hash := func(k []byte) uint64 {
			if same {
				return 0xdeadbeef_00000005
			}
			return hashKey(k)
		}
		n := 5000
		if same {
			n = 300 // each lookup walks all of them
		}
		var tab comboTable
		if same { // room for them all: growing puts the keys back by their own hashes
			tab.slots = make([]comboSlot, 1024)
		}
		var entries []comboEntry
		want := map[string]int32{}
		for i := range n {
			k := []byte(fmt.Sprintf("\x01\x07region%d\x02\x05m%d", rng.IntN(1<<20), i))
			if _, ok := findCombo(&tab, hash(k), k, entries); ok != (want[string(k)] != 0) {
				t.Fatalf("same hash %v: key %q found %v before it was added", same, k, ok)
			}
			entries = append(entries, comboEntry{key: string(k)})
			tab.add(hash(k), int32(len(entries)-1), entries)
			want[string(k)] = int32(len(entries)) // index + 1
		}
		if tab.len() != len(want) {
			t.Fatalf("same hash %v: %d keys, want %d", same, tab.len(), len(want))
		}
		for k, i := range want {
			if got, ok := findCombo(&tab, hash([]byte(k)), k, entries); !ok || got != i-1 {
				t.Fatalf("same hash %v: key %q at %d (%v), want %d", same, k, got, ok, i-1)
			}
		}
		for i := range 1000 {
			k := fmt.Sprintf("absent%d", i)
			if _, ok := findCombo(&tab, hash([]byte(k)), []byte(k), entries); ok {
				t.Fatalf("same hash %v: absent key %q found", same, k)
			}
		}
	}
}
