//go:build !linux

package hugeheap

// Advise does nothing: only Linux gives huge pages to memory that asks.
func Advise(n int) error { return nil }
