package sketch

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestCombosSameAsDirect fills one set through the combination table
// and another by adding every record to All and to each of its keys'
// entries: both must encode to the same bytes, before and after
// Finish, with few combinations and with more than the table holds
// (the rest added directly), each record carrying a varying subset of
// dimensions and metrics.
func TestCombosSameAsDirect(t *testing.T) {
	m, err := NewMapping(DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	dims := []string{"a", "b", "c"}
	for _, callers := range []int{7, 3 * maxCombos} {
		t.Run(fmt.Sprint(callers, " callers"), func(t *testing.T) {
			r := rand.New(rand.NewPCG(9, uint64(callers)))
			viaCombos, direct := NewSet(m, 2, dims, 10), NewSet(m, 2, dims, 10)
			var entries []*Entry
			for range 40000 {
				keys := [][]byte{
					[]byte(fmt.Sprint("r", r.IntN(3))),
					[]byte(fmt.Sprint("c", r.IntN(callers))),
					nil,
				}
				if r.IntN(4) != 0 {
					keys[2] = []byte(fmt.Sprint("s", r.IntN(5)))
				}
				v := distributions["lognormal"](r)
				withSecond := r.IntN(3) != 0
				add := func(e *Entry) {
					e.Count++
					e.Add(m, 0, m.Bin(v))
					if withSecond {
						e.Add(m, 1, m.Bin(v/7))
					}
				}
				viaCombos.BeginTuple()
				for d, k := range keys {
					if k != nil {
						viaCombos.TupleKey(d, k)
					}
				}
				entries = viaCombos.TupleEntries(entries[:0])
				for _, e := range entries {
					add(e)
				}
				add(direct.All)
				for d, k := range keys {
					if k != nil {
						add(direct.Dims[d].Entry(k))
					}
				}
			}
			if got, want := len(viaCombos.combos.table), min(maxCombos, 3*6*callers); got > want || callers > maxCombos && got != maxCombos {
				t.Errorf("%d combinations in the table, want at most %d", got, want)
			}
			if a, b := viaCombos.AppendEncode(nil), direct.AppendEncode(nil); !bytes.Equal(a, b) {
				t.Error("the set filled through combinations encodes differently from the one filled directly")
			}
			viaCombos.Finish()
			direct.Finish()
			if a, b := viaCombos.AppendEncode(nil), direct.AppendEncode(nil); !bytes.Equal(a, b) {
				t.Error("finished, the set filled through combinations encodes differently from the one filled directly")
			}
		})
	}
}
