package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"loganalyze/ingest"
)

// unreadRow is one planted record: its values as text, and which of them
// cannot be read.
type unreadRow struct {
	ts                     int64 // ms
	rt, ttft, urt, status  string
	stream                 string
	badTTFT, badStatus     bool
	badURT, badStream      bool
	wantStream, hasStream0 bool // the stream flag read, and whether one is
}

// unreadRows plants, in n records, values that cannot be read (a ttft of
// "n/a", a status "2OO", a stream "maybe", an upstream time past the
// bounds) and values that are no value (a negative ttft, APISIX's
// "traditional_http") or a value in another spelling (PostgreSQL's t and
// f), each on its own rhythm.
func unreadRows(n int) []unreadRow {
	rows := make([]unreadRow, n)
	for i := range rows {
		r := &rows[i]
		r.ts = 1764468000000 + int64(i)*1000
		r.rt = strconv.FormatFloat(0.1+float64(i%50)/100, 'f', 3, 64)
		r.ttft, r.urt, r.status = strconv.Itoa(50+i%30), strconv.FormatFloat(0.05+float64(i%40)/100, 'f', 3, 64), "200"
		r.stream, r.wantStream, r.hasStream0 = "true", true, true
		switch {
		case i%7 == 0:
			r.ttft, r.badTTFT = "n/a", true
		case i%19 == 0:
			r.ttft = "-1" // none
		}
		if i%11 == 0 {
			r.status, r.badStatus = "2OO", true
		}
		if i%17 == 0 {
			r.urt, r.badURT = "1e9", true // past 10⁷ s
		}
		switch {
		case i%13 == 0:
			r.stream, r.badStream, r.hasStream0 = "maybe", true, false
		case i%23 == 0:
			r.stream, r.hasStream0 = "traditional_http", false
		case i%3 == 0:
			r.stream, r.wantStream = "f", false
		case i%3 == 1:
			r.stream = "t"
		}
	}
	return rows
}

// wantUnread counts the planted unreadable values per field, and lists
// the first max rows (from 1) that have one.
func wantUnread(rows []unreadRow, max int) (map[ingest.Field]int64, []int64) {
	want := map[ingest.Field]int64{}
	var lines []int64
	for i, r := range rows {
		for _, c := range []struct {
			bad bool
			f   ingest.Field
		}{{r.badTTFT, ingest.FTTFT}, {r.badStatus, ingest.FStatus}, {r.badURT, ingest.FUpstreamResponseTime}, {r.badStream, ingest.FStream}} {
			if c.bad {
				want[c.f]++
			}
		}
		if (r.badTTFT || r.badStatus || r.badURT || r.badStream) && len(lines) < max {
			lines = append(lines, int64(i+1))
		}
	}
	return want, lines
}

// TestUnreadableValues reads records whose optional values cannot be read,
// as JSON lines, CSV and nginx text: each record is kept, without those
// values; the file counts them per field, and samples the first records
// that hold one, naming the field and the value.
func TestUnreadableValues(t *testing.T) {
	rows := unreadRows(400)
	dir := t.TempDir()
	var jl, csv, text bytes.Buffer
	csv.WriteString("__TIMESTAMP__,request_time,first_token_ms,upstream_response_time,status,stream\n")
	for _, r := range rows {
		b, err := json.Marshal(map[string]string{"__TIMESTAMP__": strconv.FormatInt(r.ts, 10), "request_time": r.rt,
			"first_token_ms": r.ttft, "upstream_response_time": r.urt, "status": r.status, "stream": r.stream})
		if err != nil {
			t.Fatal(err)
		}
		jl.Write(append(b, '\n'))
		fmt.Fprintf(&csv, "%d,%s,%s,%s,%s,%s\n", r.ts, r.rt, r.ttft, r.urt, r.status, r.stream)
		fmt.Fprintf(&text, "%s %s %s %s %s %s\n", time.UnixMilli(r.ts).UTC().Format(time.RFC3339Nano), r.status, r.rt, r.urt, r.ttft, r.stream)
	}
	files := []struct {
		name   string
		data   []byte
		format string
		header int64 // lines before the first record
	}{
		{"u.jsonl", jl.Bytes(), "", 0},
		{"u.csv", csv.Bytes(), "", 1},
		{"u.log", text.Bytes(), "$time_iso8601 $status $request_time $upstream_response_time $first_token_ms $stream", 0},
	}
	const max = 20
	want, wantLines := wantUnread(rows, max)
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, f.name)
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			opts := ingest.Options{Workers: 2, Location: time.UTC, MaxProblems: max}
			if f.format != "" {
				opts.LogFormats = []string{f.format}
			}
			got, res := collect(t, []string{path}, opts)
			checkUnread(t, rows, got, res, want, wantLines, f.header)
		})
	}
}

