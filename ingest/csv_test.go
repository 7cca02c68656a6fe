package ingest_test

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Shanghai whatever the machine has

	"loganalyze/aggregate"
	"loganalyze/gen"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

// textRow is one record's canonical fields, copied out of the reader's
// buffers.
type textRow struct {
	fields uint64
	timeNS int64
	num    [ingest.NumFields]float64
	text   [ingest.NumFields]string
}

func (x *textRow) has(f ingest.Field) bool { return x.fields&(1<<f) != 0 }

func (x *textRow) setNum(f ingest.Field, v float64) {
	x.fields |= 1 << f
	x.num[f] = v
}

func (x *textRow) setText(f ingest.Field, s string) {
	x.fields |= 1 << f
	x.text[f] = s
}

// key writes the fields fs of x in a fixed form: numbers to 6 decimals
// (so a wrong unit or column shows, a last-bit difference does not),
// times in nanoseconds, absent fields as "-".
func (x *textRow) key(fs []ingest.Field) string {
	var b []byte
	for _, f := range fs {
		b = append(b, f.String()...)
		b = append(b, '=')
		switch {
		case !x.has(f):
			b = append(b, '-')
		case f == ingest.FTime:
			b = strconv.AppendInt(b, x.timeNS, 10)
		case f.Kind() == ingest.KindText || f.Kind() == ingest.KindRequest:
			b = strconv.AppendQuote(b, x.text[f])
		default:
			b = strconv.AppendFloat(b, x.num[f], 'f', 6, 64)
		}
		b = append(b, ' ')
	}
	return string(b)
}

// textCollector keeps every record it is given.
type textCollector struct{ rows []textRow }

func (c *textCollector) Add(r *ingest.Record) {
	x := textRow{fields: r.Fields(), timeNS: r.TimeNS}
	for f := ingest.Field(0); f < ingest.NumFields; f++ {
		if !r.Has(f) {
			continue
		}
		switch f.Kind() {
		case ingest.KindText, ingest.KindRequest:
			x.text[f] = string(r.Text(f))
		default:
			x.num[f], _ = r.Float(f)
		}
	}
	c.rows = append(c.rows, x)
}

// textSinks feeds an accumulator and a textCollector.
type textSinks struct {
	acc *aggregate.Accumulator
	col *textCollector
}

func (s textSinks) Add(r *ingest.Record) {
	s.acc.Add(r)
	s.col.Add(r)
}

// readText runs the pipeline over paths and returns the merged accumulator,
// every record and the result.
func readText(t *testing.T, paths []string, opts ingest.Options) (*aggregate.Accumulator, []textRow, *ingest.Result) {
	t.Helper()
	m, err := sketch.NewMapping(0.01)
	if err != nil {
		t.Fatal(err)
	}
	sinks, res, err := ingest.Run(paths, opts, func() textSinks {
		return textSinks{acc: aggregate.New(aggregate.Options{Mapping: m, Top: 1000}), col: &textCollector{}}
	})
	if err != nil {
		t.Fatal(err)
	}
	var accs []*aggregate.Accumulator
	var rows []textRow
	for _, s := range sinks {
		accs = append(accs, s.acc)
		rows = append(rows, s.col.rows...)
	}
	return aggregate.MergeAll(accs), rows, res
}

var rtQuantiles = []float64{0.5, 0.95, 0.99}

// checkRTQuantiles compares a sketch's request_time rtQuantiles (ms) with the
// exact values at rank ⌊q·(n−1)⌋ of want (ms, any order).
func checkRTQuantiles(t *testing.T, what string, e *sketch.Entry, want []float64) {
	t.Helper()
	if e == nil {
		t.Errorf("%s: no sketch, want %d values", what, len(want))
		return
	}
	s := e.Metric(aggregate.RequestTime)
	if s == nil || s.Count() != int64(len(want)) {
		t.Errorf("%s: sketch of %v values, want %d", what, s, len(want))
		return
	}
	sorted := slices.Clone(want)
	sort.Float64s(sorted)
	for _, q := range rtQuantiles {
		exact := sorted[int(q*float64(len(sorted)-1))]
		got := s.Quantile(q)
		if math.Abs(got-exact) > 0.01*exact+1e-9 {
			t.Errorf("%s: p%v = %.3f ms, exact %.3f ms (off by %.2f %%)", what, q*100, got, exact, 100*math.Abs(got-exact)/exact)
		}
	}
}

