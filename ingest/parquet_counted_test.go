package ingest_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/parquet-go/parquet-go"

	"loganalyze/aggregate"
	"loganalyze/ingest"
	"loganalyze/sketch"
)

type countedRow struct {
	Time        int64   `parquet:"time,timestamp(millisecond)"`
	App         string  `parquet:"app_id,dict"`
	Addr        string  `parquet:"remote_addr,dict"`
	Method      string  `parquet:"method,dict"`
	Conn        int64   `parquet:"connection"`
	Prompt      int32   `parquet:"prompt_tokens"`
	Status      int32   `parquet:"status"`
	RequestTime float64 `parquet:"request_time"`
}

// countedRows are four row groups of 100 rows: the second has a method
// "-" and an empty address, which are absent; the third a connection
// number past ±MaxInt, which is left unset.
func countedRows() []countedRow {
	var rows []countedRow
	methods := []string{"POST", "GET"}
	for i := range 400 {
		rows = append(rows, countedRow{
			Time: 1_700_000_000_000 + int64(i)*1000, App: []string{"app-a", "app-b", "app-c"}[i%3],
			Addr: "10.0.0." + string(rune('1'+i%9)), Method: methods[i%2], Conn: int64(i), Prompt: int32(i % 50),
			Status: 200, RequestTime: float64(i%7) / 10,
		})
	}
	rows[110].Method = "-"
	rows[120].Addr = ""
	rows[205].Conn = 1 << 60
	rows[206].Conn = -(1 << 55)
	return rows
}

// presence is what a countedRow gives each row, found from the row as
// Set reads text and integers.
func presence(w countedRow) uint64 {
	m := uint64(1)<<ingest.FTime | 1<<ingest.FClient | 1<<ingest.FStatus | 1<<ingest.FRequestTime | 1<<ingest.FPromptTokens
	if w.Addr != "" && w.Addr != "-" {
		m |= 1 << ingest.FRemoteAddr
	}
	if w.Method != "" && w.Method != "-" {
		m |= 1 << ingest.FMethod
	}
	if math.Abs(float64(w.Conn)) <= 1<<53 {
		m |= 1 << ingest.FConnection
	}
	return m
}

// fieldsRow is what fieldsSink keeps of a record: its fields, and the
// values of those the analysis reads.
type fieldsRow struct {
	fields         uint64
	timeNS         int64
	client         string
	status         int64
	rt             float64
	hasRT, hasStat bool
}

type fieldsSink struct{ rows []fieldsRow }

func (c *fieldsSink) Add(r *ingest.Record) {
	w := fieldsRow{fields: r.Fields(), timeNS: r.TimeNS, client: string(r.Text(ingest.FClient))}
	w.status, w.hasStat = r.Int(ingest.FStatus)
	w.rt, w.hasRT = r.Float(ingest.FRequestTime)
	c.rows = append(c.rows, w)
}

// TestParquetCountedColumns: a required column bound to fields whose
// values are unread is counted, not read, in the row groups whose
// statistics show every row has a value; each row then has the fields
// it had when every column was read, and the accumulators are the same.
func TestParquetCountedColumns(t *testing.T) {
	rows := countedRows()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[countedRow](&buf, parquet.MaxRowsPerRowGroup(100), parquet.Compression(&parquet.Zstd))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	counted, err := ingest.CountedColumns(buf.Bytes(), true)
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"remote_addr", "method", "connection", "prompt_tokens"}
	want := [][]string{all, {"connection", "prompt_tokens"}, {"remote_addr", "method", "prompt_tokens"}, all}
	if !reflect.DeepEqual(counted, want) {
		t.Fatalf("counted columns %q, want %q", counted, want)
	}
	path := filepath.Join(t.TempDir(), "counted.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var present [ingest.NumFields]int64
	for _, w := range rows {
		for f := range ingest.NumFields {
			if presence(w)&(1<<f) != 0 {
				present[f]++
			}
		}
	}
	m, err := sketch.NewMapping(sketch.DefaultAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	var accs [][]byte
	for _, off := range []bool{false, true} {
		ingest.CountedOff(off)
		for _, workers := range []int{1, 2} {
			opts := ingest.Options{Workers: workers, MaxProblems: 10}
			sinks, res, err := ingest.Run([]string{path}, opts, func() *fieldsSink { return &fieldsSink{} })
			if err != nil || res.Records() != int64(len(rows)) {
				t.Fatalf("off %v, %d workers: %d records, %v", off, workers, res.Records(), err)
			}
			var got []fieldsRow
			for _, s := range sinks {
				got = append(got, s.rows...)
			}
			sort.Slice(got, func(i, j int) bool { return got[i].timeNS < got[j].timeNS })
			for i, g := range got {
				w := rows[i]
				if g.fields != presence(w) || g.timeNS != w.Time*1e6 || g.client != w.App ||
					!g.hasStat || g.status != int64(w.Status) || !g.hasRT || g.rt != w.RequestTime {
					t.Fatalf("off %v, %d workers, row %d: %+v, want fields %b of %+v", off, workers, i, g, presence(w), w)
				}
			}
			// The accumulator's records come a batch at a time (setRows).
			as, _, err := ingest.Run([]string{path}, opts, func() *aggregate.Accumulator {
				return aggregate.New(aggregate.Options{Mapping: m, Top: 100})
			})
			if err != nil {
				t.Fatal(err)
			}
			acc := aggregate.MergeAll(as)
			if *acc.Present() != present {
				t.Fatalf("off %v, %d workers: fields present %v, want %v", off, workers, *acc.Present(), present)
			}
			accs = append(accs, acc.AppendBinary(nil))
		}
	}
	ingest.CountedOff(false)
	for i := range accs {
		if !bytes.Equal(accs[i], accs[0]) {
			t.Errorf("accumulator %d differs from the first", i)
		}
	}
}

// TestUnreadFieldsUnread: no package that consumes records reads the
// value of a field in ingest.UnreadFields, which a Parquet reader may
// set without one. A use of one of them is a use of its value, unless
// it is this list's own.
func TestUnreadFieldsUnread(t *testing.T) {
	names := map[ingest.Field]string{ingest.FMethod: "FMethod", ingest.FConnection: "FConnection",
		ingest.FPromptTokens: "FPromptTokens", ingest.FRemoteAddr: "FRemoteAddr"}
	var listed []ingest.Field
	for f := range ingest.NumFields {
		if ingest.UnreadFields&(1<<f) != 0 {
			listed = append(listed, f)
		}
	}
	if len(listed) != 3 || !slices.Contains(listed, ingest.FMethod) || !slices.Contains(listed, ingest.FConnection) ||
		!slices.Contains(listed, ingest.FPromptTokens) {
		t.Fatalf("unread fields %v: this test names FMethod, FConnection and FPromptTokens", listed)
	}
	for _, dir := range []string{"../aggregate", "../rules", "../report", "../analysis", "../state", "../cmd/loganalyze"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %d files, %v", dir, len(files), err)
		}
		for _, path := range files {
			if filepath.Ext(path) != ".go" || len(path) > 8 && path[len(path)-8:] == "_test.go" {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range names {
				if bytes.Contains(src, []byte("ingest."+name+")")) || bytes.Contains(src, []byte("ingest."+name+",")) ||
					bytes.Contains(src, []byte("ingest."+name+"]")) || bytes.Contains(src, []byte("ingest."+name+" ")) {
					t.Errorf("%s reads ingest.%s, whose value a Parquet reader may leave unset (ingest.unreadFields)", path, name)
				}
			}
		}
	}
}
