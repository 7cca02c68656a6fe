package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// refFields writes an object as Fields did before AppendJSON: every name
// and value by json.Marshal of its own, nested Fields likewise.
type refFields []Field

func (fs refFields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(asRef(f.Value))
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// asRef turns the Fields in v into refFields.
func asRef(v any) any {
	switch v := v.(type) {
	case Fields:
		return refFields(v)
	case []Fields:
		if v == nil {
			return []refFields(nil)
		}
		out := make([]refFields, len(v))
		for i, e := range v {
			out[i] = refFields(e)
		}
		return out
	}
	return v
}

// jsonStrings are texts json.Marshal escapes, or might.
var jsonStrings = []string{
	"", "plain", "ap-beijing", `a "quoted" one`, `back\slash`, "<script>alert(1)</script>",
	"a & b", "tab\there", "line\nbreak", "\x00\x01\x1f", "\x7f", "中文 finding", "caf\xc3\xa9",
	"bad \xff utf-8", "\u2028 and \u2029", "emoji 🙂", "\xed\xa0\x80",
}

// jsonFloats are numbers on both sides of json.Marshal's format changes.
var jsonFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 1.0 / 3, 123.456, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 5e-324,
	1e20, 1e21, 9.999e20, -1e21, 1.7976931348623157e308, 0.1 + 0.2, 12345678901234567890, -2.5e-8,
}

// randomValue returns a value of a kind a report holds, or another kind,
// nested to depth.
func randomValue(rng *rand.Rand, depth int) any {
	switch n := rng.IntN(12); {
	case n == 0:
		return nil
	case n == 1:
		return jsonStrings[rng.IntN(len(jsonStrings))]
	case n == 2:
		return rng.IntN(2) == 0
	case n == 3:
		return rng.Int64() - math.MaxInt64/2
	case n == 4:
		return rng.IntN(1000) - 500
	case n == 5:
		if rng.IntN(3) == 0 {
			return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(50)-25))
		}
		return jsonFloats[rng.IntN(len(jsonFloats))]
	case n == 6:
		if rng.IntN(4) == 0 {
			return []string(nil)
		}
		s := []string{}
		for range rng.IntN(4) {
			s = append(s, jsonStrings[rng.IntN(len(jsonStrings))])
		}
		return s
	case n == 7 && depth > 0:
		return randomFields(rng, depth-1)
	case n == 8 && depth > 0:
		if rng.IntN(4) == 0 {
			return []Fields(nil)
		}
		var s []Fields
		for range rng.IntN(3) {
			s = append(s, randomFields(rng, depth-1))
		}
		if s == nil {
			s = []Fields{}
		}
		return s
	case n == 9:
		return Severity(rng.IntN(3)) // a Marshaler of its own
	case n == 10:
		return time.Duration(rng.IntN(1e9)) // a named number
	}
	return []int{rng.IntN(9), 7} // any other kind
}

func randomFields(rng *rand.Rand, depth int) Fields {
	if rng.IntN(6) == 0 {
		return nil
	}
	var fs Fields
	for range rng.IntN(5) {
		fs = append(fs, Field{Name: jsonStrings[rng.IntN(len(jsonStrings))], Value: randomValue(rng, depth)})
	}
	return fs
}

// TestFieldsJSONAsMarshal: Fields written in one buffer are the bytes
// they were when each name and value was marshalled on its own, and
// json.Marshal of them (which checks and compacts a Marshaler's output)
// is the same bytes again.
func TestFieldsJSONAsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for i := range 3000 {
		fs := randomFields(rng, 4)
		want, wantErr := json.Marshal(refFields(fs))
		got, gotErr := fs.AppendJSON(nil)
		if (wantErr != nil) != (gotErr != nil) {
			t.Fatalf("case %d: error %v, want %v", i, gotErr, wantErr)
		}
		if wantErr != nil {
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d:\n got %s\nwant %s", i, got, want)
		}
		if viaMarshal, err := json.Marshal(fs); err != nil || !bytes.Equal(viaMarshal, want) {
			t.Fatalf("case %d: json.Marshal(Fields) = %s, %v; want %s", i, viaMarshal, err, want)
		}
	}
	// A value json.Marshal cannot write is its error (not wrapped once
	// per enclosing Fields, as each Marshal of its own wrapped it).
	for _, v := range []any{math.NaN(), math.Inf(1), Fields{{Name: "x", Value: math.Inf(-1)}}} {
		_, want := json.Marshal(refFields{{Name: "v", Value: asRef(v)}})
		_, got := Fields{{Name: "v", Value: v}}.AppendJSON(nil)
		if want == nil || got == nil || !strings.HasSuffix(want.Error(), got.Error()) {
			t.Errorf("%v: error %v, want %v", v, got, want)
		}
	}
}

// FuzzFieldsJSON holds a text and a number written by AppendJSON to
// json.Marshal's bytes for them.
func FuzzFieldsJSON(f *testing.F) {
	for i, s := range jsonStrings {
		f.Add(s, jsonFloats[i%len(jsonFloats)])
	}
	f.Fuzz(func(t *testing.T, s string, x float64) {
		fs := Fields{{Name: s, Value: s}, {Name: "x", Value: x}, {Name: "l", Value: []string{s, s}}}
		want, wantErr := json.Marshal(refFields(fs))
		got, gotErr := fs.AppendJSON(nil)
		if (wantErr != nil) != (gotErr != nil) || wantErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("%q %v: got %s (%v), want %s (%v)", s, x, got, gotErr, want, wantErr)
		}
	})
}

func ExampleFields_AppendJSON() {
	b, _ := Fields{{Name: "rule", Value: "rate_limit_storm"}, {Name: "n", Value: int64(3)},
		{Name: "share", Value: 0.25}, {Name: "key", Value: Fields{{Name: "region", Value: "ap-beijing"}}}}.AppendJSON(nil)
	fmt.Println(string(b))
	// Output: {"rule":"rate_limit_storm","n":3,"share":0.25,"key":{"region":"ap-beijing"}}
}
