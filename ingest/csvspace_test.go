package ingest_test

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loganalyze/ingest"
)

// clsSpaceRows returns the header and rows of the fixture CLS's shipping
// to COS wrote with a space for its separator, decoded by encoding/csv:
// a field holding a space quoted, two spaces around an empty field.
func clsSpaceRows(t *testing.T) (text string, rows [][]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "text", "cls-cos-space.csv"))
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(strings.NewReader(string(b)))
	r.Comma = ' '
	rows, err = r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return string(b), rows
}

// checkSpaceRecords compares the records read with the rows decoded:
// the time (__TIMESTAMP__, ms), client (app_id), path of the request
// line, model, stream, status, request_time, and first_token_ms (ms),
// absent where the row holds "-" or nothing.
func checkSpaceRecords(t *testing.T, name string, rows [][]string, got []row, res *ingest.Result) {
	t.Helper()
	if len(got) != len(rows)-1 || res.BadLines() != 0 || res.Files[0].Format != ingest.CSV {
		t.Fatalf("%s: format %s, %d records, %d bad lines %v; want csv, %d, 0", name, res.Files[0].Format, len(got), res.BadLines(), res.Problems, len(rows)-1)
	}
	col := map[string]int{}
	for i, n := range rows[0] {
		col[n] = i
	}
	for i, w := range rows[1:] {
		g := got[i]
		ms, _ := strconv.ParseInt(w[col["__TIMESTAMP__"]], 10, 64)
		status, _ := strconv.ParseInt(w[col["status"]], 10, 64)
		rt, _ := strconv.ParseFloat(w[col["request_time"]], 64)
		ttft, err := strconv.ParseFloat(w[col["first_token_ms"]], 64)
		if err != nil {
			ttft = math.NaN() // "-" or empty: absent
		}
		uri := strings.Fields(w[col["request"]])[1]
		model := w[col["model"]]
		if g.timeNS != ms*1e6 || g.client != w[col["app_id"]] || g.uri != uri || g.model != model || g.hasModel != (model != "") ||
			g.stream != (w[col["stream"]] == "true") || g.status != status || math.Abs(g.rt-rt) > 1e-9 ||
			math.IsNaN(g.ttft) != math.IsNaN(ttft) || !math.IsNaN(ttft) && math.Abs(g.ttft-ttft) > 1e-9 {
			t.Errorf("%s: record %d: %+v; want time %d ms, client %q, uri %q, model %q, stream %s, status %d, request_time %v, ttft %v ms",
				name, i, g, ms, w[col["app_id"]], uri, model, w[col["stream"]], status, rt, ttft)
		}
	}
}

// TestCSVSpaceSeparated: CLS's shipping to COS as CSV with a space for
// its separator (spaceSep) writes its keys on the first line cut by
// single spaces, quotes a field that holds a space, and two spaces
// around a field it fills with nothing. Such a file is read as the rows
// decode, named .csv or by its time alone as COS names it, quoted with
// a double or a single quote, its header written or given with
// --csv-header.
func TestCSVSpaceSeparated(t *testing.T) {
	text, rows := clsSpaceRows(t)
	opts := ingest.Options{Workers: 1, Location: time.UTC}
	for _, name := range []string{"cos.csv", "202612031500_000_132612782"} {
		got, res := collect(t, []string{writeTemp(t, name, text)}, opts)
		checkSpaceRecords(t, name, rows, got, res)
	}
	swapped := strings.NewReplacer(`"`, `'`).Replace(text)
	got, res := collect(t, []string{writeTemp(t, "squote.csv", swapped)}, opts)
	checkSpaceRecords(t, "quoted with '", rows, got, res)

	header, body, _ := strings.Cut(text, "\n")
	given := opts
	given.CSVHeader = header
	for _, name := range []string{"cos.csv", "202612031500_000_132612782"} {
		got, res := collect(t, []string{writeTemp(t, name, body)}, given)
		checkSpaceRecords(t, name+", --csv-header", rows, got, res)
	}
}

// TestCSVHeaderlessSpacesTabs: rows of values CLS shipped without its
// keys, cut by spaces or by tabs, a user agent holding "; " twice: read
// without --csv-header from a file named .csv, the first row is the
// header, named by its values as the rows cut them (not by the two
// ';'), which tells the report to offer --csv-header; given the names
// cut as the rows are, they are read, named .csv or not.
func TestCSVHeaderlessSpacesTabs(t *testing.T) {
	_, rows := clsSpaceRows(t)
	opts := ingest.Options{Workers: 1, Location: time.UTC}
	join := func(sep string, quote bool) (header, body string) {
		var b strings.Builder
		for _, r := range rows[1:] {
			for i, v := range r {
				if i > 0 {
					b.WriteString(sep)
				}
				if quote && strings.ContainsAny(v, ` "`) {
					v = `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
				}
				b.WriteString(v)
			}
			b.WriteString("\n")
		}
		return strings.Join(rows[0], sep), b.String()
	}
	for _, c := range []struct {
		name, sep string
		quote     bool
	}{
		{"cos.csv", " ", true},
		{"202612031500_000_132612782", " ", true},
		{"cos-tab.csv", "\t", false},
	} {
		header, body := join(c.sep, c.quote)
		given := opts
		given.CSVHeader = header
		got, res := collect(t, []string{writeTemp(t, c.name, body)}, given)
		checkSpaceRecords(t, c.name+", --csv-header", rows, got, res)
		if !strings.HasSuffix(c.name, ".csv") {
			continue // a text log's lines may be cut by spaces: --log-format reads them
		}
		got, res = collect(t, []string{writeTemp(t, c.name, body)}, opts)
		f := res.Files[0]
		var seen []string
		for _, v := range rows[1] {
			if v != "" {
				seen = append(seen, v)
			}
		}
		if f.Format != ingest.CSV || len(got) != 0 || f.BadLines != int64(len(rows)-2) || strings.Join(f.Seen, "|") != strings.Join(seen, "|") {
			t.Errorf("%s: format %s, %d records, %d bad lines, seen %q; want csv, none, %d, the first row's values %q",
				c.name, f.Format, len(got), f.BadLines, f.Seen, len(rows)-2, seen)
		}
	}
}
