// Package sharedtest finds, for tests, the shared sample logs that sit
// beside the repository root (../shared), locally and in CI.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared folder. A missing folder fails the test: the
// samples are part of what is tested.
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
	shared := filepath.Join(dir, "..", "shared")
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
