package ingest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// A zstd stream of several frames (pzstd's, a seekable file's, frames a
// shipper wrote flush by flush, files joined by cat) is decompressed a
// frame per goroutine, so that a run on many cores is not held to one
// core's decompression. The frames are cut from the stream by their
// headers (RFC 8878 §3.1), which give each block's size, decoded out of
// order, and their text handed on in order.
//
// A frame whose compressed bytes pass maxFrameIn ends the cutting: it and
// the rest of the stream are read by the streaming decoder, so that a
// file of one large frame (what the zstd command writes) is read in one
// pass in bounded memory. A frame whose text passes maxFrameOut is
// decoded streaming from its bytes.

const (
	maxFrameIn  = 4 << 20  // the compressed bytes of a frame held whole
	maxFrameOut = 16 << 20 // the text of a frame held whole
	maxDecoders = 4        // more decode faster than the workers parse
)

// Frame magic numbers, little endian.
const (
	zstdMagic      = 0xFD2FB528
	skippableMagic = 0x184D2A50 // to 0x184D2A5F
)

// zstdFrameMagic reports whether a stream starting with magic starts
// with a zstd frame, or a skippable frame (RFC 8878 §3.1.2), which pzstd
// and the seekable format write first.
func zstdFrameMagic(magic uint32) bool {
	return magic == zstdMagic || magic&^0xF == skippableMagic
}

// newZstdStream returns the streaming decoder of r: one frame after
// another, on the caller's goroutine.
func newZstdStream(r io.Reader) (*zstd.Decoder, error) {
	return zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
}

// errFrameLong is frameReader.next's: the frame is longer than maxFrameIn.
var errFrameLong = errors.New("zstd frame too long to hold")

// frameReader reads a stream's frames one by one.
type frameReader struct {
	br *bufio.Reader
}

// read appends n bytes of the stream to buf; cut short, the bytes
// there were (for the streaming decoder to read again).
func (f frameReader) read(buf []byte, n int) ([]byte, error) {
	at := len(buf)
	buf = slices.Grow(buf, n)[:at+n]
	if k, err := io.ReadFull(f.br, buf[at:]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return buf[:at+k], err
	}
	return buf, nil
}

// next reads the next data frame into buf, skipping skippable frames:
// io.EOF at the stream's end, errFrameLong for a frame longer than
// maxFrameIn (buf then holds the bytes read of it, the stream the rest),
// io.ErrUnexpectedEOF for a frame cut short.
func (f frameReader) next(buf []byte) ([]byte, error) {
	for {
		buf = buf[:0]
		if _, err := f.br.Peek(1); err != nil {
			return buf, err // io.EOF between frames: the end
		}
		buf, err := f.read(buf, 4)
		if err != nil {
			return buf, err
		}
		magic := binary.LittleEndian.Uint32(buf)
		if magic&^0xF == skippableMagic {
			if buf, err = f.read(buf, 4); err != nil {
				return buf, err
			}
			n := int(binary.LittleEndian.Uint32(buf[4:]))
			if d, err := f.br.Discard(n); err != nil || d != n {
				return buf, io.ErrUnexpectedEOF
			}
			continue
		}
		if magic != zstdMagic {
			return buf, errors.New("not a zstd frame")
		}
		if buf, err = f.read(buf, 1); err != nil {
			return buf, err
		}
		fhd := buf[4]
		n := 0
		if fhd&0x20 == 0 {
			n++ // window descriptor
		}
		n += [4]int{0, 1, 2, 4}[fhd&3] // dictionary id
		switch fcs := fhd >> 6; {
		case fcs == 0 && fhd&0x20 != 0:
			n++
		case fcs > 0:
			n += 1 << fcs
		}
		if buf, err = f.read(buf, n); err != nil {
			return buf, err
		}
		for last := false; !last; {
			if buf, err = f.read(buf, 3); err != nil {
				return buf, err
			}
			h := len(buf) - 3
			b := uint32(buf[h]) | uint32(buf[h+1])<<8 | uint32(buf[h+2])<<16
			last, n = b&1 != 0, int(b>>3)
			if b>>1&3 == 1 { // RLE: one byte stands for n
				n = 1
			}
			if len(buf)+n > maxFrameIn {
				return buf, errFrameLong
			}
			if buf, err = f.read(buf, n); err != nil {
				return buf, err
			}
		}
		if fhd&0x04 != 0 { // content checksum
			if buf, err = f.read(buf, 4); err != nil {
				return buf, err
			}
		}
		return buf, nil
	}
}

// frameJob is one frame, and once decoded (done) its text or error.
type frameJob struct {
	in, out []byte
	err     error
	cut     bool // err is cut's: the frame is not whole, nor decoded
	done    chan struct{}
}

