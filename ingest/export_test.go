package ingest

import (
	"bytes"

	"github.com/parquet-go/parquet-go"
)

// DictKeysOff turns the records' DictKey off, for tests that compare a
// run with it to one without.
func DictKeysOff(off bool) { dictKeysOff = off }

// CountedOff has every Parquet column read, for tests that compare a
// run that counts columns with one that reads them all.
func CountedOff(off bool) { countedOff = off }

// HeldChunks sets how many bytes of a row group's column chunks a reader
// reads at once (0: all from the file as they are decoded), returning
// the bound before.
func HeldChunks(n int) int {
	old := maxGroupBytes
	maxGroupBytes = n
	return old
}

// UnreadFields is unreadFields.
const UnreadFields = unreadFields

// CountedColumns lists, of each row group of a Parquet file, the columns
// a file whose client is named (addr: remote_addr unread) counts.
func CountedColumns(data []byte, addr bool) ([][]string, error) {
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	s, err := NewSchema(nil)
	if err != nil {
		return nil, err
	}
	unread := unreadFields
	if addr {
		unread |= 1 << FRemoteAddr
	}
	specs := parquetSpecs(pf.Schema(), pf.Metadata(), s)
	var names [][]string
	for g, rg := range pf.RowGroups() {
		var in []string
		for i, c := range countedColumns(specs, pf.Metadata(), g, rg.NumRows(), unread) {
			if c {
				in = append(in, specs[i].name)
			}
		}
		names = append(names, in)
	}
	return names, nil
}

// FileCounted lists, of each row group of a Parquet file, the columns a
// run counts rather than reads: as readParquet finds them, with the
// file's schema as its names give it.
func FileCounted(data []byte) ([][]string, error) {
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, err
	}
	s, err := NewSchema(nil)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range pf.Schema().Fields() {
		names = append(names, f.Name())
	}
	s, _, _ = s.ForNames(names, nil, "", nil)
	specs := parquetSpecs(pf.Schema(), pf.Metadata(), s)
	var counted [][]string
	for g, rg := range pf.RowGroups() {
		var in []string
		for i, c := range countedColumns(specs, pf.Metadata(), g, rg.NumRows(), s.unread()) {
			if c {
				in = append(in, specs[i].name)
			}
		}
		counted = append(counted, in)
	}
	return counted, nil
}

// WithBlockSize returns o reading text files n bytes at a time.
func WithBlockSize(o Options, n int) Options {
	o.blockSize = n
	return o
}

// EnvelopeOf is envelopeOf.
func EnvelopeOf(line []byte) Envelope { return envelopeOf(line) }

// SetMaxServicesDump sets the largest dump split into its services'
// files, returning the old bound.
func SetMaxServicesDump(n int) int {
	old := maxServicesDump
	maxServicesDump = n
	return old
}
