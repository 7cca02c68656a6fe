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

// TestCSVSingleQuotes: CLS's shipping to COS as CSV encloses a field that
// holds the separator in the quote its configuration names, a double or a
// single one (CsvInfo.EscapeChar). A file quoted with single quotes, its header written or
// given, is read as the fixture was written: every row, a user agent
// with a comma among the columns, a quote within a quoted field doubled
// or not, one within an unquoted field text. A file quoted with '"' whose
// fields hold apostrophes is read with '"' still.
func TestCSVSingleQuotes(t *testing.T) {
	path := filepath.Join("testdata", "text", "cls-cos-squote.csv")
	// The fixture's rows, read by hand.
	want := []struct {
		ms            int64
		client, model string
		status        int64
		rt            float64
	}{
		{1796277615426, "app-005", "deepseek-v3", 200, 1.054},
		{1796277628945, "app-017", "hunyuan-turbos-latest", 200, 12.469},
		{1796277635283, "app-006", "qwen2.5-7b-instruct", 429, 0.002},
		{1796277648311, "app-010", "hunyuan-t1-latest", 200, 7.089},
		{1796277659278, "app-018", "deepseek-r1", 504, 60.003},
		{1796277661208, "app-017", "llama-3.1-70b-instruct,fp8", 499, 5.643},
		{1796277662305, "app-005", "deepseek-v3", 500, 2.377},
	}
	check := func(name string, got []row, res *ingest.Result) {
		t.Helper()
		if len(got) != len(want) || res.BadLines() != 0 {
			t.Fatalf("%s: %d records, %d bad lines %v; want %d, 0", name, len(got), res.BadLines(), res.Problems, len(want))
		}
		for i, w := range want {
			g := got[i]
			if g.timeNS != w.ms*1e6 || g.client != w.client || g.model != w.model || g.status != w.status || math.Abs(g.rt-w.rt) > 1e-9 {
				t.Errorf("%s: record %d: time %d, client %q, model %q, status %d, request_time %v; want %d, %q, %q, %d, %v",
					name, i, g.timeNS, g.client, g.model, g.status, g.rt, w.ms*1e6, w.client, w.model, w.status, w.rt)
			}
		}
	}
	opts := ingest.Options{Workers: 1, Location: time.UTC}
	got, res := collect(t, []string{path}, opts)
	check("with its header", got, res)

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header, body, _ := strings.Cut(string(b), "\n")
	headerless := opts
	headerless.CSVHeader = header
	got, res = collect(t, []string{writeTemp(t, "cos.csv", body)}, headerless)
	check("its header given", got, res)

	// The same rows quoted with '"', apostrophes in their fields: read
	// the same.
	double := header + "\n" +
		"1796277615426,app-005,\"Mozilla/5.0 (KHTML, like Gecko)\",deepseek-v3,200,1.054\n" +
		"1796277628945,app-017,tencentcloud-sdk-go/1.0.1012,hunyuan-turbos-latest,200,12.469\n" +
		"1796277635283,app-006,\"Bob's agent/2.0 (linux, x86_64)\",qwen2.5-7b-instruct,429,0.002\n" +
		"1796277648311,app-010,\"Bob's agent/2.0 (linux, x86_64)\",hunyuan-t1-latest,200,7.089\n" +
		"1796277659278,app-018,O'Reilly-client/1.0,deepseek-r1,504,60.003\n" +
		"1796277661208,app-017,'curl/8.4.0',\"llama-3.1-70b-instruct,fp8\",499,5.643\n" +
		"1796277662305,app-005,\"OpenAI/Python 1.54.3 (async, retry)\",deepseek-v3,500,2.377\n"
	got, res = collect(t, []string{writeTemp(t, "double.csv", double)}, opts)
	check("quoted with '\"'", got, res)
}
