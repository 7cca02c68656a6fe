package hugeheap

import "testing"

func TestDisabled(t *testing.T) {
	for _, c := range []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"disablethp=1", true},
		{"disablethp=0", false},
		{"gctrace=1,disablethp=1", true},
		{"disablethp=1, gctrace=1", true},
		{"disablethp=1,disablethp=0", false}, // the last one wins
		{"xdisablethp=1", false},
		{"disablethp=2", false},
	} {
		t.Setenv("GODEBUG", c.godebug)
		if got := Disabled(); got != c.want {
			t.Errorf("GODEBUG=%q: Disabled() = %v, want %v", c.godebug, got, c.want)
		}
	}
}
