package ingest

import (
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// pqRead is one Parquet file read by several decoders, each taking whole
// row groups (every n-th) with a file of its own. The batches go on to
// the workers in the file's order, so a damaged row group stops the file
// where reading it from the start would: the batches before the damage
// are kept, none after it.
type pqRead struct {
	src   io.ReaderAt
	size  int64
	specs []pqSpec
	fs    *fileState
	base  []int64       // per row group: the rows before it
	next  int64         // rows of all row groups
	out   []chan pqOut  // per decoder: its row groups' batches and ends
	quit  chan struct{} // closed when the file is done with
}

// pqOut is a decoded batch of n rows, or, with b nil, the end of a row
// group: err is why it ended early.
type pqOut struct {
	b   *colBatch
	n   int
	err error
}

// forward passes the row groups' batches on in order, up to the first
// row group that ends in damage.
func (rs *pqRead) forward(s *rowSink) error {
	for g := range rs.base {
		for {
			o := <-rs.out[g%len(rs.out)]
			if o.b == nil {
				if o.err != nil {
					return o.err
				}
				break
			}
			s.batch = o.b
			s.send(o.n)
		}
	}
	return nil
}

// drain returns the batches no one will forward to the pool, once the
// decoders are done.
func (rs *pqRead) drain() {
	for _, ch := range rs.out {
		for len(ch) > 0 {
			if o := <-ch; o.b != nil {
				batchPool.Put(o.b)
			}
		}
	}
}

// decode reads row groups d, d+n, d+2n … A panic on malformed data ends
// the row group it happened in.
func (rs *pqRead) decode(pf *parquet.File, d, n int) {
	g := d
	defer func() {
		if v := recover(); v != nil {
			rs.end(g, fmt.Errorf("damaged parquet data: %v", v))
		}
	}()
	if d > 0 {
		var err error
		if pf, err = parquet.OpenFile(rs.src, rs.size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true)); err != nil {
			rs.end(g, fmt.Errorf("damaged parquet file: %w", err))
			return
		}
	}
	groups, meta := pf.RowGroups(), pf.Metadata()
	cols := make([]pqColumn, len(rs.specs))
	for ; g < len(rs.base) && g < len(groups); g += n {
		err := rs.group(g, groups[g], meta, cols)
		if !rs.end(g, err) || err != nil {
			return
		}
	}
	if g < len(rs.base) { // the second opening found fewer row groups
		rs.end(g, errors.New("damaged parquet file: row groups missing"))
	}
}

// end sends the end of row group g; false when the file is done with.
func (rs *pqRead) end(g int, err error) bool {
	if g >= len(rs.base) {
		return false
	}
	select {
	case rs.out[g%len(rs.out)] <- pqOut{err: err}:
		return true
	case <-rs.quit:
		return false
	}
}

// errQuit ends a decoder whose batches are no longer wanted.
var errQuit = errors.New("the file is done with")

// group checks and decodes row group g into batches.
func (rs *pqRead) group(g int, rg parquet.RowGroup, meta *format.FileMetaData, cols []pqColumn) error {
	specs := rs.specs
	if n := rg.NumRows(); n < 0 || n > maxRows(rs.size) {
		return fmt.Errorf("damaged parquet file: a row group claims %d rows", n)
	}
	if g >= len(meta.RowGroups) {
		return errors.New("damaged parquet file: row groups missing from the footer")
	}
	for i := range specs {
		if err := checkParquetChunk(rs.src, rs.size, meta.RowGroups[g].Columns, specs[i].chunk); err != nil {
			return fmt.Errorf("damaged parquet file: column %q: %w", specs[i].name, err)
		}
	}
	chunks := rg.ColumnChunks()
	defer func() {
		for i := range cols {
			cols[i].close()
		}
	}()
	for i := range specs {
		if specs[i].chunk >= len(chunks) {
			return fmt.Errorf("damaged parquet file: row group lacks column %q", specs[i].name)
		}
		cols[i] = pqColumn{spec: &specs[i], pages: chunks[specs[i].chunk].Pages(), ix: cols[i].ix}
	}
	return rs.rows(g, rg.NumRows(), cols)
}

// pqStripe is how many rows of a batch are filled a column at a time. A
// record takes a kilobyte, so a stripe's records stay in the cache from
// one column to the next; a whole batch's would not.
const pqStripe = 128

// rows decodes the rows of row group g and sends them on in batches.
func (rs *pqRead) rows(g int, rows int64, cols []pqColumn) error {
	loc := rs.fs.cfg.loc
	for done := int64(0); done < rows; {
		n := int(min(batchRows, rows-done))
		b := newBatch(n, rs.fs.cfg.schema)
		for k := 0; k < n; k += pqStripe {
			m := min(pqStripe, n-k)
			for i := range cols {
				if err := cols[i].fill(b, k, m, loc); err != nil {
					batchPool.Put(b)
					return fmt.Errorf("damaged parquet file: column %q near row %d: %w", cols[i].spec.name, rs.base[g]+done+1, err)
				}
			}
		}
		select {
		case rs.out[g%len(rs.out)] <- pqOut{b: b, n: n}:
		case <-rs.quit:
			batchPool.Put(b)
			return errQuit
		}
		done += int64(n)
	}
	return nil
}
