// Package sharedtest finds, for tests, the sample logs the project keeps
// in testdata/shared: a copy of the shared examples and of the real log
// the unit tests read, so that the tests need nothing outside the
// repository. The real-log suite (build tag realdata) reads ../shared/real
// itself.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the folder of sample logs. A missing folder fails the
// test: the samples are part of what is tested.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("cannot find the repository root (go.mod)")
		}
		dir = parent
	}
	shared := filepath.Join(dir, "testdata", "shared")
	if _, err := os.Stat(filepath.Join(shared, "examples")); err != nil {
		t.Fatalf("the shared sample logs are missing: %v", err)
	}
	return shared
}

// File returns a file below the shared folder; a missing one fails the
// test.
func File(t testing.TB, parts ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Dir(t)}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("shared sample missing: %v", err)
	}
	return p
}