// rtByText returns request_time in ms of rows, all and by the text of f.
func rtByText(rows []textRow, f ingest.Field) (all []float64, by map[string][]float64) {
	by = map[string][]float64{}
	for i := range rows {
		if !rows[i].has(ingest.FRequestTime) {
			continue
		}
		v := rows[i].num[ingest.FRequestTime] * 1000
		all = append(all, v)
		if rows[i].has(f) {
			by[rows[i].text[f]] = append(by[rows[i].text[f]], v)
		}
	}
	return all, by
}

// textFileLine returns line n (from 1) of a file.
func textFileLine(t *testing.T, path string, n int64) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for i := int64(1); sc.Scan(); i++ {
		if i == n {
			return sc.Text()
		}
	}
	t.Fatalf("%s has no line %d", path, n)
	return ""
}

func TestCSVSample(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "examples")
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	csvPath := filepath.Join(dir, "tokenhub-sample.csv")
	acc, rows, res := readText(t, []string{csvPath}, ingest.Options{Format: ingest.Auto, Location: shanghai})
	_, ref, refRes := readText(t, []string{filepath.Join(dir, "tokenhub-sample.jsonl")}, ingest.Options{Format: ingest.Auto})

	if res.Files[0].Format != ingest.CSV {
		t.Errorf("format %q, want csv", res.Files[0].Format)
	}
	if res.Records() != 3000 || res.BadLines() != 3 || acc.Records != 3000 {
		t.Errorf("records %d (accumulated %d), bad lines %d; want 3000 and 3", res.Records(), acc.Records, res.BadLines())
	}
	if refRes.Records() != 3000 {
		t.Fatalf("the JSON-lines reference has %d records, want 3000", refRes.Records())
	}
	for _, p := range res.Problems {
		if !strings.Contains(p.Reason, "want 24 fields, got 3") {
			t.Errorf("problem %v: want a field-count reason", p)
		}
		if l := textFileLine(t, csvPath, p.Line); strings.Count(l, ",") != 2 {
			t.Errorf("problem %v points at %q, not a short row", p, l)
		}
	}

	// The same times: zone-less CSV times read in Asia/Shanghai equal the
	// JSON lines' zoned times, record for record.
	times := func(rows []textRow) []int64 {
		var ts []int64
		for i := range rows {
			if rows[i].has(ingest.FTime) {
				ts = append(ts, rows[i].timeNS)
			}
		}
		slices.Sort(ts)
		return ts
	}
	got, want := times(rows), times(ref)
	if !slices.Equal(got, want) {
		t.Errorf("CSV times differ from the JSON lines' (%d vs %d times)", len(got), len(want))
	}
	if len(want) > 0 && (acc.MinTime != want[0] || acc.MaxTime != want[len(want)-1]) {
		t.Errorf("window [%v, %v], want [%v, %v]", time.Unix(0, acc.MinTime), time.Unix(0, acc.MaxTime),
			time.Unix(0, want[0]), time.Unix(0, want[len(want)-1]))
	}

	all, byRegion := rtByText(ref, ingest.FRegion)
	checkRTQuantiles(t, "all", acc.Set.All, all)
	for k, v := range byRegion {
		checkRTQuantiles(t, "region "+k, acc.Set.Dims[aggregate.DimRegion].Get(k), v)
	}
	_, byModel := rtByText(ref, ingest.FModel)
	for k, v := range byModel {
		checkRTQuantiles(t, "model "+k, acc.Set.Dims[aggregate.DimModel].Get(k), v)
	}
	if n := acc.Set.Dims[aggregate.DimRegion].Len(); n != len(byRegion) {
		t.Errorf("%d regions, want %d", n, len(byRegion))
	}
	if n := acc.Set.Dims[aggregate.DimModel].Len(); n != len(byModel) {
		t.Errorf("%d models, want %d", n, len(byModel))
	}
}

// writeGenerated writes reqs with a writer into dir and returns the path and
// the number of bad lines written.
func writeGenerated(t *testing.T, dir, name string, reqs []gen.Request,
	write func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)) (string, int) {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	bad, err := write(bw, reqs, gen.WriteOptions{BadEvery: 997})
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return path, bad
}