// checkUnread holds what was read of rows to the planted values.
func checkUnread(t *testing.T, rows []unreadRow, got []row, res *ingest.Result, want map[ingest.Field]int64, wantLines []int64, header int64) {
	t.Helper()
	if len(got) != len(rows) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines; want %d, 0: %v", len(got), res.BadLines(), len(rows), res.Problems)
	}
	for i, g := range got {
		r := rows[i]
		if !math.IsNaN(g.ttft) != (!r.badTTFT && r.ttft != "-1") || g.hasStatus == r.badStatus ||
			g.hasStream != r.hasStream0 || g.hasStream && g.stream != r.wantStream || math.IsNaN(g.urt) != r.badURT {
			t.Fatalf("record %d: ttft %v, status %v, stream %v/%v, upstream %v; from %+v", i, g.ttft, g.hasStatus, g.stream, g.hasStream, g.urt, r)
		}
	}
	if fs := res.Files[0]; fmt.Sprint(fs.UnreadValues) != fmt.Sprint(want) {
		t.Errorf("unreadable values %v, want %v", fs.UnreadValues, want)
	}
	if len(res.ValueProblems) != len(wantLines) {
		t.Fatalf("%d samples, want %d: %v", len(res.ValueProblems), len(wantLines), res.ValueProblems)
	}
	for i, p := range res.ValueProblems {
		r := rows[wantLines[i]-1]
		field, val := "status", r.status // the first of the record's that the reader meets
		for _, c := range []struct {
			bad        bool
			field, val string
		}{{r.badTTFT, "ttft", r.ttft}, {r.badURT, "upstream_response_time", r.urt}, {r.badStatus, "status", r.status}, {r.badStream, "stream", r.stream}} {
			if c.bad && strings.HasPrefix(p.Reason, c.field+":") {
				field, val = c.field, c.val
			}
		}
		if p.Line != header+wantLines[i] || p.Reason != fmt.Sprintf("%s: cannot read %q; the record is kept without it", field, val) {
			t.Errorf("sample %d: %d: %s; want line %d, a reason naming one of %+v", i, p.Line, p.Reason, header+wantLines[i], r)
		}
	}
}

// unreadPQ is a row of typed columns holding values no field takes: a
// status of 200.5, an upstream time past the bounds, a ttft as text.
type unreadPQ struct {
	Time   int64   `parquet:"time,timestamp(millisecond)"`
	RT     float64 `parquet:"request_time"`
	TTFT   string  `parquet:"first_token_ms"`
	URT    float64 `parquet:"upstream_response_time"`
	Status float64 `parquet:"status"`
}

// TestUnreadableValuesParquet is TestUnreadableValues for a Parquet
// file's typed columns.
func TestUnreadableValuesParquet(t *testing.T) {
	var pq []unreadPQ
	want := map[ingest.Field]int64{}
	for i := range 300 {
		r := unreadPQ{Time: 1764468000000 + int64(i)*1000, RT: 0.2, TTFT: "80", URT: 0.1, Status: 200}
		if i%7 == 0 {
			r.TTFT = "n/a"
			want[ingest.FTTFT]++
		}
		if i%11 == 0 {
			r.Status = 200.5
			want[ingest.FStatus]++
		}
		if i%17 == 0 {
			r.URT = 1e9
			want[ingest.FUpstreamResponseTime]++
		}
		pq = append(pq, r)
	}
	path := filepath.Join(t.TempDir(), "u.parquet")
	if err := parquet.WriteFile(path, pq, parquet.MaxRowsPerRowGroup(64)); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
	if len(got) != len(pq) || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines; want %d, 0", len(got), res.BadLines(), len(pq))
	}
	if fs := res.Files[0]; fmt.Sprint(fs.UnreadValues) != fmt.Sprint(want) {
		t.Errorf("unreadable values %v, want %v", fs.UnreadValues, want)
	}
	if len(res.ValueProblems) == 0 || res.ValueProblems[0].Line != 1 {
		t.Fatalf("samples %v, want the first at row 1", res.ValueProblems)
	}
	for i, g := range got {
		if r := pq[i]; math.IsNaN(g.ttft) != (r.TTFT == "n/a") || g.hasStatus != (r.Status == 200) || math.IsNaN(g.urt) != (r.URT == 1e9) {
			t.Fatalf("record %d: ttft %v, status %v, upstream %v; from %+v", i, g.ttft, g.hasStatus, g.urt, r)
		}
	}
}
