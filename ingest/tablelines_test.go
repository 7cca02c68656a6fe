package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// platformLine is one request of a log platform's export fixture: the
// values its line is written from, which the records must carry.
type platformLine struct {
	at     time.Time // the line's own time (Better Stack), or the envelope's (Mezmo)
	status int64
	rt     float64 // s
}

// platformLines are n requests a second apart, of varied statuses and
// request times.
func platformLines(n int) []platformLine {
	statuses := []int64{200, 200, 429, 200, 502, 200, 504}
	var out []platformLine
	for i := range n {
		out = append(out, platformLine{
			at:     time.Date(2026, 12, 4, 2, 0, i, 0, time.UTC),
			status: statuses[i%len(statuses)],
			rt:     float64(1+(i*7919)%5000) / 1000,
		})
	}
	return out
}

// nginxText is l as nginx's combined format with $request_time and
// $upstream_response_time after it writes it, in +08:00, as Better
// Stack's raw message holds it (testdata/text/betterstack-sql.jsonl).
func (l platformLine) nginxText() string {
	at := l.at.In(time.FixedZone("", 8*3600)).Format("02/Jan/2006:15:04:05 -0700")
	return fmt.Sprintf(`10.0.1.5 - - [%s] "POST /v1/chat/completions HTTP/1.1" %d 150 "-" "python-httpx/0.27.0" "-" %.3f %.3f`, at, l.status, l.rt, l.rt)
}

