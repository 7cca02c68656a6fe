package ingest_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// mezmoLine is a line of Mezmo's (LogDNA's) Export API v1
// (https://docs.mezmo.com/reference/about-the-export-api; logdna/logdna-cli
// reads _ts, _host, _app and _line of it).
type mezmoLine struct {
	Account string `json:"_account"`
	App     string `json:"_app"`
	Host    string `json:"_host"`
	File    string `json:"_file"`
	TS      int64  `json:"_ts"`
	Line    string `json:"_line"`
	LogType string `json:"_logtype"`
	Level   string `json:"level"`
	ID      string `json:"_id"`
}

// TestMezmoExport: Mezmo's export, a JSON line a log line, newest first,
// is read by its _line, nginx lines here; nginx's own line (an error
// its error log writes, as Mezmo's agent ships it beside) is passed
// over, as among the lines alone.
func TestMezmoExport(t *testing.T) {
	const path = "testdata/text/mezmo-export.jsonl"
	lines := fileLines(t, path)
	var want []row
	for _, l := range lines {
		var m mezmoLine
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if at, status, rt, ok := nginxTruth(m.Line); ok {
			want = append(want, row{timeNS: at.UnixNano(), status: status, rt: rt})
		}
	}
	// collect gives the records in time order; the export is newest first.
	slices.SortFunc(want, func(a, b row) int { return cmp.Compare(a.timeNS, b.timeNS) })
	got, res := collect(t, []string{path}, ingest.Options{Workers: 2, Location: time.UTC})
	f := res.Files[0]
	if f.Envelope != ingest.EnvMezmo || f.Format != ingest.Nginx {
		t.Fatalf("read as %q %s, want mezmo nginx", f.Envelope, f.Format)
	}
	if len(got) != len(want) || res.BadLines() != 0 || f.PassedOver != int64(len(lines)-len(want)) {
		t.Fatalf("%d records, %d bad, %d passed over; want %d, 0 and %d: %v", len(got), res.BadLines(), f.PassedOver, len(want), len(lines)-len(want), res.Problems)
	}
	sameRows(t, got, want, false)
}

// mezmoOf returns Mezmo's export line of line, the i-th, at at.
func mezmoOf(line string, at time.Time, i int) mezmoLine {
	return mezmoLine{Account: "a1b2c3", App: "gw", Host: "gw-1", File: "/var/log/gw/access.log", TS: at.UnixMilli(),
		Line: line, LogType: "customapp", Level: "INFO", ID: strings.Repeat("1", 10) + string(rune('0'+i%10))}
}

// TestMezmoLines: the lines of several formats and sources in Mezmo's
// export read as the lines alone do.
func TestMezmoLines(t *testing.T) {
	dir := t.TempDir()
	for _, src := range lineSamples {
		var lines bytes.Buffer
		for i, l := range fileLines(t, src) {
			writeJSONLine(t, &lines, mezmoOf(l, time.Date(2026, 12, 4, 2, 0, i%60, 0, time.UTC), i))
		}
		checkAsLines(t, src, ingest.EnvMezmo, map[string][]byte{filepath.Join(dir, filepath.Base(src)+".jsonl"): lines.Bytes()})
	}
}

// TestMezmoTime: a JSON line of no time of its own takes its export
// line's _ts; one with its own keeps it.
func TestMezmoTime(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 250e6, time.UTC)
	var lines bytes.Buffer
	for i, l := range timedLines {
		writeJSONLine(t, &lines, mezmoOf(l, at, i))
	}
	checkEnvelopeTime(t, lines.Bytes(), ingest.EnvMezmo, at, time.UTC)
}
