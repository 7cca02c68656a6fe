package ingest

import (
	"bytes"
	"encoding/binary"

	"github.com/parquet-go/parquet-go/format"
)

// A Parquet column bound only to fields whose values nobody reads is
// counted, not read, in a row group whose metadata shows that every row
// has a value there: its fields are set present in each row, without a
// value, and its pages are neither checked nor decoded. A log's
// connection numbers, prompt tokens, methods and addresses are a fifth
// of its columns, and decoding them was a tenth of a run.

// unreadFields are the fields whose values no part of the analysis
// reads: only whether a record has them, for the fields a report lists
// as seen. A consumer that comes to read one of their values takes it
// out of this set.
const unreadFields uint64 = 1<<FMethod | 1<<FConnection | 1<<FPromptTokens

// unread is unreadFields for a file read with s: remote_addr too when
// the file names its client, whose records then never take their client
// from remote_addr (Record.Finish).
func (s *Schema) unread() uint64 {
	m := unreadFields
	if s.client != "" && s.client != noClient {
		m |= 1 << FRemoteAddr
	}
	return m
}

// countable reports whether a column bound by sp may be counted: it is
// required (every row has a value), and each field it binds is unread
// and takes the column's values as they are: integers into an integer
// field, text into a text field.
func (sp *pqSpec) countable(unread uint64) bool {
	if sp.maxDef != 0 || len(sp.bs) == 0 {
		return false
	}
	for _, bd := range sp.bs {
		if unread&(1<<bd.Field) == 0 {
			return false
		}
		switch kind := fields[bd.Field].kind; sp.kind {
		case vkInt32, vkInt64:
			if kind != KindInt {
				return false
			}
		case vkBytes:
			if kind != KindText {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// countedChunk reports whether every one of the rows of a countable
// column's chunk md gives its fields a value, as the statistics show:
// an int32 always does; an int64 does within ±MaxInt (setPlainNumber
// leaves a larger one unset); a text does unless absent, "" or "-",
// which sort first among the texts that are or begin with them, so a
// least value above "-" rules them out (a writer may shorten the least
// value it writes, never above the value itself).
func countedChunk(sp *pqSpec, md *format.ColumnMetaData, rows int64) bool {
	st := &md.Statistics
	if md.NumValues != rows || st.NullCount != 0 {
		return false
	}
	switch sp.kind {
	case vkInt32:
		return true
	case vkInt64:
		if len(st.MinValue) != 8 || len(st.MaxValue) != 8 {
			return false
		}
		lo, hi := int64(binary.LittleEndian.Uint64(st.MinValue)), int64(binary.LittleEndian.Uint64(st.MaxValue))
		return lo >= -MaxInt && hi <= MaxInt
	case vkBytes:
		return bytes.Compare(st.MinValue, []byte("-")) > 0
	}
	return false
}

// countedColumns returns which of specs row group rg of meta counts
// rather than reads (countable and countedChunk), nil when none; unread
// is the file's (Schema.unread).
func countedColumns(specs []pqSpec, meta *format.FileMetaData, g int, rows int64, unread uint64) []bool {
	if countedOff || g >= len(meta.RowGroups) {
		return nil
	}
	chunks := meta.RowGroups[g].Columns
	var counted []bool
	for i := range specs {
		sp := &specs[i]
		if !sp.countable(unread) || sp.chunk >= len(chunks) || !countedChunk(sp, &chunks[sp.chunk].MetaData, rows) {
			continue
		}
		if counted == nil {
			counted = make([]bool, len(specs))
		}
		counted[i] = true
	}
	return counted
}

// countedOff has every column read (a test's, to compare).
var countedOff bool

// putPresent sets field b.Field present in r without a value, as a
// counted column's (setRows), when b may claim it.
func (r *Record) putPresent(b Binding) {
	if r.claim(b.Field, b.Prio) {
		r.present(b)
	}
}

// present sets field b.Field present in r without a value.
func (r *Record) present(b Binding) {
	r.num[b.Field], r.text[b.Field] = 0, nil
	r.set |= 1 << b.Field
	r.prio[b.Field] = b.Prio
}
