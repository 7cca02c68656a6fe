//go:build !linux

package ingest

import (
	"errors"
	"os"
)

// Elsewhere files are read, not mapped.
const canMap = false

func mapFile(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }
func unmap([]byte)                          {}
func dropPages([]byte, int, int)            {}
func dataAddr([]byte) uintptr               { return 0 }
