package rules

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// TestCappedSameWhateverTheSplit adds keys with Zipf counts to capped
// maps split between parts, alone and sharing their bound, merges them
// in turn, and requires the keys kept to be the n of smallest hash among
// all the keys, each with its whole count, computed from the list.
func TestCappedSameWhateverTheSplit(t *testing.T) {
	for _, tc := range []struct{ keys, n, parts int }{
		{50, 100, 1}, {50, 100, 3}, {5000, 100, 1}, {5000, 100, 2}, {5000, 100, 7}, {300, 299, 4},
	} {
		for _, shared := range []bool{false, true} {
			r := rand.New(rand.NewPCG(uint64(tc.keys), uint64(tc.parts)))
			z := rand.NewZipf(r, 1.1, 1, uint64(tc.keys-1))
			want := map[string]int64{}
			var share *retryShare
			if shared {
				share = newRetryShare(tc.n)
			}
			parts := make([]capped[*int64], tc.parts)
			for i := range parts {
				parts[i] = newCapped[*int64](tc.n, share)
			}
			held := 0
			for i := range 20 * tc.keys {
				if i%100 == 0 {
					h := map[string]bool{}
					for _, p := range parts {
						for k := range p.m {
							h[k] = true
						}
					}
					held = max(held, len(h))
				}
				k := fmt.Sprintf("k%d", z.Uint64())
				want[k]++
				if v, ok := parts[r.IntN(tc.parts)].get([]byte(k), func() *int64 { return new(int64) }); ok {
					*v++
				}
				if i%997 == 0 && tc.parts > 1 {
					// A part of an hour is merged now and then, as an
					// hour past MaxHours is.
					a, b := r.IntN(tc.parts), r.IntN(tc.parts)
					if a != b {
						parts[a].merge(&parts[b], func(v, ov *int64) { *v += *ov })
						parts[b] = newCapped[*int64](tc.n, share)
					}
				}
			}
			// Sharing, the parts hold about the bound's keys between
			// them; alone, each holds up to a quarter more than it.
			if bound := tc.parts * (tc.n + tc.n/4); shared {
				bound = 2 * tc.n
			} else if held > bound {
				t.Errorf("%d keys, %d parts alone held %d keys, want at most %d", tc.keys, tc.parts, held, bound)
			}
			// A part drops what is past the shared cut when it has
			// doubled since it last did, or holds minPrune keys.
			if bound := 2*tc.n + tc.parts*max(1, tc.n/16); shared && held > bound {
				t.Errorf("%d keys, %d parts sharing held %d keys, want at most %d", tc.keys, tc.parts, held, bound)
			}
			got := parts[0]
			for i := range parts[1:] {
				got.merge(&parts[i+1], func(v, ov *int64) { *v += *ov })
			}
			got.finish()

			keys := make([]string, 0, len(want))
			for k := range want {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool { return keyHash(keys[i]) < keyHash(keys[j]) })
			keys = keys[:min(len(keys), tc.n)]
			name := fmt.Sprintf("%d keys, n %d, %d parts, shared %v", tc.keys, tc.n, tc.parts, shared)
			if len(got.m) != len(keys) {
				t.Fatalf("%s: %d kept, want %d", name, len(got.m), len(keys))
			}
			for _, k := range keys {
				v, ok := got.m[k]
				if !ok || *v != want[k] {
					t.Fatalf("%s: key %s: kept %v, count %v, want %d", name, k, ok, v, want[k])
				}
			}
			if wantShare := len(want) <= tc.n; (got.keyShare() == 1) != wantShare {
				t.Errorf("%s: key share %v", name, got.keyShare())
			}
		}
	}
}

// TestCappedCutReadBack: the cut survives a collector's state, and a
// state written before there was one reads as every key kept.
func TestCappedCutReadBack(t *testing.T) {
	c := newCapped[*int64](2, nil)
	for _, k := range []string{"a", "b", "c", "d"} {
		c.get([]byte(k), func() *int64 { return new(int64) })
	}
	c.finish()
	if c.cut == math.MaxUint64 || len(c.m) != 2 {
		t.Fatalf("cut %x with %d keys", c.cut, len(c.m))
	}
	e := &encoder{}
	c.appendCut(e)
	e.Uint(7)
	d := newDecoder(nil, e.B)
	var back capped[*int64]
	back.readCut(d)
	if back.cut != c.cut || d.Uint() != 7 || d.Done() != nil {
		t.Fatalf("cut read back as %x, want %x", back.cut, c.cut)
	}
	old := &encoder{}
	old.Uint(3) // an older state's first count
	d = newDecoder(nil, old.B)
	back.readCut(d)
	if back.cut != math.MaxUint64 || d.Count() != 3 || d.Done() != nil {
		t.Fatalf("an older state: cut %x", back.cut)
	}
	if !slices.Equal(e.B[:1], []byte{0xff}) {
		t.Fatalf("state begins %x, want the mark", e.B[:1])
	}
}

// TestCappedSweepAfterRead: a map swept at a cut, then read back with
// keys above its cut, drops them at the next sweep; one swept at the
// same cut with no key added above it is not swept again.
func TestCappedSweepAfterRead(t *testing.T) {
	c := newCapped[*int64](2, nil)
	keys := []string{"a", "b", "c", "d", "e"}
	for _, k := range keys {
		c.get([]byte(k), func() *int64 { return new(int64) })
	}
	c.finish() // the two of smallest hash, the cut the larger's
	kept := len(c.m)
	drops := 0
	c.dropped = func() { drops++ }
	c.dropAbove()
	if kept != 2 || drops != 0 {
		t.Fatalf("%d keys kept, %d drops by a second sweep at the same cut", kept, drops)
	}
	// Read back as a damaged state might hold it: every key, under the
	// cut the state gives.
	e := &encoder{}
	c.appendCut(e)
	c.readCut(newDecoder(nil, e.B))
	c.m = map[string]*int64{}
	above := 0
	for _, k := range keys {
		c.m[k] = new(int64)
		if keyHash(k) > c.cut {
			above++
		}
	}
	c.dropAbove()
	if above == 0 || len(c.m) != len(keys)-above || drops != 1 {
		t.Fatalf("%d keys left of %d, %d above the cut, %d drops", len(c.m), len(keys), above, drops)
	}
	for k := range c.m {
		if keyHash(k) > c.cut {
			t.Fatalf("key %q above the cut kept", k)
		}
	}
}