// expectedText is the record a format should give for a generated request,
// built from the request's fields: the oracle of the round-trip tests.
func expectedText(q *gen.Request, format ingest.Format) textRow {
	var x textRow
	clb := format == ingest.CLB
	x.fields |= 1 << ingest.FTime
	x.timeNS = q.Time.UnixNano()
	if clb {
		x.timeNS = q.Time.Truncate(time.Second).UnixNano()
		x.setText(ingest.FClient, q.RemoteAddr)
		x.setText(ingest.FRequest, q.Method+" "+q.URI+" HTTP/1.1")
		x.setText(ingest.FHost, "tokenhub.example.com") // gen's http_host and server_name
	} else {
		x.setText(ingest.FClient, q.AppID)
		x.setText(ingest.FClientRegion, q.ClientRegion)
		x.setText(ingest.FRegion, q.Region)
		if q.Model != "" {
			x.setText(ingest.FModel, q.Model)
			x.setNum(ingest.FStream, map[bool]float64{false: 0, true: 1}[q.Stream])
		}
		if !math.IsNaN(q.TTFTms) {
			x.setNum(ingest.FTTFT, q.TTFTms)
		}
		if q.RetryAfter > 0 {
			x.setNum(ingest.FRetryAfter, float64(q.RetryAfter))
		}
		x.setNum(ingest.FPromptTokens, float64(q.PromptTokens))
		x.setNum(ingest.FCompletionTokens, float64(q.CompletionTokens))
	}
	x.setText(ingest.FRemoteAddr, q.RemoteAddr)
	x.setText(ingest.FMethod, q.Method)
	x.setText(ingest.FURI, q.URI)
	x.setNum(ingest.FStatus, float64(q.Status))
	x.setNum(ingest.FRequestTime, q.RequestTime)
	up, hasUp := q.UpstreamTime()
	if hasUp {
		x.setNum(ingest.FUpstreamResponseTime, up)
	}
	if hasUp || !clb {
		x.setNum(ingest.FUpstreamConnectTime, q.UpstreamConnect)
	}
	if hasUp && clb {
		x.setNum(ingest.FUpstreamStatus, float64(q.Status))
	}
	x.setNum(ingest.FSSLHandshakeTime, q.SSLHandshake)
	x.setNum(ingest.FTCPInfoRTT, float64(q.TCPRTTus))
	x.setNum(ingest.FConnection, float64(q.Connection))
	x.setNum(ingest.FConnectionRequests, float64(q.ConnectionRequests))
	return x
}

// textFields are the fields the round trip compares: all of them but
// the CLB's upstream address and header time, which the request does not
// carry (they are checked apart).
func textFields(format ingest.Format) []ingest.Field {
	var fs []ingest.Field
	for f := ingest.Field(0); f < ingest.NumFields; f++ {
		if format == ingest.CLB && (f == ingest.FUpstreamAddr || f == ingest.FUpstreamHeaderTime) {
			continue
		}
		fs = append(fs, f)
	}
	return fs
}

func TestGeneratedRoundTrip(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	reqs := gen.Generate(gen.Config{Seed: 7, N: n, Plants: gen.All})
	loc := reqs[0].Time.Location()
	dir := t.TempDir()
	cases := []struct {
		name   string
		format ingest.Format
		write  func(io.Writer, []gen.Request, gen.WriteOptions) (int, error)
	}{
		{"log.csv", ingest.CSV, gen.WriteCSV},
		{"log.tsv", ingest.TSV, gen.WriteTSV},
		{"clb.log", ingest.CLB, gen.WriteCLB},
		{"log.jsonl", ingest.JSONL, gen.WriteJSONL},
	}
	for _, c := range cases {
		t.Run(string(c.format), func(t *testing.T) {
			path, bad := writeGenerated(t, dir, c.name, reqs, c.write)
			if bad < 4 {
				t.Fatalf("the writer inserted %d bad lines; want every kind", bad)
			}
			acc, rows, res := readText(t, []string{path}, ingest.Options{Format: ingest.Auto, Location: loc, Workers: 2})
			if res.Files[0].Format != c.format {
				t.Errorf("detected %q, want %q", res.Files[0].Format, c.format)
			}
			if res.Records() != int64(len(reqs)) || res.BadLines() != int64(bad) {
				t.Errorf("records %d, bad lines %d; want %d and %d", res.Records(), res.BadLines(), len(reqs), bad)
			}
			if len(res.Problems) == 0 || len(res.Problems) > 20 {
				t.Errorf("%d problems sampled, want 1..20", len(res.Problems))
			}

			fs := textFields(c.format)
			gotKeys := make([]string, len(rows))
			for i := range rows {
				gotKeys[i] = rows[i].key(fs)
			}
			wantKeys := make([]string, len(reqs))
			for i := range reqs {
				x := expectedText(&reqs[i], c.format)
				wantKeys[i] = x.key(fs)
			}
			slices.Sort(gotKeys)
			slices.Sort(wantKeys)
			mismatches := 0
			for i := 0; i < len(gotKeys) && i < len(wantKeys) && mismatches < 3; i++ {
				if gotKeys[i] != wantKeys[i] {
					t.Errorf("record differs:\n got %s\nwant %s", gotKeys[i], wantKeys[i])
					mismatches++
				}
			}
			if c.format == ingest.CLB {
				for i := range rows {
					x := &rows[i]
					if x.has(ingest.FUpstreamHeaderTime) != x.has(ingest.FUpstreamResponseTime) ||
						x.has(ingest.FUpstreamAddr) != x.has(ingest.FUpstreamResponseTime) ||
						x.num[ingest.FUpstreamHeaderTime] > x.num[ingest.FUpstreamResponseTime] {
						t.Errorf("upstream header time %v / address %q do not fit upstream time %v",
							x.num[ingest.FUpstreamHeaderTime], x.text[ingest.FUpstreamAddr], x.num[ingest.FUpstreamResponseTime])
						break
					}
				}
			}

			all := make([]float64, len(reqs))
			byRegion := map[string][]float64{}
			byModel := map[string][]float64{}
			for i := range reqs {
				v := reqs[i].RequestTime * 1000
				all[i] = v
				byRegion[reqs[i].Region] = append(byRegion[reqs[i].Region], v)
				if reqs[i].Model != "" {
					byModel[reqs[i].Model] = append(byModel[reqs[i].Model], v)
				}
			}
			checkRTQuantiles(t, "all", acc.Set.All, all)
			if c.format == ingest.CLB {
				return
			}
			for k, v := range byRegion {
				checkRTQuantiles(t, "region "+k, acc.Set.Dims[aggregate.DimRegion].Get(k), v)
			}
			for k, v := range byModel {
				checkRTQuantiles(t, "model "+k, acc.Set.Dims[aggregate.DimModel].Get(k), v)
			}
		})
	}
}

