package ingest_test

import (
	"bufio"
	"encoding/json"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"loganalyze/ingest"
)

// sanicRow is a Sanic JSONAccessFormatter record as a table holds it:
// DuckDB's COPY of the JSON lines gives these columns, byte as text
// (its values are numbers and words).
type sanicRow struct {
	Timestamp string `parquet:"timestamp"`
	Level     string `parquet:"level"`
	Message   string `parquet:"message"`
	Host      string `parquet:"host"`
	Request   string `parquet:"request"`
	Status    int64  `parquet:"status"`
	Byte      string `parquet:"byte"`
	Duration  string `parquet:"duration"`
}

// TestParquetTextBelowDash: a text column whose values all sort before
// "-" but are not "" or "-" (Sanic's durations, " 508.4ms", which begin
// with a space) is no absent column. Its statistics were taken to say
// so: the column was dropped, the file's names were then no source's,
// and Sanic's own records (a websocket's close, a disconnect) were
// counted as requests. The Parquet file is read as its JSON lines are:
// as Sanic's, its requests those whose byte is a size or "chunked".
func TestParquetTextBelowDash(t *testing.T) {
	const src = "testdata/sources/sanic.jsonl"
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []sanicRow
	wantStatus := map[int64]int{}
	var wantRT []float64 // seconds, of the requests with a duration
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		r := sanicRow{Timestamp: m["timestamp"].(string), Level: m["level"].(string), Message: m["message"].(string),
			Host: m["host"].(string), Request: m["request"].(string), Status: int64(m["status"].(float64)), Duration: m["duration"].(string)}
		switch b := m["byte"].(type) {
		case float64:
			r.Byte = strconv.FormatFloat(b, 'f', -1, 64)
		case string:
			r.Byte = b
		}
		rows = append(rows, r)
		// Sanic's requests: a byte count or "chunked" (its access
		// formatter's own events write a word there).
		if _, err := strconv.Atoi(r.Byte); err != nil && r.Byte != "chunked" {
			continue
		}
		wantStatus[r.Status]++
		if d := strings.TrimSpace(r.Duration); d != "" {
			ms, err := strconv.ParseFloat(strings.TrimSuffix(d, "ms"), 64)
			if err != nil {
				t.Fatal(err)
			}
			wantRT = append(wantRT, ms/1000)
		}
	}
	if len(wantStatus) == 0 || len(rows) == len(wantRT) {
		t.Fatalf("the sample holds no request, or no own record: %v", wantStatus)
	}
	path := writeParquetRows(t, "sanic.parquet", rows)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, MaxProblems: 10})
	if fr := res.Files[0]; fr.Source != "sanic" || fr.BadLines != 0 || fr.PassedOver != int64(len(rows)-len(got)) {
		t.Fatalf("%+v", fr)
	}
	gotStatus := map[int64]int{}
	var gotRT []float64
	for _, r := range got {
		gotStatus[r.status]++
		if !math.IsNaN(r.rt) {
			gotRT = append(gotRT, r.rt)
		}
	}
	if !maps.Equal(gotStatus, wantStatus) {
		t.Errorf("statuses %v, want %v", gotStatus, wantStatus)
	}
	slices.Sort(gotRT)
	slices.Sort(wantRT)
	if len(gotRT) != len(wantRT) {
		t.Fatalf("request times %v, want %v", gotRT, wantRT)
	}
	for i := range gotRT {
		if math.Abs(gotRT[i]-wantRT[i]) > 1e-9 {
			t.Errorf("request times %v, want %v", gotRT, wantRT)
			break
		}
	}
}

// TestParquetTimeOfDay: a TIME column (a time of day without a date:
// DuckDB's COPY of Fiber's JSON logger, whose ${time} is "15:04:05") is
// no instant, as its text in JSON lines is none (unreadClocks): its
// records are read without a time, the report saying why, not made bad
// rows one and all (its µs since midnight were read as an epoch in 1971).
func TestParquetTimeOfDay(t *testing.T) {
	type fiberRow struct {
		Time   int64  `parquet:"time,time(microsecond)"`
		IP     string `parquet:"ip"`
		Method string `parquet:"method"`
		URL    string `parquet:"url"`
		Status int64  `parquet:"status"`
		Bytes  int64  `parquet:"bytesSent"`
	}
	clock := func(h, m, s int) int64 { return int64(((h*60+m)*60 + s) * 1e6) }
	rows := []fiberRow{
		{clock(10, 0, 6), "10.0.0.1", "POST", "/v1/chat/completions", 200, 512},
		{clock(10, 0, 36), "10.0.0.2", "POST", "/v1/chat/completions", 429, 20},
		{clock(10, 1, 40), "10.0.0.1", "GET", "/v1/models", 404, 9},
	}
	path := writeParquetRows(t, "fiber.parquet", rows)
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, MaxProblems: 10})
	fr := res.Files[0]
	if fr.BadLines != 0 || len(got) != len(rows) || !slices.Equal(fr.Clocks, []string{"time"}) {
		t.Fatalf("%d records of %d, %+v, %v", len(got), len(rows), fr, res.Problems)
	}
	want := map[int64]int{}
	for _, r := range rows {
		want[r.Status]++
	}
	gotStatus := map[int64]int{}
	for _, r := range got {
		gotStatus[r.status]++
		if r.hasTime {
			t.Errorf("a record with a time: %+v", r)
		}
	}
	if !maps.Equal(gotStatus, want) {
		t.Errorf("statuses %v, want %v", gotStatus, want)
	}
}
