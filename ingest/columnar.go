package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"sync"
	"time"
)

// batchRows is how many rows of a columnar file one unit of work holds.
const batchRows = 1024

// colBatch is one batch of decoded rows on its way to a worker: the
// records, and the arena their text values point into. Batches are
// recycled through batchPool once a worker is done with them.
type colBatch struct {
	recs  []Record
	arena []byte
	bad   []string // per row: why it is bad, "" when it is good
}

var batchPool = sync.Pool{New: func() any {
	return &colBatch{recs: make([]Record, batchRows), arena: make([]byte, 0, 64<<10), bad: make([]string, batchRows)}
}}

// text copies b into the batch's arena and returns the copy. The arena is
// only appended to, so earlier copies stay valid when it grows.
func (b *colBatch) text(v []byte) []byte {
	n := len(b.arena)
	b.arena = append(b.arena, v...)
	return b.arena[n:len(b.arena):len(b.arena)]
}

// maxRows is the most rows a row group or record batch of a size-byte
// input may claim: a real log takes well over a byte per row, so a larger
// count is damage, not data to loop over.
func maxRows(size int64) int64 { return 1<<20 + 64*size }

// rowSink receives a columnar decoder's batches. start gives the next
// batch to fill with n rows (reset records); send finishes the first n
// rows of it and passes them on.
type rowSink struct {
	p     *pipeline
	fs    *fileState
	row   int64 // rows sent so far
	batch *colBatch
	pq    *pqBatch // Parquet's batch being filled
}

// start returns a batch of n (≤ batchRows) reset rows.
func (s *rowSink) start(n int) *colBatch {
	b := batchPool.Get().(*colBatch)
	b.arena = b.arena[:0]
	for i := range n {
		b.recs[i].reset(s.fs.cfg.schema)
		b.bad[i] = ""
	}
	s.batch = b
	return b
}

// send counts the bad rows of the current batch, finishes the good ones
// and hands them to the workers.
func (s *rowSink) send(n int) {
	b := s.batch
	s.batch = nil
	good := 0
	for i := range n {
		if b.bad[i] != "" {
			s.p.reader.bad(s.fs, s.row+int64(i)+1, b.bad[i])
			continue
		}
		if good != i {
			b.recs[good] = b.recs[i]
		}
		b.recs[good].Finish()
		good++
	}
	s.row += int64(n)
	if good == 0 {
		batchPool.Put(b)
		return
	}
	s.p.work <- unit{file: s.fs, recs: b.recs[:good], batch: b}
}

// drop returns an unfinished batch to the pool.
func (s *rowSink) drop() {
	if s.batch != nil {
		batchPool.Put(s.batch)
		s.batch = nil
	}
	if s.pq != nil {
		pqBatchPool.Put(s.pq)
		s.pq = nil
	}
}

// setNumber reads a numeric column value into every field bs names, with
// the same rules as Set: a negative, NaN or infinite request_time is an
// error (a bad row); text fields get the number's decimal form.
func (r *Record) setNumber(bs Bindings, v float64, b *colBatch, loc *time.Location) error {
	for _, bd := range bs {
		f := bd.Field
		if !r.claim(f, bd.Prio) {
			continue
		}
		info := &fields[f]
		switch info.kind {
		case KindFloat:
			x, flaw := duration(info, v, bd.Unit)
			if flaw != fine {
				if f == FRequestTime {
					return badValue(f, strconv.AppendFloat(nil, v, 'g', -1, 64), flaw)
				}
				continue
			}
			r.put(f, bd.Prio, x)
		case KindInt:
			if isInt(v) {
				r.put(f, bd.Prio, v+0) // +0 turns -0 into 0
			}
		case KindBool:
			if v == 0 || v == 1 {
				r.put(f, bd.Prio, v)
			}
		default:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				if f == FTime {
					return badValue(f, strconv.AppendFloat(nil, v, 'g', -1, 64), notFinite)
				}
				continue
			}
			n := len(b.arena)
			b.arena = strconv.AppendFloat(b.arena, v, 'f', -1, 64)
			if err := r.set1(bd, b.arena[n:len(b.arena):len(b.arena)], loc); err != nil {
				return err
			}
		}
	}
	return nil
}

// setInstant reads a timestamp column value, v units of per nanoseconds:
// straight into the time field; any other field bound to the column gets
// it as epoch seconds.
func (r *Record) setInstant(bs Bindings, v, per int64, b *colBatch, loc *time.Location) error {
	ns := v * per
	if per != 0 && (v > math.MaxInt64/per || v < math.MinInt64/per) {
		ns = math.MaxInt64 // overflows: outside every readable time
	}
	for _, bd := range bs {
		if bd.Field == FTime {
			if r.claim(FTime, bd.Prio) {
				if flaw := checkTime(ns); flaw != fine {
					return badValue(FTime, strconv.AppendInt(nil, v, 10), flaw)
				}
				r.TimeNS = ns
				r.set |= 1 << FTime
				r.prio[FTime] = bd.Prio
			}
			continue
		}
		if err := r.setNumber(Bindings{bd}, float64(ns)/1e9, b, loc); err != nil {
			return err
		}
	}
	return nil
}

// setBool reads a boolean column value.
func (r *Record) setBool(bs Bindings, v bool, loc *time.Location) error {
	s := falseText
	if v {
		s = trueText
	}
	return r.Set(bs, s, loc)
}

var trueText, falseText = []byte("true"), []byte("false")

// readColumnar decodes a Parquet or Arrow input into batches of records.
// A plain file is read in place through its io.ReaderAt; stdin and
// compressed input are read into memory first. An error means the file
// was damaged; the rows before the damage have been sent.
func (p *pipeline) readColumnar(fs *fileState, br *bufio.Reader, content io.Reader, raw io.Reader) error {
	var src io.ReaderAt
	var size int64
	var readErr error
	f, isFile := raw.(*os.File)
	var st os.FileInfo
	if isFile && isPlain(content) {
		var err error
		if st, err = f.Stat(); err != nil {
			return fmt.Errorf("cannot stat %q: %w", fs.path, err)
		}
	}
	if st != nil && st.Mode().IsRegular() {
		src, size = f, st.Size()
	} else { // stdin, a pipe, compressed content
		data, err := io.ReadAll(br)
		src, size, readErr = bytes.NewReader(data), int64(len(data)), err
	}
	s := &rowSink{p: p, fs: fs}
	var err error
	switch fs.format {
	case Parquet:
		err = decodeSafely("parquet", s, func() error { return readParquet(src, size, s) })
	default:
		err = decodeSafely("arrow", s, func() error { return readArrow(src, size, s) })
	}
	if readErr != nil {
		return readError(readErr)
	}
	return err
}

// isPlain reports whether decompress passed the content through as is.
func isPlain(r io.Reader) bool {
	_, ok := r.(*bufio.Reader)
	return ok
}

// decodeSafely runs a decoder, turning a panic on malformed data into an
// error.
func decodeSafely(what string, s *rowSink, decode func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			s.drop()
			err = fmt.Errorf("damaged %s data: %v", what, v)
		}
	}()
	err = decode()
	s.drop()
	return err
}
