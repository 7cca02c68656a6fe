// Package lazyre compiles a regular expression at its first use, not
// when the package holding it starts: a run pays only for the
// expressions of the formats and reports it meets.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is
// called (regexp.MustCompile: a bad expression panics then) and returns
// the same *regexp.Regexp every time.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
