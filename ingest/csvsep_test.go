package ingest_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// TestCSVSeparators reads one table with its fields cut by ',', '|' and
// ';' (CLS's shipping to COS offers '|' and ';'; Excel writes ';' in much
// of Europe), its values quoted where they hold the separator: the same
// records each time. A text log of '|'-cut values, which has no header
// of names, is not taken for one.
func TestCSVSeparators(t *testing.T) {
	rows := [][]string{{"__TIMESTAMP__", "request_time", "status", "model", "app_id"}}
	for i := range 30 {
		rows = append(rows, []string{fmt.Sprint(1764468000000 + i*1000), fmt.Sprintf("%.3f", 0.1+float64(i)/10),
			[]string{"200", "429", "502"}[i%3], "m,1|x;y", fmt.Sprintf("app-%d", i%4)})
	}
	dir := t.TempDir()
	write := func(name string, sep string) string {
		var b strings.Builder
		for _, r := range rows {
			for i, v := range r {
				if i > 0 {
					b.WriteString(sep)
				}
				if strings.ContainsAny(v, ",|;") {
					v = `"` + v + `"`
				}
				b.WriteString(v)
			}
			b.WriteString("\n")
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	opts := ingest.Options{Workers: 1, Location: time.UTC}
	want, wres := collect(t, []string{write("comma.csv", ",")}, opts)
	if len(want) != len(rows)-1 || wres.BadLines() != 0 || want[0].model != "m,1|x;y" {
		t.Fatalf("comma: %d records, %v", len(want), wres.Problems)
	}
	// A tab-separated file named .csv (DuckDB's DELIMITER '\t') too.
	for _, c := range []struct{ name, sep string }{{"bar.csv", "|"}, {"semicolon.txt", ";"}, {"bar.log", "|"}, {"tabs.csv", "\t"}} {
		got, res := collect(t, []string{write(c.name, c.sep)}, opts)
		if res.BadLines() != 0 || res.Files[0].Format != ingest.CSV || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
			t.Errorf("%s: format %s, %d records, %v; want the comma file's", c.name, res.Files[0].Format, len(got), res.Problems)
		}
	}

	// A text log cut by '|': values, not names, on its first line.
	var b strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b, "10.0.0.%d|30/Nov/2026:02:00:0%d +0000|POST /v1/chat/completions HTTP/1.1|200|0.%d23\n", i, i, i)
	}
	path := filepath.Join(dir, "bar-text.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC,
		LogFormats: []string{"$remote_addr|$time_local|$request|$status|$request_time"}})
	if len(got) != 10 || res.Files[0].Format != ingest.Nginx || got[3].rt != 0.323 {
		t.Errorf("the '|' text log: format %s, %d records, %v", res.Files[0].Format, len(got), res.Problems)
	}
}

// TestCSVDecimalComma: Excel where a decimal comma is the locale's (much
// of Europe) writes ';' between fields and "3,05" for 3.05: a ';' file's
// numbers are read so, quoted or not; its text is kept as written.
func TestCSVDecimalComma(t *testing.T) {
	path := writeTemp(t, "excel.csv", "time;model;status;request_time;first_token_ms\r\n"+
		"2026-11-29 02:00:00+00:00;gpt-4o;502;3,05;\r\n"+
		"2026-11-29 02:00:23+00:00;a,b;200;0,837;\"234,5\"\r\n"+
		"2026-11-29 02:01:00+00:00;m;200;12;-1,5\r\n")
	got, res := collect(t, []string{path}, ingest.Options{Workers: 1, Location: time.UTC})
	if len(got) != 3 || res.BadLines() != 0 {
		t.Fatalf("%d records, %d bad lines %v; want 3, 0", len(got), res.BadLines(), res.Problems)
	}
	for i, w := range []struct {
		rt    float64
		model string
		ttft  float64
	}{{3.05, "gpt-4o", math.NaN()}, {0.837, "a,b", 234.5}, {12, "m", math.NaN()}} {
		g := got[i]
		if math.Abs(g.rt-w.rt) > 1e-12 || g.model != w.model || math.IsNaN(g.ttft) != math.IsNaN(w.ttft) || !math.IsNaN(w.ttft) && g.ttft != w.ttft {
			t.Errorf("record %d: request_time %v, model %q, ttft %v; want %v, %q, %v", i, g.rt, g.model, g.ttft, w.rt, w.model, w.ttft)
		}
	}
}
