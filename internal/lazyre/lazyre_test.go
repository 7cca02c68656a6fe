package lazyre

import (
	"sync"
	"testing"
)

// TestNew: the expression is compiled once, at the first call, into a
// regexp that matches as its expression says, shared by every caller,
// also when they call at once.
func TestNew(t *testing.T) {
	re := New(`^(\d+) more$`)
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Go(func() { got[i] = re() })
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("call %d returned another regexp", i)
		}
	}
	if m := re().FindStringSubmatch("12 more"); len(m) != 2 || m[1] != "12" {
		t.Errorf(`match of "12 more" = %q, want ["12 more" "12"]`, m)
	}
	if re().MatchString("more") {
		t.Error(`"more" matched`)
	}
}

// TestNewBadExpression: a bad expression is refused at its first use,
// not when New is called.
func TestNewBadExpression(t *testing.T) {
	re := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("a bad expression compiled without a panic")
		}
	}()
	re()
}
