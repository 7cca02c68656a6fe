package ingest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zstd"

	"loganalyze/gen"
)

// streamed is the oracle: data read by the streaming decoder alone.
func streamed(data []byte) ([]byte, error) {
	d, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return io.ReadAll(d)
}

// framed is data read through zstdFrames with the given decoders.
func framed(t testing.TB, data []byte, decoders int) ([]byte, error) {
	t.Helper()
	z, err := newZstdFrames(bufio.NewReaderSize(bytes.NewReader(data), 64<<10), decoders)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	return io.ReadAll(z)
}

// skipFrame is a skippable frame of the given payload.
func skipFrame(nibble byte, payload []byte) []byte {
	out := binary.LittleEndian.AppendUint32(nil, skippableMagic|uint32(nibble&0xF))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(payload)))
	return append(out, payload...)
}

// frames compresses each part into a frame of its own with enc, each
// after a skippable frame of its size when pz (pzstd's layout).
func frames(t testing.TB, enc *zstd.Encoder, pz bool, parts ...[]byte) []byte {
	t.Helper()
	var out []byte
	for _, p := range parts {
		f := enc.EncodeAll(p, nil)
		if pz {
			out = append(out, skipFrame(0, binary.LittleEndian.AppendUint32(nil, uint32(len(f))))...)
		}
		out = append(out, f...)
	}
	return out
}

// splitAt cuts b into parts at the given fractions of its length.
func splitAt(b []byte, at ...float64) [][]byte {
	var parts [][]byte
	prev := 0
	for _, a := range at {
		i := int(a * float64(len(b)))
		parts = append(parts, b[prev:i])
		prev = i
	}
	return append(parts, b[prev:])
}

