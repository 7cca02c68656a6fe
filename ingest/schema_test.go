package ingest

import (
	"strings"
	"testing"
)

// TestLookupAnyCase: a name is found in any case, non-ASCII letters
// included, and short ASCII names are looked up without allocating.
func TestLookupAnyCase(t *testing.T) {
	s, err := NewSchema([]string{"ttft=Érstes_Token:s", "client=ΚΛΙΕΝΤ", "region=" + strings.Repeat("Long", 20)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want Field
	}{
		{"Érstes_Token", FTTFT}, {"érstes_token", FTTFT}, {"ÉRSTES_TOKEN", FTTFT},
		{"ΚΛΙΕΝΤ", FClient}, {"κλιεντ", FClient},
		{strings.Repeat("LONG", 20), FRegion}, {strings.Repeat("long", 20), FRegion},
		{"REQUEST_TIME", FRequestTime},
	} {
		bs := s.LookupString(c.name)
		if len(bs) == 0 || bs[0].Field != c.want {
			t.Errorf("Lookup(%q) = %+v, want %v", c.name, bs, c.want)
		}
	}
	name := []byte("Upstream_Response_Time")
	if n := testing.AllocsPerRun(100, func() { s.Lookup(name) }); n != 0 {
		t.Errorf("Lookup of a short ASCII name: %v allocations", n)
	}
}
