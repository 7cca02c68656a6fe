package ingest_test

import (
	"loganalyze/internal/sharedtest"
	"testing"
)

// sharedDir returns the shared folder of sample logs that sits beside the
// repository root. A missing folder fails the test: the samples are part of
// what is tested.
func sharedDir(t testing.TB) string { return sharedtest.Dir(t) }