// zstdCases are streams of several frames of every kind of header and
// block: text, runs of one byte (RLE blocks), random bytes (raw
// blocks), empty frames, frames with and without their content size,
// window, checksum and a dictionary id, after skippable frames or not.
func zstdCases(t testing.TB) map[string][]byte {
	reqs := gen.Generate(gen.Config{Seed: 3, N: 4000})
	var log bytes.Buffer
	if _, err := gen.WriteJSONL(&log, reqs, gen.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	text := log.Bytes()
	rnd := make([]byte, 300<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range rnd {
		rnd[i] = byte(r.Uint32())
	}
	runs := bytes.Repeat([]byte{'x'}, 1<<20)
	mixed := append(append(append([]byte(nil), text[:100<<10]...), runs[:200<<10]...), rnd[:50<<10]...)
	enc := func(opts ...zstd.EOption) *zstd.Encoder {
		e, err := zstd.NewWriter(nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	plain := enc()
	noCRC := enc(zstd.WithEncoderCRC(false), zstd.WithSingleSegment(false), zstd.WithEncoderLevel(zstd.SpeedFastest))
	single := enc(zstd.WithSingleSegment(true), zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	zero := enc(zstd.WithZeroFrames(true))
	// A streamed frame has no content size.
	var s bytes.Buffer
	sw, err := zstd.NewWriter(&s, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	sw.Write(text)
	sw.Close()
	cases := map[string][]byte{
		"pzstd text":        frames(t, plain, true, splitAt(text, 0.2, 0.5, 0.51, 0.9)...),
		"frames, no header": frames(t, plain, false, splitAt(text, 0.3, 0.6)...),
		"no checksum":       frames(t, noCRC, false, splitAt(mixed, 0.25, 0.5)...),
		"single segment":    frames(t, single, true, splitAt(mixed, 0.1, 0.7)...),
		"empty frames":      frames(t, zero, false, nil, text[:5000], nil, []byte{}, text[5000:9000]),
		"runs and random":   frames(t, plain, true, runs, rnd, runs[:7]),
		"streamed frame":    append(append([]byte(nil), s.Bytes()...), frames(t, plain, false, text[:1000])...),
		"skippables": append(append(skipFrame(0xf, []byte("seek table")), frames(t, plain, false, text[:3000], text[3000:6000])...),
			skipFrame(7, nil)...),
	}
	return cases
}

// TestZstdFramesAsStreamed: every kind of stream, whole, cut at many
// places, and with a byte changed at many places, reads through the
// frame decoders as through the streaming decoder: the same text, and
// an error where it has one.
func TestZstdFramesAsStreamed(t *testing.T) {
	for name, data := range zstdCases(t) {
		want, werr := streamed(data)
		if werr != nil {
			t.Fatalf("%s: the streaming decoder fails: %v", name, werr)
		}
		for _, dec := range []int{2, 3} {
			got, err := framed(t, data, dec)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s, %d decoders: %d bytes (%v), want %d", name, dec, len(got), err, len(want))
			}
		}
		step := max(1, len(data)/41)
		for cut := 0; cut < len(data); cut += step {
			checkAsStreamed(t, name+" cut", data[:cut])
			bad := append([]byte(nil), data...)
			bad[cut] ^= 0x5a
			checkAsStreamed(t, name+" changed", bad)
		}
	}
}

// checkAsStreamed requires data read through the frame decoders to give
// the text the streaming decoder gives, and an error where it has one.
func checkAsStreamed(t *testing.T, name string, data []byte) {
	t.Helper()
	want, werr := streamed(data)
	got, err := framed(t, data, 2)
	if (err != nil) != (werr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("%s (%d bytes): %d bytes, error %v; streaming %d bytes, error %v", name, len(data), len(got), err, len(want), werr)
	}
}

// TestZstdFramesLong: a frame longer than is held whole (compressed, or
// in text) is read by the streaming decoder, with what follows it.
func TestZstdFramesLong(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	big := make([]byte, maxFrameIn+(1<<20)) // incompressible: raw blocks
	for i := range big {
		big[i] = byte(r.Uint32())
	}
	runs := bytes.Repeat([]byte("ab"), maxFrameOut/2+4096) // small compressed, long text
	e, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"long in":  frames(t, e, true, []byte("first\n"), big, []byte("after\n")),
		"long out": frames(t, e, false, []byte("first\n"), runs, []byte("after\n")),
	} {
		want, werr := streamed(data)
		got, err := framed(t, data, 2)
		if werr != nil || err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %d bytes (%v); streaming %d (%v)", name, len(got), err, len(want), werr)
		}
	}
}

// TestZstdFramesClose: a reader closed before its end stops its
// goroutines without reading on.
func TestZstdFramesClose(t *testing.T) {
	data := zstdCases(t)["pzstd text"]
	for range 20 {
		z, err := newZstdFrames(bufio.NewReader(bytes.NewReader(data)), 2)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 100)
		if _, err := io.ReadFull(z, buf); err != nil {
			t.Fatal(err)
		}
		z.Close()
		z.Close()
	}
}

// FuzzZstdFrames: any bytes read through the frame decoders give the
// streaming decoder's text, and an error where it has one.
func FuzzZstdFrames(f *testing.F) {
	for _, data := range zstdCases(f) {
		if len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Add(skipFrame(0, []byte{1, 2, 3, 4}))
	f.Add([]byte("\x28\xb5\x2f\xfd\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAsStreamed(t, "fuzz", data)
	})
}

// BenchmarkZstdFrames: a pzstd log's text read through the streaming
// decoder (1) and through 2 frame decoders, in MB/s of text.
func BenchmarkZstdFrames(b *testing.B) {
	reqs := gen.Generate(gen.Config{Seed: 3, N: 200000})
	var log bytes.Buffer
	if _, err := gen.WriteJSONL(&log, reqs, gen.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	text := log.Bytes()
	e, err := zstd.NewWriter(nil)
	if err != nil {
		b.Fatal(err)
	}
	var parts [][]byte
	for i := 0; i < len(text); i += 4 << 20 {
		parts = append(parts, text[i:min(i+4<<20, len(text))])
	}
	data := frames(b, e, true, parts...)
	for _, dec := range []int{1, 2} {
		b.Run(map[int]string{1: "streaming", 2: "frames2"}[dec], func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				r, _, err := decompress(bufio.NewReaderSize(bytes.NewReader(data), headBuffer), "x.jsonl.zst", dec, nil)
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, r)
				if err != nil || n != int64(len(text)) {
					b.Fatalf("%d bytes, %v", n, err)
				}
				if c, ok := r.(io.Closer); ok {
					c.Close()
				}
			}
		})
	}
}
