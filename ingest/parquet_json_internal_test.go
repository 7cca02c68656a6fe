package ingest

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzJSONScalars: any byte arrays of a JSON column give texts cut at
// offsets that rise within them, one per value, never a panic; a JSON
// string gives the string it encodes (without an escape, its bytes as
// they are, as a JSON line's are read), null nothing, any other value
// itself without its spaces.
func FuzzJSONScalars(f *testing.F) {
	f.Add([]byte(`"200"`), []byte(`0.101`))
	f.Add([]byte(`"qwen\/max\u00e9"`), []byte(`null`))
	f.Add([]byte(` "a" `), []byte(`{"k":"v"}`))
	f.Add([]byte(`"\`), []byte(`"`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		data := append(append([]byte(nil), a...), b...)
		offs := []uint32{0, uint32(len(a)), uint32(len(data))}
		out, outOffs := jsonScalars(data, offs)
		if len(outOffs) != len(offs) || outOffs[0] != 0 || outOffs[len(outOffs)-1] != uint32(len(out)) {
			t.Fatalf("offsets %v for %d bytes, want %d rising to them", outOffs, len(out), len(offs))
		}
		for i, v := range [][]byte{a, b} {
			if outOffs[i+1] < outOffs[i] {
				t.Fatalf("offsets %v fall", outOffs)
			}
			got := out[outOffs[i]:outOffs[i+1]]
			v = bytes.TrimSpace(v)
			var s string
			switch {
			case string(v) == "null":
				if len(got) != 0 {
					t.Errorf("null gives %q, want nothing", got)
				}
			case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && bytes.IndexByte(v, '\\') < 0:
				if !bytes.Equal(got, v[1:len(v)-1]) {
					t.Errorf("%q gives %q, want %q", v, got, v[1:len(v)-1])
				}
			case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && json.Unmarshal(v, &s) == nil:
				if string(got) != s {
					t.Errorf("%q gives %q, want %q", v, got, s)
				}
			case !(len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"') && !bytes.Equal(got, v):
				t.Errorf("%q gives %q, want it as it is", v, got)
			}
		}
	})
}
