package ingest_test

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir returns the shared folder of sample logs that sits beside the
// repository root. A missing folder fails the test: the samples are part of
// what is tested.
func sharedDir(t testing.TB) string {
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