// TestCSVQuotedLineBreak: a quoted field may hold line breaks, LF or
// CRLF (RFC 4180 §2.6): its row is read whole, as encoding/csv reads it.
// A quote left open that no later line closes is one bad line, and the
// rows after it are read.
func TestCSVQuotedLineBreak(t *testing.T) {
	valid := "model,request_time\r\nm,1\r\n\"two\nlines\",2\r\nn,3\r\n\"\n\",4\n\"three\r\nline\r\nbreaks\",5\n"
	open := "\"never closed,6\no,7\np,8\n" // lines 11 to 13
	path := filepath.Join(t.TempDir(), "break.csv")
	if err := os.WriteFile(path, []byte("\ufeff"+valid+open), 0o644); err != nil {
		t.Fatal(err)
	}
	oracle, err := csv.NewReader(strings.NewReader(valid + "o,7\np,8\n")).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var want []string // model and request_time of each row
	for _, r := range oracle[1:] {
		want = append(want, r[0]+"|"+r[1])
	}
	_, rows, res := readText(t, []string{path}, ingest.Options{Format: ingest.Auto})
	var got []string
	for i := range rows {
		// encoding/csv reads a CRLF within a quoted field as LF.
		model := strings.ReplaceAll(rows[i].text[ingest.FModel], "\r\n", "\n")
		got = append(got, fmt.Sprintf("%s|%g", model, rows[i].num[ingest.FRequestTime]))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if res.BadLines() != 1 || len(res.Problems) != 1 || res.Problems[0].Line != 11 ||
		!strings.Contains(res.Problems[0].Reason, "unterminated quoted field") {
		t.Errorf("%d bad lines %v, want line 11's open quote", res.BadLines(), res.Problems)
	}
}

// TestCSVJoined: CSV files joined one after another (cat a.csv b.csv,
// or their .gz: one file of two members) hold the header row again
// where each began, a BOM before it or not: that row is passed over, no
// bad line, and every row of both is read.
func TestCSVJoined(t *testing.T) {
	a := gen.Generate(gen.Config{Seed: 81, N: 300})
	b := gen.Generate(gen.Config{Seed: 82, N: 300})
	ca, _ := encode(t, a, gen.WriteOptions{}, gen.WriteCSV)
	cb, _ := encode(t, b, gen.WriteOptions{}, gen.WriteCSV)
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"joined.csv", append(append([]byte(nil), ca...), cb...)},
		{"bom.csv", append(append([]byte("\ufeff"), ca...), append([]byte("\ufeff"), cb...)...)},
		{"joined.csv.gz", append(gzipBytes(t, ca), gzipBytes(t, cb)...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, res := collect(t, []string{writeTemp(t, c.name, string(c.data))}, ingest.Options{Workers: 2, Location: time.FixedZone("+0800", 8*3600)})
			if res.BadLines() != 0 || res.Files[0].PassedOver != 1 {
				t.Errorf("%d bad lines, %d passed over; want 0, 1: %v", res.BadLines(), res.Files[0].PassedOver, res.Problems)
			}
			checkRows(t, c.name, rows, append(append([]gen.Request(nil), a...), b...))
		})
	}
}