// zstdFrames reads a zstd stream's frames on several goroutines: cut
// cuts them, decode decodes them, Read returns their text in order.
type zstdFrames struct {
	dec   *zstd.Decoder
	br    *bufio.Reader
	jobs  chan *frameJob // to the decoders
	order chan *frameJob // to Read, in the stream's order
	free  chan *frameJob // read: their buffers are reused
	stop  chan struct{}
	once  sync.Once

	cur *frameJob // the frame Read is in
	off int
	src io.Reader // the streaming decoder Read is in, or nil
	sd  *zstd.Decoder
	err error
}

// newZstdFrames starts reading br, at the start of a frame, with the
// given number of decoders (2 or more); at most decoders+2 frames are
// held at once.
func newZstdFrames(br *bufio.Reader, decoders int) (*zstdFrames, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(decoders), zstd.WithDecoderMaxMemory(maxFrameOut))
	if err != nil {
		return nil, err
	}
	z := &zstdFrames{
		dec:   dec,
		br:    br,
		jobs:  make(chan *frameJob, decoders),
		order: make(chan *frameJob, decoders),
		free:  make(chan *frameJob, decoders+2),
		stop:  make(chan struct{}),
	}
	for range decoders + 2 {
		z.free <- &frameJob{done: make(chan struct{}, 1)}
	}
	var wg sync.WaitGroup
	for range decoders {
		wg.Go(z.decode)
	}
	go func() {
		z.cut()
		close(z.jobs)
		wg.Wait()
		dec.Close()
	}()
	return z, nil
}

// decode decodes the frames sent to it. A frame that does not decode
// whole (its text or window too long to hold, or a flaw) is left with
// none, for Read to stream.
func (z *zstdFrames) decode() {
	for j := range z.jobs {
		j.out, j.err = z.dec.DecodeAll(j.in, j.out[:0])
		if j.err != nil {
			j.out = j.out[:0] // Read streams the frame
		}
		j.done <- struct{}{}
	}
}

// cut reads the stream's frames and sends each to be decoded and to
// Read, in order, until the end, an error, or a frame too long to hold;
// the job of the last two carries the error, and cut stops.
func (z *zstdFrames) cut() {
	defer close(z.order)
	fr := frameReader{z.br}
	for {
		var j *frameJob
		select {
		case j = <-z.free:
		case <-z.stop:
			return
		}
		in, err := fr.next(j.in)
		j.in, j.err, j.cut = in, err, err != nil
		if err == io.EOF {
			return
		}
		if err == nil {
			z.jobs <- j
		} else {
			j.done <- struct{}{}
		}
		select {
		case z.order <- j:
		case <-z.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read returns the frames' text in order.
func (z *zstdFrames) Read(p []byte) (int, error) {
	for {
		if z.src != nil {
			n, err := z.src.Read(p)
			if err == io.EOF {
				z.src = nil
				if n > 0 {
					return n, nil
				}
				continue
			}
			if err != nil {
				z.src, z.err = nil, fmt.Errorf("zstd: %w", err)
			}
			if n > 0 || err != nil {
				return n, z.err
			}
			continue
		}
		if z.err != nil {
			return 0, z.err
		}
		if z.cur != nil && z.off < len(z.cur.out) {
			n := copy(p, z.cur.out[z.off:])
			z.off += n
			return n, nil
		}
		if z.cur != nil {
			z.free <- z.cur
			z.cur = nil
		}
		j, ok := <-z.order
		if !ok {
			z.err = io.EOF
			continue
		}
		<-j.done
		switch {
		case j.err == nil:
			z.cur, z.off = j, 0
		case j.cut:
			// A frame too long to hold, cut short, or after which the
			// stream is no frame: it, from the bytes read of it, and the
			// rest of the stream (cut has stopped reading it) are read by
			// the streaming decoder, which keeps the text before a flaw
			// and reports it as it would have.
			if z.err = z.streaming(io.MultiReader(bytes.NewReader(j.in), z.br)); z.err == nil {
				z.cur, z.off = j, len(j.out)
			}
		default:
			// A frame whose text is too long to hold, or that does not
			// decode: streamed from its bytes, its text up to a flaw
			// kept. j is freed once they are read.
			if z.err = z.streaming(bytes.NewReader(j.in)); z.err == nil {
				z.cur, z.off = j, len(j.out)
			}
		}
	}
}

// streaming starts the streaming decoder on r for Read.
func (z *zstdFrames) streaming(r io.Reader) error {
	if z.sd == nil {
		sd, err := newZstdStream(nil)
		if err != nil {
			return err
		}
		z.sd = sd
	}
	if err := z.sd.Reset(r); err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	z.src = z.sd
	return nil
}

// Close stops the goroutines; the text not read is dropped.
func (z *zstdFrames) Close() error {
	z.once.Do(func() {
		close(z.stop)
		// Drain what cut sent, so that it is not held back.
		for j := range z.order {
			<-j.done
		}
		if z.sd != nil {
			z.sd.Close()
		}
	})
	return nil
}
