package state

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

var hour = time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC).Unix()

func mapping(t testing.TB) *sketch.Mapping {
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// hourSet fills a set with n lognormal request times over a few regions
// and returns it with the values of each region, sorted.
func hourSet(m *sketch.Mapping, seed uint64, n int) (*sketch.Set, map[string][]float64) {
	s := sketch.NewSet(m, aggregate.NumMetrics, aggregate.DimNames, 100)
	r := rand.New(rand.NewPCG(seed, 1))
	vals := map[string][]float64{}
	for range n {
		v := 200 * (1 + r.ExpFloat64())
		key := "region-" + strconv.Itoa(r.IntN(4))
		for _, e := range []*sketch.Entry{s.All, s.Dims[aggregate.DimRegion].Entry([]byte(key))} {
			e.Count++
			e.Add(m, aggregate.RequestTime, m.Bin(v))
		}
		vals[key] = append(vals[key], v)
	}
	for _, v := range vals {
		sort.Float64s(v)
	}
	s.Finish()
	return s, vals
}

func open(t *testing.T, dir string) *Dir {
	t.Helper()
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestRoundTrip(t *testing.T) {
	m := mapping(t)
	d := open(t, t.TempDir())
	set, vals := hourSet(m, 1, 20000)
	if err := d.writeSet(hour, set); err != nil {
		t.Fatal(err)
	}
	if got := filepath.Base(d.FileName(hour)); got != "2026-11-29T02.sketch" {
		t.Errorf("file name %q", got)
	}
	// Write puts the header, payload and checksum down in parts: the
	// file is Encode's bytes all the same.
	if b, err := os.ReadFile(d.FileName(hour)); err != nil || !bytes.Equal(b, encodeSet(hour, set)) {
		t.Errorf("the file written differs from Encode's %d bytes (%v)", len(encodeSet(hour, set)), err)
	}
	back, err := d.readSet(hour, m, 100)
	if err != nil {
		t.Fatal(err)
	}
	if back.All.Count != 20000 {
		t.Errorf("%d records read back", back.All.Count)
	}
	for key, v := range vals {
		e := back.Dims[aggregate.DimRegion].Get(key)
		if e == nil {
			t.Fatalf("region %q lost", key)
		}
		orig := set.Dims[aggregate.DimRegion].Get(key).Metric(aggregate.RequestTime)
		for _, q := range []float64{0.5, 0.95, 0.99} {
			got := e.Metric(aggregate.RequestTime).Quantile(q)
			if got != orig.Quantile(q) {
				t.Errorf("%s q%v: %v read back, %v written", key, q, got, orig.Quantile(q))
			}
			exact := v[int(q*float64(len(v)-1))]
			if rel := (got - exact) / exact; rel > 0.01 || rel < -0.01 {
				t.Errorf("%s q%v: %v, exact %v", key, q, got, exact)
			}
		}
	}
	if _, err := d.readSet(hour-3600, m, 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing hour: %v", err)
	}
	other, _ := sketch.NewMapping(0.02)
	if _, err := d.readSet(hour, other, 100); err == nil || !strings.Contains(err.Error(), "accuracy") {
		t.Errorf("other accuracy: %v", err)
	}
}

func TestRewriteReplaces(t *testing.T) {
	m := mapping(t)
	dir := t.TempDir()
	d := open(t, dir)
	first, _ := hourSet(m, 1, 5000)
	second, _ := hourSet(m, 2, 3000)
	for _, s := range []*sketch.Set{first, second, second} {
		if err := d.writeSet(hour, s); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(d.FileName(hour))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, encodeSet(hour, second)) {
		t.Error("the file is not the last write")
	}
	back, err := d.readSet(hour, m, 100)
	if err != nil || back.All.Count != 3000 {
		t.Fatalf("read back %v records, %v; want 3000", back, err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "2026-11-29T02.sketch lock" {
		t.Errorf("directory holds %v", names)
	}
}

func TestLockHeld(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "st")
	d := open(t, dir)
	_, err := Open(dir)
	want := `state directory "` + dir + `" is locked by another run (pid ` + strconv.Itoa(os.Getpid()) + `)`
	if err == nil || err.Error() != want {
		t.Fatalf("second open: %v; want %s", err, want)
	}
	d.Close()
	d2, err := Open(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	d2.Close()
}

func TestDamagedFiles(t *testing.T) {
	m := mapping(t)
	d := open(t, t.TempDir())
	set, _ := hourSet(m, 1, 2000)
	good := encodeSet(hour, set)
	r := rand.New(rand.NewPCG(9, 9))
	cases := map[string][]byte{
		"empty":     {},
		"truncated": good[:len(good)/2],
		"no crc":    good[:len(good)-4],
		"text":      []byte("hello\n"),
		"appended":  append(append([]byte(nil), good...), 0),
	}
	for i := range 20 {
		b := append([]byte(nil), good...)
		b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
		cases["flip"+strconv.Itoa(i)] = b
	}
	for name, b := range cases {
		if err := os.WriteFile(d.FileName(hour), b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := d.readSet(hour, m, 100)
		if err == nil || !strings.Contains(err.Error(), d.FileName(hour)) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A file of another hour under this hour's name is refused too.
	if err := os.WriteFile(d.FileName(hour), encodeSet(hour+3600, set), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.readSet(hour, m, 100); err == nil {
		t.Error("a file holding another hour was read")
	}
}

func FuzzDecode(f *testing.F) {
	m := mapping(f)
	set, _ := hourSet(m, 1, 50)
	f.Add(encodeSet(hour, set))
	f.Add(encodeSet(hour, sketch.NewSet(m, aggregate.NumMetrics, aggregate.DimNames, 10)))
	f.Add([]byte(magic))
	f.Add(EncodeSpans(hour, accOf(set), nil, [][2]int64{{hour * 1e9, hour*1e9 + 20e9}, {hour*1e9 + 40e9, hour*1e9 + 3600e9}}, Input{BadLines: 3, Problems: []ingest.Problem{{File: "a.log", Line: 7, Reason: "not JSON"}}, Incomplete: []string{`"b.gz": truncated`}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, s, err := decodeSet(b, m, 100)
		if err != nil {
			if s != nil {
				t.Fatal("a set with an error")
			}
			return
		}
		// What decodes encodes to the same bytes' meaning again.
		if _, _, err := decodeSet(encodeSet(h, s), m, 100); err != nil {
			t.Fatalf("re-encoded file does not decode: %v", err)
		}
	})
}

// A file of version 1 (the sketch set alone) is still read, for the
// comparisons, and says it holds no more.
func TestReadsVersion1(t *testing.T) {
	m := mapping(t)
	set, vals := hourSet(m, 3, 500)
	h, err := Decode(encodeV1(hour, set), aggregate.Options{Mapping: m, Top: 100}, []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if h.Full || h.Start != hour || h.Acc.Set.All.Count != 500 || h.Acc.Records != 500 {
		t.Fatalf("version 1: full %v, hour %d, %d records", h.Full, h.Start, h.Acc.Set.All.Count)
	}
	for k, v := range vals {
		if got := h.Acc.Set.Dims[aggregate.DimRegion].Get(k).Count; got != int64(len(v)) {
			t.Errorf("%s: %d, want %d", k, got, len(v))
		}
	}
	b := encodeV1(hour, set)
	b[len(magic)] = 9
	if _, err := Decode(b, aggregate.Options{Mapping: m, Top: 100}, nil); err == nil || !strings.Contains(err.Error(), "version 9") {
		t.Errorf("version 9: %v", err)
	}
}

// Writers of different shards share a directory without clobbering
// each other's hours; two runs of one shard cannot overlap; a shard's
// name must fit a file name.
func TestShards(t *testing.T) {
	dir := t.TempDir()
	m := mapping(t)
	a, err := OpenShard(dir, "gw-1")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenShard(dir, "gw-2")
	if err != nil {
		t.Fatalf("a second shard is locked out: %v", err)
	}
	defer b.Close()
	if _, err := OpenShard(dir, "gw-1"); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("the same shard twice: %v", err)
	}
	s1, _ := hourSet(m, 1, 100)
	s2, _ := hourSet(m, 2, 300)
	if err := a.writeSet(hour, s1); err != nil {
		t.Fatal(err)
	}
	if err := b.writeSet(hour, s2); err != nil {
		t.Fatal(err)
	}
	files, hours, foreign, err := HourFiles(dir)
	if err != nil || len(files) != 2 || len(foreign) != 0 || hours[0] != hour || hours[1] != hour {
		t.Fatalf("files %v hours %v foreign %v: %v", files, hours, foreign, err)
	}
	for i, want := range []int64{100, 300} {
		h, err := ReadFile(files[i], aggregate.Options{Mapping: m, Top: 100}, nil)
		if err != nil || h.Acc.Set.All.Count != want {
			t.Errorf("%s: %v records, want %d (%v)", files[i], h.Acc, want, err)
		}
	}
	for _, bad := range []string{"a/b", "x.y", "../evil", "a b", "é", strings.Repeat("x", 65)} {
		if _, err := OpenShard(dir, bad); err == nil {
			t.Errorf("shard %q accepted", bad)
		}
	}
}

// A sound hour file written before a metric was added (its metric list
// is the older one) is refused as of another layout, naming the lists,
// not misread and not called damaged.
func TestRefusesOtherMetrics(t *testing.T) {
	m := mapping(t)
	acc := aggregate.New(aggregate.Options{Mapping: m, Top: 100})
	old := []string{"request_time", "upstream_response_time", "network_time", "ttft"}
	b := []byte(magic)
	b = append(b, version)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Accuracy()))
	b = binary.LittleEndian.AppendUint64(b, uint64(hour))
	b = appendNames(b, old)
	b = appendNames(b, aggregate.DimNames)
	b = appendNames(b, nil)
	payload := acc.AppendBinary(nil)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	b = append(b, payload...)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
	_, err := Decode(b, aggregate.Options{Mapping: m, Top: 100}, nil)
	if !errors.Is(err, ErrLayout) || errors.Is(err, errDamaged) {
		t.Fatalf("old metrics: %v", err)
	}
	for _, want := range []string{"metrics", `"ttft"]`, `"time_per_output_token"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %s", err, want)
		}
	}
	// The same file with this build's list reads.
	if _, err := Decode(Encode(hour, acc, nil), aggregate.Options{Mapping: m, Top: 100}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestHourFilesLinks: an hour file that is a symbolic link is read as
// the file it names; a link to nothing and a pipe named as hour files
// are listed as no hour files (never opened: a pipe would block), not
// passed over without a word.
func TestHourFilesLinks(t *testing.T) {
	m := mapping(t)
	set, _ := hourSet(m, 1, 200)
	dir, elsewhere := t.TempDir(), t.TempDir()
	d := open(t, dir)
	if err := os.WriteFile(d.FileName(hour), encodeSet(hour, set), 0o644); err != nil {
		t.Fatal(err)
	}
	other := open(t, elsewhere)
	if err := os.WriteFile(other.FileName(hour+3600), encodeSet(hour+3600, set), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other.FileName(hour+3600), d.FileName(hour+3600)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(elsewhere, "gone"), d.FileName(hour+2*3600)); err != nil {
		t.Fatal(err)
	}
	wantForeign := []string{d.FileName(hour + 2*3600), d.FileName(hour + 3*3600)}
	if err := mkfifo(d.FileName(hour + 3*3600)); errors.Is(err, errors.ErrUnsupported) {
		wantForeign = wantForeign[:1] // no named pipes here
	} else if err != nil {
		t.Fatal(err)
	}
	files, hours, foreign, err := HourFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || len(hours) != 2 || hours[0] != hour || hours[1] != hour+3600 {
		t.Errorf("files %v, hours %v; want the file and the link, hours %d and %d", files, hours, hour, hour+3600)
	}
	if !slices.Equal(foreign, wantForeign) {
		t.Errorf("foreign %v, want the dangling link and the pipe, %v", foreign, wantForeign)
	}
}

// TestSpans: a file says which spans of its hour it holds, read back
// whole and from its head alone; a file without them (Encode) says none;
// spans outside the hour, out of order or overlapping are damage.
func TestSpans(t *testing.T) {
	m := mapping(t)
	set, _ := hourSet(m, 1, 100)
	d := open(t, t.TempDir())
	h0 := hour * 1e9
	spans := [][2]int64{{h0, h0 + 20e9}, {h0 + 30e9, h0 + 3600e9}}
	if err := d.WriteSpans(hour, accOf(set), nil, spans, Input{}); err != nil {
		t.Fatal(err)
	}
	h, err := d.Read(hour, aggregate.Options{Mapping: m, Top: 100}, nil)
	if err != nil || !slices.Equal(h.Spans, spans) {
		t.Errorf("read spans %v, %v; want %v", h.Spans, err, spans)
	}
	if got, err := d.Spans(hour, m, nil); err != nil || !slices.Equal(got, spans) {
		t.Errorf("head's spans %v, %v; want %v", got, err, spans)
	}
	if h, err := Decode(Encode(hour, accOf(set), nil), aggregate.Options{Mapping: m, Top: 100}, nil); err != nil || h.Spans != nil {
		t.Errorf("no spans written: %v, %v", h.Spans, err)
	}
	if _, err := d.Spans(hour+3600, m, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no file: %v", err)
	}
	for _, bad := range [][][2]int64{
		{{h0 - 1, h0 + 10}},
		{{h0, h0 + 3601e9}},
		{{h0 + 10, h0 + 10}},
		{{h0 + 50, h0 + 60}, {h0 + 10, h0 + 20}},
		{{h0, h0 + 20}, {h0 + 10, h0 + 30}},
	} {
		if _, err := Decode(EncodeSpans(hour, accOf(set), nil, bad, Input{}), aggregate.Options{Mapping: m, Top: 100}, nil); err == nil {
			t.Errorf("spans %v read", bad)
		}
	}
}

// TestInputKept: what the runs that wrote an hour could not read is read
// back as written; Add sums the bad lines, keeps 20 samples and each
// note once.
func TestInputKept(t *testing.T) {
	m := mapping(t)
	set, _ := hourSet(m, 1, 100)
	in := Input{BadLines: 30, Problems: []ingest.Problem{{File: "a.log", Line: 7, Reason: "not JSON"}, {File: "a.log", Line: 9, Reason: "time: cannot read \"x\""}},
		Incomplete: []string{`"b.jsonl.gz": truncated: unexpected EOF`}}
	h, err := Decode(EncodeSpans(hour, accOf(set), nil, nil, in), aggregate.Options{Mapping: m, Top: 100}, nil)
	if err != nil || !reflect.DeepEqual(h.Input, in) {
		t.Errorf("read %+v, %v; want %+v", h.Input, err, in)
	}
	var sum Input
	for range 15 {
		sum.Add(in)
	}
	if sum.BadLines != 450 || len(sum.Problems) != 20 || len(sum.Incomplete) != 1 {
		t.Errorf("sum: %d bad lines, %d problems, %d notes; want 450, 20, 1", sum.BadLines, len(sum.Problems), len(sum.Incomplete))
	}
}

// TestOtherAccuracyNamed: a file of another accuracy is refused with
// both accuracies as --accuracy gives them, not the float the mapping
// computes from them (0.020000000000000018).
func TestOtherAccuracyNamed(t *testing.T) {
	m := mapping(t)
	m2, err := sketch.NewMapping(0.02)
	if err != nil {
		t.Fatal(err)
	}
	set, _ := hourSet(m2, 1, 10)
	_, err = Decode(Encode(hour, accOf(set), nil), aggregate.Options{Mapping: m, Top: 100}, nil)
	if err == nil || !strings.Contains(err.Error(), "state file of accuracy 0.02, this run uses 0.01 (--accuracy)") {
		t.Errorf("error %v", err)
	}
}

// TestManySpansCapped: a file of more spans than it may list joins the
// nearest until it lists maxSpans, and reads back whole.
func TestManySpansCapped(t *testing.T) {
	m := mapping(t)
	set, _ := hourSet(m, 1, 10)
	h0 := hour * 1e9
	var spans [][2]int64
	for i := range int64(100) {
		gap := int64(1e9)
		if i%10 == 0 {
			gap = 5e9 // the widest gaps stay
		}
		start := h0 + i*20e9 + gap
		spans = append(spans, [2]int64{start, start + 10e9})
	}
	h, err := Decode(EncodeSpans(hour, accOf(set), nil, spans, Input{}), aggregate.Options{Mapping: m, Top: 100}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Spans) != maxSpans || h.Spans[0][0] != spans[0][0] || h.Spans[len(h.Spans)-1][1] != spans[99][1] {
		t.Errorf("%d spans from %d to %d; want %d from %d to %d", len(h.Spans), h.Spans[0][0], h.Spans[len(h.Spans)-1][1], maxSpans, spans[0][0], spans[99][1])
	}
}