// betterStackRaw is Better Stack's raw member of l: the JSON of the log
// whose message is the line (betterstack.go).
func betterStackRaw(t testing.TB, l platformLine) string {
	b, err := json.Marshal(map[string]string{"dt": l.at.Format(time.RFC3339Nano), "message": l.nginxText(), "level": "info"})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mezmoLine is Mezmo's _line of l: a JSON line with no time of its own,
// which takes the envelope's _ts.
func (l platformLine) mezmoLine() string {
	return fmt.Sprintf(`{"status":%d,"request_time":%.3f,"uri":"/v1/chat/completions"}`, l.status, l.rt)
}

// betterStackParquet is lines as DuckDB's COPY of Better Stack's SQL API
// rows ({"dt":"2026-12-04 02:00:04.000000","raw":"{…}"}) writes them: dt
// a TIMESTAMP not adjusted to UTC (Better Stack's dt is UTC without a
// zone), raw a string.
func betterStackParquet(t testing.TB, lines []platformLine) []byte {
	schema := parquet.NewSchema("betterstack", parquet.Group{
		"dt":  parquet.TimestampAdjusted(parquet.Microsecond, false),
		"raw": parquet.String(),
	})
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[any](&buf, schema, parquet.MaxRowsPerRowGroup(16))
	var rows []parquet.Row
	for _, l := range lines {
		rows = append(rows, parquet.Row{ // columns by name: dt, raw
			parquet.Int64Value(l.at.UnixMicro()).Level(0, 0, 0),
			parquet.ByteArrayValue([]byte(betterStackRaw(t, l))).Level(0, 0, 1),
		})
	}
	if n, err := w.WriteRows(rows); err != nil || n != len(rows) {
		t.Fatalf("wrote %d rows: %v", n, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// mezmoRow is a line of Mezmo's Export API v1 as a Parquet row.
type mezmoRow struct {
	App  string `parquet:"_app"`
	Host string `parquet:"_host"`
	TS   int64  `parquet:"_ts"`
	Line string `parquet:"_line"`
}

func mezmoParquet(t testing.TB, lines []platformLine) []byte {
	var rows []mezmoRow
	for _, l := range lines {
		rows = append(rows, mezmoRow{App: "gateway", Host: "gw-1", TS: l.at.UnixMilli(), Line: l.mezmoLine()})
	}
	var buf bytes.Buffer
	if err := writeRows(&buf, rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// lokiParquet is lines as DuckDB's COPY of logcli's --output=jsonl
// --no-labels lines ({"line":"LINE","timestamp":"…Z"}) writes them:
// timestamp a TIMESTAMP not adjusted to UTC, each line a JSON line
// without a time of its own, which takes the envelope's.
func lokiParquet(t testing.TB, lines []platformLine) []byte {
	schema := parquet.NewSchema("loki", parquet.Group{
		"line":      parquet.String(),
		"timestamp": parquet.TimestampAdjusted(parquet.Microsecond, false),
	})
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[any](&buf, schema)
	var rows []parquet.Row
	for _, l := range lines {
		rows = append(rows, parquet.Row{ // columns by name: line, timestamp
			parquet.ByteArrayValue([]byte(l.mezmoLine())).Level(0, 0, 0),
			parquet.Int64Value(l.at.UnixMicro()).Level(0, 0, 1),
		})
	}
	if n, err := w.WriteRows(rows); err != nil || n != len(rows) {
		t.Fatalf("wrote %d rows: %v", n, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// betterStackArrow is betterStackParquet's table as an Arrow IPC file
// or stream: dt a timestamp without a zone, in two record batches.
func betterStackArrow(t testing.TB, lines []platformLine, stream bool) []byte {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "dt", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
		{Name: "raw", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, l := range lines {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(l.at.UnixMicro()))
		b.Field(1).(*array.StringBuilder).Append(betterStackRaw(t, l))
	}
	rec := b.NewRecord()
	defer rec.Release()
	half := rec.NumRows() / 2
	path := writeArrowCuts(t, mem, rec, stream, "betterstack.arrow", [][2]int64{{0, half}, {half, rec.NumRows()}})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTableOfEnvelopeLines: a Parquet or Arrow table whose columns are
// a log platform's envelope (Better Stack's dt and raw, Mezmo's _ts and
// _line, logcli's timestamp and line) is read as that envelope's JSON lines are: each row's line by
// its own format (nginx's text, a JSON line), a line without a time of
// its own at the envelope's. Before, such a table gave no record.
func TestTableOfEnvelopeLines(t *testing.T) {
	lines := platformLines(40)
	for _, tc := range []struct {
		name, file string
		data       []byte
		env        ingest.Envelope
	}{
		{"betterstack parquet", "betterstack.parquet", betterStackParquet(t, lines), ingest.EnvBetterStack},
		{"mezmo parquet", "mezmo.parquet", mezmoParquet(t, lines), ingest.EnvMezmo},
		{"loki parquet", "loki.parquet", lokiParquet(t, lines), ingest.EnvLoki},
		{"betterstack arrow file", "betterstack.arrow", betterStackArrow(t, lines, false), ingest.EnvBetterStack},
		{"betterstack arrow stream", "betterstack.arrows", betterStackArrow(t, lines, true), ingest.EnvBetterStack},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			// Found, or given as the table's format (--format parquet).
			given := ingest.Parquet
			if filepath.Ext(tc.file) != ".parquet" {
				given = ingest.Arrow
			}
			for _, format := range []ingest.Format{ingest.Auto, given} {
				got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC, Format: format})
				if len(got) != len(lines) || res.BadLines() != 0 {
					t.Fatalf("--format %s: %d records, %d bad rows (%v); want %d, 0", format, len(got), res.BadLines(), res.Problems, len(lines))
				}
				if f := res.Files[0]; f.Envelope != tc.env || f.Incomplete {
					t.Errorf("--format %s: envelope %q, incomplete %v (%s); want %q", format, f.Envelope, f.Incomplete, f.Reason, tc.env)
				}
				for i, l := range lines { // both sorted by time
					g := got[i]
					if !g.hasTime || g.timeNS != l.at.UnixNano() || g.status != l.status || math.Abs(g.rt-l.rt) > 1e-9 {
						t.Errorf("--format %s: row %d: time %v, status %d, request_time %v; want %v, %d, %v",
							format, i, time.Unix(0, g.timeNS).UTC(), g.status, g.rt, l.at, l.status, l.rt)
					}
				}
			}
		})
	}
}

// TestTableOfEnvelopeLinesAsJSONLines: a table's rows give the records
// their JSON lines give (DuckDB's COPY of the one to the other).
func TestTableOfEnvelopeLinesAsJSONLines(t *testing.T) {
	lines := platformLines(30)
	var jl bytes.Buffer
	for _, l := range lines {
		b, err := json.Marshal(map[string]any{"dt": l.at.Format("2006-01-02 15:04:05.000000"), "raw": betterStackRaw(t, l)})
		if err != nil {
			t.Fatal(err)
		}
		jl.Write(append(b, '\n'))
	}
	opts := ingest.Options{Workers: 1, Location: time.UTC}
	want, wres := collect(t, []string{writeTemp(t, "betterstack.jsonl", jl.String())}, opts)
	got, gres := collect(t, []string{writeTemp(t, "betterstack.parquet", string(betterStackParquet(t, lines)))}, opts)
	if len(want) != len(lines) {
		t.Fatalf("the JSON lines gave %d records, want %d", len(want), len(lines))
	}
	if len(got) != len(want) || gres.Files[0].Source != wres.Files[0].Source || gres.Files[0].Format != wres.Files[0].Format {
		t.Fatalf("%d records of %s %q; the JSON lines' %d of %s %q", len(got), gres.Files[0].Format, gres.Files[0].Source, len(want), wres.Files[0].Format, wres.Files[0].Source)
	}
	for i := range want {
		if fmt.Sprintf("%+v", got[i]) != fmt.Sprintf("%+v", want[i]) { // NaN for none, which == does not match
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestTableWithRequestColumns: a table with a message column beside
// request fields of its own is read by its columns, as before.
func TestTableWithRequestColumns(t *testing.T) {
	type shipped struct {
		Timestamp string  `parquet:"@timestamp"`
		Message   string  `parquet:"message"`
		Status    int64   `parquet:"status"`
		RT        float64 `parquet:"request_time"`
	}
	lines := platformLines(20)
	var rows []shipped
	for _, l := range lines {
		rows = append(rows, shipped{Timestamp: l.at.Format(time.RFC3339), Message: "handled", Status: l.status, RT: l.rt})
	}
	var buf bytes.Buffer
	if err := writeRows(&buf, rows); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{writeTemp(t, "shipped.parquet", buf.String())}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != len(lines) || res.Files[0].Envelope != ingest.NoEnvelope || res.Files[0].Format != ingest.Parquet {
		t.Fatalf("%d records, envelope %q, format %s; want %d, none, parquet", len(got), res.Files[0].Envelope, res.Files[0].Format, len(lines))
	}
	for i, l := range lines {
		if got[i].status != l.status || math.Abs(got[i].rt-l.rt) > 1e-9 {
			t.Errorf("row %d: status %d, request_time %v; want %d, %v", i, got[i].status, got[i].rt, l.status, l.rt)
		}
	}
}

// FuzzTableLines reads tables of an envelope's lines, damaged anywhere,
// as found (no format given): no panic, no hang, and a file read in
// part says why.
func FuzzTableLines(f *testing.F) {
	lines := platformLines(24)
	f.Add(betterStackParquet(f, lines))
	f.Add(mezmoParquet(f, lines))
	f.Add(lokiParquet(f, lines))
	f.Add(betterStackArrow(f, lines, false))
	f.Add(betterStackArrow(f, lines, true))
	f.Fuzz(func(t *testing.T, data []byte) {
		res := readBytes(t, data, "")
		if fs := res.Files[0]; fs.Incomplete && fs.Reason == "" {
			t.Fatalf("incomplete without a reason: %+v", fs)
		}
	})
}
